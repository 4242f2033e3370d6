// Package serverinstall installs the language servers of the server table
// (core/servers.json) for one user, without root: the pinned version of
// each, through its ecosystem's own client (npm, go, pip in a private
// virtual environment), or a vendor's release file checked against its
// pinned SHA-256 before it is unpacked; apt-get only as root.
//
// Layout, under the data directory ($XDG_DATA_HOME/lspseam, default
// ~/.local/share/lspseam):
//
//	servers/<key>/           one pinned install: npm-pyright-1.1.414,
//	                         go-gopls-v0.23.0, pypi-ruff-0.17.6,
//	                         download-<id>-<sha256 prefix>
//	servers/<key>/.lspseam-installed   the stamp, written last: what was installed
//	servers/<key>/install.log          the client's output
//	bin/<command>            a link to the command inside servers/<key>/
//	servers/.lock            held while an install runs
//
// lspseam looks for servers in bin/ after PATH (localstdio.DefaultSearchDirs).
// An install whose stamp says the same pin is not run again; a directory
// without its stamp is a failed or interrupted install and is replaced.
package serverinstall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/lspseam/lspseam/core"
)

// Installer installs servers into one data directory.
type Installer struct {
	// Dir is the data directory (DataDir).
	Dir string
	// Env is the environment the clients run in; its PATH finds them
	// (nil: os.Environ()).
	Env []string
	// Progress gets a line per step, and one every ProgressEvery while a
	// step runs (nil: nothing is written).
	Progress      io.Writer
	ProgressEvery time.Duration
	// IsRoot says whether apt-get may run (nil: the effective user is
	// root).
	IsRoot func() bool
	// Platform chooses a download (""; runtime.GOOS/runtime.GOARCH).
	Platform string
	// Download fetches a URL (nil: an HTTPS client; see download.go).
	Download func(ctx context.Context, url string, w io.Writer, progress func(int64)) error
}

// Result is one server installed.
type Result struct {
	Entry string // the table entry's id
	Kind  string // npm, go, pypi, download or debian
	// Spec is what was installed ("npm pyright@1.1.414").
	Spec string
	// Command is the server's command: its link in bin/, or where apt-get
	// put it.
	Command string
	// Already: the same pin was installed before, and nothing ran.
	Already bool
	Elapsed time.Duration
}

// DataDir is lspseam's data directory in env: $XDG_DATA_HOME/lspseam, else
// $HOME/.local/share/lspseam (the parent of the bin directory
// localstdio.DefaultSearchDirs searches).
func DataDir(env []string) (string, error) {
	if env == nil {
		env = os.Environ()
	}
	if data := lookupEnv(env, "XDG_DATA_HOME"); filepath.IsAbs(data) {
		return filepath.Join(data, "lspseam"), nil
	}
	if home := lookupEnv(env, "HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "share", "lspseam"), nil
	}
	return "", errors.New("neither XDG_DATA_HOME nor HOME is an absolute directory: set HOME")
}

func lookupEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// stampName is the file written last into an install directory.
const stampName = ".lspseam-installed"

// method is one way to install a server: a kind of the entry's install
// spec with what it needs.
type method struct {
	kind string
	// spec says what it installs, pins included; the stamp holds it.
	spec string
	// key is its directory under servers/ ("" for apt-get, which installs
	// system-wide).
	key string
	// client is the program it runs, looked up on PATH ("" for a
	// download); missing says what to do without it.
	client, missing string
	// executable is the command's path inside the install directory.
	executable string
	// problem, when set, is why it cannot run here (not root, no file for
	// this platform).
	problem *Error
	// install does it, into dir.
	install func(ctx context.Context, in *Installer, dir, client string) error
}

// methods are the ways the entry installs, in the table's order of
// preference (core.InstallSpec).
func (in *Installer) methods(e core.ServerEntry) []method {
	var out []method
	if n := e.Install.NPM; n != nil {
		out = append(out, npmMethod(e, n))
	}
	if g := e.Install.Go; g != nil {
		out = append(out, goMethod(e, g))
	}
	if p := e.Install.PyPI; p != nil {
		out = append(out, pypiMethod(e, p))
	}
	if len(e.Install.Download) > 0 {
		out = append(out, in.downloadMethod(e))
	}
	if d := e.Install.Debian; d != nil {
		out = append(out, in.debianMethod(e, d))
	}
	return out
}

// keyPart makes a package name or version usable in a directory name.
func keyPart(s string) string {
	return strings.Trim(regexp.MustCompile(`[^A-Za-z0-9._+-]+`).ReplaceAllString(s, "+"), "+.")
}

func (in *Installer) platform() string {
	if in.Platform != "" {
		return in.Platform
	}
	return runtime.GOOS + "/" + runtime.GOARCH
}

func (in *Installer) env() []string {
	if in.Env != nil {
		return in.Env
	}
	return os.Environ()
}

func (in *Installer) progress(format string, args ...any) {
	if in.Progress != nil {
		fmt.Fprintf(in.Progress, format+"\n", args...)
	}
}

// Install installs one server of the table. A server installed by hand is
// CodeManual with the table's instructions; a server whose every way to
// install lacks its client is CodeClientMissing naming each.
func (in *Installer) Install(ctx context.Context, e core.ServerEntry) (Result, error) {
	if !e.Install.Installable() {
		return Result{Entry: e.ID}, errorf(CodeManual, "%s is installed by hand: %s", e.Name, e.Install.Manual)
	}
	if in.Dir == "" || !filepath.IsAbs(in.Dir) {
		return Result{Entry: e.ID}, fmt.Errorf("the data directory %q must be absolute", in.Dir)
	}
	servers := filepath.Join(in.Dir, "servers")
	if err := os.MkdirAll(servers, 0o755); err != nil {
		return Result{Entry: e.ID}, err
	}
	if err := os.MkdirAll(filepath.Join(in.Dir, "bin"), 0o755); err != nil {
		return Result{Entry: e.ID}, err
	}
	unlock, err := lockDir(filepath.Join(servers, ".lock"))
	if err != nil {
		return Result{Entry: e.ID}, err
	}
	defer unlock()
	methods := in.methods(e)
	for _, m := range methods {
		if m.key != "" && in.stamped(m) {
			link, err := in.link(e.Command, m)
			if err != nil {
				return Result{Entry: e.ID}, err
			}
			return Result{Entry: e.ID, Kind: m.kind, Spec: m.spec, Command: link, Already: true}, nil
		}
	}
	var problems []*Error
	for _, m := range methods {
		if m.problem != nil {
			problems = append(problems, m.problem)
			continue
		}
		client := ""
		if m.client != "" {
			if client = lookPath(m.client, in.env()); client == "" {
				problems = append(problems, errorf(CodeClientMissing, "%s", m.missing))
				continue
			}
		}
		return in.run(ctx, e, m, client)
	}
	first := problems[0]
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.Message
	}
	return Result{Entry: e.ID}, errorf(first.Code, "%s: %s", e.Name, strings.Join(msgs, "; or "))
}

// run installs with one method and links the command.
func (in *Installer) run(ctx context.Context, e core.ServerEntry, m method, client string) (Result, error) {
	began := time.Now()
	res := Result{Entry: e.ID, Kind: m.kind, Spec: m.spec}
	if m.key == "" { // apt-get: system-wide
		in.progress("%s: %s", e.ID, m.spec)
		if err := m.install(ctx, in, "", client); err != nil {
			return res, err
		}
		res.Command = lookPath(e.Command, in.env())
		if res.Command == "" {
			return res, errorf(CodeFailed, "%s ran, but %s is still not on PATH", m.spec, e.Command)
		}
		res.Elapsed = time.Since(began)
		return res, nil
	}
	dir := filepath.Join(in.Dir, "servers", m.key)
	// A directory without its stamp is a failed or interrupted install,
	// or an older one of another pin: start afresh.
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	in.progress("%s: installing %s into %s", e.ID, m.spec, dir)
	if err := m.install(ctx, in, dir, client); err != nil {
		if m.kind == "download" {
			os.RemoveAll(dir) // nothing of a refused file is kept
		}
		return res, err
	}
	exe := filepath.Join(dir, filepath.FromSlash(m.executable))
	if !isExecutable(exe) {
		return res, errorf(CodeFailed, "%s finished, but it left no executable %s (see %s)", m.spec, exe, filepath.Join(dir, "install.log"))
	}
	if err := os.WriteFile(filepath.Join(dir, stampName), []byte(m.spec+"\n"), 0o644); err != nil {
		return res, err
	}
	link, err := in.link(e.Command, m)
	if err != nil {
		return res, err
	}
	res.Command = link
	res.Elapsed = time.Since(began)
	return res, nil
}

// stamped reports whether the method's install is complete: its stamp
// holds the same spec and its executable is there.
func (in *Installer) stamped(m method) bool {
	dir := filepath.Join(in.Dir, "servers", m.key)
	data, err := os.ReadFile(filepath.Join(dir, stampName))
	return err == nil && strings.TrimSpace(string(data)) == m.spec && isExecutable(filepath.Join(dir, filepath.FromSlash(m.executable)))
}

// link points bin/<command> at the method's executable (a relative link,
// replaced atomically) and returns the link's path.
func (in *Installer) link(command string, m method) (string, error) {
	bin := filepath.Join(in.Dir, "bin")
	link := filepath.Join(bin, command)
	target := filepath.Join("..", "servers", m.key, filepath.FromSlash(m.executable))
	if current, err := os.Readlink(link); err == nil && current == target {
		return link, nil
	}
	tmp := link + ".lspseam-new"
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, link); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return link, nil
}

// step runs one client command with its output in the install's log,
// saying what runs and, every ProgressEvery, how long it has run.
func (in *Installer) step(ctx context.Context, entry, dir string, cmd *exec.Cmd) error {
	logPath := filepath.Join(dir, "install.log")
	if dir == "" {
		logPath = ""
	}
	var log io.Writer = io.Discard
	var tail tailWriter
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(f, "$ %s\n", strings.Join(cmd.Args, " "))
		log = f
	}
	cmd.Stdout = io.MultiWriter(log, &tail)
	cmd.Stderr = cmd.Stdout
	cmd.Stdin = nil
	name := strings.Join(append([]string{filepath.Base(cmd.Args[0])}, cmd.Args[1:]...), " ")
	in.progress("%s: running %s", entry, name)
	began := time.Now()
	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return errorf(CodeFailed, "%s was stopped: %v", name, ctx.Err())
		}
		return errorf(CodeFailed, "%s did not start: %v", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A line every ProgressEvery for the first three, then every three
	// times that: a build of many minutes says it is alive without
	// flooding the terminal.
	every := in.progressEvery()
	tick := time.NewTicker(every)
	defer tick.Stop()
	ticks := 0
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				return errorf(CodeFailed, "%s was stopped: %v", name, ctx.Err())
			}
			if err != nil {
				where := ""
				if logPath != "" {
					where = "; its output is in " + logPath
				}
				return errorf(CodeFailed, "%s failed (%v)%s; last line: %s", name, err, where, tail.lastLine())
			}
			return nil
		case <-tick.C:
			if ticks++; ticks == 3 {
				tick.Reset(3 * every)
			}
			in.progress("%s: still running %s (%ds)", entry, filepath.Base(cmd.Args[0]), int(time.Since(began).Seconds()))
		}
	}
}

// tailWriter keeps the end of a client's output for error messages.
type tailWriter struct{ buf []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *tailWriter) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// command builds a client command in the installer's environment plus
// extra variables, killed with its process group when ctx ends.
func (in *Installer) command(ctx context.Context, dir, client string, args []string, extra ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, client, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), in.env()...), extra...)
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// lookPath finds a program on the PATH of env (absolute entries only).
func lookPath(name string, env []string) string {
	for _, dir := range filepath.SplitList(lookupEnv(env, "PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
