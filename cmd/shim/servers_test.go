package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// freshHome is a user with nothing installed: HOME, the data and state
// directories in a temporary directory, and a PATH holding only the
// programs the fake clients' scripts use (and the clients a test adds).
type freshHome struct {
	home, data, path string
}

func newFreshHome(t *testing.T) freshHome {
	t.Helper()
	tmp := t.TempDir()
	h := freshHome{home: filepath.Join(tmp, "home"), path: filepath.Join(tmp, "path")}
	h.data = filepath.Join(h.home, ".local", "share", "lspseam")
	for _, d := range []string{h.home, h.path} {
		os.MkdirAll(d, 0o755)
	}
	for _, tool := range []string{"sh", "mkdir", "chmod", "cat", "printf"} {
		if real, err := exec.LookPath(tool); err == nil {
			os.Symlink(real, filepath.Join(h.path, tool))
		}
	}
	t.Setenv("HOME", h.home)
	t.Setenv("XDG_DATA_HOME", "") // the default: ~/.local/share
	t.Setenv("LSPSEAM_STATE_DIR", filepath.Join(tmp, "state"))
	t.Setenv("PATH", h.path)
	if os.Getenv("LSPSEAM_CACHE_DIR") == "" {
		t.Setenv("LSPSEAM_CACHE_DIR", filepath.Join(tmp, "cache"))
	}
	return h
}

// fakeNPM stands for npm: it records its arguments in $HOME/npm.log and
// makes node_modules/.bin/bash-language-server, which prints its version.
const fakeNPM = `#!/bin/sh
echo "npm $*" >> "$HOME/npm.log"
prefix=""
while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix=$2; shift; done
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\necho 5.8.1-fake\n' > "$prefix/node_modules/.bin/bash-language-server"
chmod 755 "$prefix/node_modules/.bin/bash-language-server"
`

func (h freshHome) addClient(t *testing.T, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(h.path, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// On a fresh HOME: doctor names the missing servers and how to install
// each; servers install --detected installs what it can (npm here), says
// which client is missing (go) and which server installs by hand
// (marksman); doctor then finds the installed one, with its version; a
// second install says "already installed"; servers list agrees.
func TestDoctorAndInstallOnAFreshHome(t *testing.T) {
	h := newFreshHome(t)
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "deploy.sh"), "echo hi\n")
	writeFile(t, filepath.Join(ws, "cmd", "main.go"), "package main\n")
	writeFile(t, filepath.Join(ws, "README.md"), "# x\n")
	writeFile(t, filepath.Join(ws, "node_modules", "dep", "index.js"), "x\n") // skipped

	code, out, _ := runCLI(t, "doctor", "--workspace", ws)
	for _, want := range []string{
		"workspace " + ws + ": 3 files looked at",
		"Bash          1  bashls    MISSING: bash-language-server was not found on the server's PATH or in ",
		"install: lspseam servers install bash\n",
		"install: lspseam servers install go\n",
		"install by hand: download the marksman binary",
		"3 of 3 languages present not served: Bash, Go, Markdown",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if code != exitError {
		t.Errorf("doctor exited %d with languages not served", code)
	}

	h.addClient(t, "npm", fakeNPM)
	code, out, errOut := runCLI(t, "servers", "install", "--detected", "--workspace", ws)
	link := filepath.Join(h.data, "bin", "bash-language-server")
	if code != exitError ||
		!strings.Contains(out, "bashls: installed npm bash-language-server@5.8.1 in ") || !strings.Contains(out, link) ||
		!strings.Contains(errOut, "gopls: INSTALL_CLIENT_MISSING: gopls: go is not on PATH: install Go") ||
		!strings.Contains(errOut, "marksman: INSTALL_MANUAL: marksman is installed by hand: download the marksman binary") ||
		!strings.Contains(errOut, "running npm install --prefix "+filepath.Join(h.data, "servers", "npm-bash-language-server-5.8.1")) {
		t.Errorf("install --detected (%d):\n%s\nstderr:\n%s", code, out, errOut)
	}

	code, out, _ = runCLI(t, "doctor", "--workspace", ws, "--format", "json")
	var report doctorReport
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("doctor --format json: %v\n%s", err, out)
	}
	states := map[string]string{}
	for _, l := range report.Languages {
		states[l.Name] = l.State
		if l.Name == "Bash" && (l.Servers[0].Path != link || l.Servers[0].Version != "5.8.1-fake") {
			t.Errorf("bash: %+v", l.Servers)
		}
		if l.Name == "Go" && l.Install != "lspseam servers install go" {
			t.Errorf("go: %+v", l)
		}
	}
	if states["Bash"] != "served" || states["Go"] != "missing" || states["Markdown"] != "missing" || report.Served || code != exitError {
		t.Errorf("after the install (%d): %v served=%v", code, states, report.Served)
	}

	code, out, _ = runCLI(t, "servers", "install", "bash")
	if code != exitOK || !strings.Contains(out, "bashls: already installed (npm bash-language-server@5.8.1): "+link) {
		t.Errorf("second install (%d): %s", code, out)
	}
	if runs, _ := os.ReadFile(filepath.Join(h.home, "npm.log")); strings.Count(string(runs), "\n") != 1 {
		t.Errorf("npm ran again:\n%s", runs)
	}

	code, out, _ = runCLI(t, "servers", "list")
	if code != exitOK || !strings.Contains(out, "Bash ") || !strings.Contains(out, "installed  "+link) ||
		!regexpMatch(`(?m)^Python +pyright \(preset\) +yes +missing +lspseam servers install python$`, out) {
		t.Errorf("servers list (%d):\n%s", code, out)
	}

	// Only served languages left: doctor succeeds.
	os.RemoveAll(filepath.Join(ws, "cmd"))
	os.Remove(filepath.Join(ws, "README.md"))
	code, out, _ = runCLI(t, "doctor", "--workspace", ws)
	if code != exitOK || !strings.Contains(out, "every language present (1) is served") {
		t.Errorf("doctor with every language served (%d):\n%s", code, out)
	}
}

// The one install through a real ecosystem client: bash-language-server
// from npm into a fresh HOME, found by doctor with the version it prints.
func TestServersInstallRealNPM(t *testing.T) {
	if testing.Short() {
		t.Skip("installs bash-language-server with npm (about 15 s, needs the npm registry)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH")
	}
	node, _ := exec.LookPath("node")
	h := newFreshHome(t)
	os.Symlink(npm, filepath.Join(h.path, "npm"))
	os.Symlink(node, filepath.Join(h.path, "node"))
	// npm's scripts run through env and sh.
	for _, tool := range []string{"env", "bash"} {
		if real, err := exec.LookPath(tool); err == nil {
			os.Symlink(real, filepath.Join(h.path, tool))
		}
	}
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "deploy.sh"), "echo hi\n")
	if code, out, _ := runCLI(t, "doctor", "--workspace", ws); code != exitError || !strings.Contains(out, "MISSING: bash-language-server") {
		t.Fatalf("before (%d):\n%s", code, out)
	}
	code, out, errOut := runCLI(t, "servers", "install", "--detected", "--workspace", ws)
	if code != exitOK {
		t.Fatalf("install (%d):\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "doctor", "--workspace", ws)
	if code != exitOK || !strings.Contains(out, "served: "+filepath.Join(h.data, "bin", "bash-language-server")+" (5.8.1)") {
		t.Errorf("after (%d):\n%s", code, out)
	}
}

func TestServersUsage(t *testing.T) {
	newFreshHome(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"servers"}, "usage: lspseam servers"},
		{[]string{"servers", "frob"}, `unknown subcommand "frob"`},
		{[]string{"servers", "install"}, "usage: lspseam servers install"},
		{[]string{"servers", "install", "python", "--detected"}, "usage: lspseam servers install"},
		{[]string{"servers", "install", "cobol"}, `"cobol" is no language or server lspseam knows; ` + "`lspseam servers list`"},
		{[]string{"servers", "list", "extra"}, "usage: lspseam servers list"},
		{[]string{"doctor", "--format", "yaml"}, `--format must be text or json, got "yaml"`},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: %d %q", c.args, code, errOut)
		}
	}
	if code, out, _ := runCLI(t, "help", "servers"); code != exitOK || !strings.Contains(out, "--detected") {
		t.Errorf("help servers: %d\n%s", code, out)
	}
}

// A name given to servers install: a language (its preset's server), a
// server id, its name or its command.
func TestEntryNamed(t *testing.T) {
	for name, want := range map[string]string{
		"python": "pyright", "Python": "pyright", ".py": "pyright", "basedpyright": "basedpyright",
		"typescript-language-server": "typescript", "javascript": "typescript", "pyright-langserver": "pyright",
		"c++": "clangd", "yaml": "yamlls", "marksman": "marksman",
	} {
		e, err := entryNamed(t.Context(), name, "", nil)
		if err != nil || e.ID != want {
			t.Errorf("%s: %s %v, want %s", name, e.ID, err, want)
		}
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
