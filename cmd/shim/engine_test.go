package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// `lspseam mcp` as users run it (LSPSEAM_CORE unset: the native core)
// answers every kind of call without compiling or loading the module:
// the module's compilation is held for the whole test (a module engine
// would answer the small calls through its bridge and wait forever on
// the large one), its compilation cache, empty at the start, stays
// empty, and no "core module ready" line is logged. The suites otherwise
// run the checked engine (testenv), which compares each answer with the
// module's.
func TestMCPNativeCoreCompilesNothing(t *testing.T) {
	f := newMCPFixture(t)
	cache := testenv.ColdCacheDir(t)
	hold := filepath.Join(t.TempDir(), "never-released")
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_CACHE_DIR=" + cache, "LSPSEAM_TEST_COMPILE_HOLD=" + hold, "LSPSEAM_CORE="},
		"--config", f.config, "--workspace", f.workspace, "--tools", "lsp,code,fs", "--log-level", "info")
	defer cs.Close()
	ctx := testContext(t)
	// a.go: "func use() { Hello() }" on line 5; the fake server echoes
	// the position it was asked about.
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 14}, nil)
	if err != nil || resultText(res) != "`Hello` at line 5, column 14:\na.go:5:14" {
		t.Fatalf("lsp: %v %s", err, resultText(res))
	}
	large := strings.Repeat("// a line of a large file\n", 1000) // 26 KB of arguments: past the bridge
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file_path": "large.txt", "content": large}})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %s", err, resultText(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go"}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello() {}") {
		t.Fatalf("read: %v %s", err, resultText(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "lsp", Arguments: map[string]any{"operation": "hover", "file_path": "a.go", "line": 0, "character": 1}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "line must be a positive integer") {
		t.Fatalf("a bad position, answered by the core: %v %s", err, resultText(res))
	}
	if strings.Contains(stderr.String(), "core module ready") {
		t.Errorf("the native core loaded the module:\n%s", stderr.String())
	}
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Errorf("the native core wrote the compilation cache: %v", files)
	}
}
