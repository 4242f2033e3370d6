package toolbox

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The diagnostics delta of a change: each changed file's reports before
// and after, handed to the core (diagnosticsDelta).

// deltaFileInput is one file's diagnosticsDelta input. Its fields are in
// this order on purpose: the core reads the small ones by name, and each
// read scans the object from its start, so the two texts (a whole file
// each) come last. Sorted by name, as a map is encoded, the reads of
// "uri", "how" and "fresh" skipped both: a 2,000-line file's delta took
// 25–28 ms in the module as a map and 15–22 ms with the texts last (the
// two alternated in one process, idle machine, session of 2026-12-02).
type deltaFileInput struct {
	URI        string          `json:"uri"`
	How        string          `json:"how"`
	Fresh      bool            `json:"fresh"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	BeforeText string          `json:"beforeText"`
	AfterText  string          `json:"afterText"`
}

// deltaFile is one file's diagnosticsDelta input: its text before and
// after a change and the server's reports on them (nil: no server covers
// the file).
func deltaFile(uri, beforeText, afterText string, before, after *lspseam.DiagnosticReport) deltaFileInput {
	d := deltaFileInput{URI: uri, How: "none", Before: json.RawMessage("[]"), After: json.RawMessage("[]"), BeforeText: beforeText, AfterText: afterText}
	if before != nil && after != nil {
		d.Before, d.After, d.How, d.Fresh = before.Diagnostics, after.Diagnostics, after.How, before.Fresh && after.Fresh
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
func changedFileDelta(r *workspacefs.Root, f plannedFile, before map[string]lspseam.DiagnosticReport, after *lspseam.FileCheck, fromText string) deltaFileInput {
	rep, ok := before[f.rel]
	checked := after != nil && after.Err == nil && after.File.URI != ""
	if !ok && f.created && checked {
		beforeText := f.before
		rep, ok = lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), Fresh: true}, true // nothing before the file existed
		if f.from != "" {
			moved, had := before[f.from]
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
		return deltaFile(workspacefs.FileURI(r.Abs(f.rel)), f.before, f.after, nil, nil)
	case checked:
		rep2 := after.Report
		if after.File.Text != f.after {
			rep2.Fresh = false // changed again since it was written: not a report on the change
		}
		return deltaFile(after.File.URI, f.before, f.after, &rep, &rep2)
	}
	// No report after the change (the session ended, or the server failed
	// on this file): the one from before, stale.
	stale := rep
	stale.Fresh = false
	return deltaFile(rep.URI, f.before, f.after, &rep, &stale)
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
