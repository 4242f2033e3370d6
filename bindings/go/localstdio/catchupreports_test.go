package localstdio

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestReportsAfterServerAppliedCatchUp: a dependent's report (b.go's)
// stands; a file it depends on (a.go) changes on disk; the server is told
// of it at the next question's catch-up, publishes some other report at
// once, works on the change for longer than the quiet time, and only then
// publishes the dependent's new report. The question on b.go is answered
// that new report, fresh, or, when it never comes, the old one, not
// fresh — never the old one as fresh, which is what it was in both
// shapes: the other report was taken as the server's sign that it had
// processed the change, and its work as its quiet time.
//
//   - intelephense (its table entry: readyLog "Indexer: Indexing
//     finished", changeSettleEdits), measured on nikic/FastRoute with
//     1.18.5: the interface a.go, open, reverted on disk by the shell; its
//     catch-up closes it and announces it changed; intelephense publishes
//     an empty report for the closed file, re-indexes it for half a second
//     under its progress, logs the ready line, ends the progress, and
//     republishes the class implementing the interface 36 ms later (here
//     later than the quiet time: no clock decides it).
//   - a server the table does not know, with no ready log: its work on the
//     change is under a work-done progress, after which it republishes.
func TestReportsAfterServerAppliedCatchUp(t *testing.T) {
	if raceEnabled {
		// The fake's script times its reports against the quiet time
		// (250 ms); under the race detector, with the other packages'
		// race runs beside it, the host's side of that script stretched
		// past it once in CI ("b before" answered). It tests no
		// concurrency of lspseam's: the plain run checks it.
		t.Skip("times a scripted server's reports against the quiet time: checked without -race")
	}
	register := map[string]any{"serverRequest": "client/registerCapability", "params": map[string]any{"registrations": []any{
		map[string]any{"id": "w", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*", "kind": 7}}}},
	}}}
	indexed := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 3, "message": "Indexer: Indexing finished. 1 of 1 files indexed in 0.5 s."}}
	begin := map[string]any{"workDoneProgress": "begin", "token": "indexing", "title": "indexing"}
	end := map[string]any{"workDoneProgress": "end", "token": "indexing"}
	type shape struct {
		name   string
		server string // serverInfo name: the table entry it gets
		// work is what the server does when told of the change, ahead
		// of republishing b.go (when it does).
		work func(f *fake) []any
		// changed is the file changed on disk: intelephense's is open (the
		// interface edited through lspseam, then reverted by the shell).
		changed string
		// silentStands: when the server never republishes b.go, its
		// report stands, fresh — the server published another report
		// after the change and its work ended, then it was quiet; a
		// server that logs when it applied the change published nothing
		// after that, so nothing shows it processed the change.
		silentStands bool
	}
	shapes := []shape{
		{"ready log (intelephense)", "intelephense", func(f *fake) []any {
			// intelephense clears the report of the document closed
			// (read after the file event was sent: here, sent after it).
			cleared := map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": f.uri("a.go"), "diagnostics": []any{}}}
			return []any{cleared, begin, map[string]any{"sleepMs": 500}, indexed, end, map[string]any{"sleepMs": 400}}
		}, "a.go", false},
		{"progress (unknown server)", "other", func(f *fake) []any {
			return []any{begin, f.publish("c.go", 0, "c"), map[string]any{"sleepMs": 600}, end, map[string]any{"sleepMs": 100}}
		}, "c.go", true},
	}
	for _, sh := range shapes {
		for _, c := range []struct {
			name        string
			check       bool // asked through Check (a change's delta), else Diagnostics (code_diagnostics)
			republishes bool
		}{
			{"diagnostics", false, true},
			{"check", true, true},
			{"diagnostics, never republished", false, false},
		} {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				f := newFake(t, nil, map[string]any{"settleMs": nil})
				work := sh.work(f)
				if c.republishes {
					work = append(work, f.publish("b.go", 0, "b after"))
				}
				f.setScript(map[string]any{
					"initialize": map[string]any{"result": map[string]any{
						"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true},
						"serverInfo":   map[string]any{"name": sh.server},
					}},
					"methods": map[string]any{
						"initialized":                     map[string]any{"action": "none", "after": []any{register, indexed}},
						"textDocument/didOpen":            map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b before")}},
						"workspace/didChangeWatchedFiles": map[string]any{"action": "none", "after": work},
					}})
				var notice string // the session's, after the question
				ask := func(wait time.Duration) lspseam.DiagnosticReport {
					t.Helper()
					var rep lspseam.DiagnosticReport
					notice = ""
					err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
						if c.check {
							checks, err := s.Check(ctx, []string{"b.go"}, lspseam.DiagnosticsOptions{Wait: wait})
							if err == nil {
								err = checks[0].Err
								rep = checks[0].Report
							}
							return err
						}
						src, err := s.Open(ctx, "b.go")
						if err != nil {
							return err
						}
						rep, err = s.Diagnostics(ctx, src, lspseam.DiagnosticsOptions{Wait: wait})
						notice = s.Notice()
						return err
					})
					if err != nil {
						t.Fatal(err)
					}
					return rep
				}
				// Both open, b.go's report standing.
				if err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
					_, err := s.Check(ctx, []string{"a.go", "b.go"}, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
					return err
				}); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(f.ws, sh.changed), "package a // changed on disk\n\nfunc A(int) {}\n")
				if !c.republishes {
					// Long enough for the work to end and the quiet time
					// to pass after it.
					version := 0 // a report answered not fresh is on no version
					if sh.silentStands {
						version = 1
					}
					wantReport(t, ask(2*time.Second), "push", sh.silentStands, version, "b before")
					// Said why, the file itself being unchanged.
					if says := strings.Contains(notice, "b.go are from before language server"); says == sh.silentStands {
						t.Errorf("notice %q", notice)
					}
					return
				}
				wantReport(t, ask(checkWait(t)), "push", true, 1, "b after")
				if notice != "" {
					t.Errorf("notice %q", notice)
				}
				f.noViolations()
			})
		}
	}
}

// TestUnderWaySince: the work that holds a report predating a catch-up is
// the work announced or begun after the catch-up's mark, until it ends —
// not work that was running before (clangd's background indexing).
func TestUnderWaySince(t *testing.T) {
	msg := func(s string) *json.RawMessage { r := json.RawMessage(s); return &r }
	progress := func(token, kind string) *json.RawMessage {
		return msg(`{"token":"` + token + `","value":{"kind":"` + kind + `"}}`)
	}
	for _, c := range []struct {
		name   string
		before []string // "announce t", "begin t", "end t": before the mark
		after  []string // after it
		want   bool
	}{
		{"nothing", nil, nil, false},
		{"running before", []string{"begin old"}, nil, false},
		{"announced before, begun after", []string{"announce old"}, []string{"begin old"}, false},
		{"announced after", nil, []string{"announce new"}, true},
		{"begun after", []string{"begin old"}, []string{"begin new"}, true},
		{"announced and begun after", nil, []string{"announce new", "begin new"}, true},
		{"ended", nil, []string{"announce new", "begin new", "end new"}, false},
		{"token used again after", []string{"begin t", "end t"}, []string{"begin t"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newProgressTracker()
			apply := func(steps []string) {
				for _, s := range steps {
					kind, token, _ := strings.Cut(s, " ")
					if kind == "announce" {
						p.announce(msg(`{"token":"` + token + `"}`))
					} else {
						p.update(progress(token, kind))
					}
				}
			}
			apply(c.before)
			mark := p.workMark()
			apply(c.after)
			if got := p.underWaySince(mark); got != c.want {
				t.Errorf("underWaySince = %v, want %v", got, c.want)
			}
		})
	}
}
