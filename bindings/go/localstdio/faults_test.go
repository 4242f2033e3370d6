package localstdio

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Fault behaviour against the scripted fake server, a real process. After
// every fault the next query on the same workspace must succeed on a fresh
// process, and Close must leave no process and no goroutine behind.

var echo = map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}

func baseline(t *testing.T) int {
	t.Helper()
	sharedCore(t)
	buildFake(t)
	return runtime.NumGoroutine()
}

// recoverNext rewrites the script to a healthy one and checks that the
// next query succeeds on a new process.
func recoverNext(t *testing.T, f *fake) {
	t.Helper()
	before := f.pids()
	f.setScript(echo)
	res := f.mustQuery(lspseam.OpDefinition)
	if len(res.Locations) != 1 || res.Locations[0].Range.Start != (lspseam.Position{Line: 2, Character: 5}) {
		t.Fatalf("recovery answer: %+v", res)
	}
	after := f.pids()
	if len(after) != len(before)+1 {
		t.Fatalf("recovery did not start exactly one new process: %v → %v", before, after)
	}
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name    string
		script  map[string]any
		extra   map[string]any
		code    lspseam.Code
		message []string
		keeps   bool // the fault does not end the process
	}{
		{
			name:    "crash mid-request",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "crash", "exitCode": 3, "stderr": "panic: boom\ngoroutine 1 [running]"}}},
			code:    lspseam.CodeServerFailed,
			message: []string{"during textDocument/definition", "exited with code 3", "panic: boom"},
		},
		{
			name:    "exit during initialize",
			script:  map[string]any{"initialize": map[string]any{"action": "exit", "exitCode": 1, "stderr": "cannot start"}},
			code:    lspseam.CodeServerFailed,
			message: []string{"during initialize", "exited with code 1", "cannot start"},
		},
		{
			name:    "garbage framing",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "garbage"}}},
			code:    lspseam.CodeProtocolError,
			message: []string{"broke the protocol", "invalid Content-Length"},
		},
		{
			name:    "log lines on stdout",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "garbage", "raw": "INFO starting up\r\n\r\n"}}},
			code:    lspseam.CodeProtocolError,
			message: []string{"malformed header line", "does it log to stdout?"},
		},
		{
			name:    "truncated framing",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "truncated"}}},
			code:    lspseam.CodeProtocolError,
			message: []string{"ended inside a"},
		},
		{
			name:    "invalid JSON body",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "invalidJSON"}}},
			code:    lspseam.CodeProtocolError,
			message: []string{"not JSON-RPC"},
		},
		{
			name:    "message over maxMessageBytes",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "oversized", "size": 5000}}},
			extra:   map[string]any{"maxMessageBytes": 4096},
			code:    lspseam.CodeProtocolError,
			message: []string{"5000 bytes, over maxMessageBytes 4096"},
		},
		{
			name:    "utf-8 position encoding",
			script:  map[string]any{"positionEncoding": "utf-8"},
			code:    lspseam.CodeProtocolError,
			message: []string{"utf-8", "only utf-16"},
		},
		{
			name:    "server error answer",
			script:  map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "error", "code": -32603, "message": "no package for file"}}},
			code:    lspseam.CodeServerError,
			message: []string{"error -32603: no package for file"},
			keeps:   true,
		},
		{
			name:    "crash on didOpen",
			script:  map[string]any{"onDidOpen": map[string]any{"action": "crash", "exitCode": 9}},
			code:    lspseam.CodeServerFailed,
			message: []string{"exited with code 9"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := baseline(t)
			f := newFake(t, c.script, c.extra)
			_, err := f.query(context.Background(), lspseam.OpDefinition, "a.go")
			if codeOf(err) != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			for _, m := range c.message {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error lacks %q: %v", m, err)
				}
			}
			if c.keeps {
				// An error answer is the server working: it keeps its process.
				if _, err := f.query(context.Background(), lspseam.OpDefinition, "a.go"); codeOf(err) != c.code || len(f.pids()) != 1 {
					t.Fatalf("second query: %v on %v", err, f.pids())
				}
			} else {
				recoverNext(t, f)
			}
			f.noViolations()
			checkQuiescent(t, f, g)
		})
	}
}

func TestHangIsCancelledThenKilled(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"ignoreCancel": true, "methods": map[string]any{"textDocument/references": map[string]any{"action": "hang"}}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err := f.query(ctx, lspseam.OpReferences, "a.go")
	if codeOf(err) != lspseam.CodeTimeout {
		t.Fatalf("got %v, want LSP_TIMEOUT", err)
	}
	if got, want := f.cancelledIDs(), f.requestIDs("textDocument/references"); len(want) != 1 || !slices.Equal(got, want) {
		t.Errorf("$/cancelRequest for ids %v, want one for the hung request %v", got, want)
	}
	pids := f.pids()
	if !waitFor(2*time.Second, func() bool { return liveFakes(t) == 0 }) {
		t.Fatalf("the unresponsive server %v was not terminated", pids)
	}
	recoverNext(t, f)
	checkQuiescent(t, f, g)
}

func TestCancelAnsweredKeepsServer(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"methods": map[string]any{"textDocument/references": map[string]any{"action": "hang"}, "textDocument/definition": map[string]any{"result": "$echoPosition"}}}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := f.query(ctx, lspseam.OpReferences, "a.go")
		done <- err
	}()
	// Cancel once the request has reached the server.
	if !waitFor(10*time.Second, func() bool { return f.received("textDocument/references") == 1 }) {
		t.Fatal("the references request never reached the server")
	}
	cancel()
	if err := <-done; codeOf(err) != lspseam.CodeCancelled {
		t.Fatalf("got %v, want LSP_CANCELLED", err)
	}
	// The query returned after the server's answer to the cancellation
	// (a server that does not answer is replaced, checked below), so the
	// server has logged the $/cancelRequest: it must name that request.
	if got, want := f.cancelledIDs(), f.requestIDs("textDocument/references"); len(want) != 1 || !slices.Equal(got, want) {
		t.Errorf("$/cancelRequest for ids %v, want one for the references request %v", got, want)
	}
	f.mustQuery(lspseam.OpDefinition)
	if pids := f.pids(); len(pids) != 1 {
		t.Errorf("a server that honoured $/cancelRequest was replaced: %v", pids)
	}
	// The document stays open across the cancelled query and the next one.
	if opens, closes := f.received("textDocument/didOpen"), f.received("textDocument/didClose"); opens != 1 || closes != 0 {
		t.Errorf("%d didOpen and %d didClose, want the document opened once and kept open", opens, closes)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

func TestStderrFloodIsBounded(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"stderrAtStart": 3 << 20, "methods": map[string]any{"textDocument/definition": map[string]any{"action": "crash", "stderrBytes": 2 << 20, "stderr": "FINAL LINE"}}}, map[string]any{"maxStderrBytes": 4096})
	_, err := f.query(context.Background(), lspseam.OpDefinition, "a.go")
	if codeOf(err) != lspseam.CodeServerFailed || !strings.Contains(err.Error(), "FINAL LINE") {
		t.Fatalf("got %v", err)
	}
	if len(err.Error()) > 4000 {
		t.Errorf("error message of %d bytes: the stderr tail is not bounded", len(err.Error()))
	}
	recoverNext(t, f)
	checkQuiescent(t, f, g)
}

func TestUnsupported(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": 0, "definitionProvider": true}}, nil)
	if _, err := f.query(context.Background(), lspseam.OpDefinition, "a.go"); codeOf(err) != lspseam.CodeUnsupportedSync {
		t.Fatalf("sync None: %v", err)
	}
	if n := f.received("textDocument/didOpen"); n != 0 {
		t.Errorf("didOpen sent %d times to a server without open/close support", n)
	}
	f.setScript(map[string]any{"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true}})
	f.p.Close(context.Background())
	f = newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": map[string]any{"openClose": true}, "definitionProvider": true}}, nil)
	if _, err := f.query(context.Background(), lspseam.OpImplementation, "a.go"); codeOf(err) != lspseam.CodeUnsupportedOperation {
		t.Fatalf("no implementationProvider: %v", err)
	}
	if res, err := f.query(context.Background(), lspseam.OpDefinition, "a.go"); err != nil || res.Kind != lspseam.KindLocations {
		t.Fatalf("supported operation after an unsupported one: %+v %v", res, err)
	}
	checkQuiescent(t, f, g)
}

func TestServerRequestsAreAnswered(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{
		"result": "$echoPosition",
		"before": []any{
			map[string]any{"serverRequest": "workspace/configuration", "params": map[string]any{"items": []any{map[string]any{"section": "fake.inlayHints"}, map[string]any{"section": "missing"}}}},
			map[string]any{"serverRequest": "workspace/applyEdit", "params": map[string]any{"edit": map[string]any{"changes": map[string]any{}}}},
			map[string]any{"serverRequest": "workspace/executeCommand", "params": map[string]any{"command": "rm"}},
		},
	}}}, map[string]any{"configuration": map[string]any{"fake": map[string]any{"inlayHints": map[string]any{"enabled": true}}}})
	f.mustQuery(lspseam.OpDefinition)
	answers := map[string]string{}
	for _, e := range f.events() {
		if e.Event == "recv" && e.Kind == "response" {
			answers[e.ResponseTo] = string(e.Result)
		}
	}
	if got := answers["workspace/configuration"]; got != `[{"enabled":true},null]` {
		t.Errorf("workspace/configuration answered %s", got)
	}
	if got := answers["workspace/applyEdit"]; !strings.Contains(got, `"applied":false`) {
		t.Errorf("workspace/applyEdit answered %s", got)
	}
	var sawMethodNotFound bool
	for _, e := range f.events() {
		if e.Event == "recv" && e.ResponseTo == "workspace/executeCommand" && e.Result == nil {
			sawMethodNotFound = true
		}
	}
	if !sawMethodNotFound {
		t.Errorf("workspace/executeCommand was not refused: %v", answers)
	}
	checkQuiescent(t, f, g)
}

func TestEnvironmentIsScrubbed(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echo, map[string]any{"env": map[string]string{"FAKE_SETTING": "on", "PLAIN_VAR": "overridden"}})
	f.mustQuery(lspseam.OpDefinition)
	var env map[string]string
	for _, e := range f.events() {
		if e.Event == "start" {
			env = e.Env
		}
	}
	if env == nil {
		t.Fatal("no start event")
	}
	for _, name := range []string{"MY_API_KEY", "DB_PASSWORD", "CLIENT_SECRET", "GH_TOKEN", "LSPSEAM_DEBUG"} {
		if _, ok := env[name]; ok {
			t.Errorf("%s reached the server", name)
		}
	}
	if env["FAKE_SETTING"] != "on" || env["PLAIN_VAR"] != "overridden" || env["PATH"] == "" {
		t.Errorf("env entries missing: FAKE_SETTING=%q PLAIN_VAR=%q PATH=%q", env["FAKE_SETTING"], env["PLAIN_VAR"], env["PATH"])
	}
	checkQuiescent(t, f, g)
}

func TestSourceRejectedBeforeStart(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echo, nil)
	for _, file := range []string{"missing.go", "../outside.go", "/etc/hostname"} {
		if _, err := f.query(context.Background(), lspseam.OpDefinition, file); codeOf(err) != lspseam.CodeSourceRejected {
			t.Errorf("%s: %v", file, err)
		}
	}
	if pids := f.pids(); len(pids) != 0 {
		t.Errorf("a server started for rejected sources: %v", pids)
	}
	checkQuiescent(t, f, g)
}

func TestQueuedQueryAbortedNeverReachesServer(t *testing.T) {
	g := baseline(t)
	// The first query hangs in the server until it is cancelled, so the
	// second one is queued behind it for as long as the test needs.
	f := newFake(t, map[string]any{"methods": map[string]any{
		"textDocument/references": map[string]any{"action": "hang"},
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
		"textDocument/hover":      map[string]any{"result": "$echoPosition"},
	}}, nil)
	firstCtx, cancelFirst := context.WithCancel(context.Background())
	defer cancelFirst()
	first := make(chan error, 1)
	go func() {
		_, err := f.query(firstCtx, lspseam.OpReferences, "a.go")
		first <- err
	}()
	if !waitFor(10*time.Second, func() bool { return f.received("textDocument/references") == 1 }) {
		t.Fatal("the first query never reached the server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := f.query(ctx, lspseam.OpDefinition, "b.go"); codeOf(err) != lspseam.CodeTimeout {
		t.Fatalf("queued query: %v", err)
	}
	cancelFirst()
	if err := <-first; codeOf(err) != lspseam.CodeCancelled {
		t.Fatalf("first query: %v, want LSP_CANCELLED", err)
	}
	// Ordering barrier: once a later query on the same queue is answered,
	// the server has read everything written before it.
	f.mustQuery(lspseam.OpHover)
	if n, d := f.received("textDocument/didOpen"), f.received("textDocument/definition"); n != 1 || d != 0 {
		t.Errorf("%d didOpen and %d definition requests, want 1 and 0: the aborted queued query reached the server", n, d)
	}
	checkQuiescent(t, f, g)
}

func TestConcurrentQueriesOneDocumentAtATime(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition", "delayMs": 2}}}, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			file := []string{"a.go", "b.go"}[i%2]
			res, err := f.query(context.Background(), lspseam.OpDefinition, file)
			if err == nil && !strings.HasSuffix(res.Locations[0].URI, file) {
				err = errors.New("answer for another document: " + res.Locations[0].URI)
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Both documents are opened once and stay open: the cache sends
	// nothing for unchanged bytes.
	if opens, changes := f.received("textDocument/didOpen"), f.received("textDocument/didChange"); opens != 2 || changes != 0 {
		t.Errorf("%d didOpen and %d didChange, want 2 and 0", opens, changes)
	}
	if pids := f.pids(); len(pids) != 1 {
		t.Errorf("single-flight start: %d processes started", len(pids))
	}
	f.noViolations() // includes requests for documents that are not open
	checkQuiescent(t, f, g)
}

func TestCloseShutsDownStubbornServer(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"ignoreShutdown": true, "ignoreSigterm": true, "methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}, nil)
	f.mustQuery(lspseam.OpDefinition)
	checkQuiescent(t, f, g)
	var sawSigterm bool
	for _, e := range f.events() {
		if e.Event == "signal" {
			sawSigterm = true
		}
	}
	if !sawSigterm {
		t.Error("SIGTERM was not tried before SIGKILL")
	}
	if _, err := f.query(context.Background(), lspseam.OpDefinition, "a.go"); codeOf(err) != lspseam.CodeDisposed {
		t.Errorf("query after Close: %v", err)
	}
}

func TestCloseIsGraceful(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echo, nil)
	f.mustQuery(lspseam.OpDefinition)
	checkQuiescent(t, f, g)
	if f.received("shutdown") != 1 || f.received("exit") != 1 {
		t.Errorf("shutdown %d, exit %d", f.received("shutdown"), f.received("exit"))
	}
	for _, e := range f.events() {
		if e.Event == "signal" {
			t.Errorf("a server that exits on exit got a signal: %+v", e)
		}
	}
}

func TestCloseCancelsActiveQuery(t *testing.T) {
	g := baseline(t)
	f := newFake(t, map[string]any{"methods": map[string]any{"textDocument/references": map[string]any{"action": "hang"}}}, nil)
	done := make(chan error, 1)
	go func() {
		_, err := f.query(context.Background(), lspseam.OpReferences, "a.go")
		done <- err
	}()
	if !waitFor(10*time.Second, func() bool { return f.received("textDocument/references") == 1 }) {
		t.Fatal("the references request never reached the server")
	}
	checkQuiescent(t, f, g)
	if err := <-done; codeOf(err) != lspseam.CodeDisposed {
		t.Errorf("active query during Close: %v", err)
	}
}

func TestAlreadyCancelledQueryLeavesServerAlone(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echo, nil)
	f.mustQuery(lspseam.OpDefinition)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.query(ctx, lspseam.OpDefinition, "a.go"); codeOf(err) != lspseam.CodeCancelled {
		t.Fatalf("got %v, want LSP_CANCELLED", err)
	}
	f.mustQuery(lspseam.OpDefinition)
	if pids := f.pids(); len(pids) != 1 {
		t.Errorf("a cancelled query replaced the server: %v", pids)
	}
	// The document stays open; the cancelled query sent no request.
	if o, d := f.received("textDocument/didOpen"), f.received("textDocument/definition"); o != 1 || d != 2 {
		t.Errorf("%d didOpen and %d definition requests, want 1 and 2 (the cancelled query sends nothing)", o, d)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}
