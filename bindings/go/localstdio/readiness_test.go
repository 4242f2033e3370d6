package localstdio

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// The readiness policy's log signal (pyright's "Found N source files"),
// with a fake that says it is pyright and a settle of 0: the first query's
// wait ends without the signal at once, so an answer is partial only if it
// is read before the log, which the fake writes before or after its
// answer.

// pyrightScript is a fake pyright whose definition answer is preceded
// (where "before") or followed ("after") by the log, or never logged
// ("never").
func pyrightScript(where string) map[string]any {
	found := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 3, "message": "Found 2 source files"}}
	// At log level Trace pyright also logs this at the start of its
	// enumeration: not the signal.
	searching := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 4, "message": "Searching for source files"}}
	definition := map[string]any{"result": "$echoPosition"}
	switch where {
	case "before":
		definition["before"] = []any{found}
	case "after":
		definition["after"] = []any{found}
	}
	return map[string]any{
		"initialize": map[string]any{"result": map[string]any{
			"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true},
			"serverInfo":   map[string]any{"name": "pyright"},
		}},
		"methods": map[string]any{
			"textDocument/definition": definition,
			"initialized":             map[string]any{"action": "none", "after": []any{searching}},
		},
	}
}

// answerOrder lists the definition requests the fake read and the log
// messages it wrote, in its order.
func (f *fake) answerOrder() []string {
	var order []string
	for _, e := range f.events() {
		if e.Event == "send" && e.Method == "window/logMessage" {
			order = append(order, "log")
		}
		if e.Event == "recv" && e.Method == "textDocument/definition" {
			order = append(order, "request")
		}
	}
	return order
}

func wantIncomplete(t *testing.T, what string, res lspseam.Result, incomplete bool) {
	t.Helper()
	if got := res.Incomplete != ""; got != incomplete {
		t.Errorf("%s: incomplete %q, want incomplete: %v", what, res.Incomplete, incomplete)
	}
	if incomplete && !strings.Contains(res.Incomplete, "did not report that it finished loading") {
		t.Errorf("%s: incomplete %q does not say the server did not report it had loaded", what, res.Incomplete)
	}
}

// TestReadyLogBeforeTheAnswer: the signal came after the wait but before
// the answer: the answer was computed on the loaded project, and is not
// marked (pyright on 162 files under load: every such answer was exact).
func TestReadyLogBeforeTheAnswer(t *testing.T) {
	f := newFake(t, pyrightScript("before"), nil)
	wantIncomplete(t, "first query", f.mustQuery(lspseam.OpDefinition), false)
	wantIncomplete(t, "second query", f.mustQuery(lspseam.OpDefinition), false)
	// "Searching for source files", then each request's "Found".
	if got := f.answerOrder(); !slices.Equal(got, []string{"log", "request", "log", "request", "log"}) {
		t.Fatalf("order %q", got)
	}
	f.noViolations()
}

// TestReadyLogAfterTheAnswer: an answer read before the signal may be
// partial and is marked; the next, read after it, is not.
func TestReadyLogAfterTheAnswer(t *testing.T) {
	f := newFake(t, pyrightScript("after"), nil)
	wantIncomplete(t, "first query", f.mustQuery(lspseam.OpDefinition), true)
	wantIncomplete(t, "second query", f.mustQuery(lspseam.OpDefinition), false)
	f.noViolations()
}

// TestReadyLogNever: every answer read while the signal is awaited is
// marked, not just the first query's.
func TestReadyLogNever(t *testing.T) {
	f := newFake(t, pyrightScript("never"), nil)
	for i := range 3 {
		wantIncomplete(t, fmt.Sprintf("query %d", i+1), f.mustQuery(lspseam.OpDefinition), true)
	}
	f.noViolations()
}

// TestReadyLogSession: a tool's session is marked when any of its answers
// was read before the signal, and only then.
func TestReadyLogSession(t *testing.T) {
	for _, c := range []struct {
		where string
		want  []bool // per session of two requests
	}{
		{"before", []bool{false, false}},
		{"after", []bool{true, false}}, // the first answer precedes the log; the second session's follow it
		{"never", []bool{true, true}},
	} {
		t.Run(c.where, func(t *testing.T) {
			f := newFake(t, pyrightScript(c.where), nil)
			for i, want := range c.want {
				var notice string
				err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
					src, err := s.Open(ctx, "a.go")
					if err != nil {
						return err
					}
					for range 2 {
						params := fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":0,"character":0}}`, src.URI)
						if _, err := s.Request(ctx, "textDocument/definition", []byte(params)); err != nil {
							return err
						}
					}
					notice = s.Notice()
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if (notice != "") != want {
					t.Errorf("session %d: notice %q, want one: %v", i+1, notice, want)
				}
			}
			f.noViolations()
		})
	}
}

// TestNoLoadingSignalOutsideAConfiguredProject: typescript-language-server
// signals loading a tsconfig.json or jsconfig.json project only (the
// policy's signalNeeds). A first query on a file under neither waited out
// the 15 s settle for a signal that never comes and was marked
// incomplete; now it is answered once the server is idle, unmarked. A
// later query on a file under a tsconfig.json still waits for the signal
// (this fake, with a settle of 0, never gives one: that answer is marked).
func TestNoLoadingSignalOutsideAConfiguredProject(t *testing.T) {
	f := newFake(t, map[string]any{"capabilities": tsserverCaps, "methods": map[string]any{
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
	}}, nil)
	budget := testenv.StepBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	res, err := f.query(ctx, lspseam.OpDefinition, "a.go")
	if err != nil {
		t.Fatal(err)
	}
	wantIncomplete(t, "a file under no tsconfig.json", res, false)
	write(t, filepath.Join(f.ws, "app", "tsconfig.json"), "{}\n")
	write(t, filepath.Join(f.ws, "app", "b.go"), "package app\n\nfunc B() {}\n")
	res, err = f.query(ctx, lspseam.OpDefinition, filepath.Join("app", "b.go"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Incomplete == "" {
		t.Error("a file under a tsconfig.json, with no loading signal: not marked incomplete")
	}
	f.noViolations()
}
