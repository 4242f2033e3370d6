package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEmbeddedModuleIsFresh rebuilds the core module from the current
// sources with the Makefile's flags and compares it with the committed
// bindings/go/core.wasm. A Go user who fetches the module gets the embedded
// bytes, so they must be exactly what core/ and cmd/wasm build today.
func TestEmbeddedModuleIsFresh(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	flags := makefileWasmFlags(t, filepath.Join(root, "Makefile"))
	out := filepath.Join(t.TempDir(), "core.wasm")
	args := append([]string{"build"}, flags...)
	args = append(args, "-o", out, "./cmd/wasm")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the module: %v\n%s", err, msg)
	}
	built, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(root, "bindings", "go", "core.wasm"))
	if err != nil {
		t.Fatalf("%v: run `make wasm` and commit bindings/go/core.wasm", err)
	}
	if !bytes.Equal(built, committed) {
		t.Fatalf("bindings/go/core.wasm is stale: it is not what the current core/ and cmd/wasm build "+
			"(committed sha256 %x, built %x with %s).\n"+
			"Run `make wasm` and commit bindings/go/core.wasm together with the source change. "+
			"If you did, check that your Go release matches the one in docs/contributing.md (the build is reproducible only within one release).",
			sha256.Sum256(committed), sha256.Sum256(built), runtime.Version())
	}
}

// makefileWasmFlags reads WASMFLAGS from the Makefile, the single place the
// module's build flags are written down.
func makefileWasmFlags(t *testing.T, makefile string) []string {
	data, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "WASMFLAGS :="); ok {
			return strings.Fields(v)
		}
	}
	t.Fatal(fmt.Errorf("no WASMFLAGS := line in %s", makefile))
	return nil
}

// TestModuleLeavesOutHostHelpers: the core's host-side scanners
// (core/scanpatterns.go) compile their regular expressions on first use,
// so the module, which never calls them, links no regexp engine. A
// package-level regexp.MustCompile in core/ put 400 KB into core.wasm and
// compiled its patterns at every start of the module.
func TestModuleLeavesOutHostHelpers(t *testing.T) {
	committed, err := os.ReadFile(filepath.Join("..", "..", "bindings", "go", "core.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"regexp.MustCompile", "regexp.(*Regexp)"} {
		if bytes.Contains(committed, []byte(name)) {
			t.Errorf("core.wasm links %s: a regexp compiled at package level in core/ (or a function the module exports that uses one); compile it on first use, as core/scanpatterns.go does", name)
		}
	}
}
