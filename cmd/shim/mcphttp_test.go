package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a running `lspseam mcp --http`.
type httpServer struct {
	url    string
	stderr *syncBuffer
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has been waited for
}

var servingURL = regexp.MustCompile(`lspseam mcp: serving MCP over HTTP at (https?://\S+/mcp)\n`)

// command is `lspseam mcp --config CFG --workspace WS ARGS…` with the test
// cache and stderr in a buffer.
func (f mcpFixture) command(args ...string) (*exec.Cmd, *syncBuffer) {
	cmd := exec.Command(f.bin, append([]string{"mcp", "--config", f.config, "--workspace", f.workspace}, args...)...)
	cmd.Env = append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir())
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// startHTTP starts `lspseam mcp --http 127.0.0.1:0 …` and reads its URL
// from stderr. The process is killed and waited for when the test ends.
func (f mcpFixture) startHTTP(t *testing.T, ctx context.Context, args ...string) httpServer {
	t.Helper()
	cmd, stderr := f.command(append([]string{"--http", "127.0.0.1:0"}, args...)...)
	return startHTTPProcess(t, ctx, cmd, stderr)
}

// startHTTPProcess starts cmd, an `lspseam mcp --http` whose stderr goes
// to stderr, and reads its URL from there.
func startHTTPProcess(t *testing.T, ctx context.Context, cmd *exec.Cmd, stderr *syncBuffer) httpServer {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("lspseam stderr:\n%s", stderr.String())
		}
	})
	for {
		if m := servingURL.FindStringSubmatch(stderr.String()); m != nil {
			return httpServer{url: m[1], stderr: stderr, cmd: cmd, exited: exited}
		}
		select {
		case <-exited:
			t.Fatalf("lspseam mcp --http exited before serving:\n%s", stderr.String())
		case <-ctx.Done():
			t.Fatalf("lspseam mcp --http never said where it serves:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// bearer adds the Authorization header to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func readTokenFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// post sends one JSON-RPC message as a streamable-HTTP client would, with
// edit changing the request first.
func post(t *testing.T, ctx context.Context, url, body string, edit func(*http.Request)) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	edit(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(data)
}

// The front door: the token, the Host and Origin checks, the token file
// and its single printing, and 404 for a session the server does not have.
func TestMCPHTTPGuard(t *testing.T) {
	f := newMCPFixture(t)
	ctx := testContext(t)
	tokenFile := filepath.Join(t.TempDir(), "conf", "lspseam", "http-token")
	s := f.startHTTP(t, ctx, "--token-file", tokenFile)

	token := readTokenFile(t, tokenFile)
	if len(token) != 43 {
		t.Errorf("token %q: want 32 bytes base64url (43 characters)", token)
	}
	for path, want := range map[string]os.FileMode{tokenFile: 0o600, filepath.Dir(tokenFile): 0o700} {
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %04o", path, info.Mode(), err, want)
		}
	}
	if want := "lspseam mcp: generated an HTTP token in " + tokenFile + ": " + token + "\n"; !strings.Contains(s.stderr.String(), want) || strings.Count(s.stderr.String(), token) != 1 {
		t.Errorf("stderr should say %q once:\n%s", want, s.stderr.String())
	}

	for _, tc := range []struct {
		name   string
		edit   func(*http.Request)
		status int
		body   string
	}{
		{"no Authorization", func(*http.Request) {}, http.StatusUnauthorized, "Authorization: Bearer TOKEN"},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+strings.Repeat("x", 43)) }, http.StatusUnauthorized, "Authorization: Bearer TOKEN"},
		{"token as Basic", func(r *http.Request) { r.Header.Set("Authorization", "Basic "+token) }, http.StatusUnauthorized, "Authorization: Bearer TOKEN"},
		{"rebound Host", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Host = "evil.example"
		}, http.StatusForbidden, "evil.example"},
		{"foreign Origin", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Origin", "http://evil.example")
		}, http.StatusForbidden, "evil.example"},
		{"null Origin", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Origin", "null")
		}, http.StatusForbidden, "origin"},
		{"unknown session", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Header.Set("Mcp-Session-Id", "no-such-session")
		}, http.StatusNotFound, "session not found"},
		{"right token, localhost Host, loopback Origin", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+token)
			r.Host = strings.Replace(r.URL.Host, "127.0.0.1", "localhost", 1)
			r.Header.Set("Origin", "https://127.0.0.1:9999")
		}, http.StatusOK, `"serverInfo"`},
	} {
		status, header, body := post(t, ctx, s.url, initializeBody, tc.edit)
		if status != tc.status || !strings.Contains(body, tc.body) {
			t.Errorf("%s: %d %q, want %d with %q", tc.name, status, body, tc.status, tc.body)
		}
		if status == http.StatusUnauthorized {
			if got := header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
				t.Errorf("%s: WWW-Authenticate %q", tc.name, got)
			}
			var problem map[string]string
			if err := json.Unmarshal([]byte(body), &problem); err != nil || problem["error"] != "unauthorized" {
				t.Errorf("%s: body %q is not the JSON problem", tc.name, body)
			}
		}
	}

	// A second start reads the token and does not print it.
	again := f.startHTTP(t, ctx, "--token-file", tokenFile)
	if strings.Contains(again.stderr.String(), token) || strings.Contains(again.stderr.String(), "generated") {
		t.Errorf("the second start printed the token:\n%s", again.stderr.String())
	}
	if readTokenFile(t, tokenFile) != token {
		t.Error("the second start changed the token")
	}
	// --rotate-token replaces it, says the new one, and the old one no
	// longer opens the door.
	rotated := f.startHTTP(t, ctx, "--token-file", tokenFile, "--rotate-token")
	newToken := readTokenFile(t, tokenFile)
	if newToken == token || !strings.Contains(rotated.stderr.String(), newToken) {
		t.Errorf("--rotate-token: token %q (was %q), stderr:\n%s", newToken, token, rotated.stderr.String())
	}
	if status, _, _ := post(t, ctx, rotated.url, initializeBody, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }); status != http.StatusUnauthorized {
		t.Errorf("the rotated-out token: %d, want 401", status)
	}
}

// Start problems of --http are refused at once, with a status and a
// message saying what to do.
func TestMCPHTTPRefusals(t *testing.T) {
	f := newMCPFixture(t)
	ctx := testContext(t)
	dir := t.TempDir()
	loose := filepath.Join(dir, "loose-token")
	if err := os.WriteFile(loose, []byte(strings.Repeat("t", 43)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		exit int
		want []string
	}{
		{[]string{"--http", "0.0.0.0:0"}, exitUsage, []string{"not a loopback address", "ssh -L", "--allow-remote"}},
		{[]string{"--http", ":0"}, exitUsage, []string{"not a loopback address"}},
		{[]string{"--http", "127.0.0.1"}, exitUsage, []string{"HOST:PORT"}},
		{[]string{"--http", "127.0.0.1:0", "--tls-cert", filepath.Join(dir, "cert.pem")}, exitUsage, []string{"--tls-cert and --tls-key go together"}},
		{[]string{"--http", "127.0.0.1:0", "--token-file", loose}, exitError, []string{"chmod 600 " + loose}},
		{[]string{"--bogus", "--http", "127.0.0.1:0"}, exitUsage, []string{"unknown flag --bogus"}},
		// Without --http, over stdio: served as a start problem, which
		// the exit status reports when stdin (empty) ends.
		{[]string{"--allow-remote"}, exitUsage, []string{"--allow-remote, --token-file only apply with --http ADDR"}},
	} {
		args := tc.args
		if !strings.Contains(strings.Join(args, " "), "--token-file") {
			args = append(args, "--token-file", filepath.Join(dir, "token"))
		}
		cmd, stderr := f.command(args...)
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-ctx.Done():
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v: still running", tc.args)
		}
		if got := cmd.ProcessState.ExitCode(); got != tc.exit {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", tc.args, got, tc.exit, stderr.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: stderr lacks %q:\n%s", tc.args, w, stderr.String())
			}
		}
	}
	if info, err := os.Stat(loose); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("the refused token file was changed: %v %v", info.Mode(), err)
	}
}

// Two clients of the official SDK at once: each initializes its own
// session (its own Mcp-Session-Id), lists the tools and calls read and
// lsp; what one session read is not what the other did (each has its own
// mcpTool, so its own Toolbox observations); a closed session's id is
// then unknown (404, so a client knows to initialize again).
func TestMCPHTTPSessions(t *testing.T) {
	f := newMCPFixture(t)
	ctx := testContext(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	s := f.startHTTP(t, ctx, "--token-file", tokenFile, "--tools", "lsp,code,fs")
	token := readTokenFile(t, tokenFile)
	connect := func() *mcp.ClientSession { return connectHTTP(t, ctx, s.url, token) }
	sessions := make([]*mcp.ClientSession, 2)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := connect()
			sessions[i] = cs
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || toolNamed(tools.Tools, "lsp") == nil || toolNamed(tools.Tools, "read") == nil {
				t.Errorf("session %d: tools/list: %v %+v", i, err, tools)
				return
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go"}})
			if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello() {}") {
				t.Errorf("session %d: read: %v %s", i, err, resultText(res))
			}
			res, err = callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
			if err != nil || res.IsError || resultText(res) != "`Hello` at line 3, column 6:\na.go:3:6" {
				t.Errorf("session %d: definition: %v %s", i, err, resultText(res))
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, cs := range sessions {
		defer cs.Close()
	}
	a, b := sessions[0], sessions[1]
	if a.ID() == "" || a.ID() == b.ID() {
		t.Fatalf("session ids %q and %q: want two different ones", a.ID(), b.ID())
	}

	// Session a reads notes.txt, b has not: b's edit is refused
	// (FS_NOT_OBSERVED), a's is applied.
	edit := func(cs *mcp.ClientSession, from, to string) *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"file_path": "notes.txt", "old_string": from, "new_string": to}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "notes.txt"}}); err != nil || res.IsError {
		t.Fatalf("read notes.txt: %v %s", err, resultText(res))
	}
	if res := edit(b, "notes", "b's notes"); !res.IsError || !strings.HasPrefix(resultText(res), "FS_NOT_OBSERVED: ") {
		t.Errorf("an edit by the session that did not read the file: isError=%v %s", res.IsError, resultText(res))
	}
	if res := edit(a, "notes", "a's notes"); res.IsError {
		t.Errorf("an edit by the session that read the file: %s", resultText(res))
	}
	if data, _ := os.ReadFile(filepath.Join(f.workspace, "notes.txt")); string(data) != "a's notes\n" {
		t.Errorf("notes.txt = %q", data)
	}

	// Closing a ends its session (DELETE); its id is unknown now, and b
	// still works.
	id := a.ID()
	if err := a.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	status, _, body := post(t, ctx, s.url, ping, func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Mcp-Session-Id", id)
	})
	if status != http.StatusNotFound {
		t.Errorf("a request of the closed session: %d %q, want 404", status, body)
	}
	if err := b.Ping(ctx, nil); err != nil {
		t.Errorf("the other session after the first closed: %v", err)
	}

	// SIGTERM with b's session open (its event stream included): the
	// sessions are closed rather than waited for, the process exits 0
	// and its language server is gone.
	if len(fakelspRunning(f.fakelsp)) == 0 {
		t.Fatal("no fakelsp running before SIGTERM")
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.exited:
	case <-ctx.Done():
		t.Fatal("lspseam mcp --http did not exit on SIGTERM")
	}
	if code := s.cmd.ProcessState.ExitCode(); code != exitOK {
		t.Errorf("exit status after SIGTERM: %d", code)
	}
	// The open session was closed, not waited for: nothing was left in
	// flight to be cut off after the grace.
	if out := s.stderr.String(); !strings.Contains(out, "lspseam mcp: stopped: closed 1 open session\n") {
		t.Errorf("stderr after SIGTERM should say the open session was closed and nothing cut off:\n%s", out)
	}
	if pids := fakelspRunning(f.fakelsp); len(pids) > 0 {
		t.Errorf("fakelsp still running after lspseam exited: %v", pids)
	}
}

func TestLoopbackHostAndOrigin(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:80": true, "127.0.0.1:8787": true, "127.1.2.3": true,
		"[::1]:8787": true, "[::1]": true, "::1": true,
		"evil.example": false, "evil.example:8787": false, "localhost.evil.example": false,
		"0.0.0.0:8787": false, "192.168.1.5": false, "": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v", host, got)
		}
	}
	local, remote := &httpGuard{loopback: true}, &httpGuard{}
	for _, tc := range []struct {
		g      *httpGuard
		origin string
		want   bool
	}{
		{local, "http://localhost:3000", true},
		{local, "https://127.0.0.1", true},
		{local, "http://[::1]:9", true},
		{local, "http://evil.example", false},
		{local, "http://localhost.evil.example", false},
		{local, "null", false},
		{local, "file://", false},
		{local, "chrome-extension://abcdef", false},
		{local, "https://myhost:8787", false},
		{remote, "https://myhost:8787", true}, // the server's own origin
		{remote, "https://other:8787", false},
		{remote, "http://localhost:3000", true},
	} {
		if got := tc.g.originAllowed(tc.origin, "myhost:8787"); got != tc.want {
			t.Errorf("originAllowed(%q, loopback=%v) = %v", tc.origin, tc.g.loopback, got)
		}
	}
}

func TestMCPHTTPFlagsCheck(t *testing.T) {
	for _, tc := range []struct {
		flags    mcpHTTPFlags
		loopback bool
		problem  string // "": accepted
	}{
		{mcpHTTPFlags{addr: "127.0.0.1:0"}, true, ""},
		{mcpHTTPFlags{addr: "localhost:8787"}, true, ""},
		{mcpHTTPFlags{addr: "[::1]:0"}, true, ""},
		{mcpHTTPFlags{addr: "0.0.0.0:0"}, false, "--allow-remote"},
		{mcpHTTPFlags{addr: ":8787"}, false, "not a loopback address"},
		{mcpHTTPFlags{addr: "192.168.1.5:80"}, false, "ssh -L"},
		{mcpHTTPFlags{addr: "example.com:80"}, false, "not a loopback address"},
		{mcpHTTPFlags{addr: "0.0.0.0:0", allowRemote: true}, false, ""},
		{mcpHTTPFlags{addr: "127.0.0.1:0", tlsKey: "k"}, false, "go together"},
		{mcpHTTPFlags{addr: "127.0.0.1:0", sessionTimeout: -time.Second}, false, "--session-timeout"},
		{mcpHTTPFlags{addr: "127.0.0.1:0", maxSessions: -1}, false, "--max-sessions"},
		{mcpHTTPFlags{addr: "127.0.0.1"}, false, "HOST:PORT"},
	} {
		loopback, err := tc.flags.check(flag.NewFlagSet("mcp", flag.ContinueOnError))
		switch {
		case tc.problem == "" && (err != nil || loopback != tc.loopback):
			t.Errorf("%+v: loopback=%v %v, want loopback=%v", tc.flags, loopback, err, tc.loopback)
		case tc.problem != "" && (err == nil || !strings.Contains(err.Error(), tc.problem)):
			t.Errorf("%+v: %v, want a problem with %q", tc.flags, err, tc.problem)
		}
	}
}

// TestMCPHTTPMaxSessions: with --max-sessions 2, a third session closes
// the least recently used one (its next request gets 404), and the two
// most recently used keep working.
func TestMCPHTTPMaxSessions(t *testing.T) {
	f := newMCPFixture(t)
	ctx := testContext(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	s := f.startHTTP(t, ctx, "--token-file", tokenFile, "--max-sessions", "2")
	token := readTokenFile(t, tokenFile)
	connect := func() *mcp.ClientSession {
		cs := connectHTTP(t, ctx, s.url, token)
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	a, b := connect(), connect()
	// b, then a: b is now the least recently used.
	if err := b.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	c := connect()
	if err := c.Ping(ctx, nil); err != nil {
		t.Errorf("the new session: %v", err)
	}
	if err := a.Ping(ctx, nil); err != nil {
		t.Errorf("the recently used session after the bound was reached: %v", err)
	}
	status, _, body := post(t, ctx, s.url, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, func(r *http.Request) {
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Mcp-Session-Id", b.ID())
	})
	if status != http.StatusNotFound {
		t.Errorf("a request of the least recently used session after a third opened: %d %q, want 404", status, body)
	}
}

// connectHTTP opens an MCP client session with the server at url, with
// the bearer token.
func connectHTTP(t *testing.T, ctx context.Context, url, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "lspseam-http-test", Version: "0"}, nil)
	httpClient := &http.Client{Transport: bearer{token, http.DefaultTransport}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: httpClient}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}
