package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make install, make install-servers, make servers without apt, make demo.

// runMake runs make in the repository with extra environment variables.
func runMake(t *testing.T, env []string, args ...string) (code int, output string) {
	t.Helper()
	cmd := exec.Command("make", append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return exitCode(t, cmd.Run()), out.String()
}

// `make install PREFIX=…` installs lspseam as PREFIX/bin/lspseam, and
// `make install-servers PREFIX=…` the servers where that lspseam finds
// them with nothing on PATH.
func TestMakeInstall(t *testing.T) {
	requireServers(t, "clangd")
	prefix := t.TempDir()
	// SHIMFLAGS without the checkout's .tools/bin, so the server can only
	// be found beside the installed binary.
	if code, out := runMake(t, nil, "install", "PREFIX="+prefix, "SHIMFLAGS=-trimpath"); code != 0 {
		t.Fatalf("make install: exit %d\n%s", code, out)
	}
	bin := filepath.Join(prefix, "bin", "lspseam")
	env := isolatedEnv(t)
	if code, stdout, stderr := runShim(t, bin, env, "version"); code != 0 || !strings.HasPrefix(stdout, "lspseam ") {
		t.Fatalf("%s version: exit %d %q %q", bin, code, stdout, stderr)
	}
	if code, out := runMake(t, nil, "install-servers", "PREFIX="+prefix, "SERVERS=clangd"); code != 0 {
		t.Fatalf("make install-servers: exit %d\n%s", code, out)
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.c"), []byte("int answer(void) { return 42; }\n"), 0o644)
	code, stdout, stderr := runShim(t, bin, env, "query", "--workspace", ws, "--format", "json", "hover", "a.c:1:5")
	if code != 0 || !strings.Contains(stdout, `"ok"`) {
		t.Fatalf("installed lspseam does not find the installed clangd: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// `make servers` on a machine without apt-get, go or node: what it needs is
// said first, the server it can install is installed, the others are
// skipped with the reason, and the exit status is 0 — unless REQUIRE_ALL=1
// (CI), when a skip is an error.
func TestServersSkipWhatTheyCannotInstall(t *testing.T) {
	requireServers(t, "gopls")
	// A PATH with the shell tools the script uses and nothing else.
	fakebin := t.TempDir()
	for _, tool := range []string{"bash", "mkdir", "ln", "cat", "cut", "tail", "id", "flock", "rm", "touch", "dirname", "sha256sum", "env"} {
		if path, err := exec.LookPath(tool); err == nil {
			os.Symlink(path, filepath.Join(fakebin, tool))
		}
	}
	// gopls already installed in this tools directory (so no Go is needed).
	tools := t.TempDir()
	os.MkdirAll(filepath.Join(tools, "bin"), 0o755)
	os.Symlink(filepath.Join(toolsBin, "gopls"), filepath.Join(tools, "bin", "gopls"))
	os.WriteFile(filepath.Join(tools, ".stamp-gopls-v0.23.0"), nil, 0o644)

	install := func(requireAll string) (int, string) {
		cmd := exec.Command(filepath.Join(fakebin, "bash"), filepath.Join(repoRoot, "tools", "servers", "install.sh"))
		cmd.Env = []string{"PATH=" + fakebin, "LSPSEAM_TOOLS=" + tools, "SERVERS=gopls pyright clangd", "REQUIRE_ALL=" + requireAll}
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	code, out := install("")
	for _, want := range []string{
		"needs: go for gopls, terraform-ls and buf; Node.js >= 20 with npm", "Debian/Ubuntu apt-get",
		"ready in " + filepath.Join(tools, "bin"), "gopls                       golang.org/x/tools/gopls",
		"SKIPPED pyright: 'node' is not on PATH",
		"SKIPPED clangd: clangd is not on PATH and apt-get is not available",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
	if code, out := install("1"); code == 0 || !strings.Contains(out, "error: REQUIRE_ALL=1 and 2 server(s) skipped") {
		t.Errorf("REQUIRE_ALL=1: exit %d\n%s", code, out)
	}
}

// `make demo` installs only gopls, the one server it uses, and finds it
// without PATH.
func TestDemoInstallsOnlyGopls(t *testing.T) {
	code, out := runMake(t, nil, "-n", "demo")
	if code != 0 {
		t.Fatalf("make -n demo: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, `SERVERS="gopls" `) || strings.Contains(out, ".tools/bin:") {
		t.Errorf("make demo does not install only gopls, or sets PATH:\n%s", out)
	}
}
