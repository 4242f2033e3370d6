//go:build linux || darwin

package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The daemon (daemon.go) and the relay (relay.go) as clients use them:
// real `lspseam mcp --daemon require` processes started by the SDK's
// client, the scripted fake server as the language server.

// daemonClients starts relaying clients of one runtime directory.
type daemonClients struct {
	f       approvalFixture
	runtime string // LSPSEAM_RUNTIME_DIR
	config  string
	ws      string
	env     []string // added to every process's environment
}

func newDaemonClients(t *testing.T, env ...string) *daemonClients {
	t.Helper()
	if !daemonSupported {
		t.Skip("the daemon runs on Linux and macOS")
	}
	f := newApprovalFixture(t)
	// The approval fixture's server, whose references never answer.
	script := filepath.Join(filepath.Dir(f.bin), "refactor-script.json")
	var sc map[string]map[string]any
	if err := json.Unmarshal([]byte(readFileString(t, script)), &sc); err != nil {
		t.Fatal(err)
	}
	sc["capabilities"]["referencesProvider"] = true
	sc["methods"]["textDocument/references"] = map[string]any{"action": "hang"}
	data, _ := json.Marshal(sc)
	writeFile(t, script, string(data))
	// A Unix socket's path is short (108 bytes): t.TempDir() can be
	// longer than that.
	runtime, err := os.MkdirTemp("", "lsd")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(runtime, 0o700)
	d := &daemonClients{f: f, runtime: runtime, config: f.configs["preview"], ws: f.workspace(t), env: env}
	t.Cleanup(func() {
		d.run(t, "daemon", "stop")
		os.RemoveAll(runtime)
	})
	return d
}

func (d *daemonClients) environ() []string {
	return append(append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir(), "LSPSEAM_RUNTIME_DIR="+d.runtime), d.env...)
}

// run runs lspseam with args to its end.
func (d *daemonClients) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(d.f.bin, args...)
	cmd.Env = d.environ()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// connect starts a relaying client; its process is cmd.
func (d *daemonClients) connect(t *testing.T) (cs *mcp.ClientSession, cmd *exec.Cmd) {
	t.Helper()
	cmd = exec.Command(d.f.bin, "mcp", "--daemon", "require", "--config", d.config, "--tools", "lsp,code,refactor", "--workspace", d.ws)
	cmd.Env = d.environ()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "daemon-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s\ndaemon log: %s", err, stderr.String(), d.logs())
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("client stderr:\n%s", stderr.String())
		}
	})
	return cs, cmd
}

// logs is every daemon log in the runtime directory.
func (d *daemonClients) logs() string {
	var b strings.Builder
	paths, _ := filepath.Glob(filepath.Join(d.runtime, "*.log"))
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		b.WriteString(p + ":\n" + string(data))
	}
	return b.String()
}

// status is the one running daemon's status.
func (d *daemonClients) status(t *testing.T) daemonStatus {
	t.Helper()
	out, err := d.run(t, "daemon", "status")
	if err != nil {
		t.Fatalf("daemon status: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one daemon, got:\n%s", out)
	}
	var s daemonStatus
	if err := json.Unmarshal([]byte(lines[0]), &s); err != nil {
		t.Fatalf("daemon status: %v: %s", err, out)
	}
	return s
}

// eventually polls cond until it holds or the step's budget ends.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(testenv.StepBudget(t))
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("%s did not happen within %v", what, testenv.StepBudget(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func callTool(t *testing.T, cs *mcp.ClientSession, name, args string) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var s map[string]any
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &s)
	return res, s
}

// Clients of one daemon share its language server and keep their
// sessions: one server process for all, the same answers, previews that
// only their own client can apply, and a client that goes away mid-call
// cancels its own call only.
func TestDaemonSharedServersPrivateSessions(t *testing.T) {
	d := newDaemonClients(t)
	const clients = 3
	sessions := make([]*mcp.ClientSession, clients)
	procs := make([]*exec.Cmd, clients)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, cmd := d.connect(t)
			mu.Lock()
			sessions[i], procs[i] = cs, cmd
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// Every client gets the same answer from one server.
	var texts []string
	for _, cs := range sessions {
		res, _ := callTool(t, cs, "code_symbols", `{"path":"a.go"}`)
		if res.IsError {
			t.Fatalf("code_symbols: %s", resultText(res))
		}
		texts = append(texts, resultText(res))
	}
	for i, text := range texts {
		if text != texts[0] || !strings.Contains(text, "Hello") {
			t.Fatalf("client %d answered differently:\n%s\nvs\n%s", i, text, texts[0])
		}
	}
	if n := len(fakelspRunning(d.f.fakelsp)); n != 1 {
		t.Fatalf("%d fake servers run for %d clients, want 1\n%s", n, clients, d.logs())
	}
	st := d.status(t)
	if st.Sessions != clients {
		t.Fatalf("the daemon counts %d sessions, want %d", st.Sessions, clients)
	}
	// Clients that start together take turns to start the daemon: one
	// starts it, and no second daemon is started only to find it there.
	if strings.Contains(d.logs(), "already running") {
		t.Fatalf("more than one daemon was started:\n%s", d.logs())
	}

	// A preview is its client's: another cannot apply it.
	_, s := callTool(t, sessions[0], "code_insert", approvalArgs)
	id, _ := s["previewId"].(string)
	if id == "" {
		t.Fatalf("no preview: %v", s)
	}
	other, s2 := callTool(t, sessions[1], "code_insert", strings.TrimSuffix(approvalArgs, "}")+`,"previewId":"`+id+`"}`)
	if s2["applied"] == true || readA(t, d.ws) != approvalSource {
		t.Fatalf("another client applied the preview: %s %v", resultText(other), s2)
	}
	_, s3 := callTool(t, sessions[0], "code_insert", strings.TrimSuffix(approvalArgs, "}")+`,"previewId":"`+id+`"}`)
	if s3["applied"] != true || readA(t, d.ws) != approvalAfter {
		t.Fatalf("the preview's own client could not apply it: %v; a.go: %q", s3, readA(t, d.ws))
	}

	// A client killed while its call waits on the server: the others
	// are answered, and the daemon counts it out.
	hung := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
		defer cancel()
		_, err := sessions[2].CallTool(ctx, &mcp.CallToolParams{Name: "code_navigate", Arguments: json.RawMessage(`{"target":{"path":"a.go","symbol":"Hello"},"kind":"references"}`)})
		hung <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the daemon; either order must work
	procs[2].Process.Kill()
	res, _ := callTool(t, sessions[1], "code_symbols", `{"path":"a.go"}`)
	if res.IsError || !strings.Contains(resultText(res), "Hello") {
		t.Fatalf("after a client died: %s", resultText(res))
	}
	<-hung
	eventually(t, "the daemon counting the killed client out", func() bool { return d.status(t).Sessions == clients-1 })
}

// A daemon killed outright leaves no language server behind, and the
// next client starts a fresh daemon.
func TestDaemonKilledLeavesNoServer(t *testing.T) {
	d := newDaemonClients(t)
	cs, _ := d.connect(t)
	if res, _ := callTool(t, cs, "code_symbols", `{"path":"a.go"}`); res.IsError {
		t.Fatalf("code_symbols: %s", resultText(res))
	}
	if len(fakelspRunning(d.f.fakelsp)) != 1 {
		t.Fatalf("no fake server runs")
	}
	first := d.status(t)
	syscall.Kill(first.PID, syscall.SIGKILL)
	eventually(t, "the language server's exit after the daemon's", func() bool { return len(fakelspRunning(d.f.fakelsp)) == 0 })

	cs2, _ := d.connect(t)
	if res, _ := callTool(t, cs2, "code_symbols", `{"path":"a.go"}`); res.IsError || !strings.Contains(resultText(res), "Hello") {
		t.Fatalf("a client after the kill: %s", resultText(res))
	}
	if second := d.status(t); second.PID == first.PID {
		t.Fatalf("the killed daemon %d still answers", first.PID)
	}
}

// With no client for the idle period the daemon exits and takes its
// servers with it; `daemon stop` does the same at once.
func TestDaemonIdleExitAndStop(t *testing.T) {
	d := newDaemonClients(t, "LSPSEAM_DAEMON_IDLE=300ms")
	cs, cmd := d.connect(t)
	if res, _ := callTool(t, cs, "code_symbols", `{"path":"a.go"}`); res.IsError {
		t.Fatalf("code_symbols: %s", resultText(res))
	}
	pid := d.status(t).PID
	cs.Close()
	cmd.Wait()
	eventually(t, "the idle daemon's exit", func() bool { return syscall.Kill(pid, 0) != nil })
	eventually(t, "the server's exit", func() bool { return len(fakelspRunning(d.f.fakelsp)) == 0 })
	if out, err := d.run(t, "daemon", "status"); err == nil || !strings.Contains(out, "no daemon is running") {
		t.Fatalf("status after the idle exit: %v: %s", err, out)
	}

	d.env = nil // the default idle period: only stop ends it
	cs, _ = d.connect(t)
	if res, _ := callTool(t, cs, "code_symbols", `{"path":"a.go"}`); res.IsError {
		t.Fatalf("code_symbols: %s", resultText(res))
	}
	pid = d.status(t).PID
	out, err := d.run(t, "daemon", "stop")
	if err != nil || !strings.Contains(out, "stopped the daemon (pid "+strconv.Itoa(pid)+")") {
		t.Fatalf("daemon stop: %v: %s", err, out)
	}
	// stop returns once the daemon has let go of its lock: its servers
	// are already shut down.
	if n := len(fakelspRunning(d.f.fakelsp)); n != 0 {
		t.Fatalf("%d fake servers run after daemon stop", n)
	}
}

// Nobody but the user reaches the daemon: the runtime directory is 0700
// (a laxer one is refused), the socket 0600, and the daemon checks each
// peer's user.
func TestDaemonSocketPrivate(t *testing.T) {
	d := newDaemonClients(t)
	d.connect(t)
	socks, _ := filepath.Glob(filepath.Join(d.runtime, "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets: %v", socks)
	}
	for path, want := range map[string]os.FileMode{d.runtime: 0o700, socks[0]: 0o600} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: mode %v (%v), want %o", path, fi.Mode().Perm(), err, want)
		}
	}

	// A runtime directory others can enter is refused, saying how to fix it.
	lax, err := os.MkdirTemp("", "lsd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(lax)
	os.Chmod(lax, 0o755)
	cmd := exec.Command(d.f.bin, "mcp", "--daemon", "require", "--config", d.config, "--workspace", d.ws)
	cmd.Env = append(d.environ(), "LSPSEAM_RUNTIME_DIR="+lax)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "chmod 700 "+lax) {
		t.Fatalf("a 0755 runtime directory: %v: %s", err, out)
	}

	// The peer check: the kernel's record of the connecting user.
	a, b, err := unixPair()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	defer b.Close()
	if uid, err := peerUID(a); err != nil || uid != os.Getuid() {
		t.Fatalf("peerUID = %d, %v; want %d", uid, err, os.Getuid())
	}

	// Another user cannot connect (needs root to be another user).
	if os.Getuid() != 0 {
		t.Log("not root: the other-user connection is not tried")
		return
	}
	other := exec.Command(d.f.bin, "daemon", "status", "--socket", socks[0])
	other.Env = d.environ()
	other.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	// The binary must be reachable by that user: copy it somewhere open.
	open, err := os.MkdirTemp("", "lsd-open")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(open)
	os.Chmod(open, 0o755)
	data, err := os.ReadFile(d.f.bin)
	if err != nil {
		t.Fatal(err)
	}
	other.Path = filepath.Join(open, "lspseam")
	if err := os.WriteFile(other.Path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err = other.CombinedOutput()
	if err == nil || strings.Contains(string(out), `"pid"`) {
		t.Fatalf("user 65534 reached the daemon: %v: %s", err, out)
	}
}

// unixPair is a connected pair of Unix sockets.
func unixPair() (*net.UnixConn, *net.UnixConn, error) {
	dir, err := os.MkdirTemp("", "lsp")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
	if err != nil {
		return nil, nil, err
	}
	defer ln.Close()
	a, err := net.DialUnix("unix", nil, ln.Addr().(*net.UnixAddr))
	if err != nil {
		return nil, nil, err
	}
	b, err := ln.AcceptUnix()
	return a, b, err
}

// serve relays to the daemon too: two harnesses share one server, and one
// harness's shutdown and exit end its session only.
func TestDaemonServeSessions(t *testing.T) {
	d := newDaemonClients(t)
	env := []string{"LSPSEAM_RUNTIME_DIR=" + d.runtime}
	a := startServeProcess(t, d.f.bin, d.ws, env, "--daemon", "require", "--config", d.config)
	b := startServeProcess(t, d.f.bin, d.ws, env, "--daemon", "require", "--config", d.config)
	symbols := map[string]any{"name": "code_symbols", "arguments": map[string]any{"path": "a.go"}, "workspaceRoot": d.ws}
	var texts []string
	for _, c := range []*rpcClient{a, b} {
		res := c.ask(t, 1, "tools/call", symbols)
		if res.Error != nil || !strings.Contains(string(res.Result), `"text":"a.go — 1 symbol:\n  function Hello 3"`) {
			t.Fatalf("tools/call: %s %+v", res.Result, res.Error)
		}
		texts = append(texts, string(res.Result))
	}
	if texts[0] != texts[1] {
		t.Fatalf("the two sessions answered differently:\n%s\nvs\n%s", texts[0], texts[1])
	}
	if n := len(fakelspRunning(d.f.fakelsp)); n != 1 {
		t.Fatalf("%d fake servers for two serve sessions, want 1", n)
	}
	if st := d.status(t); st.Sessions != 2 {
		t.Fatalf("sessions: %d, want 2", st.Sessions)
	}
	if code := a.end(t); code != 0 {
		t.Fatalf("serve a exited %d", code)
	}
	res := b.ask(t, 2, "tools/call", symbols)
	if res.Error != nil || !strings.Contains(string(res.Result), "Hello") {
		t.Fatalf("b after a's exit: %s %+v", res.Result, res.Error)
	}
	eventually(t, "the daemon counting a out", func() bool { return d.status(t).Sessions == 1 })
	if n := len(fakelspRunning(d.f.fakelsp)); n != 1 {
		t.Fatalf("%d fake servers after a's shutdown, want 1", n)
	}
}

// auto is mcp's default: it relays to the daemon, and serves in its own
// process (saying why) when no daemon can be had.
func TestDaemonAutoDefault(t *testing.T) {
	d := newDaemonClients(t)
	var environ []string
	for _, kv := range d.environ() {
		if !strings.HasPrefix(kv, "LSPSEAM_DAEMON=") {
			environ = append(environ, kv)
		}
	}
	connect := func(env []string) (*mcp.ClientSession, *syncBuffer) {
		cmd := exec.Command(d.f.bin, "mcp", "--config", d.config, "--workspace", d.ws)
		cmd.Env = env
		stderr := &syncBuffer{}
		cmd.Stderr = stderr
		ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "daemon-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		t.Cleanup(func() { cs.Close() })
		if res, _ := callTool(t, cs, "code_symbols", `{"path":"a.go"}`); res.IsError || !strings.Contains(resultText(res), "Hello") {
			t.Fatalf("code_symbols: %s\n%s", resultText(res), stderr.String())
		}
		return cs, stderr
	}
	connect(environ)
	if st := d.status(t); st.Sessions != 1 {
		t.Fatalf("without --daemon, the daemon serves %d sessions, want 1", st.Sessions)
	}

	lax, err := os.MkdirTemp("", "lsd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(lax)
	os.Chmod(lax, 0o755)
	_, stderr := connect(append(environ, "LSPSEAM_RUNTIME_DIR="+lax))
	if !stderr.waitFor(t, "serving in this process", "chmod 700") {
		t.Fatalf("auto without a usable daemon did not say why it serves itself:\n%s", stderr.String())
	}
	if socks, _ := filepath.Glob(filepath.Join(lax, "*.sock")); len(socks) != 0 {
		t.Fatalf("a daemon listens in a directory open to others: %v", socks)
	}
}

// A daemon started by hand on a client's socket with another environment
// is refused by the client: its servers could answer otherwise.
func TestDaemonRefusesOtherEnvironment(t *testing.T) {
	d := newDaemonClients(t)
	d.connect(t) // learn the socket the clients use
	socks, _ := filepath.Glob(filepath.Join(d.runtime, "*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets: %v", socks)
	}
	if out, err := d.run(t, "daemon", "stop"); err != nil {
		t.Fatalf("daemon stop: %v: %s\ndaemon log: %s", err, out, d.logs())
	}
	// The stop has returned: the old daemon is gone, so the hand-started
	// one takes the lock (else it says "already running" and exits).
	cmd := exec.Command(d.f.bin, "daemon", "--socket", socks[0], "--config", d.config)
	cmd.Env = append(d.environ(), "GOFLAGS=-tags=other")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	eventually(t, "the hand-started daemon listening", func() bool {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the hand-started daemon exited before listening: %v: %s", err, out.String())
		default:
		}
		c, err := net.Dial("unix", socks[0])
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	client := exec.Command(d.f.bin, "mcp", "--daemon", "require", "--config", d.config, "--workspace", d.ws)
	client.Env = d.environ()
	client.Stdin = strings.NewReader("")
	answer, err := client.CombinedOutput()
	if err == nil || !strings.Contains(string(answer), "runs with another executable, config or environment") {
		t.Fatalf("a client of another environment was served: %v: %s", err, answer)
	}
}
