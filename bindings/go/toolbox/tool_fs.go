package toolbox

import (
	"context"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
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
	t.observed.recordRead(r.Abs(f.Real), f.Version)
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
		// An existing file keeps the byte order mark and line breaks the
		// content says nothing about, and the answer says what was kept
		// or changed (core/writeform.go).
		w := core.WriteText(f.Text, f.Exists, *call.Content)
		summary := "Created " + f.Rel
		if f.Exists {
			summary = "Replaced the content of " + f.Rel
		}
		summary += " (" + strconv.Itoa(len(w.Text)) + " bytes)"
		if w.Kept != "" {
			summary += ", keeping " + w.Kept
		}
		summary += "."
		if w.Changed != "" {
			summary += " " + strings.ToUpper(w.Changed[:1]) + w.Changed[1:] + "."
		}
		return w.Text, []field{{"operation", op}, {"lineEnding", w.LineEnding}, {"bom", w.BOM}}, summary, nil
	})
}

func (t *Toolbox) edit(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.mutate(ctx, call, ws, func(f workspacefs.File) (string, []field, string, error) {
		if !f.Exists {
			return "", nil, "", lspseam.Errorf(lspseam.CodeFSNotFound, "%s does not exist; edit changes existing files (use write to create one)", f.Rel)
		}
		e, err := t.editText(ctx, f, call)
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

// editText asks the core for an edit's new text. It sends the lines that
// hold old_string's matches (core.EditWindowOf, found natively) and
// splices their new text back, instead of the whole file both ways: 8–9
// ms of a 24 ms edit of a 2,000-line file. Any error of the window is
// asked again of the whole text, whose error names the file's lines
// (core/editwindow.go).
func (t *Toolbox) editText(ctx context.Context, f workspacefs.File, call lspseam.CodeCall) (editAnswer, error) {
	args := map[string]any{"oldString": call.OldString, "newString": call.NewString, "replaceAll": call.ReplaceAll, "path": f.Rel}
	var e editAnswer
	if w, ok := core.EditWindowOf(f.Text, call.OldString); ok && w.End-w.Start < len(f.Text) {
		args["text"], args["window"] = f.Text[w.Start:w.End], w
		if t.core.Invoke(ctx, "editText", args, &e) == nil {
			e.Text = f.Text[:w.Start] + e.Text + f.Text[w.End:]
			return e, nil
		}
		if ctx.Err() != nil {
			return e, ctx.Err()
		}
		delete(args, "window")
	}
	args["text"] = f.Text
	err := t.core.Invoke(ctx, "editText", args, &e)
	return e, err
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
	// The change planned from the first read is the change of the same
	// text read again under the lock: the core is asked once (an edit's
	// editText was asked twice, about 0.4 ms each after a pause).
	var plan struct {
		rel, from, text, summary string
		fields                   []field
		done                     bool
	}
	changed := func(f workspacefs.File) (string, []field, string, error) {
		if plan.done && f.Exists && f.Rel == plan.rel && f.Text == plan.from {
			return plan.text, plan.fields, plan.summary, nil
		}
		return change(f)
	}
	// apply reads, checks and writes the file under its cross-process
	// lock: no other lspseam process writes it between this session's
	// check and its write.
	apply := func() (workspacefs.File, string, error) {
		var fields []field
		var summary string
		var writing []string // set once the write is underway (WriteWatch)
		f, text, err := r.Update(ctx, call.Path, func(f workspacefs.File) (string, error) {
			if f.Exists {
				if err := t.observed.check(r.Abs(f.Real), f, tool); err != nil {
					return "", err
				}
			} else if err := t.observed.checkAbsent(r.Abs(f.Real), f.Rel, tool); err != nil {
				return "", err
			}
			text, fl, sum, err := changed(f)
			fields, summary = fl, sum
			if err == nil {
				if err = writeWatchOf(ctx).Writing([]string{f.Rel}); err == nil {
					writing = []string{f.Rel}
				}
			}
			return text, err
		})
		if writing != nil {
			writeWatchOf(ctx).Wrote(writing, err)
		}
		if err != nil {
			return f, "", err
		}
		version := workspacefs.ContentVersion(text)
		t.observed.recordRead(r.Abs(f.Real), version)
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
	var planned string
	if !before.Exists {
		if err := t.observed.checkAbsent(r.Abs(before.Real), before.Rel, tool); err != nil {
			return answer{}, err
		}
	}
	if before.Exists {
		if err := t.observed.check(r.Abs(before.Real), before, tool); err != nil {
			return answer{}, err
		}
		text, fields, summary, err := change(before) // no match, ambiguous: said at once
		if err != nil {
			return answer{}, err
		}
		planned = text
		plan.rel, plan.from, plan.text, plan.fields, plan.summary, plan.done = before.Rel, before.Text, text, fields, summary, true
	}
	delta := map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir)}
	if !before.Exists {
		// Nothing for a server to open yet: write, then ask. The files
		// its new declarations may clash with (impact.go) are checked
		// before the write and after it.
		clashes := t.createdFileClashes(ctx, r, ws, before, change)
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
		if deps := clashes.after(ctx, r, ws, after.Rel); deps != nil {
			delta["dependents"] = deps
		}
	} else {
		var d deltaFileInput
		var deps map[string]any
		var found *dependents
		err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
			f0, err := s.Open(ctx, call.Path)
			if err != nil {
				return err
			}
			// The files that use what the edit changes (impact.go), found
			// before it is written and checked with the file, in its
			// wait, before and after it.
			found = t.findDependents(ctx, r, s, []changedText{{rel: before.Rel, before: before.Text, after: planned}})
			paths := []string{call.Path}
			if found != nil {
				paths = append(paths, found.paths...)
			}
			// The write overlaps the wait for the reports before it once
			// the server holds the file with the text it was read with
			// (an open document is the server's copy, as in apply) —
			// unless the server reads the file from the disk for the
			// dependents checked beside it (writeChangesOthersBefore).
			var wrote chan error
			var old workspacefs.File
			var written string
			opts := lspseam.DiagnosticsOptions{Synced: func(checks []lspseam.FileCheck) {
				if len(checks) == 0 || checks[0].Err != nil || checks[0].File.Text != f0.Text {
					return
				}
				wrote = make(chan error, 1)
				go func() {
					var err error
					old, written, err = apply()
					wrote <- err
				}()
			}}
			if writeChangesOthersBefore(s, found, call.Path) {
				opts.Synced = nil // written once the reports before it are in
			}
			// A server that cannot report does not stop the change: the
			// answer then says why there is no delta.
			checks0, err0 := t.checkAcross(ctx, s, ws, paths, opts)
			if err0 == nil && len(checks0) > 0 {
				err0 = checks0[0].Err
			}
			var checks1 []lspseam.FileCheck
			if wrote != nil && err0 == nil {
				// The server checks the new text while the write lands
				// (checkLanding). Text written other than planned (the
				// file changed since it was read) is checked again from
				// the disk below.
				if checks1, err = checkLanding(ctx, s, []lspseam.SpeculativeText{{Path: call.Path, Text: planned}}, paths[1:], wrote); err != nil {
					return err
				}
				if written != planned {
					checks1 = nil
				}
				if others := t.otherServers(ctx, s, ws, paths); checks1 != nil && len(others) > 0 {
					t.checkElsewhere(ctx, ws, paths, others, checks1) // written now
				}
			} else if wrote != nil {
				if err := <-wrote; err != nil {
					return err
				}
			} else {
				if ctx.Err() != nil {
					return err0
				}
				if old, _, err = apply(); err != nil {
					return err
				}
			}
			if checks1 == nil {
				checks1, err = t.checkAcross(ctx, s, ws, paths, lspseam.DiagnosticsOptions{AfterSync: found != nil, Changed: 1})
			}
			if err == nil && len(checks1) > 0 {
				err = checks1[0].Err
			}
			if err == nil {
				err = err0
			}
			if err != nil {
				return err
			}
			c0, c1 := checks0[0], checks1[0]
			d = deltaFile(c1.File.URI, old.Text, c1.File.Text, &c0.Report, &c1.Report)
			if found != nil {
				deps = dependentsInput(ctx, r, found, checks0[1:], checks1[1:])
			}
			return nil
		})
		if err != nil {
			if a.text != "" { // written: the diagnostics could not be had
				return found.noted(withoutDiagnostics(a, err)), nil
			}
			if !isUncovered(err) {
				return answer{}, err
			}
			// No server for this file: write without diagnostics.
			if _, _, err := apply(); err != nil {
				return answer{}, err
			}
			d = deltaFile(workspacefs.FileURI(r.Abs(before.Rel)), before.Text, before.Text, nil, nil)
		}
		delta["files"] = []any{d}
		if deps != nil {
			delta["dependents"] = deps
		}
		a, err := t.withAppliedDelta(ctx, r, []string{before.Rel}, a, delta)
		return found.noted(a), err
	}
	return t.withDelta(ctx, a, delta)
}
