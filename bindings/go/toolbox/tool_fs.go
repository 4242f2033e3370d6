package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The fs toolset (seed 002): read, write, edit, with the observation
// policy and post-edit diagnostics.
//
// The observation policy: a Toolbox is one session (an MCP session, a
// serve connection, a Go or JavaScript tool set). Updating an existing
// file needs an observation of its current content by this session — a
// read of any window of it, or this session's own write or edit — so a
// model never overwrites what it has not seen: a file never observed is
// FS_NOT_OBSERVED, one that changed since it was observed is FS_STALE, and
// nothing is written. Creating a file needs none. Versions are content
// hashes, so a file rewritten with the same bytes is not stale.

// observations records, per absolute path, the version this session last
// observed. It is safe for concurrent use.
type observations struct {
	mu   sync.Mutex
	seen map[string]string
}

func (o *observations) record(abs, version string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]string{}
	}
	o.seen[abs] = version
}

// check is the policy for updating f (which exists).
func (o *observations) forget(abs string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.seen, abs)
}

func (o *observations) check(abs string, f workspacefs.File, tool string) error {
	o.mu.Lock()
	seen, ok := o.seen[abs]
	o.mu.Unlock()
	switch {
	case !ok:
		return lspseam.Errorf(lspseam.CodeFSNotObserved, "%s exists and this session has not read it: read it first (any part of it), then %s; nothing was written", f.Rel, tool)
	case seen != f.Version:
		return lspseam.Errorf(lspseam.CodeFSStale, "%s changed since this session last read or wrote it (now %s, then %s): read it again before you %s; nothing was written", f.Rel, f.Version, seen, tool)
	}
	return nil
}

// readAnswer is readView's answer.
type readAnswer struct {
	Path          string `json:"path"`
	Text          string `json:"text"`
	StartLine     int    `json:"startLine"`
	ReturnedLines int    `json:"returnedLines"`
	TotalLines    int    `json:"totalLines"`
	Partial       bool   `json:"partial"`
	NextOffset    int    `json:"nextOffset,omitempty"`
	Footer        string `json:"footer"`
}

func (t *Toolbox) read(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return answer{}, err
	}
	defer r.Close()
	f, err := r.Read(call.Path)
	if err != nil {
		return answer{}, err
	}
	if !f.Exists {
		return answer{}, lspseam.Errorf(lspseam.CodeFSNotFound, "%s does not exist (paths are relative to the workspace %s)", f.Rel, r.Dir)
	}
	var v readAnswer
	if err := t.core.Invoke(ctx, "readView", map[string]any{"text": f.Text, "path": f.Rel, "offset": call.Offset, "limit": call.Limit}, &v); err != nil {
		return answer{}, err
	}
	t.observed.record(r.Abs(f.Real), f.Version)
	text := v.Text
	if v.Footer != "" {
		text += "\n" + v.Footer
	}
	a := answer{text: text, fields: []field{{"path", f.Rel}, {"startLine", v.StartLine}, {"returnedLines", v.ReturnedLines},
		{"totalLines", v.TotalLines}, {"partial", v.Partial}, {"version", f.Version}, {"content", v.Text}}}
	if v.NextOffset > 0 {
		a.fields = append(a.fields, field{"nextOffset", v.NextOffset})
	}
	return a, nil
}

// editAnswer is editText's answer.
type editAnswer struct {
	Text         string `json:"text"`
	Replacements int    `json:"replacements"`
	ReplaceAll   bool   `json:"replaceAll"`
	LineEnding   string `json:"lineEnding"`
	BOM          bool   `json:"bom"`
	ChangedLines struct {
		First int `json:"first"`
		Last  int `json:"last"`
	} `json:"changedLines"`
}

func (t *Toolbox) write(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.mutate(ctx, call, ws, func(f workspacefs.File) (string, []field, string, error) {
		op := "create"
		if f.Exists {
			op = "update"
		}
		summary := "Created " + f.Rel
		if f.Exists {
			summary = "Replaced the content of " + f.Rel
		}
		return *call.Content, []field{{"operation", op}}, summary + " (" + strconv.Itoa(len(*call.Content)) + " bytes).", nil
	})
}

func (t *Toolbox) edit(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.mutate(ctx, call, ws, func(f workspacefs.File) (string, []field, string, error) {
		if !f.Exists {
			return "", nil, "", lspseam.Errorf(lspseam.CodeFSNotFound, "%s does not exist; edit changes existing files (use write to create one)", f.Rel)
		}
		var e editAnswer
		err := t.core.Invoke(ctx, "editText", map[string]any{"text": f.Text, "oldString": call.OldString, "newString": call.NewString, "replaceAll": call.ReplaceAll, "path": f.Rel}, &e)
		if err != nil {
			return "", nil, "", err
		}
		lines := "line " + strconv.Itoa(e.ChangedLines.First)
		if e.ChangedLines.Last != e.ChangedLines.First {
			lines = "lines " + strconv.Itoa(e.ChangedLines.First) + "–" + strconv.Itoa(e.ChangedLines.Last)
		}
		noun := " replacement"
		if e.Replacements != 1 {
			noun = " replacements"
		}
		summary := "Edited " + f.Rel + ": " + strconv.Itoa(e.Replacements) + noun + " (" + lines + " now)."
		return e.Text, []field{{"replacements", e.Replacements}, {"replaceAll", e.ReplaceAll}, {"changedLines", e.ChangedLines}}, summary, nil
	})
}

// mutate is write and edit: the file read and checked against this
// session's observation, the new text computed, written atomically, and
// the language server's diagnostics before and after compared. When a
// server owns the file, all of it happens in one turn on that server, so
// the diagnostics are the ones for these two versions.
func (t *Toolbox) mutate(ctx context.Context, call lspseam.CodeCall, ws string, change func(workspacefs.File) (string, []field, string, error)) (answer, error) {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return answer{}, err
	}
	defer r.Close()
	tool := call.Tool
	var a answer
	// apply reads, checks and writes the file under its cross-process
	// lock: no other lspseam process writes it between this session's
	// check and its write.
	apply := func() (workspacefs.File, string, error) {
		var fields []field
		var summary string
		f, text, err := r.Update(ctx, call.Path, func(f workspacefs.File) (string, error) {
			if f.Exists {
				if err := t.observed.check(r.Abs(f.Real), f, tool); err != nil {
					return "", err
				}
			}
			text, fl, sum, err := change(f)
			fields, summary = fl, sum
			return text, err
		})
		if err != nil {
			return f, "", err
		}
		version := workspacefs.ContentVersion(text)
		t.observed.record(r.Abs(f.Real), version)
		a.text = summary
		a.fields = append([]field{{"path", f.Rel}}, fields...)
		a.fields = append(a.fields, field{"version", version})
		return f, text, nil
	}

	before, err := r.Read(call.Path)
	if err != nil {
		return answer{}, err
	}
	// A change the policy refuses is refused before any server is
	// involved (it is checked again, with the file read again, in the
	// server's turn).
	if before.Exists {
		if err := t.observed.check(r.Abs(before.Real), before, tool); err != nil {
			return answer{}, err
		}
		if _, _, _, err := change(before); err != nil { // no match, ambiguous: said at once
			return answer{}, err
		}
	}
	delta := map[string]any{"workspaceUri": fileURIOf(r.Dir)}
	if !before.Exists {
		// Nothing for a server to open yet: write, then ask.
		if _, _, err := apply(); err != nil {
			return answer{}, err
		}
		after, err := r.Read(call.Path)
		if err != nil || !after.Exists {
			return a, err
		}
		d, err := t.diagnosticsOf(ctx, r, ws, after)
		if err != nil {
			return a, err
		}
		delta["files"] = []any{d}
	} else {
		var d map[string]any
		err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
			f0, err := s.Open(ctx, call.Path)
			if err != nil {
				return err
			}
			// A server that cannot report does not stop the change: the
			// answer then says why there is no delta.
			d0, err0 := s.Diagnostics(ctx, f0, lspseam.DiagnosticsOptions{})
			if ctx.Err() != nil {
				return err0
			}
			old, _, err := apply()
			if err != nil {
				return err
			}
			f1, err := s.Open(ctx, call.Path)
			if err != nil {
				return err
			}
			d1, err := s.Diagnostics(ctx, f1, lspseam.DiagnosticsOptions{})
			if err == nil {
				err = err0
			}
			if err != nil {
				return err
			}
			d = deltaFile(f1.URI, old.Text, f1.Text, &d0, &d1)
			return nil
		})
		if err != nil {
			if a.text != "" { // written: the diagnostics could not be had
				return withoutDiagnostics(a, err), nil
			}
			if !isUncovered(err) {
				return answer{}, err
			}
			// No server for this file: write without diagnostics.
			if _, _, err := apply(); err != nil {
				return answer{}, err
			}
			d = deltaFile(fileURIOf(r.Abs(before.Rel)), before.Text, before.Text, nil, nil)
		}
		delta["files"] = []any{d}
	}
	return t.withDelta(ctx, a, delta)
}

// deltaFile is one file's diagnosticsDelta input: its text before and
// after a change and the server's reports on them (nil: no server covers
// the file).
func deltaFile(uri, beforeText, afterText string, before, after *lspseam.DiagnosticReport) map[string]any {
	d := map[string]any{"uri": uri, "beforeText": beforeText, "afterText": afterText, "before": json.RawMessage("[]"), "after": json.RawMessage("[]"), "how": "none", "fresh": false}
	if before != nil && after != nil {
		d["before"], d["after"], d["how"], d["fresh"] = before.Diagnostics, after.Diagnostics, after.How, before.Fresh && after.Fresh
	}
	return d
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
func (t *Toolbox) diagnosticsOf(ctx context.Context, r *workspacefs.Root, ws string, after workspacefs.File) (map[string]any, error) {
	d := deltaFile(fileURIOf(r.Abs(after.Rel)), "", after.Text, nil, nil)
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
	var lerr *lspseam.Error
	msg := err.Error()
	if errors.As(err, &lerr) {
		msg = string(lerr.Code) + ": " + lerr.Message
	}
	a.text += "\nNo diagnostics: " + msg
	a.fields = append(a.fields, field{"diagnosticsError", msg})
	return a
}

func fileURIOf(abs string) string { return workspacefs.HostPaths.FileURI(abs) }
