package localstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// Session.Check with the scripted fake server: a change's documents are
// all synced before any report is awaited, their reports awaited (pushed)
// or asked (pulled) together, a missing report leaves only its own file
// stale, and an asked report stands until something is sent.

// checkWait is a wait no report in these tests needs the whole of: half
// the test's time left.
func checkWait(t *testing.T) time.Duration {
	if d, ok := t.Deadline(); ok {
		return time.Until(d) / 2
	}
	return time.Minute
}

// logLine is one line of the fake's log, with what orders sends.
type logLine struct {
	Event     string          `json:"event"`
	Kind      string          `json:"kind"`
	Method    string          `json:"method"`
	InReplyTo string          `json:"inReplyTo"`
	Params    json.RawMessage `json:"params"`
}

func (f *fake) logLines() []logLine {
	f.t.Helper()
	file, err := os.Open(f.log)
	if err != nil {
		f.t.Fatal(err)
	}
	defer file.Close()
	var out []logLine
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var l logLine
		json.Unmarshal(sc.Bytes(), &l)
		out = append(out, l)
	}
	return out
}

func (f *fake) writeFiles(t *testing.T, names ...string) {
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(f.ws, n), []byte("package a\n\nfunc "+strings.ToUpper(n[:1])+"() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckSyncsAllThenAwaitsTogether: a server that reports on a file
// only a while after it is opened. Awaited one after another, the second
// file would be opened only once the first one's report came; together,
// every file is opened before the first report is sent, and every report
// is fresh.
func TestCheckSyncsAllThenAwaitsTogether(t *testing.T) {
	f := newFake(t, nil, nil)
	files := []string{"b.go", "c.go", "d.go", "e.go"}
	f.writeFiles(t, files...)
	after := []any{map[string]any{"sleepMs": 1000}, f.publish("a.go", 1, "a")}
	for _, n := range files {
		after = append(after, f.publish(n, 1, "problem in "+n))
	}
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": after},
	}})
	ctx := context.Background()
	// The server is ready, and a.go's report is in, before the check.
	if rep, err := f.diagnose(ctx, "a.go", lspseam.DiagnosticsOptions{Wait: checkWait(t)}); err != nil || !rep.Fresh {
		t.Fatalf("a.go: %+v %v", rep, err)
	}
	var checks []lspseam.FileCheck
	err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Check(ctx, files, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		if c.Err != nil || c.File.Path != filepath.Join(canonicalDir(t, f.ws), files[i]) {
			t.Fatalf("%s: %+v", files[i], c)
		}
		wantReport(t, c.Report, "push", true, 1, "problem in "+files[i])
	}
	// Every didOpen of the check came before the first report sent after
	// the check's first didOpen.
	opened, first := 0, -1
	for i, l := range f.logLines() {
		switch {
		case l.Event == "recv" && l.Method == "textDocument/didOpen" && !strings.Contains(string(l.Params), "/a.go"):
			opened++
			if first < 0 {
				first = i
			}
		case first >= 0 && l.Event == "send" && l.Method == "textDocument/publishDiagnostics":
			if opened != len(files) {
				t.Fatalf("a report was sent after %d of the %d didOpens: the reports were awaited one after another", opened, len(files))
			}
			return
		}
	}
	t.Fatalf("no report after the check's didOpens (%d seen)", opened)
}

// TestCheckMissingReportOnlyThatFileStale: the server reports on every
// file but one; that one is taken as it is when the one wait ends, not
// fresh, and the others are fresh.
func TestCheckMissingReportOnlyThatFileStale(t *testing.T) {
	f := newFake(t, nil, nil)
	f.writeFiles(t, "b.go", "c.go")
	f.setScript(map[string]any{"methods": map[string]any{
		"textDocument/didOpen": map[string]any{"action": "none", "after": []any{f.publish("a.go", 1, "in a"), f.publish("b.go", 1, "in b")}},
	}})
	var checks []lspseam.FileCheck
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Check(ctx, []string{"a.go", "b.go", "c.go"}, lspseam.DiagnosticsOptions{Wait: 300 * time.Millisecond})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		if c.Err != nil {
			t.Fatalf("file %d: %v", i, c.Err)
		}
	}
	wantReport(t, checks[0].Report, "push", true, 1, "in a")
	wantReport(t, checks[1].Report, "push", true, 1, "in b")
	wantReport(t, checks[2].Report, "push", false, 0)
}

// TestCheckAsksTogether: a pull server that takes a while to answer is
// asked about every file before it answers the first; a second check with
// nothing sent in between asks nothing, and one after a file changed asks
// again.
func TestCheckAsksTogether(t *testing.T) {
	f := newFake(t, nil, nil)
	files := []string{"a.go", "b.go", "c.go", "d.go"}
	f.writeFiles(t, files[1:]...)
	f.setScript(map[string]any{"capabilities": pullCaps, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"result": map[string]any{"kind": "full", "items": []any{diagnostic("pulled")}}, "delayMs": 1000},
	}})
	requirePull(t, f)
	check := func() []lspseam.FileCheck {
		var checks []lspseam.FileCheck
		err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
			var err error
			checks, err = s.Check(ctx, files, lspseam.DiagnosticsOptions{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range checks {
			if c.Err != nil {
				t.Fatalf("%s: %v", files[i], c.Err)
			}
		}
		return checks
	}
	for i, c := range check() {
		wantReport(t, c.Report, "pull", true, 1, "pulled")
		_ = i
	}
	asked, answered := 0, false
	for _, l := range f.logLines() {
		switch {
		case l.Event == "recv" && l.Method == "textDocument/diagnostic":
			if !answered {
				asked++
			}
		case l.Event == "send" && l.InReplyTo == "textDocument/diagnostic":
			answered = true
		}
	}
	if asked != len(files) {
		t.Errorf("%d of %d files were asked about before the first answer: asked one after another", asked, len(files))
	}

	// Nothing sent since: the reports stand.
	check()
	if n := f.received("textDocument/diagnostic"); n != len(files) {
		t.Errorf("a second check with nothing sent between asked again: %d requests, want %d", n, len(files))
	}
	// b.go changed: its didChange may change every report.
	os.WriteFile(filepath.Join(f.ws, "b.go"), []byte("package a\n\nfunc B2() {}\n"), 0o644)
	for i, c := range check() {
		want := 1
		if files[i] == "b.go" {
			want = 2
		}
		wantReport(t, c.Report, "pull", true, want, "pulled")
	}
	if n := f.received("textDocument/diagnostic"); n != 2*len(files) {
		t.Errorf("after a change: %d requests, want %d", n, 2*len(files))
	}
}

func canonicalDir(t *testing.T, dir string) string {
	ws, err := CanonicalWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ws.Path
}

// TestRenameMissingReportStaleOnlyThatFile: a rename of three files on a
// server that never reports on one of them is applied whole, and its
// delta names that file alone stale; the others are fresh.
func TestRenameMissingReportStaleOnlyThatFile(t *testing.T) {
	f := newFake(t, nil, nil)
	f.writeFiles(t, "b.go", "c.go")
	caps := map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": true}
	edit := map[string]any{}
	for _, n := range []string{"a.go", "b.go", "c.go"} {
		edit[f.uri(n)] = []any{map[string]any{"newText": "Z", "range": map[string]any{
			"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}}}
	}
	reports := []any{f.publish("a.go", 0, "in a"), f.publish("b.go", 0, "in b")} // none for c.go
	f.setScript(map[string]any{"capabilities": caps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/rename":         map[string]any{"result": map[string]any{"changes": edit}},
		"textDocument/didOpen":        map[string]any{"action": "none", "after": reports},
		"textDocument/didChange":      map[string]any{"action": "none", "after": reports},
	}})
	tb := f.toolbox()
	tb.SetApproval(toolbox.ApprovalAuto)
	res, _ := f.call(tb, "code_rename", `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`)
	var r struct {
		Applied     bool `json:"applied"`
		Diagnostics struct {
			Files []struct {
				Path  string `json:"path"`
				Fresh bool   `json:"fresh"`
			} `json:"files"`
			Stale []string `json:"stale"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(res.Structured, &r); err != nil || res.IsError || !r.Applied {
		t.Fatalf("rename: %s (%v)", res.Text, err)
	}
	for _, n := range []string{"a.go", "b.go", "c.go"} {
		if got, _ := os.ReadFile(filepath.Join(f.ws, n)); !strings.Contains(string(got), "func Z() {}") {
			t.Errorf("%s after the rename: %q", n, got)
		}
	}
	if len(r.Diagnostics.Stale) != 1 || r.Diagnostics.Stale[0] != "c.go" || len(r.Diagnostics.Files) != 3 {
		t.Fatalf("delta: %s", res.Structured)
	}
	for _, d := range r.Diagnostics.Files {
		if d.Fresh != (d.Path != "c.go") {
			t.Errorf("%s fresh %v: %s", d.Path, d.Fresh, res.Structured)
		}
	}
	if !strings.Contains(res.Text, "Stale: c.go") {
		t.Errorf("the text does not name c.go stale:\n%s", res.Text)
	}
}

// TestCheckAfterSyncAndDidSave: a server that asks for saves hears didSave
// after a document synced from the disk, and a Check with AfterSync takes
// a pushed report on a document the change did not touch (b.go, which
// uses a.go) as fresh only when it came after the change was synced —
// here, the one the server sends a while after a.go is saved. Until then
// b.go is not fresh, where a Check without AfterSync takes its report from
// before the change as fresh.
func TestCheckAfterSyncAndDidSave(t *testing.T) {
	f := newFake(t, nil, nil)
	f.writeFiles(t, "b.go")
	late := 3000 // ms: longer than the short checks below take
	f.setScript(map[string]any{
		"capabilities": map[string]any{"textDocumentSync": map[string]any{"openClose": true, "change": 1, "save": true}, "definitionProvider": true},
		"methods": map[string]any{
			"textDocument/didOpen":   map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b before")}},
			"textDocument/didChange": map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a changed")}},
			"textDocument/didSave":   map[string]any{"action": "none", "after": []any{map[string]any{"sleepMs": late}, f.publish("b.go", 0, "b after")}},
		}})
	check := func(ctx context.Context, s lspseam.Session, opts lspseam.DiagnosticsOptions) []lspseam.FileCheck {
		t.Helper()
		checks, err := s.Check(ctx, []string{"a.go", "b.go"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return checks
	}
	short := 300 * time.Millisecond
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		c := check(ctx, s, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
		wantReport(t, c[1].Report, "push", true, 1, "b before")
		if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() { 1 }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		c = check(ctx, s, lspseam.DiagnosticsOptions{Wait: short}) // syncs a.go: didChange, didSave
		wantReport(t, c[0].Report, "push", true, 2, "a changed")
		wantReport(t, c[1].Report, "push", true, 1, "b before")
		c = check(ctx, s, lspseam.DiagnosticsOptions{Wait: short, AfterSync: true})
		if time.Since(start) < time.Duration(late)*time.Millisecond {
			wantReport(t, c[1].Report, "push", false, 0, "b before")
		}
		c = check(ctx, s, lspseam.DiagnosticsOptions{Wait: checkWait(t), AfterSync: true})
		wantReport(t, c[0].Report, "push", true, 2, "a changed")
		wantReport(t, c[1].Report, "push", true, 1, "b after")
		if n := f.received("textDocument/didSave"); n != 1 {
			t.Errorf("%d didSave after one sync from the disk, want 1", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAwaitPushedCountsFromTheChange: with AfterSync, a changed file's
// report that came before a file checked beside the change was opened is
// a report on the change. Counted from the last sync of every path (what
// Check did before DiagnosticsOptions.Changed), it was not fresh, and the
// check waited out its whole wait to answer it stale. Which comes first,
// the changed file's report or the other file's open, is a race a real
// server decides; here the order is set.
func TestAwaitPushedCountsFromTheChange(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	publish := func(in *instance, uri, msg string) {
		params := json.RawMessage(`{"uri":"` + uri + `","diagnostics":[{"message":"` + msg + `","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]}`)
		in.diags.publish(log, &params)
	}
	setUp := func() (*instance, []lspseam.FileCheck, map[int]*openDocument) {
		in := &instance{}
		a := &openDocument{path: "a.go", uri: "file:///w/a.go", version: 2}
		b := &openDocument{path: "b.go", uri: "file:///w/b.go", version: 1}
		a.synced = in.diags.mark() // the change is sent
		publish(in, a.uri, "a changed")
		b.synced = in.diags.mark() // b.go is opened after the report on a.go came
		publish(in, b.uri, "b")
		out := []lspseam.FileCheck{{File: lspseam.SourceFile{Path: "a.go", URI: a.uri}}, {File: lspseam.SourceFile{Path: "b.go", URI: b.uri}}}
		return in, out, map[int]*openDocument{0: a, 1: b}
	}
	ctx := context.Background()

	in, out, docs := setUp()
	start := time.Now()
	if err := in.awaitPushed(ctx, out, []int{0, 1}, docs, start, start.Add(checkWait(t)), &syncFloor{changed: 1}); err != nil {
		t.Fatal(err)
	}
	wantReport(t, out[0].Report, "push", true, 2, "a changed")
	wantReport(t, out[1].Report, "push", true, 1, "b")

	// Counted from every path's sync (both taken for the change's), a.go's
	// report is taken as not on the change when the wait ends.
	in, out, docs = setUp()
	start = time.Now()
	if err := in.awaitPushed(ctx, out, []int{0, 1}, docs, start, start.Add(100*time.Millisecond), &syncFloor{changed: 2}); err != nil {
		t.Fatal(err)
	}
	wantReport(t, out[0].Report, "push", false, 0, "a changed")
	wantReport(t, out[1].Report, "push", true, 1, "b")
}

// TestCheckReportsAfterCatchUp: in a turn whose catch-up told a push
// server of a change made outside lspseam (c.go created on disk), a
// document's report from before it is not the server's word on the
// workspace until the server shows it has processed the change —
// published a report after it and stayed quiet. A server that says
// nothing leaves the earlier report answered not fresh; one that
// republishes another file's report leaves it standing, fresh; one that
// republishes it is answered its new report.
func TestCheckReportsAfterCatchUp(t *testing.T) {
	register := map[string]any{"serverRequest": "client/registerCapability", "params": map[string]any{"registrations": []any{
		map[string]any{"id": "w", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.go"}}}},
	}}}
	for _, c := range []struct {
		name    string
		after   func(f *fake) []any // what the server publishes when told of c.go
		fresh   bool
		message string
	}{
		{"says nothing", func(f *fake) []any { return nil }, false, "b before"},
		{"republishes another file", func(f *fake) []any { return []any{f.publish("a.go", 0, "a again")} }, true, "b before"},
		{"republishes the file", func(f *fake) []any { return []any{f.publish("b.go", 0, "b after")} }, true, "b after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, nil, nil)
			f.setScript(map[string]any{
				"capabilities": map[string]any{"textDocumentSync": map[string]any{"openClose": true, "change": 1}, "definitionProvider": true},
				"methods": map[string]any{
					"initialized":                     map[string]any{"action": "none", "after": []any{register}},
					"textDocument/didOpen":            map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b before")}},
					"workspace/didChangeWatchedFiles": map[string]any{"action": "none", "after": c.after(f)},
				}})
			check := func(wait time.Duration) []lspseam.FileCheck {
				t.Helper()
				var checks []lspseam.FileCheck
				err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
					var err error
					checks, err = s.Check(ctx, []string{"a.go", "b.go"}, lspseam.DiagnosticsOptions{Wait: wait})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return checks
			}
			wantReport(t, check(checkWait(t))[1].Report, "push", true, 1, "b before")
			f.writeFiles(t, "c.go") // another tool creates a file the server is told of
			// Not fresh only when the wait ends: a short one.
			wait := checkWait(t)
			if !c.fresh {
				wait = 300 * time.Millisecond
			}
			checks := check(wait)
			// The server was told (its log may lag the check's answer).
			for f.received("workspace/didChangeWatchedFiles") != 1 {
				if d, ok := t.Deadline(); ok && time.Until(d) < 5*time.Second {
					t.Fatalf("%d didChangeWatchedFiles, want 1 (c.go created)", f.received("workspace/didChangeWatchedFiles"))
				}
				time.Sleep(10 * time.Millisecond)
			}
			version := 0 // a report answered not fresh is on no version
			if c.fresh {
				version = 1
			}
			wantReport(t, checks[1].Report, "push", c.fresh, version, c.message)
		})
	}
}
