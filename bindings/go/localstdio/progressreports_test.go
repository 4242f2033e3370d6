package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// pyright's reports on documents just opened, with the scripted fake
// impersonating it (its table entry: reportsSettleWithProgress, quiet
// 700 ms). Measured on click 8.1.7 with pyright 1.1.414: twenty test
// files opened as a rename's dependents each got `{"diagnostics":[],
// "version":1}` at once, then window/workDoneProgress/create, $/progress
// begin "" and "19 files to analyze", "18 files to analyze", … with each
// file's checked report (its 1 to 20 errors, every one there before the
// rename) published as pyright reached it, seconds later, then end.

// pyrightAnalysis is the fake's script: pyright's loading signal, and on
// every didOpen b.go's parse-only report (none), then its checked one
// (problem) under an analysis progress that lasts until hold's steps are
// done.
func (f *fake) pyrightAnalysis(problem string, hold ...any) map[string]any {
	after := []any{
		map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{"uri": f.uri("b.go"), "version": 1, "diagnostics": []any{}}},
		map[string]any{"workDoneProgress": "begin", "token": "analysis", "title": ""},
		map[string]any{"workDoneProgress": "report", "token": "analysis", "message": "1 file to analyze"},
	}
	after = append(after, hold...)
	after = append(after, f.publish("b.go", 1, problem), map[string]any{"workDoneProgress": "end", "token": "analysis"})
	found := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 3, "message": "Found 2 source files"}}
	return map[string]any{
		"initialize": map[string]any{"result": map[string]any{
			"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true},
			"serverInfo":   map[string]any{"name": "pyright"},
		}},
		"methods": map[string]any{
			"initialized":          map[string]any{"action": "none", "after": []any{found}},
			"textDocument/didOpen": map[string]any{"action": "none", "after": after},
		},
	}
}

// checkB checks b.go alone (the session's own file is never opened: every
// didOpen runs the script's analysis).
func (f *fake) checkB(t *testing.T, opts lspseam.DiagnosticsOptions) lspseam.FileCheck {
	t.Helper()
	var checks []lspseam.FileCheck
	err := f.session(context.Background(), func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Check(ctx, []string{"b.go"}, opts)
		return err
	})
	if err != nil || len(checks) != 1 || checks[0].Err != nil {
		t.Fatalf("check: %v %+v", err, checks)
	}
	return checks[0]
}

// TestCheckAwaitsPyrightAnalysis: the empty report pyright publishes on a
// document it has only parsed stands unrevised longer than the quiet time
// while it checks the open files one after another; taken as the file's
// report, a dependent's problems all came out introduced by the change
// that followed. It is awaited until the analysis progress ends, and the
// report then is the checked one.
func TestCheckAwaitsPyrightAnalysis(t *testing.T) {
	f := newFake(t, nil, nil)
	// Longer than pyright's quiet time (700 ms): the empty report stands
	// unrevised that long, as the last of twenty files' did.
	f.setScript(f.pyrightAnalysis("there before the change", map[string]any{"sleepMs": 1500}))
	c := f.checkB(t, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
	wantReport(t, c.Report, "push", true, 1, "there before the change")
	f.noViolations()
}

// TestCheckPyrightAnalysisOutlastsTheWait: when the wait ends while the
// analysis is still under way, the report is taken as it is, not fresh:
// a delta then says so rather than comparing it.
func TestCheckPyrightAnalysisOutlastsTheWait(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	f := newFake(t, nil, nil)
	f.setScript(f.pyrightAnalysis("there before the change", map[string]any{"waitFile": gate}))
	defer os.WriteFile(gate, nil, 0o644) // lets the fake's analysis end
	// Longer than the quiet time, so the empty report stood unrevised
	// for it before the wait ended.
	c := f.checkB(t, lspseam.DiagnosticsOptions{Wait: 3 * pyrightQuiet})
	wantReport(t, c.Report, "push", false, 1)
	f.noViolations()
}

// pyrightQuiet is pyright's diagnosticsQuietMs (core/servers.json).
const pyrightQuiet = 700 * time.Millisecond
