package toolbox

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The diagnostics delta of a change: each changed file's reports before
// and after, handed to the core (diagnosticsDelta).

// deltaFileInput is one file's diagnosticsDelta input. The file's texts
// go as the hunks of the change, its runs of changed lines
// (core.LinesChanged, computed here natively): the delta reads no other
// line, and both whole texts of a 2,000-line file cost the module
// 11–16 ms to read for a one-line edit, as one span from the first
// changed line to the last cost nearly as much for a rename scattered
// over the file (RATIONALE, "The core gets only the bytes a query needs").
type deltaFileInput struct {
	URI    string             `json:"uri"`
	How    string             `json:"how"`
	Fresh  bool               `json:"fresh"`
	Before json.RawMessage    `json:"before"`
	After  json.RawMessage    `json:"after"`
	Lines  *core.ChangedLines `json:"lines,omitempty"`
	// Unreported (how "none" only): why the server that covers the file
	// gave no report to compare, so the delta does not say no server
	// covers it.
	Unreported string `json:"unreported,omitempty"`
}

// baseline is the server's report on each changed file before a change,
// by path, and why a file that has none has none when its server covers
// it (it failed, or the file changed while it was checked) — a file in
// neither is one no server covers.
type baseline struct {
	reports    map[string]lspseam.DiagnosticReport
	unreported map[string]error
}

// errChangedWhileChecked: the file's text on the server was not the text
// the change was planned from.
var errChangedWhileChecked = errors.New("the file changed while it was being checked")

// unreport records why the server gave no report on rel; an error that
// says no server covers it records nothing.
func (b *baseline) unreport(rel string, err error) {
	if err == nil || isUncovered(err) {
		return
	}
	if b.unreported == nil {
		b.unreported = map[string]error{}
	}
	b.unreported[rel] = err
}

// deltaFile is one file's diagnosticsDelta input: its text before and
// after a change and the server's reports on them (nil: no server covers
// the file, and its lines are not needed).
func deltaFile(uri, beforeText, afterText string, before, after *lspseam.DiagnosticReport) deltaFileInput {
	d := deltaFileInput{URI: uri, How: "none", Before: json.RawMessage("[]"), After: json.RawMessage("[]")}
	if before != nil && after != nil {
		d.Before, d.After, d.How, d.Fresh = before.Diagnostics, after.Diagnostics, after.How, before.Fresh && after.Fresh
		lines := core.LinesChanged(beforeText, afterText)
		d.Lines = &lines
	}
	return d
}

// changedFileDelta is a changed file's diagnosticsDelta input from its
// report before the change (from before, by path) and its check after it
// (nil: not checked). A file with no report before has none to compare
// (how "none"); one whose check after failed compares its report from
// before, stale; one whose text is no longer the change's is stale too.
// A file the change creates had no problems before it existed, and one
// it moves had those of its old path (fromText: that path's text): both
// are compared with their check after the change. (A moved file was
// answered "no language server covers it", for a .ts file whose server
// had just checked it.)
func changedFileDelta(r *workspacefs.Root, f plannedFile, before baseline, after *lspseam.FileCheck, fromText string) deltaFileInput {
	rep, ok := before.reports[f.rel]
	checked := after != nil && after.Err == nil && after.File.URI != "" && after.Report.How != ""
	if !ok && f.created && checked {
		beforeText := f.before
		rep, ok = lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), Fresh: true}, true // nothing before the file existed
		if f.from != "" {
			moved, had := before.reports[f.from]
			rep, beforeText = moved, fromText
			if !had { // its old problems are unknown: compared with none, stale
				rep = lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]")}
			}
		}
		rep2 := after.Report
		if after.File.Text != f.after {
			rep2.Fresh = false
		}
		return deltaFile(after.File.URI, beforeText, f.after, &rep, &rep2)
	}
	switch {
	case !ok:
		d := deltaFile(workspacefs.FileURI(r.Abs(f.rel)), f.before, f.after, nil, nil)
		d.Unreported = unreportedReason(before.unreported[f.rel], after)
		if d.Unreported != "" && checked {
			// Nothing to compare it with, but the problems it has now
			// are listed: the caller may have to fix them.
			d.After = after.Report.Diagnostics
		}
		return d
	case checked:
		rep2 := after.Report
		if after.File.Text != f.after {
			rep2.Fresh = false // changed again since it was written: not a report on the change
		}
		return deltaFile(after.File.URI, f.before, f.after, &rep, &rep2)
	}
	if cs := (*checkCutShort)(nil); after != nil && errors.As(after.Err, &cs) {
		// The check after was cut short: not checked, and said why.
		d := deltaFile(rep.URI, f.before, f.after, nil, nil)
		d.Unreported = "after the edit: " + cs.why
		return d
	}
	// No report after the change (the session ended, or the server failed
	// on this file): the one from before, stale.
	stale := rep
	stale.Fresh = false
	return deltaFile(rep.URI, f.before, f.after, &rep, &stale)
}

// checkCutShort is a file's check after a change that was cut short
// before the server reported on it: the call was cancelled (lspseam
// stopping, or the client) or the server stopped. The file was opened
// with no report, which is no report at all (how "").
type checkCutShort struct{ why string }

func (c *checkCutShort) Error() string { return c.why }

// markCutShort gives each file of a failed check (err) that has neither a
// report nor an error of its own a checkCutShort saying why.
func markCutShort(ctx context.Context, checks []lspseam.FileCheck, err error) {
	if err == nil {
		return
	}
	why := "its language server stopped before it reported on the change (" + errorMessage(err) + ")"
	if ctx.Err() != nil {
		why = "the call was cancelled before its language server reported on the change (lspseam was stopping, or the client cancelled the call)"
	}
	for i := range checks {
		if checks[i].Err == nil && checks[i].Report.How == "" {
			checks[i].Err = &checkCutShort{why}
		}
	}
}

// unreportedReason is why a file with no report from before the change
// was not compared, when a server covers it ("" when none does): its
// failure before the change, else its failure after, else that it
// reported only after the change.
func unreportedReason(beforeErr error, after *lspseam.FileCheck) string {
	switch {
	case beforeErr != nil:
		return "before the edit: " + errorMessage(beforeErr)
	case after != nil && after.Err != nil && !isUncovered(after.Err):
		return "after the edit: " + errorMessage(after.Err)
	case after != nil && after.Err == nil && after.File.URI != "":
		return "it reported after the edit only, so there is nothing to compare"
	}
	return ""
}

// withDelta adds the diagnostics delta of a change to its answer; a delta
// that cannot be computed leaves the change's answer, saying why.
func (t *Toolbox) withDelta(ctx context.Context, a answer, delta map[string]any) (answer, error) {
	out, err := t.coreJSON(ctx, "diagnosticsDelta", delta)
	if err != nil {
		return withoutDiagnostics(a, err), nil
	}
	dv, err := coreAnswer(out)
	if err != nil {
		return a, err
	}
	a.text += "\n" + dv.text
	a.fields = append(a.fields, field{"diagnostics", json.RawMessage(out)})
	return a, nil
}

// withAppliedDelta is withDelta for a change that was written (not a
// preview): the other files it broke, or that are clean again, are noted
// for the next change of the files it changed.
func (t *Toolbox) withAppliedDelta(ctx context.Context, r *workspacefs.Root, changed []string, a answer, delta map[string]any) (answer, error) {
	a, err := t.withDelta(ctx, a, delta)
	if err != nil || delta["dependents"] == nil {
		return a, err
	}
	for _, f := range a.fields {
		if out, ok := f.value.(json.RawMessage); ok && f.name == "diagnostics" {
			t.breaks.note(r, changed, out)
		}
	}
	return a, nil
}

// diagnosticsOf is the delta input for a file that did not exist before.
func (t *Toolbox) diagnosticsOf(ctx context.Context, r *workspacefs.Root, ws string, after workspacefs.File) (deltaFileInput, error) {
	d := deltaFile(workspacefs.FileURI(r.Abs(after.Rel)), "", after.Text, nil, nil)
	err := t.service.Session(ctx, after.Rel, ws, func(ctx context.Context, s lspseam.Session) error {
		f, err := s.Open(ctx, after.Rel)
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, f, lspseam.DiagnosticsOptions{})
		if err != nil {
			return err
		}
		none := lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), Fresh: true} // nothing before the file existed
		d = deltaFile(f.URI, "", f.Text, &none, &rep)
		return nil
	})
	if err != nil && !isUncovered(err) {
		return d, err
	}
	return d, nil
}

// isUncovered: no language server covers the file (its extension has no
// provider, or the provider cannot give diagnostics).
func isUncovered(err error) bool {
	var lerr *lspseam.Error
	return errors.As(err, &lerr) && (lerr.Code == lspseam.CodeUnavailable || lerr.Code == lspseam.CodeUnsupportedOperation)
}

// withoutDiagnostics is a successful write whose diagnostics failed: the
// write stands, and the answer says why there is no delta.
func withoutDiagnostics(a answer, err error) answer {
	msg := errorMessage(err)
	a.text += "\nNo diagnostics: " + msg
	a.fields = append(a.fields, field{"diagnosticsError", msg})
	return a
}
