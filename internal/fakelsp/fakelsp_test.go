package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestFakeLSP drives the real binary (built once by testenv) as a process
// over pipes in parallel subtests.
func TestFakeLSP(t *testing.T) {
	bin := testenv.FakeLSP(t)
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, string)
	}{
		{"InitializeCustomCapabilities", testInitializeCustomCapabilities},
		{"DefaultsWithoutScript", testDefaultsWithoutScript},
		{"EchoPosition", testEchoPosition},
		{"HangThenCancel", testHangThenCancel},
		{"IgnoreCancel", testIgnoreCancel},
		{"CrashExitCodeAndStderr", testCrash},
		{"ErrorAction", testErrorAction},
		{"Garbage", testGarbage},
		{"Truncated", testTruncated},
		{"Oversized", testOversized},
		{"InvalidJSON", testInvalidJSON},
		{"BeforeServerRequestAndNotification", testBeforeServerRequest},
		{"WorkDoneProgress", testWorkDoneProgress},
		{"WaitingNotificationKeepsReading", testWaitingNotificationKeepsReading},
		{"EnvFromEnvironmentVariables", testEnvRecorded},
		{"Violations", testViolations},
		{"DocumentChangesAndEchoText", testDocumentChanges},
		{"ShutdownExit", testShutdownExit},
		{"ExitDuringInitialize", testExitDuringInitialize},
		{"IgnoreShutdownAndSigterm", testIgnoreShutdownAndSigterm},
		{"SigtermDefault", testSigtermDefault},
		{"StderrFlood", testStderrFlood},
		{"OnDidOpenCrash", testOnDidOpenCrash},
		{"OnDidOpenStopReading", testOnDidOpenStopReading},
		{"BadScript", testBadScript},
		{"ResultsInTurn", testResultsInTurn},
		{"ResultAndResultsExclusive", testResultAndResultsExclusive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, bin)
		})
	}
}

// ---- a tiny LSP client ----

type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// stream collects everything the process writes to one pipe.
type stream struct {
	mu     sync.Mutex
	buf    []byte
	eof    bool
	notify chan struct{}
}

func newStream(r io.Reader) *stream {
	s := &stream{notify: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 64*1024)
		for {
			n, err := r.Read(b)
			s.mu.Lock()
			s.buf = append(s.buf, b[:n]...)
			if err != nil {
				s.eof = true
			}
			s.mu.Unlock()
			select {
			case s.notify <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// waitFor calls check with the bytes collected so far until it reports
// done or the timeout passes.
func (s *stream) waitFor(timeout time.Duration, check func(buf []byte, eof bool) bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := check(s.buf, s.eof)
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-s.notify:
		case <-deadline.C:
			return false
		}
	}
}

// lockedBuffer is an io.Writer safe to read while the process runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type proc struct {
	t       *testing.T
	cmd     *exec.Cmd
	stdin   *os.File
	out     *stream
	pos     int // bytes of out consumed by next/raw
	stderr  *lockedBuffer
	logPath string
	done    chan struct{}
	nextID  int
}

type startOpts struct {
	useEnv bool     // pass script/log through FAKELSP_* instead of flags
	env    []string // extra environment
	args   []string // extra arguments
	dir    string
}

func start(t *testing.T, bin, script string, o startOpts) *proc {
	t.Helper()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "log.jsonl")
	scriptPath := ""
	if script != "" {
		scriptPath = filepath.Join(dir, "script.json")
		if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string(nil), o.args...)
	env := append(os.Environ(), o.env...)
	if o.useEnv {
		env = append(env, "FAKELSP_SCRIPT="+scriptPath, "FAKELSP_LOG="+logPath)
	} else {
		if scriptPath != "" {
			args = append(args, "--script", scriptPath)
		}
		args = append(args, "--log", logPath)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = o.dir
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	p := &proc{t: t, cmd: cmd, stdin: inW, out: newStream(outR), stderr: stderr, logPath: logPath, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
		inW.Close()
		outR.Close()
	})
	return p
}

func (p *proc) write(v any) {
	p.t.Helper()
	if err := p.tryWrite(v); err != nil {
		p.t.Fatalf("write to fake server: %v", err)
	}
}

// tryWrite writes one message and returns the write's error, for a server
// that may already have exited (a broken pipe is then expected).
func (p *proc) tryWrite(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	_, err = fmt.Fprintf(p.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

func (p *proc) request(method string, params any) int {
	p.t.Helper()
	p.nextID++
	p.write(map[string]any{"jsonrpc": "2.0", "id": p.nextID, "method": method, "params": params})
	return p.nextID
}

func (p *proc) notify(method string, params any) {
	p.t.Helper()
	p.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (p *proc) respond(id json.RawMessage, result any) {
	p.t.Helper()
	p.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// parseFrame parses one frame at the start of buf, returning the body and
// the frame length, or ok=false when buf does not hold a full frame yet.
func parseFrame(buf []byte) (body []byte, n int, ok bool, err error) {
	end := bytes.Index(buf, []byte("\r\n\r\n"))
	if end < 0 {
		return nil, 0, false, nil
	}
	length := -1
	for _, line := range strings.Split(string(buf[:end]), "\r\n") {
		name, value, found := strings.Cut(line, ":")
		if !found {
			return nil, 0, false, fmt.Errorf("bad header line %q", line)
		}
		if strings.EqualFold(name, "Content-Length") {
			length, err = strconv.Atoi(strings.TrimSpace(value))
			if err != nil {
				return nil, 0, false, fmt.Errorf("bad Content-Length %q", value)
			}
		}
	}
	if length < 0 {
		return nil, 0, false, fmt.Errorf("no Content-Length")
	}
	total := end + 4 + length
	if len(buf) < total {
		return nil, 0, false, nil
	}
	return buf[end+4 : total], total, true, nil
}

// nextBody returns the next framed body the server wrote.
func (p *proc) nextBody() []byte {
	p.t.Helper()
	var body []byte
	var perr error
	var eof bool
	ok := p.out.waitFor(testenv.StepBudget(p.t), func(buf []byte, e bool) bool {
		b, n, ok, err := parseFrame(buf[p.pos:])
		if err != nil {
			perr = err
			return true
		}
		if ok {
			body = append([]byte(nil), b...)
			p.pos += n
			return true
		}
		eof = e
		return e
	})
	switch {
	case perr != nil:
		p.t.Fatalf("bad framing from fake server: %v", perr)
	case !ok:
		p.t.Fatalf("timed out waiting for a message; stderr: %s", p.stderr.String())
	case body == nil && eof:
		p.t.Fatalf("fake server closed stdout; stderr: %s", p.stderr.String())
	}
	return body
}

func (p *proc) next() msg {
	p.t.Helper()
	body := p.nextBody()
	var m msg
	if err := json.Unmarshal(body, &m); err != nil {
		p.t.Fatalf("message is not JSON: %v: %s", err, body)
	}
	return m
}

// raw waits until exactly n more bytes (or EOF) arrived and returns the
// rest of the output once the stream ends or n bytes are present.
func (p *proc) rawN(n int) []byte {
	p.t.Helper()
	var out []byte
	if !p.out.waitFor(testenv.StepBudget(p.t), func(buf []byte, eof bool) bool {
		if len(buf)-p.pos >= n || eof {
			out = append([]byte(nil), buf[p.pos:]...)
			return true
		}
		return false
	}) {
		p.t.Fatalf("timed out waiting for %d raw bytes", n)
	}
	p.pos += len(out)
	return out
}

// stdoutEOF waits for the server's stdout to close and returns what is left.
func (p *proc) stdoutEOF() []byte {
	p.t.Helper()
	var out []byte
	if !p.out.waitFor(testenv.StepBudget(p.t), func(buf []byte, eof bool) bool {
		out = append([]byte(nil), buf[p.pos:]...)
		return eof
	}) {
		p.t.Fatal("timed out waiting for stdout to close")
	}
	p.pos += len(out)
	return out
}

func (p *proc) wait() int {
	p.t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(testenv.StepBudget(p.t)):
		p.t.Fatal("fake server did not exit")
		return 0
	}
}

func (p *proc) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

func (p *proc) initialize() msg {
	p.t.Helper()
	id := p.request("initialize", map[string]any{"processId": nil, "rootUri": "file:///w", "capabilities": map[string]any{}})
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) || m.Error != nil {
		p.t.Fatalf("initialize answer: %+v", m)
	}
	p.notify("initialized", map[string]any{})
	return m
}

func (p *proc) open(uri string) {
	p.t.Helper()
	p.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": "package a\n"}})
}

func (p *proc) close(uri string) {
	p.t.Helper()
	p.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

func posParams(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

// barrier sends an unknown request and waits for its answer: every message
// sent before it has then been read and logged by the server.
func (p *proc) barrier() {
	p.t.Helper()
	id := p.request("fakelsp/test-barrier", nil)
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) || m.Error == nil || m.Error.Code != -32601 {
		p.t.Fatalf("barrier: want MethodNotFound for id %d, got %+v", id, m)
	}
}

type logLine map[string]any

func (p *proc) logLines() []logLine {
	p.t.Helper()
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		p.t.Fatal(err)
	}
	var lines []logLine
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		var ll logLine
		if err := json.Unmarshal([]byte(l), &ll); err != nil {
			p.t.Fatalf("log line is not JSON: %v: %q", err, l)
		}
		if int(ll["pid"].(float64)) != p.cmd.Process.Pid {
			p.t.Fatalf("log line pid %v, want %d", ll["pid"], p.cmd.Process.Pid)
		}
		lines = append(lines, ll)
	}
	return lines
}

func (p *proc) events(name string) []logLine {
	var out []logLine
	for _, l := range p.logLines() {
		if l["event"] == name {
			out = append(out, l)
		}
	}
	return out
}

// waitEvent polls the log until pred matches a line.
func (p *proc) waitEvent(pred func(logLine) bool) logLine {
	p.t.Helper()
	deadline := time.Now().Add(testenv.StepBudget(p.t))
	for time.Now().Before(deadline) {
		for _, l := range p.logLines() {
			if pred(l) {
				return l
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.t.Fatalf("log event not found; log:\n%v", p.logLines())
	return nil
}

// waitEvents polls the log until it holds n lines of event name.
func (p *proc) waitEvents(name string, n int) []logLine {
	p.t.Helper()
	deadline := time.Now().Add(testenv.StepBudget(p.t))
	for {
		if ev := p.events(name); len(ev) >= n {
			return ev
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%d %q log events not found; log:\n%v", n, name, p.logLines())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func jsonEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: not JSON: %v: %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad expectation: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func asJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// ---- tests ----

func testInitializeCustomCapabilities(t *testing.T, bin string) {
	p := start(t, bin, `{
		"capabilities": {"hoverProvider": true, "textDocumentSync": {"openClose": true, "change": 2}},
		"positionEncoding": "utf-8"
	}`, startOpts{})
	m := p.initialize()
	jsonEqual(t, "initialize result", m.Result, `{
		"capabilities": {"hoverProvider": true, "textDocumentSync": {"openClose": true, "change": 2}, "positionEncoding": "utf-8"},
		"serverInfo": {"name": "fakelsp", "version": "0.1.0"}
	}`)
	p.barrier()
	recv := p.events("recv")
	if len(recv) < 2 || recv[0]["method"] != "initialize" || recv[1]["method"] != "initialized" {
		t.Fatalf("recv events: %v", recv)
	}
	jsonEqual(t, "logged initialize params", asJSON(recv[0]["params"]), `{"processId": null, "rootUri": "file:///w", "capabilities": {}}`)
	if v := p.events("violation"); len(v) != 0 {
		t.Fatalf("unexpected violations: %v", v)
	}
}

func testDefaultsWithoutScript(t *testing.T, bin string) {
	p := start(t, bin, "", startOpts{})
	m := p.initialize()
	jsonEqual(t, "default capabilities", m.Result, `{
		"capabilities": {"textDocumentSync":1,"definitionProvider":true,"referencesProvider":true,"implementationProvider":true,"hoverProvider":true},
		"serverInfo": {"name": "fakelsp", "version": "0.1.0"}
	}`)
	p.open("file:///w/a.go")
	for _, method := range []string{"textDocument/definition", "textDocument/references", "textDocument/implementation", "textDocument/hover"} {
		id := p.request(method, posParams("file:///w/a.go", 0, 0))
		m := p.next()
		if string(m.ID) != strconv.Itoa(id) || string(m.Result) != "null" || m.Error != nil {
			t.Fatalf("%s: want null result for id %d, got %+v (result %s)", method, id, m, m.Result)
		}
	}
	id := p.request("textDocument/typeDefinition", posParams("file:///w/a.go", 0, 0))
	m = p.next()
	if string(m.ID) != strconv.Itoa(id) || m.Error == nil || m.Error.Code != -32601 {
		t.Fatalf("unknown method: want -32601, got %+v", m)
	}
}

func testEchoPosition(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {
		"textDocument/definition": {"action": "reply", "result": "$echoPosition", "delayMs": 50},
		"textDocument/implementation": {"result": "$echoPosition", "delayMs": 3600000},
		"textDocument/hover": {"result": "$echoPosition"}
	}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	// A delayed request is answered once its delay has passed.
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 3, 7))
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) {
		t.Fatalf("id %s, want %d", m.ID, id)
	}
	jsonEqual(t, "definition", m.Result, `[{"uri":"file:///w/a.go","range":{"start":{"line":3,"character":7},"end":{"line":3,"character":7}}}]`)
	// delayMs holds the answer back (checked by order, not by a clock): a
	// later request is answered first, and a cancellation during the
	// delay answers -32800.
	delayed := p.request("textDocument/implementation", posParams("file:///w/a.go", 4, 1))
	p.barrier()
	p.notify("$/cancelRequest", map[string]any{"id": delayed})
	if m := p.next(); string(m.ID) != strconv.Itoa(delayed) || m.Error == nil || m.Error.Code != -32800 {
		t.Fatalf("want RequestCancelled (-32800) for the delayed id %d, got %+v (result %s)", delayed, m, m.Result)
	}
	p.request("textDocument/hover", posParams("file:///w/a.go", 1, 2))
	jsonEqual(t, "hover", p.next().Result, `{"contents":{"kind":"plaintext","value":"file:///w/a.go:1:2"},"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":2}}}`)
}

func testHangThenCancel(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/references": {"action": "hang"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	hung := p.request("textDocument/references", posParams("file:///w/a.go", 0, 0))
	// The hung request must not be answered: the next answer is the barrier's.
	p.barrier()
	p.notify("$/cancelRequest", map[string]any{"id": hung})
	m := p.next()
	if string(m.ID) != strconv.Itoa(hung) || m.Error == nil || m.Error.Code != -32800 || m.Result != nil {
		t.Fatalf("want RequestCancelled (-32800) for id %d, got %+v", hung, m)
	}
	p.waitEvent(func(l logLine) bool { return l["event"] == "cancelled" && l["id"] == float64(hung) })
}

func testIgnoreCancel(t *testing.T, bin string) {
	p := start(t, bin, `{"ignoreCancel": true, "methods": {"textDocument/references": {"action": "hang"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	hung := p.request("textDocument/references", posParams("file:///w/a.go", 0, 0))
	p.notify("$/cancelRequest", map[string]any{"id": hung})
	l := p.waitEvent(func(l logLine) bool { return l["event"] == "cancelIgnored" })
	if l["reason"] != "ignoreCancel" || l["id"] != float64(hung) {
		t.Fatalf("cancelIgnored event: %v", l)
	}
	// Ordering barrier: the cancel has been handled; a request sent now is
	// answered, and nothing for the hung request may come before that
	// answer (barrier fails on any other message).
	p.barrier()
	if ev := p.events("cancelled"); len(ev) != 0 {
		t.Fatalf("cancel was not ignored: %v", ev)
	}
}

func testCrash(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/hover": {"action": "crash", "exitCode": 2, "stderr": "panic: boom"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	p.request("textDocument/hover", posParams("file:///w/a.go", 0, 0))
	if code := p.wait(); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if got := p.stderr.String(); got != "panic: boom" {
		t.Fatalf("stderr %q, want %q", got, "panic: boom")
	}
	if rest := p.stdoutEOF(); len(rest) != 0 {
		t.Fatalf("crash answered the request: %q", rest)
	}
	ev := p.events("exit")
	if len(ev) != 1 || ev[0]["code"] != float64(2) || ev[0]["reason"] != "crash action" {
		t.Fatalf("exit events: %v", ev)
	}
}

func testErrorAction(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/implementation": {"action": "error", "code": -32603, "message": "internal"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/implementation", posParams("file:///w/a.go", 0, 0))
	body := p.nextBody()
	jsonEqual(t, "error response", body, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32603,"message":"internal"}}`, id))
}

func testGarbage(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"action": "garbage"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0))
	want := "Content-Length: abc\r\n\r\n{{{"
	if got := p.rawN(len(want)); string(got) != want {
		t.Fatalf("garbage bytes %q, want %q", got, want)
	}
	// It keeps running and reading.
	p.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"k": 1}})
	p.waitEvent(func(l logLine) bool { return l["event"] == "recv" && l["method"] == "workspace/didChangeConfiguration" })
	if !p.alive() {
		t.Fatal("server exited after garbage")
	}
}

func testTruncated(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"action": "truncated"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0))
	got := p.stdoutEOF()
	partial := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, id)
	want := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(partial)+100, partial)
	if string(got) != want {
		t.Fatalf("truncated output %q, want %q", got, want)
	}
	if code := p.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
}

func testOversized(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"action": "oversized", "size": 300000}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0))
	body := p.nextBody()
	if len(body) != 300000 {
		t.Fatalf("body is %d bytes, want 300000", len(body))
	}
	var m struct {
		ID     int    `json:"id"`
		Result string `json:"result"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.ID != id || strings.Trim(m.Result, "x") != "" {
		t.Fatalf("oversized body is not a valid response for id %d: %v", id, err)
	}
}

func testInvalidJSON(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"action": "invalidJSON"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0))
	body := p.nextBody()
	if want := "this is not JSON {" + strconv.Itoa(id); string(body) != want {
		t.Fatalf("body %q, want %q", body, want)
	}
	if json.Valid(body) {
		t.Fatal("body is valid JSON")
	}
	p.barrier() // still running and framing correctly afterwards
}

func testBeforeServerRequest(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {
		"result": [{"uri": "file:///w/b.go", "range": {"start": {"line": 9, "character": 1}, "end": {"line": 9, "character": 4}}}],
		"before": [
			{"serverRequest": "workspace/configuration", "params": {"items": [{"section": "gopls"}]}},
			{"notification": "window/logMessage", "params": {"type": 3, "message": "hi"}}
		]
	}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 2, 2))
	req := p.next()
	if req.Method != "workspace/configuration" || len(req.ID) == 0 {
		t.Fatalf("want workspace/configuration request, got %+v", req)
	}
	jsonEqual(t, "configuration params", req.Params, `{"items": [{"section": "gopls"}]}`)
	// The server waits for the response: a request sent now is answered
	// before anything else of the definition (barrier fails on any other
	// message, such as the logMessage that follows the response).
	p.barrier()
	for _, l := range p.events("send") {
		if l["method"] == "window/logMessage" {
			t.Fatalf("server did not wait for the configuration response: it sent %v", l)
		}
	}
	p.respond(req.ID, []any{map[string]any{"a": 1}})
	note := p.next()
	if note.Method != "window/logMessage" || note.ID != nil {
		t.Fatalf("want window/logMessage notification, got %+v", note)
	}
	jsonEqual(t, "logMessage params", note.Params, `{"type": 3, "message": "hi"}`)
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) {
		t.Fatalf("answer id %s, want %d", m.ID, id)
	}
	jsonEqual(t, "definition", m.Result, `[{"uri": "file:///w/b.go", "range": {"start": {"line": 9, "character": 1}, "end": {"line": 9, "character": 4}}}]`)
	var reqID any
	_ = json.Unmarshal(req.ID, &reqID)
	l := p.waitEvent(func(l logLine) bool { return l["event"] == "recv" && l["kind"] == "response" })
	if l["id"] != reqID || l["responseTo"] != "workspace/configuration" {
		t.Fatalf("logged response: %v", l)
	}
	jsonEqual(t, "logged response result", asJSON(l["result"]), `[{"a": 1}]`)
}

func testWorkDoneProgress(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/references": {
		"result": [],
		"before": [
			{"workDoneProgress": "begin", "token": "t1", "title": "Indexing"},
			{"workDoneProgress": "end", "token": "t1"}
		]
	}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	id := p.request("textDocument/references", posParams("file:///w/a.go", 0, 0))
	create := p.next()
	if create.Method != "window/workDoneProgress/create" {
		t.Fatalf("want workDoneProgress/create, got %+v", create)
	}
	jsonEqual(t, "create params", create.Params, `{"token":"t1"}`)
	p.respond(create.ID, nil)
	begin := p.next()
	if begin.Method != "$/progress" {
		t.Fatalf("want $/progress, got %+v", begin)
	}
	jsonEqual(t, "begin", begin.Params, `{"token":"t1","value":{"kind":"begin","title":"Indexing"}}`)
	end := p.next()
	jsonEqual(t, "end", end.Params, `{"token":"t1","value":{"kind":"end"}}`)
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) || string(m.Result) != "[]" {
		t.Fatalf("answer: %+v", m)
	}
}

// testWaitingNotificationKeepsReading: a notification whose steps wait
// runs off the reading loop — a request sent after it is answered while it
// waits, and its later steps still run.
func testWaitingNotificationKeepsReading(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {
		"custom/slow": {"action": "none", "after": [{"sleepMs": 3600000}, {"notification": "custom/never", "params": {}}]},
		"custom/soon": {"action": "none", "after": [{"sleepMs": 1}, {"notification": "custom/done", "params": {}}]}
	}}`, startOpts{})
	p.initialize()
	p.notify("custom/slow", map[string]any{})
	p.notify("custom/soon", map[string]any{})
	if m := p.next(); m.Method != "custom/done" {
		t.Fatalf("want custom/done from the second notification's steps, got %+v", m)
	}
	p.barrier()
}

func testEnvRecorded(t *testing.T, bin string) {
	dir := t.TempDir()
	p := start(t, bin, `{}`, startOpts{useEnv: true, env: []string{"FAKELSP_TEST_VAR=hello=world"}, args: []string{"--stdio"}, dir: dir})
	p.initialize()
	p.barrier()
	st := p.events("start")
	if len(st) != 1 {
		t.Fatalf("start events: %v", st)
	}
	env, _ := st[0]["env"].(map[string]any)
	if env["FAKELSP_TEST_VAR"] != "hello=world" {
		t.Fatalf("env FAKELSP_TEST_VAR = %v", env["FAKELSP_TEST_VAR"])
	}
	if env["FAKELSP_LOG"] != p.logPath {
		t.Fatalf("env FAKELSP_LOG = %v, want %s", env["FAKELSP_LOG"], p.logPath)
	}
	if env["PATH"] != os.Getenv("PATH") {
		t.Fatalf("env PATH = %v, want the inherited value", env["PATH"])
	}
	jsonEqual(t, "args", asJSON(st[0]["args"]), string(asJSON([]string{bin, "--stdio"})))
	if st[0]["script"] != filepath.Join(filepath.Dir(p.logPath), "script.json") {
		t.Fatalf("script from FAKELSP_SCRIPT not used: %v", st[0]["script"])
	}
	gotCwd, _ := filepath.EvalSymlinks(st[0]["cwd"].(string))
	wantCwd, _ := filepath.EvalSymlinks(dir)
	if gotCwd != wantCwd {
		t.Fatalf("cwd %q, want %q", gotCwd, wantCwd)
	}
}

func testViolations(t *testing.T, bin string) {
	p := start(t, bin, "", startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	p.open("file:///w/b.go") // a is still open
	p.close("file:///w/b.go")
	p.close("file:///w/a.go")
	p.open("file:///w/c.go")
	id := p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0)) // a is closed
	if m := p.next(); string(m.ID) != strconv.Itoa(id) || string(m.Result) != "null" {
		t.Fatalf("definition answer: %+v", m)
	}
	p.close("file:///w/c.go")
	p.barrier()
	var got []string
	for _, v := range p.events("violation") {
		got = append(got, fmt.Sprintf("%v %v %v", v["violation"], v["uri"], v["open"]))
	}
	want := []string{
		"request for a document that is not open file:///w/a.go [file:///w/c.go]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("violations:\n got %q\nwant %q", got, want)
	}
}

func testDocumentChanges(t *testing.T, bin string) {
	p := start(t, bin, `{"methods":{"textDocument/hover":{"result":"$echoText"}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	p.open("file:///w/b.go") // several open documents are fine
	change := func(uri string, version int, text string) {
		p.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"text": text}},
		})
	}
	change("file:///w/a.go", 2, "package a // v2\n")
	change("file:///w/a.go", 2, "package a // again\n") // version did not increase
	change("file:///w/c.go", 5, "x")                    // not open
	id := p.request("textDocument/hover", posParams("file:///w/a.go", 0, 0))
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) || !strings.Contains(string(m.Result), `package a // again\n`) {
		t.Fatalf("hover should echo the last full text: %s", m.Result)
	}
	p.barrier()
	var got []string
	for _, v := range p.events("violation") {
		got = append(got, fmt.Sprintf("%v %v", v["violation"], v["uri"]))
	}
	want := []string{
		"document version did not increase file:///w/a.go",
		"change of a document that is not open file:///w/c.go",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("violations:\n got %q\nwant %q", got, want)
	}
}

func testShutdownExit(t *testing.T, bin string) {
	p := start(t, bin, "", startOpts{})
	p.initialize()
	id := p.request("shutdown", nil)
	m := p.next()
	if string(m.ID) != strconv.Itoa(id) || string(m.Result) != "null" || m.Error != nil {
		t.Fatalf("shutdown answer: %+v", m)
	}
	p.notify("exit", nil)
	if code := p.wait(); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
	lines := p.logLines()
	last := lines[len(lines)-1]
	if last["event"] != "exit" || last["code"] != float64(0) || last["reason"] != "exit notification" {
		t.Fatalf("last log line: %v", last)
	}
	if v := p.events("violation"); len(v) != 0 {
		t.Fatalf("unexpected violations: %v", v)
	}
}

func testExitDuringInitialize(t *testing.T, bin string) {
	p := start(t, bin, `{"initialize": {"action": "exit", "exitCode": 3}}`, startOpts{})
	p.request("initialize", map[string]any{})
	if code := p.wait(); code != 3 {
		t.Fatalf("exit code %d, want 3", code)
	}
	if out := p.stdoutEOF(); len(out) != 0 {
		t.Fatalf("initialize was answered: %q", out)
	}
}

func testIgnoreShutdownAndSigterm(t *testing.T, bin string) {
	p := start(t, bin, `{"ignoreShutdown": true, "ignoreSigterm": true}`, startOpts{})
	p.initialize()
	p.request("shutdown", nil)
	p.notify("exit", nil)
	p.waitEvent(func(l logLine) bool { return l["event"] == "ignored" && l["what"] == "exit" })
	// Ordering barrier: the shutdown before it was handled, and its answer
	// would have come first (barrier fails on any other message).
	p.barrier()
	p.stdin.Close()
	p.waitEvent(func(l logLine) bool { return l["event"] == "ignored" && l["what"] == "stdin closed" })
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	l := p.waitEvent(func(l logLine) bool { return l["event"] == "signal" })
	if l["signal"] != "terminated" || l["ignored"] != true {
		t.Fatalf("signal event: %v", l)
	}
	// Ordering barrier: a second SIGTERM is logged only by a process that
	// survived the first (one that honoured it re-raises it and dies
	// before it can log again).
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitEvents("signal", 2)
	if !p.alive() {
		t.Fatal("server died despite ignoreShutdown/ignoreSigterm")
	}
	_ = p.cmd.Process.Kill()
	p.wait()
	if ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("wait status %v, want killed by SIGKILL", p.cmd.ProcessState)
	}
	if out := p.stdoutEOF(); len(out) != 0 {
		t.Fatalf("the server wrote after the barrier (shutdown answered?): %q", out)
	}
}

func testSigtermDefault(t *testing.T, bin string) {
	p := start(t, bin, "", startOpts{})
	p.initialize()
	p.barrier()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.wait()
	if ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("wait status %v, want killed by SIGTERM", p.cmd.ProcessState)
	}
	ev := p.events("signal")
	if len(ev) != 1 || ev[0]["ignored"] != false {
		t.Fatalf("signal events: %v", ev)
	}
}

func testStderrFlood(t *testing.T, bin string) {
	p := start(t, bin, `{"stderrAtStart": 1000, "methods": {"textDocument/definition": {"stderrBytes": 200000}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	p.request("textDocument/definition", posParams("file:///w/a.go", 0, 0))
	p.next()
	p.request("shutdown", nil)
	p.next()
	p.notify("exit", nil)
	if code := p.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	got := p.stderr.String()
	if len(got) != 201000 {
		t.Fatalf("stderr has %d bytes, want 201000", len(got))
	}
	if strings.Trim(got, "x\n") != "" || !strings.HasPrefix(got, strings.Repeat("x", 79)+"\n") {
		t.Fatalf("stderr filler is not lines of x: %q...", got[:100])
	}
}

func testOnDidOpenCrash(t *testing.T, bin string) {
	p := start(t, bin, `{"onDidOpen": {"action": "crash", "exitCode": 7, "stderr": "fatal: didOpen"}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	// The server may exit before this request is written (a broken pipe);
	// either way the request must go unanswered.
	_ = p.tryWrite(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "textDocument/definition", "params": posParams("file:///w/a.go", 0, 0)})
	if code := p.wait(); code != 7 {
		t.Fatalf("exit code %d, want 7", code)
	}
	if got := p.stderr.String(); got != "fatal: didOpen" {
		t.Fatalf("stderr %q", got)
	}
	if out := p.stdoutEOF(); len(out) != 0 {
		t.Fatalf("request after crashing didOpen was answered: %q", out)
	}
}

func testOnDidOpenStopReading(t *testing.T, bin string) {
	p := start(t, bin, `{"onDidOpen": {"action": "stopReading"}}`, startOpts{})
	p.initialize()
	// didOpen and the request in one write: the request is in the server's
	// read buffer when didOpen stops the reading loop.
	var both bytes.Buffer
	for _, m := range []map[string]any{
		{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": "file:///w/a.go", "languageId": "go", "version": 1, "text": "package a\n"}}},
		{"jsonrpc": "2.0", "id": 99, "method": "textDocument/definition", "params": posParams("file:///w/a.go", 0, 0)},
	} {
		body, _ := json.Marshal(m)
		fmt.Fprintf(&both, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if _, err := p.stdin.Write(both.Bytes()); err != nil {
		t.Fatal(err)
	}
	p.waitEvent(func(l logLine) bool { return l["event"] == "stopReading" })
	// A server that stopped reading answers nothing, so no later request
	// can serve as a barrier. Instead the process is ended right away and
	// the complete record is checked: its whole output and its whole log.
	// A reading loop that went on would parse the buffered request without
	// waiting for input.
	if !p.alive() {
		t.Fatal("server exited after stopReading")
	}
	_ = p.cmd.Process.Kill()
	p.wait()
	if ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("wait status %v, want killed by SIGKILL (alive until then)", p.cmd.ProcessState)
	}
	if out := p.stdoutEOF(); len(out) != 0 {
		t.Fatalf("server answered after stopReading: %q", out)
	}
	lines := p.logLines()
	if last := lines[len(lines)-1]; last["event"] != "stopReading" {
		t.Fatalf("the server went on after stopReading: last log line %v", last)
	}
	for _, l := range p.events("recv") {
		if l["method"] == "textDocument/definition" {
			t.Fatal("server read a message after stopReading")
		}
	}
}

func testBadScript(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"acton": "reply"}}}`, startOpts{})
	if code := p.wait(); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if got := p.stderr.String(); !strings.Contains(got, `unknown field "acton"`) {
		t.Fatalf("stderr %q", got)
	}
}

func testResultsInTurn(t *testing.T, bin string) {
	p := start(t, bin, `{"capabilities": {"textDocumentSync": 1, "diagnosticProvider": {"interFileDependencies": false, "workspaceDiagnostics": false}},
		"methods": {"textDocument/diagnostic": {"results": [{"kind": "full", "resultId": "r1", "items": []}, {"kind": "unchanged", "resultId": "r1"}]}}}`, startOpts{})
	p.initialize()
	p.open("file:///w/a.go")
	for _, want := range []string{`{"kind":"full","resultId":"r1","items":[]}`, `{"kind":"unchanged","resultId":"r1"}`, `{"kind":"unchanged","resultId":"r1"}`} {
		id := p.request("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": "file:///w/a.go"}})
		jsonEqual(t, "reply", p.nextBody(), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, want))
	}
}

func testResultAndResultsExclusive(t *testing.T, bin string) {
	p := start(t, bin, `{"methods": {"textDocument/definition": {"result": null, "results": [null]}}}`, startOpts{})
	if code := p.wait(); code != 2 {
		t.Fatalf("exit code %d, want 2", code)
	}
	if got := p.stderr.String(); !strings.Contains(got, "result and results are exclusive") {
		t.Fatalf("stderr %q", got)
	}
}
