package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFirstRunLoadsPrecompiledCode: lspseam built after `make
// precompiled` (as make build, make install and make test build it) says
// it carries its core's machine code, and its first run on an EMPTY
// compilation cache loads that code instead of compiling the module: the
// log's "core module ready" line says precompiled=true (the cache entry
// is still the file lspseam installed, lspseam.LoadedPrecompiledCode),
// and the cache holds the module for the next run.
//
// The other tests of this package run a build without the code (the
// lspseam_noprecompiled tag, testenv.ShimWithCompileHold): they are about
// what happens while the module compiles.
func TestFirstRunLoadsPrecompiledCode(t *testing.T) {
	bin := testenv.Shim(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "carried") {
		if testenv.E2E() {
			t.Fatalf("this lspseam carries no precompiled core (`lspseam version`: %q): `make precompiled` compiles it into cmd/shim/precompiled/ (make test runs it first); run it, then the tests", out)
		}
		t.Skipf("this lspseam carries no precompiled core (`make precompiled` adds it; make test runs it): %q", out)
	}
	f := newMCPFixture(t)
	f.bin = bin
	cache := testenv.ColdCacheDir(t)
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), []string{"LSPSEAM_CACHE_DIR=" + cache},
		"--workspace", f.workspace, "--tools", "fs", "--log-level", "info")
	defer cs.Close()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go"}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello() {}") {
		t.Fatalf("the first call: %v %s", err, resultText(res))
	}
	if !stderr.waitFor(t, "core module ready") {
		t.Fatalf("no \"core module ready\" line:\n%s", stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "core module ready") && !strings.Contains(line, "precompiled=true") {
			t.Errorf("the first run compiled its core instead of loading the carried code: %s", line)
		}
	}
	if len(cacheFiles(t, cache)) == 0 {
		t.Error("the compilation cache is empty after the first call")
	}
}
