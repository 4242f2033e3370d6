// Package testenv is the one test environment of the repository's test
// processes: the binaries they run, the core compilation cache they
// share, how long a step may wait, and the gate of the end-to-end tests
// on real language servers.
//
//   - Binaries: Shim (lspseam, built from cmd/shim) and FakeLSP
//     (internal/fakelsp) are built once per test process, the first time
//     a test asks, into a directory Main removes at the end. A build with
//     other flags (ShimWithCompileHold, ShimWithToolsDir) is also made
//     once per process per distinct flag set.
//   - Cache: Main points LSPSEAM_CACHE_DIR at one directory for the whole
//     process, so the core is compiled once (seconds, tens of seconds
//     under -race) and every later Core and every lspseam the tests start
//     loads it (a fraction of a second). Only a test about compiling from
//     an empty cache uses ColdCacheDir, which says so where it is called.
//   - Deadlines: StepBudget is a share of what is left of the test's own
//     deadline (go test -timeout), never a fixed number of seconds, so a
//     loaded machine gets more time and a hang still fails before the
//     package's timeout. Tests assert what happened, not how fast:
//     benchmarks measure speed.
//   - Gate: the tests that run real language servers call RequireE2E (or
//     RequireServers) first. Without LSPSEAM_E2E=1 they skip, saying how
//     to run them, so plain `go test ./...` fits Go's default 10-minute
//     timeout; the Makefile sets it for every target (make test, and so
//     CI), and then a missing server fails the test rather than skipping
//     it. Benchmarks are not gated (-bench names them).
//
// The package imports no lspseam package, so every package's tests may
// use it, the root package's internal tests included. It is test support
// only: nothing the product builds imports it.
package testenv

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// E2EVar is the environment variable that turns on the end-to-end tests on
// real language servers; `make test` sets it to 1.
const E2EVar = "LSPSEAM_E2E"

var (
	rootOnce sync.Once
	root     string // this process's directory: binaries and cache
	rootErr  error

	mainRan bool

	buildsMu sync.Mutex
	builds   = map[string]*build{}
)

type build struct {
	once sync.Once
	path string
	err  error
}

// Main runs the tests of a package in this environment and exits with
// their status: call it from TestMain, after any setup of the package's
// own (use Run when there is work to do after the tests). It sets
// LSPSEAM_CACHE_DIR to the process's shared compilation cache.
func Main(m *testing.M, setup ...func() error) {
	os.Exit(Run(m, setup...))
}

// Run is Main without the exit: it runs setup (after the environment is
// ready: binaries may be built there), then the tests, removes the
// process's binaries and cache afterwards, and returns m.Run's status (1,
// with the error on stderr, when a setup function fails).
// A test binary a test re-runs as a child process (a crash test, a
// helper) shares its parent's cache, which the parent passes down in
// $LSPSEAM_TESTENV_CACHE, and keeps the LSPSEAM_CACHE_DIR the parent gave
// it (a test of the cache directory names its own).
func Run(m *testing.M, setup ...func() error) int {
	mainRan = true
	dir, err := processDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if os.Getenv(parentCacheVar) == "" {
		cache := CacheDir()
		if err := os.MkdirAll(cache, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "testenv:", err)
			return 1
		}
		os.Setenv(parentCacheVar, cache)
		os.Setenv("LSPSEAM_CACHE_DIR", cache)
	}
	checkedCore()
	for _, f := range setup {
		if err := f(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}

// PrivateStateDir is a setup for Run: the write locks and journals of
// the process's tests (and of the test binaries they re-run as children,
// which inherit it: crash tests) go to a directory of the process, removed
// with it, not to the user's state directory, where another test process
// or a real lspseam would meet them. A child keeps its parent's.
func PrivateStateDir() error {
	if os.Getenv("LSPSEAM_STATE_DIR") != "" {
		return nil
	}
	dir, err := processDir()
	if err != nil {
		return err
	}
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return err
	}
	return os.Setenv("LSPSEAM_STATE_DIR", state)
}

// parentCacheVar passes a test process's shared cache to the test binaries
// it starts.
const parentCacheVar = "LSPSEAM_TESTENV_CACHE"

// SharedCacheVar names a compilation cache for every test process of a
// run, not one per package (the Makefile sets it). The module's machine
// code does not depend on the test binary, so the packages of `go test
// ./...`, and the -race run after them, compile the module once between
// them instead of once each: under -race wazero's compiler is itself
// instrumented, and a compile costs about a minute of CPU. Entries are
// written by rename, so processes that compile at the same time do not
// see each other's half-written files.
const SharedCacheVar = "LSPSEAM_TEST_CACHE"

func processDir() (string, error) {
	rootOnce.Do(func() { root, rootErr = os.MkdirTemp("", "lspseam-testenv-") })
	return root, rootErr
}

// CacheDir is the compilation cache every test of the process shares
// (LSPSEAM_CACHE_DIR once Main has run): the parent's, else
// $LSPSEAM_TEST_CACHE, else one of the process. The first Core compiled
// in it writes the module's machine code; every later one loads it.
func CacheDir() string {
	if dir := os.Getenv(parentCacheVar); dir != "" {
		return dir
	}
	if dir := os.Getenv(SharedCacheVar); dir != "" {
		return dir
	}
	dir, err := processDir()
	if err != nil {
		panic(err)
	}
	return filepath.Join(dir, "cache")
}

// ColdCacheDir is an empty compilation cache for a test that is about
// compiling the module (what is answered before compilation ends, what a
// first run writes). Compiling costs seconds to tens of seconds: every
// other test uses CacheDir.
func ColdCacheDir(t testing.TB) string {
	t.Helper()
	return t.TempDir()
}

// RepoRoot is the repository this package belongs to.
func RepoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testenv: cannot locate the repository")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// ToolsBin is the checkout's .tools/bin, where `make servers` puts the
// pinned language servers.
func ToolsBin() string { return filepath.Join(RepoRoot(), ".tools", "bin") }

// Shim is lspseam built from cmd/shim as `go build ./cmd/shim` builds it,
// once per test process. The binary is shared: a test that needs files
// beside it copies or links it into its own directory.
func Shim(t testing.TB) string { return must(t, BuildShim) }

// ShimWithCompileHold is lspseam built with the lspseam_compilehold tag,
// once per test process: with $LSPSEAM_TEST_COMPILE_HOLD set, its core
// compilation waits for that file (cmd/shim/compilehold.go); without, it
// is Shim without the precompiled core (the lspseam_noprecompiled tag), so
// that an empty cache means a compilation, whatever `make precompiled`
// left in the tree.
func ShimWithCompileHold(t testing.TB) string {
	return must(t, func() (string, error) {
		return goBuild("lspseam", "./cmd/shim", "-tags", "lspseam_compilehold,lspseam_noprecompiled")
	})
}

// ShimWithToolsDir is lspseam built as `make build` builds it, recording
// toolsDir as the .tools/bin of its checkout (main.toolsDir), once per
// test process per toolsDir.
func ShimWithToolsDir(t testing.TB, toolsDir string) string {
	return must(t, func() (string, error) {
		return goBuild("lspseam", "./cmd/shim", "-ldflags=-X main.toolsDir="+toolsDir)
	})
}

// FakeLSP is the scripted fake language server (internal/fakelsp), built
// once per test process.
func FakeLSP(t testing.TB) string { return must(t, BuildFakeLSP) }

// BuildShim is Shim for TestMain's setup (Run's setup functions).
func BuildShim() (string, error) { return goBuild("lspseam", "./cmd/shim") }

// BuildFakeLSP is FakeLSP for TestMain's setup.
func BuildFakeLSP() (string, error) { return goBuild("fakelsp", "./internal/fakelsp") }

func must(t testing.TB, build func() (string, error)) string {
	t.Helper()
	if !mainRan {
		t.Fatal("testenv: the package's TestMain must call testenv.Main or testenv.Run (they remove what the tests built)")
	}
	path, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// goBuild builds pkg (relative to the repository) with flags into the
// process's directory, once per distinct (name, pkg, flags).
func goBuild(name, pkg string, flags ...string) (string, error) {
	dir, err := processDir()
	if err != nil {
		return "", err
	}
	key := name + "\x00" + pkg + "\x00" + strings.Join(flags, "\x00")
	buildsMu.Lock()
	b := builds[key]
	if b == nil {
		b = &build{}
		builds[key] = b
	}
	n := len(builds)
	buildsMu.Unlock()
	b.once.Do(func() {
		out := filepath.Join(dir, "bin", fmt.Sprint(n), name)
		if runtime.GOOS == "windows" {
			out += ".exe"
		}
		args := append(append([]string{"build"}, flags...), "-o", out, pkg)
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), args...)
		cmd.Dir = RepoRoot()
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
			return
		}
		b.path = out
	})
	return b.path, b.err
}

// StepBudget is how long one step of a test may wait (a connection, a
// call, an answer, a process's exit): a quarter of what is left of the
// test's own deadline (go test -timeout, 10 minutes by default), so a
// loaded machine gets more and a hang still fails, with the step named,
// before the package's timeout. Without a deadline (-timeout 0), two
// minutes.
func StepBudget(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			return time.Until(dl) / 4
		}
	}
	return 2 * time.Minute
}

// E2E reports whether the end-to-end tests on real language servers run
// in this process ($LSPSEAM_E2E is 1).
func E2E() bool { return os.Getenv(E2EVar) == "1" }

// RequireE2E skips a test that runs real language servers unless
// LSPSEAM_E2E=1, with a message saying how to run it. With the gate set,
// the test runs, and a server that is not installed must fail it (see
// RequireServers): a skipped end-to-end test never passes for green. A
// benchmark is not gated: -bench already asks for it by name.
func RequireE2E(t testing.TB) {
	t.Helper()
	if _, bench := t.(*testing.B); bench {
		return
	}
	if !E2E() {
		t.Skipf("runs real language servers: run with %s=1 (make test sets it; needs make servers)", E2EVar)
	}
}

// RequireServers is RequireE2E, then fails the test (it does not skip)
// when one of the named servers is not in the checkout's .tools/bin.
func RequireServers(t testing.TB, names ...string) {
	t.Helper()
	RequireE2E(t)
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(ToolsBin(), n)); err != nil {
			t.Fatalf("language server %s is not installed in %s: run `make servers` (%v)", n, ToolsBin(), err)
		}
	}
}

// checkedCore makes every lspseam a test starts answer with the checked
// engine (LSPSEAM_CORE=checked, bindings/go/engine.go): the native core
// answers, as it does for users, and every answer is compared with the
// module's, so that the suites prove the two alike on the real servers'
// payloads, not only on the golden cases. A run that names an engine
// keeps it, and benchmarks (-test.bench) measure the default, native.
func checkedCore() {
	if os.Getenv("LSPSEAM_CORE") != "" {
		return
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	if b := flag.Lookup("test.bench"); b != nil && b.Value.String() != "" {
		return
	}
	os.Setenv("LSPSEAM_CORE", "checked")
}
