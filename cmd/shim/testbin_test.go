package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The binaries the tests run (lspseam and the scripted fake server) and a
// compilation cache holding the core, made once per package run: building
// them per test, and compiling the core into each test's empty cache,
// took most of this package's time (about 2 s of linking and 2 s of
// compiling per test, three times that under -race).
//
// Each test still gets its own copy in its own temporary directory (the
// binaries hard-linked where the file system allows), because tests put files beside
// the binary (scripts, configs, `cache`) and lspseam looks for servers
// relative to its own executable. A test that needs a cold cache names
// its own LSPSEAM_CACHE_DIR.
//
// lspseam is built with the lspseam_compilehold tag, which lets a test
// hold the core's background compilation (compilehold.go); the hook is
// inert unless LSPSEAM_TEST_COMPILE_HOLD is set.

var (
	testBinsOnce sync.Once
	testBinsDir  string
	testBinsErr  error
)

func TestMain(m *testing.M) {
	// Every lspseam mcp a test starts serves in its own process, whose
	// life the test controls; the daemon's tests ask for it by flag.
	os.Setenv("LSPSEAM_DAEMON", "off")
	code := m.Run()
	if testBinsDir != "" {
		os.RemoveAll(testBinsDir)
	}
	os.Exit(code)
}

// sharedTestBins builds the binaries and warms the cache once.
func sharedTestBins() (string, error) {
	testBinsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lspseam-shim-test-")
		if err != nil {
			testBinsErr = err
			return
		}
		testBinsDir = dir
		for _, b := range [][]string{{"-tags", "lspseam_compilehold", "-o", filepath.Join(dir, "lspseam"), "."}, {"-o", filepath.Join(dir, "fakelsp"), "../../internal/fakelsp"}} {
			if out, err := exec.Command("go", append([]string{"build"}, b...)...).CombinedOutput(); err != nil {
				testBinsErr = fmt.Errorf("go build %v: %v\n%s", b, err, out)
				return
			}
		}
		ctx := context.Background()
		c, err := lspseam.NewCore(ctx, lspseam.WithCompilationCacheDir(filepath.Join(dir, "cache")))
		if err != nil {
			testBinsErr = fmt.Errorf("warming the compilation cache: %v", err)
			return
		}
		testBinsErr = c.Close(ctx)
	})
	return testBinsDir, testBinsErr
}

// placeTestBins puts lspseam, fakelsp and a warm `cache` directory into
// dir and returns the paths of the two binaries.
func placeTestBins(t testing.TB, dir string) (bin, fakelsp string) {
	t.Helper()
	src, err := sharedTestBins()
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if filepath.Dir(rel) == "." {
			return linkOrCopy(p, to) // a binary: never written
		}
		return copyFile(p, to) // the cache: a test's process may write it
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "lspseam"), filepath.Join(dir, "fakelsp")
}

func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	return copyFile(from, to)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, fi.Mode().Perm())
}

// stepBudget is how long one step of a test may wait: a quarter of what
// is left of the test's own deadline (go test -timeout), so a loaded
// machine gets more and a hang still fails before the package's timeout.
func stepBudget(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			return time.Until(dl) / 4
		}
	}
	return 2 * time.Minute
}
