package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// The binaries the tests run (lspseam and the scripted fake server) and
// the compilation cache holding the core come from internal/testenv: built
// and compiled once per package run. Building them per test, and
// compiling the core into each test's empty cache, took most of this
// package's time (about 2 s of linking and 2 s of compiling per test,
// three times that under -race).
//
// Each test still gets its own copy of the binaries in its own temporary
// directory (hard-linked where the file system allows), because tests put
// files beside the binary (scripts, configs), lspseam looks for servers
// relative to its own executable, and a test finds its fake servers by
// their path. A test that needs a cold cache names its own
// LSPSEAM_CACHE_DIR (testenv.ColdCacheDir).
//
// lspseam is built with the lspseam_compilehold tag, which lets a test
// hold the core's background compilation (compilehold.go); the hook is
// inert unless LSPSEAM_TEST_COMPILE_HOLD is set.

func TestMain(m *testing.M) {
	// Every lspseam mcp a test starts serves in its own process, whose
	// life the test controls; the daemon's tests ask for it by flag.
	os.Setenv("LSPSEAM_DAEMON", "off")
	testenv.Main(m)
}

var warmCache = sync.OnceValue(func() error {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx, lspseam.WithCompilationCacheDir(testenv.CacheDir()))
	if err != nil {
		return fmt.Errorf("warming the compilation cache: %v", err)
	}
	return c.Close(ctx)
})

// placeTestBins puts lspseam and fakelsp into dir and returns their
// paths; the shared cache (testenv.CacheDir) is warm when it returns.
func placeTestBins(t testing.TB, dir string) (bin, fakelsp string) {
	t.Helper()
	shim, fake := testenv.ShimWithCompileHold(t), testenv.FakeLSP(t)
	if err := warmCache(); err != nil {
		t.Fatal(err)
	}
	bin, fakelsp = filepath.Join(dir, filepath.Base(shim)), filepath.Join(dir, filepath.Base(fake))
	for from, to := range map[string]string{shim: bin, fake: fakelsp} {
		if err := linkOrCopy(from, to); err != nil {
			t.Fatal(err)
		}
	}
	return bin, fakelsp
}

func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}
