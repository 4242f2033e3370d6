package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lspseam/lspseam/internal/testenv"
)

// The drain (drain.go): stopping lspseam while a tool call runs lets the
// call finish and delivers its answer, refuses the calls that come after
// the stop, and names a call it had to cut off. The slow call is a
// code_rename of Hello across a.go and b.go whose textDocument/rename the
// fake server holds until the test creates a gate file: the stop comes
// while the call is certainly running, and the call ends when the test
// says, with no clock involved.

const (
	drainRenameArgs = `{"target":{"path":"a.go","symbol":"Hello"},"newName":"Greet"}`
	drainA          = "package a\n\nfunc Hello() {}\n\nfunc use() { Hello() }\n"
	drainB          = "package a\n\nfunc other() { Hello() }\n"
	drainAAfter     = "package a\n\nfunc Greet() {}\n\nfunc use() { Greet() }\n"
	drainBAfter     = "package a\n\nfunc other() { Greet() }\n"
)

// drainFixture is the mcpFixture with a workspace of a.go and b.go, and a
// config (approval auto) whose fake server holds its rename until gate
// exists.
type drainFixture struct {
	mcpFixture
	gate string
}

// newDrainFixture makes the fixture; with ignoreCancel the fake server
// goes on holding the rename when lspseam cancels it.
func newDrainFixture(t *testing.T, ignoreCancel bool) drainFixture {
	t.Helper()
	f := drainFixture{mcpFixture: newMCPFixture(t)}
	dir := filepath.Dir(f.bin)
	f.gate = filepath.Join(dir, "gate")
	f.workspace = filepath.Join(dir, "drain-ws")
	writeFile(t, filepath.Join(f.workspace, "a.go"), drainA)
	writeFile(t, filepath.Join(f.workspace, "b.go"), drainB)
	ws, err := filepath.EvalSymlinks(f.workspace)
	if err != nil {
		t.Fatal(err)
	}
	pos := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	edit := func(line, from, to int) map[string]any {
		return map[string]any{"newText": "Greet", "range": map[string]any{"start": pos(line, from), "end": pos(line, to)}}
	}
	symbols := []map[string]any{{"name": "Hello", "kind": 12,
		"range":          map[string]any{"start": pos(2, 0), "end": pos(2, 15)},
		"selectionRange": map[string]any{"start": pos(2, 5), "end": pos(2, 10)},
	}}
	script, _ := json.Marshal(map[string]any{
		"ignoreCancel": ignoreCancel,
		"capabilities": map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": map[string]any{"prepareProvider": true},
			"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}},
		"methods": map[string]any{
			"textDocument/documentSymbol": map[string]any{"result": symbols},
			"textDocument/prepareRename":  map[string]any{"result": map[string]any{"start": pos(2, 5), "end": pos(2, 10)}},
			"textDocument/rename": map[string]any{"before": []any{map[string]any{"waitFile": f.gate}}, "result": map[string]any{"changes": map[string]any{
				"file://" + ws + "/a.go": []any{edit(2, 5, 10), edit(4, 13, 18)},
				"file://" + ws + "/b.go": []any{edit(2, 15, 20)},
			}}},
			"textDocument/diagnostic": map[string]any{"result": map[string]any{"kind": "full", "items": []any{}}},
		},
	})
	scriptPath := filepath.Join(dir, "drain-script.json")
	writeFile(t, scriptPath, string(script))
	cfg, _ := json.Marshal(map[string]any{"approval": "auto", "servers": map[string]any{"fake": map[string]any{
		"command":             f.fakelsp,
		"args":                []string{"--script", scriptPath, "--log", f.events},
		"extensionToLanguage": map[string]string{".go": "go"},
		"settleMs":            0,
	}}})
	f.config = filepath.Join(dir, "drain.json")
	writeFile(t, f.config, string(cfg))
	// A test that fails with the rename held does not wait out its
	// processes' shutdown on it.
	t.Cleanup(func() { os.WriteFile(f.gate, nil, 0o644) })
	return f
}

// renameHeld waits until the fake server holds the rename: the call is
// running.
func (f drainFixture) renameHeld(t *testing.T) {
	t.Helper()
	f.waitFakeEvent(t, "the rename request", func(e fakeEvent) bool { return e.Event == "recv" && e.Method == "textDocument/rename" })
}

// release lets the fake server answer the rename.
func (f drainFixture) release(t *testing.T) { writeFile(t, f.gate, "") }

// renamed reports whether the workspace has the rename, failing the test
// on a half-made one.
func (f drainFixture) renamed(t *testing.T) bool {
	t.Helper()
	a, b := readFileString(t, filepath.Join(f.workspace, "a.go")), readFileString(t, filepath.Join(f.workspace, "b.go"))
	switch {
	case a == drainAAfter && b == drainBAfter:
		return true
	case a == drainA && b == drainB:
		return false
	}
	t.Fatalf("a half-made rename:\na.go %q\nb.go %q", a, b)
	return false
}

// callAnswer is what a client got for a call.
type callAnswer struct {
	res *mcp.CallToolResult
	err error
}

// startCall runs a tool call in the background.
func startCall(ctx context.Context, cs *mcp.ClientSession, name, args string) <-chan callAnswer {
	ch := make(chan callAnswer, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		ch <- callAnswer{res, err}
	}()
	return ch
}

// awaitStopping waits for the stopping process's log to say it lets the
// call in flight finish; the call ending first (as it did before the
// drain: EOF) fails the test at once.
func awaitStopping(t *testing.T, log func() string, call <-chan callAnswer) {
	t.Helper()
	for deadline := time.Now().Add(testenv.StepBudget(t)); !strings.Contains(log(), "stopping: letting the calls in flight finish and answer first"); time.Sleep(10 * time.Millisecond) {
		select {
		case a := <-call:
			t.Fatalf("the call in flight ended when lspseam was asked to stop, before its work had (err %v, %s); log:\n%s", a.err, answerText(a), log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("lspseam never said it lets the call in flight finish; log:\n%s", log())
		}
	}
}

func answerText(a callAnswer) string {
	if a.res == nil {
		return "no answer"
	}
	return resultText(a.res)
}

// checkRefusedWhileStopping: a call that comes once lspseam is stopping
// gets the structured stopping error, and runs nothing.
func checkRefusedWhileStopping(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "code_symbols", Arguments: map[string]any{"path": "a.go"}})
	if err != nil {
		t.Fatalf("a call after the stop: %v", err)
	}
	var s struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &s)
	if !res.IsError || s.Error.Code != "LSP_UNAVAILABLE" || !strings.HasPrefix(resultText(res), "LSP_UNAVAILABLE: lspseam is stopping (") || !strings.Contains(s.Error.Message, "did not run and changed nothing") {
		t.Fatalf("a call after the stop should be refused with the stopping error: isError=%v %s (structured %s)", res.IsError, resultText(res), data)
	}
}

// checkApplied: the call in flight got its real answer, and the rename is
// on disk.
func (f drainFixture) checkApplied(t *testing.T, call <-chan callAnswer) {
	t.Helper()
	a := <-call
	if a.err != nil || a.res.IsError {
		t.Fatalf("the call in flight should get its answer through the stop: err %v, %s", a.err, answerText(a))
	}
	var s map[string]any
	data, _ := json.Marshal(a.res.StructuredContent)
	json.Unmarshal(data, &s)
	if s["applied"] != true || !strings.HasPrefix(resultText(a.res), "Applied: ") {
		t.Fatalf("the call's answer: %s %s", resultText(a.res), data)
	}
	if !f.renamed(t) {
		t.Fatal("answered applied, yet the files are unchanged")
	}
}

// stdioStoppedWhileRenaming starts `lspseam mcp` on stdio (with env
// added to its environment), starts code_rename, and sends SIGTERM once
// the fake server holds the rename: the process, its stderr, the session
// and the call's answer to come.
func (f drainFixture) stdioStoppedWhileRenaming(t *testing.T, ctx context.Context, env ...string) (*exec.Cmd, *syncBuffer, *mcp.ClientSession, <-chan callAnswer) {
	t.Helper()
	cmd, stderr := f.command("--tools", "lsp,code,refactor")
	cmd.Env = append(cmd.Env, env...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("lspseam stderr:\n%s", stderr.String())
		}
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "drain-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	call := startCall(ctx, cs, "code_rename", drainRenameArgs)
	f.renameHeld(t)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr, cs, call
}

// stdio: SIGTERM while code_rename runs.
func TestDrainStdio(t *testing.T) {
	f := newDrainFixture(t, false)
	ctx := testContext(t)
	cmd, stderr, cs, call := f.stdioStoppedWhileRenaming(t, ctx)
	awaitStopping(t, stderr.String, call)
	checkRefusedWhileStopping(t, ctx, cs)
	f.release(t)
	f.checkApplied(t, call)
	// Then the session ends and the process exits, having cut nothing off.
	// (The SDK's client waits for the process when the session closes.)
	cs.Wait()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitOK {
		t.Errorf("lspseam mcp after SIGTERM: %v", cmd.ProcessState)
	}
	if out := stderr.String(); strings.Contains(out, "cut off") || !strings.Contains(out, "stopping: every call in flight has answered") {
		t.Errorf("stderr should say the call in flight answered and nothing was cut off:\n%s", out)
	}
}

// stdio, a call that outlives the grace: its client is answered that it
// was cut off, with what became of its change, before the session closes.
func TestDrainStdioCutOff(t *testing.T) {
	f := newDrainFixture(t, true)
	ctx := testContext(t)
	_, _, cs, call := f.stdioStoppedWhileRenaming(t, ctx, "LSPSEAM_TEST_DRAIN_GRACE=200ms")
	checkCutOffAnswer(t, <-call, "it had changed no file (not applied)")
	cs.Wait()
	if f.renamed(t) {
		t.Error("answered not applied, yet the files changed")
	}
}

// httpSession connects an MCP client to s with the token in tokenFile.
func httpSession(t *testing.T, ctx context.Context, s httpServer, tokenFile string) *mcp.ClientSession {
	t.Helper()
	return connectHTTP(t, ctx, s.url, readTokenFile(t, tokenFile))
}

// mcp --http: SIGTERM while code_rename runs; the process stops once the
// call has answered, and says it cut nothing off.
func TestDrainHTTP(t *testing.T) {
	f := newDrainFixture(t, false)
	ctx := testContext(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	s := f.startHTTP(t, ctx, "--token-file", tokenFile, "--tools", "lsp,code,refactor")
	cs := httpSession(t, ctx, s, tokenFile)
	defer cs.Close()
	call := startCall(ctx, cs, "code_rename", drainRenameArgs)
	f.renameHeld(t)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	awaitStopping(t, s.stderr.String, call)
	checkRefusedWhileStopping(t, ctx, cs)
	f.release(t)
	f.checkApplied(t, call)
	select {
	case <-s.exited:
	case <-ctx.Done():
		t.Fatal("lspseam mcp --http did not exit after its call answered")
	}
	if out := s.stderr.String(); !strings.Contains(out, "lspseam mcp: stopped: closed 1 open session\n") {
		t.Errorf("stderr should say the session was closed with nothing cut off:\n%s", out)
	}
}

// mcp --http, a call that outlives the grace (its server ignores the
// cancellation): it is cut off, its client is answered that it was (before
// the HTTP server closes: it got an empty 200 before) with what became of
// its change, the log names it with the same outcome, and stderr says
// requests were cut off.
func TestDrainHTTPCutOff(t *testing.T) {
	f := newDrainFixture(t, true)
	ctx := testContext(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	cmd, stderr := f.command("--http", "127.0.0.1:0", "--token-file", tokenFile, "--tools", "lsp,code,refactor")
	// A grace the test's own budget can wait out many times over.
	cmd.Env = append(cmd.Env, "LSPSEAM_TEST_DRAIN_GRACE=200ms")
	s := startHTTPProcess(t, ctx, cmd, stderr)
	cs := httpSession(t, ctx, s, tokenFile)
	defer cs.Close()
	call := startCall(ctx, cs, "code_rename", drainRenameArgs)
	f.renameHeld(t)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.exited:
	case <-ctx.Done():
		t.Fatal("lspseam mcp --http did not exit after the grace")
	}
	out := stderr.String()
	for _, want := range []string{
		"stopping: code_rename was cut off after the 200ms grace, and its client is answered so: it had changed no file (not applied)",
		`arguments="{\"target\":{\"path\":\"a.go\",\"symbol\":\"Hello\"},\"newName\":\"Greet\"}"`,
		"lspseam mcp: stopped: closed 1 open session; requests still in flight after 200ms were cut off\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr should hold %q:\n%s", want, out)
		}
	}
	checkCutOffAnswer(t, <-call, "it had changed no file (not applied)")
	if f.renamed(t) {
		t.Error("said not applied, yet the files changed")
	}
}

// checkCutOffAnswer: a call cut off by the stop got the structured error
// that says so, with outcome, what became of its change.
func checkCutOffAnswer(t *testing.T, a callAnswer, outcome string) {
	t.Helper()
	if a.err != nil || a.res == nil {
		t.Fatalf("a call cut off by the stop got no answer (%v): its client cannot tell what became of its change", a.err)
	}
	var s struct {
		Error struct{ Code, Message, Reason string } `json:"error"`
	}
	data, _ := json.Marshal(a.res.StructuredContent)
	json.Unmarshal(data, &s)
	if !a.res.IsError || s.Error.Code != "LSP_CANCELLED" || s.Error.Reason != "stopped" ||
		!strings.HasPrefix(s.Error.Message, "lspseam stopped (SIGTERM or SIGINT) while this code_rename call ran, and cut it off after the 200ms grace: "+outcome+";") ||
		!strings.HasPrefix(resultText(a.res), "LSP_CANCELLED: lspseam stopped") {
		t.Fatalf("a call cut off should be answered LSP_CANCELLED (reason stopped) naming %q: isError=%v %s (structured %s)", outcome, a.res.IsError, resultText(a.res), data)
	}
}

// What the log says of a call cut off, by what its writes had done.
func TestDrainCutOffOutcome(t *testing.T) {
	var log bytes.Buffer
	d := newDrain(slog.New(slog.NewTextHandler(&log, nil)))
	for _, tc := range []struct {
		name  string
		calls func(c *drainCall)
		want  string
	}{
		{"no write", func(*drainCall) {}, "it had changed no file (not applied)"},
		{"applied", func(c *drainCall) { c.Writing([]string{"a.go", "b.go"}); c.Wrote([]string{"a.go", "b.go"}, nil) }, "its change of 2 files (a.go, b.go) was applied"},
		{"refused", func(c *drainCall) {
			c.Writing([]string{"a.go"})
			c.Wrote([]string{"a.go"}, os.ErrPermission)
		}, "a write it made failed and was not applied (permission denied)"},
		{"underway", func(c *drainCall) { c.Writing([]string{"a.go"}) }, "its change of 1 file (a.go) was still being written when lspseam exited: its write journal finishes it (or undoes it, if it had not committed) at the next lspseam change in that workspace, or now with lspseam doctor"},
	} {
		_, c, err := d.begin(context.Background(), "code_rename", []byte(`{}`), "")
		if err != nil {
			t.Fatal(err)
		}
		tc.calls(c)
		d.mu.Lock()
		got := c.outcomeLocked()
		d.mu.Unlock()
		c.end()
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if d.stop("a test"); !d.isStopping() {
		t.Fatal("not stopping after stop")
	}
	if _, _, err := d.begin(context.Background(), "code_rename", nil, ""); err == nil || !strings.Contains(err.Error(), "lspseam is stopping (a test)") {
		t.Errorf("a call after the stop: %v", err)
	}
	if cut := d.settle(); cut != 0 {
		t.Errorf("settle with nothing in flight cut %d", cut)
	}
}
