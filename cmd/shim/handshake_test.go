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

// With --config the handshake does not wait for the module either: the
// user's file is validated by the native core before the module has
// started (bindings/go/nativestart.go), so initialize — whose
// instructions would carry a bad file's problems — and tools/list are
// answered while the compilation is held. Released, the lsp tool's first
// call answers correctly from an empty cache.
func TestMCPEmptyCacheWithConfig(t *testing.T) {
	f := newMCPFixture(t)
	cache := testenv.ColdCacheDir(t)
	hold := filepath.Join(t.TempDir(), "release-the-compilation")
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_CACHE_DIR=" + cache, "LSPSEAM_TEST_COMPILE_HOLD=" + hold},
		"--config", f.config, "--workspace", f.workspace, "--log-level", "info")
	defer cs.Close()
	ctx := testContext(t)
	if cs.InitializeResult() == nil || !strings.Contains(cs.InitializeResult().Instructions, "Languages of the workspace") {
		t.Fatalf("initialize: %+v", cs.InitializeResult())
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "core module ready") || len(cacheFiles(t, cache)) != 0 {
		t.Fatalf("the core module was compiled before the hold was released:\n%s", stderr.String())
	}
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 15}, nil)
	if err != nil || res.IsError || !strings.Contains(resultText(res), "a.go:5:15") {
		t.Fatalf("the first lsp call: %v %s\nstderr:\n%s", err, resultText(res), stderr.String())
	}
}

// From a warm cache (or the cache a binary's carried code was just
// written into) no bridge is prepared, so every call that needs the
// module waits for it to load; validating the --config did too, and with
// it the handshake. With the load held, a good config's initialize and
// tools/list are answered and a bad one's problem is in the handshake's
// instructions: the file was validated without the module.
func TestMCPConfigBeforeCoreLoads(t *testing.T) {
	f := newMCPFixture(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	writeFile(t, bad, "servers:\n  fake:\n    comand: fakelsp\n")
	for _, c := range []struct {
		name, config, says string
	}{
		{"good", f.config, "Languages of the workspace"},
		{"bad", bad, `LSP_CONFIG_INVALID`},
	} {
		t.Run(c.name, func(t *testing.T) {
			hold := filepath.Join(t.TempDir(), "never-released")
			cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_TEST_COMPILE_HOLD=" + hold},
				"--config", c.config, "--workspace", f.workspace, "--log-level", "info")
			defer cs.Close()
			if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, c.says) {
				t.Fatalf("instructions %q\nstderr:\n%s", ins, stderr.String())
			}
			if _, err := cs.ListTools(testContext(t), nil); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(stderr.String(), "core module ready") {
				t.Fatalf("the core module was ready while its load was held:\n%s", stderr.String())
			}
		})
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
