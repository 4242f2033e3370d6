package localstdio

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Session.Diagnostics with the scripted fake server: published reports
// (fresh, stale, absent, revised), pulled reports (full, then unchanged),
// and cancellation during the wait.

// pullCaps are the capabilities of a fake server that answers
// textDocument/diagnostic.
var pullCaps = map[string]any{
	"textDocumentSync": 1, "definitionProvider": true,
	"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false},
}

// uri is the file: URI of file in f's workspace.
func (f *fake) uri(file string) string {
	f.t.Helper()
	ws, err := CanonicalWorkspace(f.ws)
	if err != nil {
		f.t.Fatal(err)
	}
	return ws.URI + "/" + file
}

// publish is a script step sending publishDiagnostics for file with one
// diagnostic whose message is msg (version omitted when it is 0).
func (f *fake) publish(file string, version int, msg string) map[string]any {
	params := map[string]any{"uri": f.uri(file), "diagnostics": []any{diagnostic(msg)}}
	if version != 0 {
		params["version"] = version
	}
	return map[string]any{"notification": "textDocument/publishDiagnostics", "params": params}
}

func diagnostic(msg string) map[string]any {
	return map[string]any{"message": msg, "severity": 1, "range": map[string]any{
		"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}}
}

// session runs fn in a session on a.go.
func (f *fake) session(ctx context.Context, fn func(context.Context, lspseam.Session) error) error {
	return f.p.Session(ctx, lspseam.ProviderQuery{
		QueryRequest: lspseam.QueryRequest{FilePath: "a.go", WorkspaceRoot: f.ws},
		LanguageID:   "go",
	}, fn)
}

// diagnose opens file in a session and returns its diagnostics.
func (f *fake) diagnose(ctx context.Context, file string, opts lspseam.DiagnosticsOptions) (lspseam.DiagnosticReport, error) {
	var rep lspseam.DiagnosticReport
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		src, err := s.Open(ctx, file)
		if err != nil {
			return err
		}
		rep, err = s.Diagnostics(ctx, src, opts)
		return err
	})
	return rep, err
}

// messages are the diagnostics' messages.
func messages(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var ds []struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(raw, &ds); err != nil {
		t.Fatalf("diagnostics %s: %v", raw, err)
	}
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Message)
	}
	return out
}

func wantReport(t *testing.T, rep lspseam.DiagnosticReport, how string, fresh bool, version int, msgs ...string) {
	t.Helper()
	if got := strings.Join(messages(t, rep.Diagnostics), "|"); got != strings.Join(msgs, "|") {
		t.Errorf("diagnostics %q, want %q", got, strings.Join(msgs, "|"))
	}
	if rep.How != how || rep.Fresh != fresh {
		t.Errorf("how %q fresh %v, want %q %v", rep.How, rep.Fresh, how, fresh)
	}
	switch {
	case version == 0 && rep.Version != nil:
		t.Errorf("version %d, want none", *rep.Version)
	case version != 0 && (rep.Version == nil || *rep.Version != version):
		t.Errorf("version %v, want %d", rep.Version, version)
	}
}

// skipWithoutPull skips a pull test when the core does not negotiate
// textDocument/diagnostic (a core.wasm built before it did).
func requirePull(t *testing.T, f *fake) {
	t.Helper()
	var pull bool
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		pull = s.Methods()["textDocument/diagnostic"]
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !pull {
		t.Fatal("the core does not negotiate textDocument/diagnostic from diagnosticProvider (is core.wasm stale? make wasm)")
	}
}

func isErrorCode(err error, code lspseam.Code) bool {
	var lerr *lspseam.Error
	return errors.As(err, &lerr) && lerr.Code == code
}

func TestDiagnosticsPushedAfterOpen(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "undefined: x")}},
	}})
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "undefined: x")
	if rep.URI != f.uri("a.go") {
		t.Errorf("uri %q", rep.URI)
	}
	// Unchanged content: the report is still fresh, and no wait for a new
	// one is needed beyond quiescence.
	rep, err = f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "undefined: x")
	f.noViolations()
}

func TestDiagnosticsUnversionedPushIsFresh(t *testing.T) {
	f := newFake(t, nil, nil)
	// The URI escaped differently from the client's ('a' as %61): the
	// same document.
	step := f.publish("a.go", 0, "unversioned")
	step["params"].(map[string]any)["uri"] = strings.TrimSuffix(f.uri("a.go"), "a.go") + "%61.go"
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{step}},
	}})
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "unversioned") // fresh: the version is the document's
}

func TestDiagnosticsStaleVersionIsNotFresh(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen":   map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "for version 1")}},
		"textDocument/didChange": map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "late, for version 1")}},
	}})
	// The session's budget is a share of the test's deadline; a wait of an
	// hour ends with it. A call that should not wait, and did, shows a
	// report that waited out most of the budget (not a wall-clock bound:
	// the margin is the whole budget against no wait at all).
	budget := testenv.StepBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		src, err := s.Open(ctx, "a.go")
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: time.Hour})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", true, 1, "for version 1")
		if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() { x }\n"), 0o644); err != nil {
			return err
		}
		src2, err := s.Open(ctx, "a.go") // didChange, version 2
		if err != nil {
			return err
		}
		// The content the server no longer holds: not fresh, no wait.
		rep, err = s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: time.Hour})
		if err != nil {
			return err
		}
		if rep.Fresh || rep.Waited > budget/2 {
			t.Errorf("diagnostics of superseded content (a budget of %v): %+v", budget, rep)
		}
		rep, err = s.Diagnostics(ctx, src2, lspseam.DiagnosticsOptions{Wait: 300 * time.Millisecond})
		if err != nil {
			return err
		}
		wantReport(t, rep, "push", false, 1, "late, for version 1") // the latest, but for version 1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.noViolations()
}

func TestDiagnosticsNeverPublished(t *testing.T) {
	f := newFake(t, nil, nil)
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", false, 0)
	if string(rep.Diagnostics) != "[]" {
		t.Errorf("diagnostics %s, want []", rep.Diagnostics)
	}
}

// TestDiagnosticsNoneIsUnsupported: a server the table says reports no
// diagnostics (cmake-language-server) answers LSP_UNSUPPORTED_OPERATION at
// once, instead of an empty report, stale after the whole wait.
func TestDiagnosticsNoneIsUnsupported(t *testing.T) {
	f := newFake(t, map[string]any{"serverInfo": map[string]any{"name": "cmake-language-server", "version": "(fake)"}}, nil)
	// A wait of an hour in a share of the test's deadline: waiting for
	// diagnostics that never come would end with the budget and return an
	// empty report instead of the error.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	rep, err := f.diagnose(ctx, "a.go", lspseam.DiagnosticsOptions{Wait: time.Hour})
	if !isErrorCode(err, lspseam.CodeUnsupportedOperation) || !strings.Contains(err.Error(), "reports no diagnostics") {
		t.Fatalf("err %v (report %+v), want LSP_UNSUPPORTED_OPERATION", err, rep)
	}
	f.noViolations()
}

func TestDiagnosticsBudgetBoundsTheWait(t *testing.T) {
	f := newFake(t, nil, nil)
	// A 30 s wait in a 2 s budget: the wait ends with the budget, less the
	// reserve, and the report (none) is returned rather than a timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	rep, err := f.diagnose(ctx, "a.go", lspseam.DiagnosticsOptions{Wait: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", false, 0)
}

func TestDiagnosticsLaterPublishWins(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{
			f.publish("a.go", 1, "syntax"),
			map[string]any{"sleepMs": 50},
			f.publish("a.go", 1, "syntax and types"),
		}},
	}})
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "syntax and types")
}

func TestDiagnosticsMalformedPublishIgnored(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{
			map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": 5, "diagnostics": []any{}}},
			map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": f.uri("a.go"), "diagnostics": "none"}},
			map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": f.uri("a.go"), "version": "one", "diagnostics": []any{}}},
			map[string]any{"notification": "textDocument/publishDiagnostics", "params": []any{}},
			f.publish("a.go", 1, "well formed"),
		}},
	}})
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "push", true, 1, "well formed")
	if len(f.pids()) != 1 {
		t.Errorf("the server was restarted: pids %v", f.pids())
	}
}

func TestDiagnosticsPulled(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"capabilities": pullCaps, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"results": []any{
			map[string]any{"kind": "full", "resultId": "r1", "items": []any{diagnostic("pulled")}},
			map[string]any{"kind": "unchanged", "resultId": "r1"},
		}},
		// A push server's report is not used when the server is pulled.
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "pushed")}},
	}})
	requirePull(t, f)
	for i := range 2 {
		rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
		if err != nil {
			t.Fatalf("pull %d: %v", i+1, err)
		}
		wantReport(t, rep, "pull", true, 1, "pulled")
	}
	var previous []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == "textDocument/diagnostic" {
			var p struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				PreviousResultID string `json:"previousResultId"`
			}
			if err := json.Unmarshal(e.Params, &p); err != nil || p.TextDocument.URI != f.uri("a.go") {
				t.Errorf("request params %s", e.Params)
			}
			previous = append(previous, p.PreviousResultID)
		}
	}
	if strings.Join(previous, ",") != ",r1" {
		t.Errorf("previousResultIds %q, want none then r1", previous)
	}
	f.noViolations()
}

func TestDiagnosticsPullError(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"capabilities": pullCaps, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"action": "error", "code": -32603, "message": "no package"},
	}})
	requirePull(t, f)
	_, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: time.Second})
	if !isErrorCode(err, lspseam.CodeServerError) || !strings.Contains(err.Error(), "no package") {
		t.Fatalf("err %v, want LSP_SERVER_ERROR", err)
	}
}

func TestDiagnosticsPullNotImplementedFallsBackToPush(t *testing.T) {
	f := newFake(t, nil, nil)
	// diagnosticProvider, but textDocument/diagnostic is MethodNotFound.
	f.setScript(map[string]any{"capabilities": pullCaps, "methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "pushed")}},
	}})
	requirePull(t, f)
	for range 2 {
		rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		wantReport(t, rep, "push", true, 1, "pushed")
	}
	if n := f.received("textDocument/diagnostic"); n != 1 {
		t.Errorf("textDocument/diagnostic asked %d times, want once", n)
	}
}

func TestDiagnosticsCancelledDuringWait(t *testing.T) {
	f := newFake(t, nil, nil)
	// The wait (an hour) would end with the budget, a share of the test's
	// deadline, and return a report: only the cancellation makes it an
	// LSP_CANCELLED error.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		src, err := s.Open(ctx, "a.go")
		if err != nil {
			return err
		}
		time.AfterFunc(100*time.Millisecond, cancel)
		_, err = s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: time.Hour})
		if !isErrorCode(err, lspseam.CodeCancelled) {
			t.Errorf("Diagnostics: %v, want LSP_CANCELLED", err)
		}
		return err
	})
	if !isErrorCode(err, lspseam.CodeCancelled) {
		t.Fatalf("session: %v, want LSP_CANCELLED", err)
	}
}

func TestDiagnosticsOfAFileNotOpened(t *testing.T) {
	f := newFake(t, nil, nil)
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		if _, err := s.Open(ctx, "a.go"); err != nil {
			return err
		}
		b, err := s.Read("b.go")
		if err != nil {
			return err
		}
		_, err = s.Diagnostics(ctx, b, lspseam.DiagnosticsOptions{Wait: time.Second})
		return err
	})
	if !isErrorCode(err, lspseam.CodeInvalidArgument) {
		t.Fatalf("err %v, want LSP_INVALID_ARGUMENT", err)
	}
}

func TestDiagnosticStoreBounded(t *testing.T) {
	var s diagnosticStore
	log := slog.New(slog.DiscardHandler)
	for i := range maxDiagnosticURIs + 10 {
		p := json.RawMessage(`{"uri":"file:///w/f` + strings.Repeat("x", i%7) + `/` + strconv.Itoa(i) + `.go","diagnostics":[]}`)
		s.publish(log, &p)
	}
	if len(s.pushed) != maxDiagnosticURIs {
		t.Fatalf("%d reports kept, want %d", len(s.pushed), maxDiagnosticURIs)
	}
	if _, ok, _ := s.latest(uriKey("file:///w/f/0.go")); ok {
		t.Error("the oldest report was kept")
	}
	last := maxDiagnosticURIs + 9
	if _, ok, _ := s.latest(uriKey("file:///w/f" + strings.Repeat("x", last%7) + "/" + strconv.Itoa(last) + ".go")); !ok {
		t.Error("the newest report was dropped")
	}
	s.forget("file:///w/f" + strings.Repeat("x", last%7) + "/" + strconv.Itoa(last) + ".go")
	if len(s.pushed) != maxDiagnosticURIs-1 {
		t.Error("forget kept the report")
	}
}

// tsserverCaps are the capabilities of a fake typescript-language-server:
// its commands, among them typescript.tsserverRequest.
var tsserverCaps = map[string]any{
	"textDocumentSync": 2, "definitionProvider": true,
	"executeCommandProvider": map[string]any{"commands": []string{"_typescript.applyRenameFile", "typescript.tsserverRequest"}},
}

// tsserverAnswer is tsserver's response to one diagnostics request, with
// one diagnostic (one-based line 3, offsets 6–7) whose text is msg.
func tsserverAnswer(msg string) map[string]any {
	body := []any{}
	if msg != "" {
		body = append(body, map[string]any{"start": map[string]any{"line": 3, "offset": 6}, "end": map[string]any{"line": 3, "offset": 7},
			"text": msg, "code": 2345, "category": "error"})
	}
	return map[string]any{"seq": 0, "type": "response", "success": true, "body": body}
}

// typescript-language-server's pushed reports carry no version and may be
// the previous text's: its checker is asked through the command, and the
// pushed report is not used.
func TestDiagnosticsThroughTheServersCommand(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"capabilities": tsserverCaps, "methods": map[string]any{
		"workspace/executeCommand": map[string]any{"results": []any{
			tsserverAnswer("syntax"), tsserverAnswer("semantic"), tsserverAnswer(""),
		}},
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "pushed, of some earlier text")}},
	}})
	rep, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantReport(t, rep, "pull", true, 1, "syntax", "semantic")
	var ds []struct {
		Range struct {
			Start struct{ Line, Character int }
		}
		Severity int
		Code     int
		Source   string
	}
	json.Unmarshal(rep.Diagnostics, &ds)
	if len(ds) != 2 || ds[0].Range.Start.Line != 2 || ds[0].Range.Start.Character != 5 || ds[0].Severity != 1 || ds[0].Code != 2345 || ds[0].Source != "typescript" {
		t.Errorf("diagnostics %s: want tsserver's one-based positions made zero-based, severity 1, code 2345, source typescript", rep.Diagnostics)
	}
	var passes []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == "workspace/executeCommand" {
			var p struct {
				Command   string            `json:"command"`
				Arguments []json.RawMessage `json:"arguments"`
			}
			var pass string
			var file struct {
				File string `json:"file"`
			}
			if json.Unmarshal(e.Params, &p) != nil || p.Command != "typescript.tsserverRequest" || len(p.Arguments) != 2 ||
				json.Unmarshal(p.Arguments[0], &pass) != nil || json.Unmarshal(p.Arguments[1], &file) != nil || file.File != f.uri("a.go") {
				t.Errorf("executeCommand params %s", e.Params)
			}
			passes = append(passes, pass)
		}
	}
	if got := strings.Join(passes, ","); got != "syntacticDiagnosticsSync,semanticDiagnosticsSync,suggestionDiagnosticsSync" {
		t.Errorf("asked %s, want the syntactic, semantic and suggestion passes", got)
	}
	f.noViolations()
}

// A failed pass fails the call: no report is better than a partial one
// called fresh.
func TestDiagnosticsThroughTheServersCommandFailing(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"capabilities": tsserverCaps, "methods": map[string]any{
		"workspace/executeCommand": map[string]any{"action": "error", "code": 1, "message": "No Project."},
	}})
	_, err := f.diagnose(context.Background(), "a.go", lspseam.DiagnosticsOptions{Wait: time.Second})
	if !isErrorCode(err, lspseam.CodeServerError) || !strings.Contains(err.Error(), "No Project.") {
		t.Fatalf("err %v, want LSP_SERVER_ERROR naming the server's message", err)
	}
}
