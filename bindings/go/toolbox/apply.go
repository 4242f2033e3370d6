package toolbox

import (
	"context"
	"slices"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Applying planned files: written all or nothing under their locks, the
// servers told the new contents, and the diagnostics delta answered.

// apply writes planned files atomically as a set and reports the
// diagnostics delta. The session's server is told the new contents.
//
// The write overlaps the wait for the reports before the change when that
// cannot change them: once every file is open on the server with its old
// text (an open document is the server's copy, whatever the disk says)
// and the change creates and deletes nothing (a file that appears or
// disappears on disk can change what a server loads), and no other file
// checked with it reads a changed file from the disk
// (writeChangesOthersBefore).
func (t *Toolbox) apply(ctx context.Context, ws string, r *workspacefs.Root, s lspseam.Session, what string, files []plannedFile) (answer, error) {
	imp := t.impactOf(ctx, r, s, files)
	var wrote chan error
	opts := lspseam.DiagnosticsOptions{}
	if !slices.ContainsFunc(files, func(f plannedFile) bool { return f.created || f.deleted }) &&
		!slices.ContainsFunc(files, func(f plannedFile) bool { return writeChangesOthersBefore(s, impFound(imp), f.rel) }) {
		opts.Synced = func(checks []lspseam.FileCheck) {
			if len(checks) < len(files) || slices.ContainsFunc(checks[:len(files)], func(c lspseam.FileCheck) bool { return c.Err != nil }) {
				return // a file the server does not hold: written after
			}
			wrote = make(chan error, 1)
			go func() { wrote <- writeAll(ctx, r, files) }()
		}
	}
	before, err := t.diagnosticsBeforeAcross(ctx, s, ws, files, imp, opts)
	if wrote != nil {
		// Written or refused whatever came of the reports: a write that
		// happened is answered, with the reports there are. The server
		// checks the new texts while the write lands (appliedAnswer).
		if err != nil {
			before = baseline{}
		}
		return t.appliedAnswerLanding(ctx, r, s, "Applied: "+what, files, before, imp, wrote)
	}
	if err != nil {
		return answer{}, err
	}
	if err := writeAll(ctx, r, files); err != nil {
		return answer{}, err
	}
	return t.appliedAnswer(ctx, r, s, "Applied: "+what, files, before, imp)
}

// impact is a change's dependents (impact.go) and their reports before
// it; nil when the server cannot name them.
type impact struct {
	found  *dependents
	before []lspseam.FileCheck // in found.paths' order
}

// impFound is imp's dependents, nil for none.
func impFound(imp *impact) *dependents {
	if imp == nil {
		return nil
	}
	return imp.found
}

// impactOf finds the dependents of planned files, before they are
// written.
func (t *Toolbox) impactOf(ctx context.Context, r *workspacefs.Root, s lspseam.Session, files []plannedFile) *impact {
	changed := make([]changedText, len(files))
	for i, f := range files {
		changed[i] = changedText{rel: f.rel, before: f.before, after: f.after, created: f.created, renamed: f.renamed}
	}
	found := t.findDependents(ctx, r, s, changed)
	if found == nil {
		return nil
	}
	return &impact{found: found}
}

// diagnosticsBefore is the server's report on each file that exists
// before the change, as it is (for the delta), by path: all asked
// together (Session.Check), so a change of many files waits about as long
// as one of one file.
func diagnosticsBefore(ctx context.Context, s lspseam.Session, files []plannedFile) (baseline, error) {
	return (*Toolbox)(nil).diagnosticsBeforeAcross(ctx, s, "", files, nil, lspseam.DiagnosticsOptions{})
}

// diagnosticsBeforeAcross is diagnosticsBefore with options, and with the
// change's dependents (imp, may be nil) checked in the same wait: their
// checks go to imp.before. With t and ws, the files another server serves
// are checked on theirs (crossserverchecks.go).
func (t *Toolbox) diagnosticsBeforeAcross(ctx context.Context, s lspseam.Session, ws string, files []plannedFile, imp *impact, opts lspseam.DiagnosticsOptions) (baseline, error) {
	before := baseline{reports: map[string]lspseam.DiagnosticReport{}}
	var paths []string
	var which []int
	for i, f := range files {
		if !f.created {
			paths = append(paths, f.rel)
			which = append(which, i)
		}
	}
	own := len(paths)
	if imp != nil {
		paths = append(paths, imp.found.paths...)
	}
	if len(paths) == 0 {
		return before, nil
	}
	checks, err := t.checkAcross(ctx, s, ws, paths, opts)
	if ctx.Err() != nil {
		return baseline{}, ctx.Err()
	}
	if imp != nil && len(checks) > own {
		imp.before = checks[own:]
	}
	if err != nil { // no baseline: the delta says so per file
		for _, j := range which {
			before.unreport(files[j].rel, err)
		}
		return before, nil
	}
	for j, c := range checks[:min(own, len(checks))] {
		switch f := files[which[j]]; {
		case c.Err != nil:
			before.unreport(f.rel, c.Err)
		case c.File.Text == f.before:
			before.reports[f.rel] = c.Report
		default:
			before.unreport(f.rel, errChangedWhileChecked)
		}
	}
	return before, nil
}

// appliedAnswer is the receipt of files written: the server is told their
// new contents and the answer carries the diagnostics delta. Every changed
// document is synced before any is asked about (a rename's references are
// only right once the declaration changed too), and their reports are
// awaited together within one wait (Session.Check). The files are written
// whatever comes of that: a file whose report did not come in time is
// stale in the delta, by name, and one the server could not report on at
// all compares its report from before the change, stale too.
func (t *Toolbox) appliedAnswer(ctx context.Context, r *workspacefs.Root, s lspseam.Session, head string, files []plannedFile, before baseline, imp *impact) (answer, error) {
	return t.appliedAnswerLanding(ctx, r, s, head, files, before, imp, nil)
}

// appliedAnswerLanding is appliedAnswer for files whose write may still be
// landing: wrote, when set, delivers its result, and the files are checked
// while it lands (checkLanding); a write that failed is the answer.
func (t *Toolbox) appliedAnswerLanding(ctx context.Context, r *workspacefs.Root, s lspseam.Session, head string, files []plannedFile, before baseline, imp *impact, wrote <-chan error) (answer, error) {
	var paths []string
	var which []int
	for i, f := range files {
		if !f.deleted { // a deleted file: the server hears of it from the watcher
			paths = append(paths, f.rel)
			which = append(which, i)
		}
	}
	after := make([]*lspseam.FileCheck, len(files))
	own := len(paths)
	if imp != nil {
		paths = append(paths, imp.found.paths...) // checked with the change: in the one wait
	}
	var depAfter []lspseam.FileCheck
	var checks []lspseam.FileCheck
	if wrote != nil {
		texts := make([]lspseam.SpeculativeText, own)
		for j, i := range which {
			texts[j] = lspseam.SpeculativeText{Path: files[i].rel, Text: files[i].after}
		}
		var err error
		if checks, err = checkLanding(ctx, s, texts, paths[own:], wrote); err != nil {
			return answer{}, err
		}
		if others := t.otherServers(ctx, s, r.Dir, paths); checks != nil && len(others) > 0 {
			t.checkElsewhere(ctx, r.Dir, paths, others, checks) // written now
		}
	}
	if len(paths) > 0 {
		if checks == nil {
			var err error
			checks, err = t.checkAcross(ctx, s, r.Dir, paths, lspseam.DiagnosticsOptions{AfterSync: imp != nil, Changed: own})
			// A check cut short (the call cancelled by a stop, the server
			// stopping) leaves files opened with no report: each says so.
			markCutShort(ctx, checks, err)
		}
		for j := range checks[:min(own, len(checks))] {
			after[which[j]] = &checks[j]
		}
		if len(checks) > own {
			depAfter = checks[own:]
		}
	}
	edits := 0
	list := []map[string]any{}
	var deltaFiles []any
	for i, f := range files {
		edits += f.edits
		list = append(list, f.receipt())
		if f.deleted {
			t.observed.forget(r.Abs(f.rel))
			continue
		}
		t.observed.record(r.Abs(f.rel), workspacefs.ContentVersion(f.after))
		deltaFiles = append(deltaFiles, changedFileDelta(r, f, before, after[i], textBefore(files, f.from)))
	}
	a := answer{text: head + ": " + changeSize(files) + " (" + joinPaths(files) + ").",
		fields: []field{{"applied", true}, {"edits", edits}, {"files", list}}}
	if deltaFiles == nil {
		return a, nil
	}
	delta := map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir), "files": deltaFiles}
	if imp != nil {
		delta["dependents"] = dependentsInput(ctx, r, imp.found, imp.before, depAfter)
	}
	changed := make([]string, len(files))
	for i, f := range files {
		changed[i] = f.rel
	}
	a, err := t.withAppliedDelta(ctx, r, changed, a, delta)
	return impFound(imp).noted(a), err
}

// checkLanding checks texts on the server, and the files of also beside
// them, while the write of texts lands; wrote delivers the write's result.
// The server is shown the new texts (Session.Speculate with
// DiagnosticsOptions.Landing), the write is awaited before the documents
// are given the disk's bytes again — the same bytes once it landed, the
// old ones if it failed, whose error is then err. checks is nil when the
// server could not be shown the texts (more files than it keeps open, or
// the session failed): the caller checks from the disk once written.
func checkLanding(ctx context.Context, s lspseam.Session, texts []lspseam.SpeculativeText, also []string, wrote <-chan error) (checks []lspseam.FileCheck, err error) {
	landed := false
	var werr error
	land := func() {
		if !landed {
			landed, werr = true, <-wrote
		}
	}
	checks, serr := s.Speculate(ctx, texts, also, lspseam.DiagnosticsOptions{Landing: land})
	land() // Speculate refused before it showed anything
	if werr != nil {
		return nil, werr
	}
	if serr != nil {
		return nil, nil
	}
	return checks, nil
}

// writeAll writes files as a set in r (workspacefs.Root.WriteSet): under the files' locks,
// each is read again and must be as the change was planned from (else
// LSP_CONFLICT, a *changedMeanwhile, and nothing is written); then all
// new contents are put in place, or none.
func writeAll(ctx context.Context, r *workspacefs.Root, files []plannedFile) error {
	rels := make([]string, len(files))
	reals := make([]string, len(files))
	for i, f := range files {
		rel, err := r.Rel(f.rel)
		if err != nil {
			return err
		}
		rels[i], reals[i] = rel, r.Resolve(rel)
	}
	locks, err := r.Lock(ctx, reals)
	if err != nil {
		return err
	}
	defer locks.Unlock()
	items := make([]workspacefs.SetItem, len(files))
	for i, f := range files {
		cur, err := r.ReadAt(f.rel, rels[i], reals[i])
		if err != nil {
			return err
		}
		if !f.matches(cur) {
			return &changedMeanwhile{lspseam.Errorf(lspseam.CodeConflict, "%s changed since the change was planned (now %s, then %s); nothing was changed", f.rel, stateOf(cur.Exists, cur.Version), stateOf(!f.created, f.version))}
		}
		items[i] = workspacefs.SetItem{Current: cur, Mode: f.mode}
		if !f.deleted {
			after := f.after
			items[i].After = &after
		}
	}
	watch := writeWatchOf(ctx)
	if err := watch.Writing(rels); err != nil {
		return err
	}
	err = r.WriteSet(items)
	watch.Wrote(rels, err)
	return err
}

// changedMeanwhile is LSP_CONFLICT for a file found changed under its
// lock, after the change was planned or previewed.
type changedMeanwhile struct{ err *lspseam.Error }

func (c *changedMeanwhile) Error() string { return c.err.Error() }

func (c *changedMeanwhile) Unwrap() error { return c.err }

// writeChangesOthersBefore says whether a write overlapping the wait for
// the reports before a change could change those reports: when other
// files are checked with the change (its dependents) and the server reads
// a changed file from the disk when it parses them, not from its open
// document (Readiness.ReadsFromDisk: clangd 14 and a header). Measured
// with clangd 14 on a prototype change in a header: the write landed
// while the includers were being parsed for their reports before the
// change, so those reports already held the change's errors, no newer one
// came after it, and the delta compared after with after — "no new
// problems" for three broken callers. Such a change is written once the
// reports before it are in.
//
// So too for any C-family file a dependent #includes (found.includeChanged),
// whatever its extension: clangd reads cJSON.c from the disk when it
// parses tests/print_number.c, whose tests/common.h does `#include
// "../cJSON.c"` — a function added to cJSON.c was in print_number.c's
// report before the change, so its "redefinition" was never introduced.
func writeChangesOthersBefore(s lspseam.Session, found *dependents, changed string) bool {
	return found != nil && (found.includeChanged || s.Policy().ReadsFromDisk(changed))
}
