package toolbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/internal/expiring"
)

// The workspace-edit applier (docs/design.md, "Edits"): every mutating
// refactor tool turns the server's WorkspaceEdit into new file texts
// through the core (planWorkspaceEdit, applyTextEdits), previews them as
// unified diffs bound to the files' content, and applies them only when
// approved — at once in the "auto" approval mode, or when the same call
// comes back with the preview's id in "preview" mode, the default. At
// apply time every file must still have the content the preview was made
// from (else LSP_CONFLICT with a fresh preview), checked under the files'
// cross-process locks, and the set is written all or nothing, across a
// crash too (workspacefs.Root.WriteSet). The servers are then told the new contents, and
// the answer carries the diagnostics delta.

// Approval modes.
const (
	ApprovalAuto    = "auto"
	ApprovalPreview = "preview"
)

// previewTTL is how long a preview can be applied.
const previewTTL = 10 * time.Minute

// maxPreviews bounds the previews a session keeps.
const maxPreviews = 64

// maxPreviewBytes bounds the bytes a session's pending previews hold (each
// planned file's text before and after and its diff): the count alone let
// 64 previews of a 3.84 MB file hold a gigabyte. Over it the oldest
// previews are dropped, as over maxPreviews.
const maxPreviewBytes = 64 << 20

// plannedFile is one file of a planned change: its content when planned
// and its new content.
type plannedFile struct {
	rel     string
	uri     string
	before  string
	after   string
	edits   int
	diff    string
	version string // workspacefs.ContentVersion(before); "" when created
	// A file the change creates (it does not exist before) or deletes (it
	// does not exist after); from is the path a rename moved its content
	// from, mode the permission bits it gets (0: 0644, or the old file's).
	created, deleted bool
	from             string
	mode             fs.FileMode
}

// change is what a refactor tool plans: files to write, and for a code
// action that runs a server command, the command to run after them.
type change struct {
	what    string // the change, for the answer's text
	files   []plannedFile
	command *serverCommand
}

// preview is a planned change waiting for approval.
type preview struct {
	id   string
	call string // the call it answers (tool and arguments without previewId)
	change
}

func newPreview(call lspseam.CodeCall, ch change) *preview {
	return &preview{id: newPreviewID(), call: callKey(call), change: ch}
}

// newPreviewStore holds a session's pending previews: each can be applied
// once within previewTTL, and at most maxPreviews holding at most
// maxPreviewBytes wait at once.
func newPreviewStore() *expiring.Store[*preview] {
	return expiring.NewSized(previewTTL, maxPreviews, maxPreviewBytes, (*preview).bytes)
}

// bytes is what a preview holds: its files' paths, texts and diffs, and
// its command.
func (pv *preview) bytes() int64 {
	n := len(pv.id) + len(pv.call) + len(pv.what)
	for _, f := range pv.files {
		n += len(f.rel) + len(f.uri) + len(f.before) + len(f.after) + len(f.diff) + len(f.version) + len(f.from)
	}
	if c := pv.command; c != nil {
		n += len(c.name) + len(c.params) + len(c.fileRel) + len(c.fileVersion)
	}
	return int64(n)
}

func newPreviewID() string {
	var b [8]byte
	rand.Read(b[:])
	return "p-" + hex.EncodeToString(b[:])
}

// callKey identifies a call without its previewId, so a preview applies
// only to the call it was made for.
func callKey(call lspseam.CodeCall) string {
	call.PreviewID = ""
	b, _ := json.Marshal(call)
	return string(b)
}

// SetApproval sets how the mutating refactor tools apply changes:
// ApprovalPreview (the default: a preview first, applied when the call
// comes back with its previewId) or ApprovalAuto (at once). Call it before
// the Toolbox is used.
func (t *Toolbox) SetApproval(mode string) error {
	switch mode {
	case ApprovalAuto, ApprovalPreview:
		t.approval = mode
		return nil
	}
	return lspseam.Errorf(lspseam.CodeInvalidArgument, "approval must be %q or %q, got %q", ApprovalAuto, ApprovalPreview, mode)
}

// SetApplyHint replaces the line of a preview's text that says how to
// apply it — by default, call the tool again with the previewId — for a
// host where that cannot work: `lspseam call` ends with the call, and its
// previews with it. The structured answer keeps the previewId. Call it
// before the Toolbox is used.
func (t *Toolbox) SetApplyHint(hint func(tool, previewID string) string) { t.applyHint = hint }

// changeResult previews or applies a planned change, as the approval mode
// and the call's previewId say. Its what names the change for the text
// ("Rename `Describe` to `Summary`").
func (t *Toolbox) changeResult(ctx context.Context, call lspseam.CodeCall, ws string, r *workspacefs.Root, s lspseam.Session, ch change) (answer, error) {
	if len(ch.files) == 0 && ch.command == nil {
		return answer{text: ch.what + ": nothing to change.", fields: []field{{"applied", false}, {"files", []any{}}}, notice: "The server's edit changes nothing."}, nil
	}
	if t.approval != ApprovalAuto {
		pv := newPreview(call, ch)
		t.previews.Put(pv.id, pv)
		return t.previewAnswer(call, pv), nil
	}
	if ch.command != nil {
		return t.runCommand(ctx, r, s, ch)
	}
	return t.apply(ctx, ws, r, s, ch.what, ch.files)
}

// previewAnswer shows a preview: the diffs and how to apply them.
func (t *Toolbox) previewAnswer(call lspseam.CodeCall, pv *preview) answer {
	edits := 0
	var b strings.Builder
	var list []map[string]any
	for _, f := range pv.files {
		edits += f.edits
		b.WriteString(f.diff)
		if f.diff != "" && !strings.HasSuffix(f.diff, "\n") {
			b.WriteString("\n")
		}
		item := f.receipt()
		item["diff"] = f.diff
		list = append(list, item)
	}
	if list == nil {
		list = []map[string]any{}
	}
	head := "Preview (nothing is changed yet): " + pv.what + ": " + strconv.Itoa(edits) + " " + plural(edits, "edit", "edits") + " in " + strconv.Itoa(len(pv.files)) + " " + plural(len(pv.files), "file", "files") + ".\n"
	fields := []field{{"applied", false}, {"previewId", pv.id}, {"edits", edits}, {"files", list}}
	if c := pv.command; c != nil {
		head = "Preview (nothing is changed yet): " + pv.what + " runs the language server's command " + strconv.Quote(c.name) +
			", which makes its changes as it runs: they cannot be shown before (the answer of the run lists them, with the problems they introduce)"
		if len(pv.files) > 0 {
			head += "; first, " + strconv.Itoa(edits) + " " + plural(edits, "edit", "edits") + " in " + strconv.Itoa(len(pv.files)) + " " + plural(len(pv.files), "file", "files") + " below"
		}
		head += ".\n"
		fields = append(fields, field{"command", c.name})
	}
	if t.applyHint != nil {
		head += t.applyHint(call.Tool, pv.id) + "\n"
	} else {
		head += "To apply it, call " + call.Tool + " again with the same arguments and \"previewId\": \"" + pv.id + "\" (within " + strconv.Itoa(int(previewTTL/time.Minute)) + " minutes).\n"
	}
	return answer{text: head + b.String(), fields: fields}
}

// applyPreview applies a preview the call names, if it still matches the
// files; a stale one is LSP_CONFLICT, and the caller makes a fresh one.
func (t *Toolbox) applyPreview(ctx context.Context, call lspseam.CodeCall, ws string, r *workspacefs.Root, s lspseam.Session) (answer, bool, error) {
	// Only the call a preview belongs to takes it: another call's
	// arguments are refused and leave it valid for its own.
	key, another := callKey(call), false
	pv, ok := t.previews.Take(call.PreviewID, func(pv *preview) bool {
		another = pv.call != key
		return !another
	})
	if another {
		return answer{}, false, lspseam.Errorf(lspseam.CodeInvalidArgument, "previewId %q belongs to another call (it stays valid for that call); repeat that call's arguments exactly, or call without previewId for a new preview", call.PreviewID)
	}
	if !ok {
		return answer{}, false, lspseam.Errorf(lspseam.CodeInvalidArgument, "previewId %q is unknown or expired (previews last %d minutes and apply once, and a session keeps only its newest %d within %d MiB); call %s without previewId for a new preview", call.PreviewID, int(previewTTL/time.Minute), maxPreviews, maxPreviewBytes>>20, call.Tool)
	}
	for _, f := range pv.files {
		now, err := r.Read(f.rel)
		if err != nil {
			return answer{}, false, err
		}
		if !f.matches(now) {
			return answer{}, true, lspseam.Errorf(lspseam.CodeConflict, "%s changed since the preview (now %s, then %s); nothing was changed", f.rel, stateOf(now.Exists, now.Version), stateOf(!f.created, f.version))
		}
	}
	if c := pv.command; c != nil {
		now, err := r.Read(c.fileRel)
		if err != nil {
			return answer{}, false, err
		}
		if !now.Exists || now.Version != c.fileVersion {
			return answer{}, true, lspseam.Errorf(lspseam.CodeConflict, "%s changed since the preview (now %s, then %s); nothing was changed", c.fileRel, stateOf(now.Exists, now.Version), c.fileVersion)
		}
		a, err := t.runCommand(ctx, r, s, pv.change)
		return a, false, err
	}
	a, err := t.apply(ctx, ws, r, s, pv.what, pv.files)
	var cm *changedMeanwhile
	return a, errors.As(err, &cm), err
}

// apply writes planned files atomically as a set and reports the
// diagnostics delta. The session's server is told the new contents.
//
// The write overlaps the wait for the reports before the change when that
// cannot change them: once every file is open on the server with its old
// text (an open document is the server's copy, whatever the disk says)
// and the change creates and deletes nothing (a file that appears or
// disappears on disk can change what a server loads).
func (t *Toolbox) apply(ctx context.Context, ws string, r *workspacefs.Root, s lspseam.Session, what string, files []plannedFile) (answer, error) {
	var wrote chan error
	opts := lspseam.DiagnosticsOptions{}
	if !slices.ContainsFunc(files, func(f plannedFile) bool { return f.created || f.deleted }) {
		opts.Synced = func(checks []lspseam.FileCheck) {
			if len(checks) != len(files) || slices.ContainsFunc(checks, func(c lspseam.FileCheck) bool { return c.Err != nil }) {
				return // a file the server does not hold: written after
			}
			wrote = make(chan error, 1)
			go func() { wrote <- writeAll(ctx, r, files) }()
		}
	}
	before, err := diagnosticsBeforeWith(ctx, s, files, opts)
	if wrote != nil {
		// Written or refused whatever came of the reports: a write that
		// happened is answered, with the reports there are.
		if werr := <-wrote; werr != nil {
			return answer{}, werr
		}
		if err != nil {
			before = map[string]lspseam.DiagnosticReport{}
		}
		return t.appliedAnswer(ctx, r, s, "Applied: "+what, files, before)
	}
	if err != nil {
		return answer{}, err
	}
	if err := writeAll(ctx, r, files); err != nil {
		return answer{}, err
	}
	return t.appliedAnswer(ctx, r, s, "Applied: "+what, files, before)
}

// diagnosticsBefore is the server's report on each file that exists
// before the change, as it is (for the delta), by path: all asked
// together (Session.Check), so a change of many files waits about as long
// as one of one file.
func diagnosticsBefore(ctx context.Context, s lspseam.Session, files []plannedFile) (map[string]lspseam.DiagnosticReport, error) {
	return diagnosticsBeforeWith(ctx, s, files, lspseam.DiagnosticsOptions{})
}

func diagnosticsBeforeWith(ctx context.Context, s lspseam.Session, files []plannedFile, opts lspseam.DiagnosticsOptions) (map[string]lspseam.DiagnosticReport, error) {
	before := map[string]lspseam.DiagnosticReport{}
	var paths []string
	var which []int
	for i, f := range files {
		if !f.created {
			paths = append(paths, f.rel)
			which = append(which, i)
		}
	}
	if len(paths) == 0 {
		return before, nil
	}
	checks, err := s.Check(ctx, paths, opts)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return before, nil // no baseline: the delta says so per file
	}
	for j, c := range checks {
		if f := files[which[j]]; c.Err == nil && c.File.Text == f.before {
			before[f.rel] = c.Report
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
func (t *Toolbox) appliedAnswer(ctx context.Context, r *workspacefs.Root, s lspseam.Session, head string, files []plannedFile, before map[string]lspseam.DiagnosticReport) (answer, error) {
	var paths []string
	var which []int
	for i, f := range files {
		if !f.deleted { // a deleted file: the server hears of it from the watcher
			paths = append(paths, f.rel)
			which = append(which, i)
		}
	}
	after := make([]*lspseam.FileCheck, len(files))
	if len(paths) > 0 {
		checks, _ := s.Check(ctx, paths, lspseam.DiagnosticsOptions{}) // an error leaves the files unchecked: stale below
		for j := range checks {
			after[which[j]] = &checks[j]
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
		d := deltaFile(fileURIOf(r.Abs(f.rel)), f.before, f.after, nil, nil)
		if rep, ok := before[f.rel]; ok {
			switch c := after[i]; {
			case c != nil && c.Err == nil && c.File.URI != "":
				rep2 := c.Report
				if c.File.Text != f.after {
					rep2.Fresh = false // changed again since it was written: not a report on the change
				}
				d = deltaFile(c.File.URI, f.before, f.after, &rep, &rep2)
			default:
				// No report after the change (the session ended, or the
				// server failed on this file): the one from before, stale.
				stale := rep
				stale.Fresh = false
				d = deltaFile(rep.URI, f.before, f.after, &rep, &stale)
			}
		}
		deltaFiles = append(deltaFiles, d)
	}
	a := answer{text: head + ": " + strconv.Itoa(edits) + " " + plural(edits, "edit", "edits") + " in " + strconv.Itoa(len(files)) + " " + plural(len(files), "file", "files") + " (" + joinPaths(files) + ").",
		fields: []field{{"applied", true}, {"edits", edits}, {"files", list}}}
	if deltaFiles == nil {
		return a, nil
	}
	return t.withDelta(ctx, a, map[string]any{"workspaceUri": fileURIOf(r.Dir), "files": deltaFiles})
}

// receipt is what an answer says of a file: its path, the text edits in
// it, and whether the change creates, deletes or renames it.
func (f plannedFile) receipt() map[string]any {
	item := map[string]any{"path": f.rel, "edits": f.edits}
	switch {
	case f.from != "":
		item["renamedFrom"] = f.from
	case f.created:
		item["created"] = true
	case f.deleted:
		item["deleted"] = true
	}
	return item
}

// matches: the file on disk is as the change was planned from.
func (f plannedFile) matches(cur workspacefs.File) bool {
	if f.created {
		return !cur.Exists
	}
	return cur.Exists && cur.Version == f.version
}

func stateOf(exists bool, version string) string {
	if !exists {
		return "absent"
	}
	return version
}

func joinPaths(files []plannedFile) string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.rel
	}
	return strings.Join(paths, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
	return r.WriteSet(items)
}

// changedMeanwhile is LSP_CONFLICT for a file found changed under its
// lock, after the change was planned or previewed.
type changedMeanwhile struct{ err *lspseam.Error }

func (c *changedMeanwhile) Error() string { return c.err.Error() }
func (c *changedMeanwhile) Unwrap() error { return c.err }

// appliedEdits is applyTextEdits' answer.
type appliedEdits struct {
	Path  string `json:"path"`
	Text  string `json:"text"`
	Edits int    `json:"edits"`
	Diff  string `json:"diff"`
}

func (t *Toolbox) applyEdits(ctx context.Context, uri, text string, edits json.RawMessage, wsURI string) (appliedEdits, error) {
	var a appliedEdits
	err := t.core.Invoke(ctx, "applyTextEdits", map[string]any{"uri": uri, "text": text, "edits": edits, "workspaceUri": wsURI}, &a)
	return a, err
}

// wholeReplacement is one TextEdit replacing before with after, for the
// diff of a chain of edits.
func wholeReplacement(before, after string) json.RawMessage {
	lines := strings.Count(before, "\n")
	last := before[strings.LastIndexByte(before, '\n')+1:]
	end := 0
	for _, r := range last {
		end++
		if r > 0xFFFF {
			end++
		}
	}
	b, _ := json.Marshal([]map[string]any{{"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": lines, "character": end}}, "newText": after}})
	return b
}
