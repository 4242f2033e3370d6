package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/testenv"
)

// mcpFixture is a built lspseam binary, the scripted fake language server
// and a config that maps .go to it.
type mcpFixture struct {
	bin, fakelsp, config, events, workspace string
}

func newMCPFixture(t *testing.T) mcpFixture {
	t.Helper()
	if testing.Short() {
		t.Skip("builds binaries")
	}
	tmp := t.TempDir()
	f := mcpFixture{
		bin:       filepath.Join(tmp, "lspseam"),
		fakelsp:   filepath.Join(tmp, "fakelsp"),
		config:    filepath.Join(tmp, "lspseam.json"),
		events:    filepath.Join(tmp, "events.jsonl"),
		workspace: filepath.Join(tmp, "ws"),
	}
	f.bin, f.fakelsp = placeTestBins(t, tmp)
	script := filepath.Join(tmp, "script.json")
	writeFile(t, script, `{"methods":{"textDocument/definition":{"result":"$echoPosition"},"textDocument/references":{"action":"hang"}}}`)
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": map[string]any{
		"command":             f.fakelsp,
		"args":                []string{"--script", script, "--log", f.events},
		"extensionToLanguage": map[string]string{".go": "go"},
		"settleMs":            0,
	}}})
	writeFile(t, f.config, string(cfg))
	writeFile(t, filepath.Join(f.workspace, "a.go"), "package a\n\nfunc Hello() {}\n\nfunc use() { Hello() }\n")
	writeFile(t, filepath.Join(f.workspace, "notes.txt"), "notes\n")
	return f
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connect starts `lspseam mcp` with args through the SDK's client.
func (f mcpFixture) connect(t *testing.T, client *mcp.Client, dir string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(f.bin, append([]string{"mcp", "--config", f.config}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("lspseam stderr:\n%s", stderr.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

func callLSP(t *testing.T, ctx context.Context, cs *mcp.ClientSession, args map[string]any, progressToken any) (*mcp.CallToolResult, error) {
	t.Helper()
	p := &mcp.CallToolParams{Name: "lsp", Arguments: args}
	if progressToken != nil {
		p.SetProgressToken(progressToken)
	}
	return cs.CallTool(ctx, p)
}

func resultText(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// fakelspRunning reports the processes whose command line names path.
func fakelspRunning(path string) []string {
	var pids []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		if strings.Contains(string(data), path) {
			pids = append(pids, filepath.Base(d))
		}
	}
	return pids
}

// fakeEvent is one line of the fake server's log.
type fakeEvent struct {
	PID    int             `json:"pid"`
	Event  string          `json:"event"`
	Kind   string          `json:"kind"`
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
}

func (f mcpFixture) fakeEvents(t *testing.T) []fakeEvent {
	t.Helper()
	data, err := os.ReadFile(f.events)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	// A line still being written (no newline yet) is read next time: the
	// fake writes while the test polls (CI read half of one).
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var out []fakeEvent
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var e fakeEvent
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("fake log line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

// waitFakeEvent polls the fake server's log until match finds a line; the
// deadline only turns a hang into a failure.
func (f mcpFixture) waitFakeEvent(t *testing.T, what string, match func(fakeEvent) bool) fakeEvent {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		for _, e := range f.fakeEvents(t) {
			if match(e) {
				return e
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fake server's log never showed %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverPID returns the pid of the fake server started last (its log's
// last start event).
func (f mcpFixture) serverPID(t *testing.T) int {
	t.Helper()
	pid := 0
	for _, e := range f.fakeEvents(t) {
		if e.Event == "start" {
			pid = e.PID
		}
	}
	if pid == 0 {
		t.Fatal("no fake server has started")
	}
	return pid
}

// cancelledIDs returns the ids named by the $/cancelRequest notifications
// the fake server received.
func (f mcpFixture) cancelledIDs(t *testing.T) []string {
	t.Helper()
	var ids []string
	for _, e := range f.fakeEvents(t) {
		if e.Event == "recv" && e.Method == "$/cancelRequest" {
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(e.Params, &p); err != nil {
				t.Fatalf("$/cancelRequest params %s: %v", e.Params, err)
			}
			ids = append(ids, string(p.ID))
		}
	}
	return ids
}

func TestMCPServer(t *testing.T) {
	f := newMCPFixture(t)
	var mu sync.Mutex
	var progress []string
	progressDone := make(chan struct{}) // closed at the first "done"
	client := mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, req.Params.Message)
			if req.Params.Message == "done" {
				select {
				case <-progressDone:
				default:
					close(progressDone)
				}
			}
		},
	})
	// No --workspace: the workspace is the client's first file root, not
	// the server's current directory.
	client.AddRoots(&mcp.Root{URI: "https://example.com/not-a-file-root"}, &mcp.Root{URI: "file://" + filepath.ToSlash(f.workspace), Name: "ws"})
	cs := f.connect(t, client, t.TempDir())
	ctx := context.Background()

	// tools/list: the core's lsp tool with its schema verbatim, and the code tools.
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	def, err := c.ToolDefinition(ctx)
	c.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lspTool := toolNamed(tools.Tools, "lsp")
	if len(tools.Tools) != 7 || lspTool == nil || lspTool.Description != def.Description {
		t.Fatalf("tools/list (lsp and the five code tools): %+v", tools.Tools)
	}
	var want, got map[string]any
	json.Unmarshal([]byte(def.InputSchema), &want)
	gotJSON, _ := json.Marshal(lspTool.InputSchema)
	json.Unmarshal(gotJSON, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("input schema:\n got %s\nwant %s", gotJSON, def.InputSchema)
	}
	if req, _ := got["required"].([]any); !reflect.DeepEqual(req, []any{"operation", "file_path", "line", "character"}) {
		t.Errorf("required = %v", got["required"])
	}

	// A definition: the rendered text and the seam result.
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, "def-1")
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || resultText(res) != "`Hello` at line 3, column 6:\na.go:3:6" {
		t.Errorf("definition: isError=%v %q", res.IsError, resultText(res))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["kind"] != "locations" {
		t.Errorf("structured content: %#v", res.StructuredContent)
	}
	// The notifications precede the response on the wire, but the client
	// may hand them to the handler after CallTool returns: wait for the
	// final one (the watchdog only turns a lost one into a failure).
	select {
	case <-progressDone:
	case <-time.After(20 * time.Second):
	}
	mu.Lock()
	if p := progress; len(p) < 2 || p[0] != "querying language server" || p[len(p)-1] != "done" {
		t.Errorf("progress notifications: %q", p)
	}
	mu.Unlock()

	// Errors are tool results with the stable code, not protocol errors.
	// The file outside the workspace exists, so the only reason to refuse
	// it is where it is.
	outside := filepath.Join(filepath.Dir(f.workspace), "outside.go")
	writeFile(t, outside, "package outside\n")
	for _, tc := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"operation": "hover", "file_path": "a.go", "line": 0, "character": 1}, []string{"LSP_INVALID_ARGUMENT: ", "one-based"}},
		{map[string]any{"operation": "hover"}, []string{"LSP_INVALID_ARGUMENT: "}},
		{map[string]any{"operation": "hover", "file_path": "notes.txt", "line": 1, "character": 1}, []string{"LSP_UNAVAILABLE: "}},
		{map[string]any{"operation": "hover", "file_path": outside, "line": 1, "character": 1}, []string{"LSP_SOURCE_REJECTED: ", "outside the workspace"}},
		{map[string]any{"operation": "hover", "file_path": "../outside.go", "line": 1, "character": 1}, []string{"LSP_SOURCE_REJECTED: ", "outside the workspace"}},
	} {
		res, err := callLSP(t, ctx, cs, tc.args, nil)
		if err != nil {
			t.Errorf("%v: protocol error %v", tc.args, err)
			continue
		}
		text := resultText(res)
		if !res.IsError || !strings.HasPrefix(text, tc.want[0]) || !strings.Contains(text, tc.want[len(tc.want)-1]) {
			t.Errorf("%v: isError=%v %q, want %q", tc.args, res.IsError, text, tc.want)
		}
	}

	// A hanging query cancelled by the client (once the request has
	// reached the language server) returns, and the language server is
	// told: it receives $/cancelRequest for that very request.
	cctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := callLSP(t, cctx, cs, map[string]any{"operation": "findReferences", "file_path": "a.go", "line": 3, "character": 6}, nil)
		errc <- err
	}()
	refs := f.waitFakeEvent(t, "the references request", func(e fakeEvent) bool {
		return e.Event == "recv" && e.Kind == "request" && e.Method == "textDocument/references"
	})
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cancelled call did not return")
	}
	// The fake answers -32800 once it has the cancellation, so the log
	// shows "cancelled" only after the $/cancelRequest it logged.
	f.waitFakeEvent(t, "the hung request cancelled", func(e fakeEvent) bool {
		return e.Event == "cancelled" && string(e.ID) == string(refs.ID)
	})
	if got := f.cancelledIDs(t); !slices.Equal(got, []string{string(refs.ID)}) {
		t.Errorf("$/cancelRequest for ids %v, want one for the references request %s", got, refs.ID)
	}
	// The session is still usable.
	if res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 14}, nil); err != nil || resultText(res) != "`Hello` at line 5, column 14:\na.go:5:14" {
		t.Errorf("after cancel: %v %+v", err, res)
	}

	// Closing the client shuts the language server down.
	if len(fakelspRunning(f.fakelsp)) == 0 {
		t.Fatal("no fakelsp running before close")
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(fakelspRunning(f.fakelsp)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("fakelsp still running after close: %v", fakelspRunning(f.fakelsp))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// --workspace wins over roots; the budget covers the whole call.
func TestMCPWorkspaceFlagAndBudget(t *testing.T) {
	f := newMCPFixture(t)
	client := mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + t.TempDir()})
	cs := f.connect(t, client, t.TempDir(), "--workspace", f.workspace, "--timeout", "700")
	defer cs.Close()
	ctx := context.Background()

	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
	if err != nil || res.IsError || resultText(res) != "`Hello` at line 3, column 6:\na.go:3:6" {
		t.Fatalf("definition with --workspace: %v %+v", err, res)
	}
	res, err = callLSP(t, ctx, cs, map[string]any{"operation": "findReferences", "file_path": "a.go", "line": 3, "character": 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.HasPrefix(resultText(res), "LSP_TIMEOUT: ") {
		t.Errorf("hanging query with a 700 ms budget: isError=%v %q", res.IsError, resultText(res))
	}
}

func TestFileURIPath(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///home/u/proj":           "/home/u/proj",
		"file://localhost/home/u/p%20q": "/home/u/p q",
		"file://otherhost/x":            "",
		"https://example.com/x":         "",
		"file:":                         "",
	} {
		got, ok := fileURIPath(uri)
		if got != want || ok != (want != "") {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q", uri, got, ok, want)
		}
	}
	// A client's root in the spelling every host uses reads back as its
	// path (the shared table: testdata/uri/fileuri.json).
	var table []struct {
		Path, URI, Back string
		Windows         bool
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "uri", "fileuri.json"))
	if err != nil || json.Unmarshal(data, &table) != nil || len(table) == 0 {
		t.Fatalf("the shared URI table: %v", err)
	}
	for _, c := range table {
		if c.Windows {
			// The Windows build's route: the path as the table reads it back.
			want := c.Path
			if c.Back != "" {
				want = c.Back
			}
			if got, ok := core.PathRulesFor("windows").URIPath(c.URI); !ok || got != want {
				t.Errorf("windows URIPath(%q) = %q, %v; want %q", c.URI, got, ok, want)
			}
			continue
		}
		if got, ok := fileURIPath(c.URI); !ok || got != c.Path {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q", c.URI, got, ok, c.Path)
		}
	}
}

// A Windows client's roots read back as Windows paths under the Windows
// rules, whichever way the client spelled the drive (the route a Windows
// build takes, run here by naming it).
func TestFileURIPathWindows(t *testing.T) {
	win := core.PathRulesFor("windows")
	for uri, want := range map[string]string{
		"file:///C:/Users/me/proj":     `C:\Users\me\proj`,
		"file:///c%3A/Users/me/p%20q":  `C:\Users\me\p q`,
		"file://localhost/d:/src":      `D:\src`,
		"file://fileserver/share/proj": `\\fileserver\share\proj`,
		"file:///home/u/proj":          "",
		"https://example.com/C:/x":     "",
	} {
		got, ok := win.URIPath(uri)
		if got != want || ok != (want != "") {
			t.Errorf("windows URIPath(%q) = %q, %v; want %q", uri, got, ok, want)
		}
	}
}

// structuredContent's locations group and spell paths as the rendered
// text does, for a POSIX and a Windows workspace alike.
func TestGroupedByPath(t *testing.T) {
	tests := []struct {
		ws   string
		uris []string
		want []string
	}{
		{"file:///w", []string{"file:///w/a.go", "file:///x/b.go", "file:///w/a.go", "file:///w", "untitled:1"},
			[]string{"a.go", "a.go", "/x/b.go", ".", "untitled:1"}},
		{"file:///C:/w", []string{"file:///c%3A/W/a.go", "file:///D:/b.go", "file:///C:/w/a.go", "file://srv/s/c.go"},
			[]string{"a.go", "a.go", "D:/b.go", "//srv/s/c.go"}},
	}
	for _, tt := range tests {
		ws, ok := core.WorkspacePath(tt.ws)
		if !ok {
			t.Fatalf("WorkspacePath(%q) refused", tt.ws)
		}
		var locs []lspseam.Location
		for _, u := range tt.uris {
			locs = append(locs, lspseam.Location{URI: u})
		}
		var got []string
		for _, l := range groupedByPath(locs, ws) {
			got = append(got, l.path)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("groupedByPath under %s = %q, want %q", tt.ws, got, tt.want)
		}
	}
}

// A client on an older protocol (as the TypeScript SDK's may be) gets a
// server-sent roots/list; progress has a heartbeat (checked by order: the
// hung query is ended, by killing its server, only after a heartbeat
// arrived); closing stdin ends the server and its language servers. This
// drives `run` in-process with hand-written newline-delimited JSON-RPC.
func TestMCPOlderProtocolRootsProgressEOF(t *testing.T) {
	f := newMCPFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	old := mcpHeartbeat
	mcpHeartbeat = 100 * time.Millisecond
	defer func() { mcpHeartbeat = old }()

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		// The budget only bounds a call the test failed to end (it is
		// below next's watchdog, so such a call ends as LSP_TIMEOUT).
		exit <- run([]string{"mcp", "--config", f.config, "--timeout", "15000"}, inR, outW, &stderr)
		outW.Close()
	}()
	msgs := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("not JSON: %s", sc.Bytes())
				continue
			}
			msgs <- m
		}
		close(msgs)
	}()
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatalf("server closed stdout; stderr:\n%s", stderr.String())
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no message from the server; stderr:\n%s", stderr.String())
		}
		return nil
	}
	// call sends a tool call and answers roots/list until the response;
	// it returns the result and the progress messages. onProgress, if not
	// nil, sees each progress message as it arrives.
	call := func(id int, args map[string]any, onProgress func(string)) (result map[string]any, progress []string) {
		send(map[string]any{"id": id, "method": "tools/call", "params": map[string]any{"name": "lsp", "arguments": args, "_meta": map[string]any{"progressToken": id}}})
		for {
			m := next()
			switch {
			case m["method"] == "roots/list":
				send(map[string]any{"id": m["id"], "result": map[string]any{"roots": []any{map[string]any{"uri": "file://" + f.workspace}}}})
			case m["method"] == "ping": // sent after a call's final progress
				send(map[string]any{"id": m["id"], "result": map[string]any{}})
			case m["method"] == "notifications/progress":
				p := m["params"].(map[string]any)
				if p["progressToken"] != float64(id) {
					t.Errorf("progress token %v, want %d", p["progressToken"], id)
				}
				progress = append(progress, p["message"].(string))
				if onProgress != nil {
					onProgress(p["message"].(string))
				}
			case m["id"] == float64(id):
				if m["error"] != nil {
					t.Fatalf("protocol error: %v", m["error"])
				}
				return m["result"].(map[string]any), progress
			}
		}
	}

	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{"roots": map[string]any{"listChanged": true}},
		"clientInfo":      map[string]any{"name": "raw", "version": "0"},
	}})
	if m := next(); m["id"] != 1.0 || m["result"].(map[string]any)["protocolVersion"] != "2025-06-18" {
		t.Fatalf("initialize: %v", m)
	}
	send(map[string]any{"method": "notifications/initialized", "params": map[string]any{}})

	res, progress := call(2, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
	content := res["content"].([]any)
	if res["isError"] == true || content[0].(map[string]any)["text"] != "`Hello` at line 3, column 6:\na.go:3:6" {
		t.Errorf("definition through roots: %v", res)
	}
	if len(progress) < 2 || progress[0] != "querying language server" || progress[len(progress)-1] != "done" {
		t.Errorf("progress: %q", progress)
	}

	// The references request hangs in the server, and nothing ends it but
	// the test: at the first heartbeat, the language server is killed, so
	// the call fails only after a heartbeat was sent.
	killed := false
	res, progress = call(3, map[string]any{"operation": "findReferences", "file_path": "a.go", "line": 3, "character": 6}, func(msg string) {
		if killed || !strings.HasPrefix(msg, "waiting for language server") {
			return
		}
		killed = true
		pid := f.serverPID(t)
		if err := killPid(pid); err != nil {
			t.Fatalf("killing the fake server %d: %v", pid, err)
		}
	})
	content = res["content"].([]any)
	if res["isError"] != true || !strings.HasPrefix(content[0].(map[string]any)["text"].(string), "LSP_SERVER_FAILED: ") {
		t.Errorf("hanging query whose server was killed: %v", res)
	}
	// Ordering, not counts: started, a heartbeat while waiting, then
	// failed.
	if !killed || len(progress) < 3 || progress[0] != "querying language server" || progress[len(progress)-1] != "failed" {
		t.Errorf("progress of a failed query with a heartbeat: %q", progress)
	} else {
		for _, p := range progress[1 : len(progress)-1] {
			if !strings.HasPrefix(p, "waiting for language server") {
				t.Errorf("progress of a failed query: %q between start and end", p)
			}
		}
	}

	// A new language server for the next call, for the EOF check below.
	res, _ = call(4, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 14}, nil)
	if content := res["content"].([]any); res["isError"] == true || content[0].(map[string]any)["text"] != "`Hello` at line 5, column 14:\na.go:5:14" {
		t.Errorf("definition after the server was killed: %v", res)
	}
	if len(fakelspRunning(f.fakelsp)) == 0 {
		t.Fatal("no fakelsp running")
	}
	inW.Close() // the client is gone
	select {
	case code := <-exit:
		if code != exitOK {
			t.Errorf("exit %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("mcp did not end on stdin EOF")
	}
	if pids := fakelspRunning(f.fakelsp); len(pids) > 0 {
		t.Errorf("fakelsp still running after EOF: %v", pids)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor reports whether the buffer comes to hold every one of want
// before the test's deadline. A child's stderr reaches the buffer through
// exec's copying goroutine, so a line the child wrote before it answered
// may not be here yet when the answer is.
func (s *syncBuffer) waitFor(t *testing.T, want ...string) bool {
	t.Helper()
	holds := func() bool {
		out := s.String()
		for _, w := range want {
			if !strings.Contains(out, w) {
				return false
			}
		}
		return true
	}
	for deadline := testDeadline(t); !holds(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

func TestMCPUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"mcp", "extra"}, {"mcp", "--log-level", "loud"}, {"mcp", "--timeout", "-1"}} {
		if code, _, stderr := runCLI(t, args...); code != exitUsage || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}
