package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Paths shared by the tests, set up once by TestMain.
var (
	repoRoot string // the repository
	shimPath string // a freshly built lspseam
	fakePath string // a freshly built internal/fakelsp
	toolsBin string // .tools/bin
	goroot   string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	repoRoot, err = filepath.Abs("..")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	toolsBin = filepath.Join(repoRoot, ".tools", "bin")
	goroot = runtime.GOROOT()
	dir, err := os.MkdirTemp("", "lspseam-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shimPath = filepath.Join(dir, "lspseam")
	fakePath = filepath.Join(dir, "fakelsp")
	for out, pkg := range map[string]string{shimPath: "./cmd/shim", fakePath: "./internal/fakelsp"} {
		build := exec.Command(filepath.Join(goroot, "bin", "go"), "build", "-o", out, pkg)
		build.Dir = repoRoot
		if msg, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, msg)
			return 1
		}
	}
	// clangd needs a compilation database with absolute paths to index the
	// C fixture (see testdata/workspaces/README.md).
	gen := exec.Command("sh", filepath.Join(repoRoot, "testdata/workspaces/c/gen-compile-commands.sh"))
	if out, err := gen.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "gen-compile-commands: %v\n%s", err, out)
		return 1
	}
	// Every lspseam mcp a test starts serves in its own process, whose
	// life the test controls; the daemon's tests ask for it by flag.
	os.Setenv("LSPSEAM_DAEMON", "off")
	// Keep compiled core code between the many short-lived shims.
	os.Setenv("LSPSEAM_CACHE_DIR", filepath.Join(dir, "cache"))
	return m.Run()
}

// requireServers fails the test (it does not skip) when a language server
// is missing.
func requireServers(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(toolsBin, n)); err != nil {
			t.Fatalf("language server %s is not installed in %s: run `make servers` (%v)", n, toolsBin, err)
		}
	}
}

// writeConfig writes the plain server table a user would write, with the
// commands from .tools/bin.
func writeConfig(t *testing.T) string {
	t.Helper()
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	cfg := fmt.Sprintf(`servers:
  gopls:
    command: %[1]s/gopls
    extensionToLanguage: {.go: go}
  typescript:
    command: %[1]s/typescript-language-server
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
  pyright:
    command: %[1]s/pyright-langserver
    args: [--stdio]
    extensionToLanguage: {.py: python}
  clangd:
    command: %[1]s/clangd
    extensionToLanguage: {.c: c, .h: c}
`, toolsBin)
	path := filepath.Join(t.TempDir(), "lspseam.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// expand replaces the placeholders of expectations.json.
func expand(s string) string {
	s = strings.ReplaceAll(s, "{GOROOT}", goroot)
	return strings.ReplaceAll(s, "{TOOLS}", filepath.Join(repoRoot, ".tools"))
}

// exitCode is a finished command's exit status: 0 for a nil error, the
// status of an *exec.ExitError; any other error (the command could not
// run) fails the test.
func exitCode(t testing.TB, err error) int {
	t.Helper()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return -1
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
