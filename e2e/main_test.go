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

	"github.com/lspseam/lspseam/internal/testenv"
)

// Paths shared by the tests, set up once by TestMain.
var (
	repoRoot string // the repository
	shimPath string // lspseam, built by testenv
	fakePath string // internal/fakelsp, built by testenv
	toolsBin string // .tools/bin
	goroot   string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	repoRoot = testenv.RepoRoot()
	toolsBin = testenv.ToolsBin()
	goroot = runtime.GOROOT()
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
	// testenv keeps compiled core code between the many short-lived shims
	// (LSPSEAM_CACHE_DIR) and removes the binaries afterwards.
	return testenv.Run(m, func() (err error) {
		if shimPath, err = testenv.BuildShim(); err != nil {
			return err
		}
		fakePath, err = testenv.BuildFakeLSP()
		return err
	})
}

// requireServers skips the test without LSPSEAM_E2E=1 (testenv's gate of
// the real-server tests) and fails it (it does not skip) when a language
// server is missing.
func requireServers(t testing.TB, names ...string) {
	t.Helper()
	testenv.RequireServers(t, names...)
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

// expand replaces the placeholders of expectations.json. {TOOLS} is the
// checkout's .tools as the servers see it: its real path, where a work
// tree links it to another checkout's.
func expand(s string) string {
	s = strings.ReplaceAll(s, "{GOROOT}", goroot)
	tools := filepath.Join(repoRoot, ".tools")
	if real, err := filepath.EvalSymlinks(tools); err == nil {
		tools = real
	}
	return strings.ReplaceAll(s, "{TOOLS}", tools)
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
