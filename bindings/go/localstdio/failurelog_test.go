package localstdio

import (
	"context"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// What typescript-language-server 5.3.0 logs (window/logMessage, type
// Error) when its tsserver child dies; it then answers every request
// with nothing.
const tsserverExited = "[lspserver] [tsclient] [tsserver] Exited. Code: null. Signal: SIGKILL"

// tsserverDied is a fake typescript-language-server (its serverInfo name
// gives it that server's policy, failureLog included) whose definition
// answers are scripted by results, with the tsserver-exit log sent at
// step ("before" or "after" the answer).
func tsserverDied(step string, results []any) map[string]any {
	log := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 1, "message": tsserverExited}}
	return map[string]any{
		"serverInfo": map[string]any{"name": "typescript-language-server", "version": "5.3.0"},
		"methods": map[string]any{
			"textDocument/definition": map[string]any{"results": results, step: []any{log}},
		},
	}
}

// The backend dies while a request is in flight: the server logs its
// exit, then answers empty. The answer is LSP_SERVER_FAILED naming the
// log, never the empty list as if it were true; the next query runs on
// a fresh server and answers.
func TestBackendExitLoggedInFlight(t *testing.T) {
	g := baseline(t)
	f := newFake(t, tsserverDied("before", []any{[]any{}}), nil)
	_, err := f.query(context.Background(), lspseam.OpDefinition, "a.go")
	if codeOf(err) != lspseam.CodeServerFailed || !strings.Contains(err.Error(), "Exited. Code: null. Signal: SIGKILL") {
		t.Fatalf("a request answered after the server logged its backend's exit: %v, want LSP_SERVER_FAILED naming the log", err)
	}
	recoverNext(t, f)
	f.noViolations()
	checkQuiescent(t, f, g)
}

// The backend dies between queries: the server answered, then logged
// the exit. It is stopped when the log arrives, and the next query
// starts a fresh server instead of taking the dead one's empty answer.
func TestBackendExitLoggedWhileIdle(t *testing.T) {
	g := baseline(t)
	f := newFake(t, nil, nil)
	loc := map[string]any{"uri": f.uri("a.go"), "range": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}}
	f.setScript(tsserverDied("after", []any{[]any{loc}, []any{}}))
	if res := f.mustQuery(lspseam.OpDefinition); len(res.Locations) != 1 {
		t.Fatalf("the answer before the backend died: %+v", res)
	}
	first := f.pids()[0]
	if !waitFor(testenv.StepBudget(t), func() bool { return f.ended(first) }) {
		t.Fatalf("the server that logged its backend's exit was not stopped within %v", testenv.StepBudget(t))
	}
	recoverNext(t, f)
	f.noViolations()
	checkQuiescent(t, f, g)
}

// The backend dies while the server starts (the log arrives before the
// answer to initialize, when the policy is not yet known): the first
// query fails naming it, and the next one starts a fresh server.
func TestBackendExitLoggedAtStart(t *testing.T) {
	g := baseline(t)
	script := tsserverDied("after", []any{[]any{}})
	script["initialize"] = map[string]any{"before": []any{map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 1, "message": tsserverExited}}}}
	f := newFake(t, script, nil)
	_, err := f.query(context.Background(), lspseam.OpDefinition, "a.go")
	if codeOf(err) != lspseam.CodeServerFailed || !strings.Contains(err.Error(), "Exited.") {
		t.Fatalf("a server whose backend died while it started answered: %v, want LSP_SERVER_FAILED naming the log", err)
	}
	recoverNext(t, f)
	checkQuiescent(t, f, g)
}

// ended reports whether the fake process pid has stopped (it logged its
// exit, end of input or a terminating signal).
func (f *fake) ended(pid int) bool {
	for _, e := range f.events() {
		if e.PID == pid && (e.Event == "exit" || e.Event == "eof" || e.Event == "signal") {
			return true
		}
	}
	return false
}
