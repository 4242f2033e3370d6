package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// `lspseam mcp` with an EMPTY compilation cache answers initialize and
// tools/list before its core module is compiled: the compilation is held
// (LSPSEAM_TEST_COMPILE_HOLD, a test build's hook: cmd/shim/compilehold.go)
// until the test has both answers, so the order is proven, not raced.
// Its first tools/call is answered while the compilation is still held,
// by the core's bridge (the interpreter); released, the compiled module
// answers, and the cache, empty until then, holds it.
func TestMCPHandshakeBeforeCoreCompiles(t *testing.T) {
	f := newMCPFixture(t)
	cache := testenv.ColdCacheDir(t) // empty: this run compiles the module
	hold := filepath.Join(t.TempDir(), "release-the-compilation")
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_CACHE_DIR=" + cache, "LSPSEAM_TEST_COMPILE_HOLD=" + hold},
		"--workspace", f.workspace, "--tools", "lsp,code,fs", "--log-level", "info")
	defer cs.Close()
	ctx := testContext(t)
	if cs.InitializeResult() == nil || !strings.Contains(cs.InitializeResult().Instructions, "Languages of the workspace") {
		t.Fatalf("initialize: %+v", cs.InitializeResult())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"lsp", "code_navigate", "read", "edit"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	if strings.Contains(stderr.String(), "core module ready") {
		t.Fatalf("the core module was ready before the hold was released:\n%s", stderr.String())
	}
	if entries := cacheFiles(t, cache); len(entries) != 0 {
		t.Fatalf("the compilation cache has %v before the module was compiled", entries)
	}
	// The first call's core calls are small: the bridge answers them
	// while the compilation is still held.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go"}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello() {}") {
		t.Fatalf("the first tools/call, before the compilation: %v %s", err, resultText(res))
	}
	if strings.Contains(stderr.String(), "core module ready") || len(cacheFiles(t, cache)) != 0 {
		t.Fatalf("the core module was compiled before the hold was released:\n%s", stderr.String())
	}
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// Released: the compiled module answers; its log line comes when the
	// compilation ends, which the next call does not wait for.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go", "offset": 3}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello() {}") {
		t.Fatalf("the call after the release: %v %s", err, resultText(res))
	}
	if !stderr.waitFor(t, "core module ready") {
		t.Errorf("no \"core module ready\" line after the first call:\n%s", stderr.String())
	}
	if len(cacheFiles(t, cache)) == 0 {
		t.Error("the compilation cache is still empty after the first call")
	}
}

// With --config the core must validate the user's file before the
// handshake (a bad one is reported in it), so the handshake waits for the
// compilation; from an empty cache the lsp tool's first call still
// answers correctly.
func TestMCPEmptyCacheWithConfig(t *testing.T) {
	f := newMCPFixture(t)
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_CACHE_DIR=" + testenv.ColdCacheDir(t)},
		"--config", f.config, "--workspace", f.workspace, "--log-level", "info")
	defer cs.Close()
	ctx := testContext(t)
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 15}, nil)
	if err != nil || res.IsError || !strings.Contains(resultText(res), "a.go:5:15") {
		t.Fatalf("the first lsp call: %v %s\nstderr:\n%s", err, resultText(res), stderr.String())
	}
}

// testContext ends a little before the test's deadline.
func testContext(t *testing.T) context.Context {
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-5e9))
		t.Cleanup(cancel)
	}
	return ctx
}

// cacheFiles lists the regular files under dir.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}
