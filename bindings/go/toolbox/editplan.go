package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"sort"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// An edit plan: what a server's WorkspaceEdit does to the workspace's
// files, worked out in memory before anything is written. The core parses
// and checks the edit (planWorkspaceEdit: text edits per document,
// resource operations, anything outside the workspace); the plan replays
// them in the edit's order over a view of the files — each text edit
// against the text the steps before it left, a create, rename or delete
// with its options (overwrite, ignoreIfExists, ignoreIfNotExists) — and
// ends with each touched path's content before and after. Nothing on disk
// changes here: the applier previews and writes the result as one set.

// planFile is a path's state in the plan.
type planFile struct {
	disk   workspacefs.File // as read from disk, once
	exists bool
	text   string
	mode   fs.FileMode
	from   string // the path whose content this is, when a rename moved it here
	edits  int    // text edits applied to this content
	// diff is applyTextEdits' diff from disk.text to text when one text
	// edit step made text from the file in place ("" otherwise): result
	// needs no second diff of it.
	diff string
}

// editPlan replays a WorkspaceEdit over the files. Files are keyed by
// their resolved paths: a text edit addressed to a symbolic link inside
// the workspace changes the file it points to, and the link stays.
type editPlan struct {
	r     *workspacefs.Root
	files map[string]*planFile
	order []string // paths in the order first touched
	// editedAs is, per file, the name its first text edits were addressed
	// to and those edits: the same file edited through a second name
	// (a link and its target) takes the edits once.
	editedAs map[string]namedEdits
}

type namedEdits struct {
	name  string
	edits json.RawMessage
}

// load returns path's state, reading it from disk the first time, and its
// resolved path. A directory, a symbolic link out or any file the fs rules
// refuse is an error: the plan fails closed.
func (p *editPlan) load(path string) (*planFile, string, error) {
	rel, err := p.r.Rel(path)
	if err != nil {
		return nil, "", err
	}
	real := p.r.Resolve(rel)
	if f, ok := p.files[real]; ok {
		return f, real, nil
	}
	disk, err := p.r.ReadAt(real, real, real)
	if err != nil {
		return nil, "", err
	}
	f := &planFile{disk: disk, exists: disk.Exists, text: disk.Text, mode: disk.Mode, from: real}
	p.files[real] = f
	p.order = append(p.order, real)
	return f, real, nil
}

// loadEntry is load for a resource operation, which acts on the name
// itself: a symbolic link there is refused, since moving, replacing or
// deleting its target through it is not what the operation names.
func (p *editPlan) loadEntry(op, path string) (*planFile, string, error) {
	rel, err := p.r.Rel(path)
	if err != nil {
		return nil, "", err
	}
	if info, err := p.r.Lstat(rel); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, "", lspseam.Errorf(lspseam.CodeConflict, "the edit %ss %s, a symbolic link: lspseam edits files through links inside the workspace but does not create, rename or delete links; nothing was changed", op, rel)
	}
	return p.load(rel)
}

// sameFileTwice reports whether a text edit of real addressed as name
// repeats edits already taken through another name of the same file (a
// link and its target): those are taken once. Different edits of one
// file under two names are LSP_CONFLICT.
func (p *editPlan) sameFileTwice(real, name string, edits json.RawMessage) (bool, error) {
	prev, ok := p.editedAs[real]
	if !ok {
		p.editedAs[real] = namedEdits{name, edits}
		return false, nil
	}
	if prev.name == name {
		return false, nil
	}
	if bytes.Equal(bytes.TrimSpace(prev.edits), bytes.TrimSpace(edits)) {
		return true, nil
	}
	return false, lspseam.Errorf(lspseam.CodeConflict, "the edit changes %s both as %s and as %s (one a symbolic link to the other), differently; nothing was changed", real, prev.name, name)
}

// planOperation is one resource operation of planWorkspaceEdit's answer.
type planOperation struct {
	Kind    string `json:"kind"`
	Index   int    `json:"index"`
	Path    string `json:"path"`
	OldPath string `json:"oldPath"`
	NewPath string `json:"newPath"`
	Options struct {
		Overwrite         bool `json:"overwrite"`
		IgnoreIfExists    bool `json:"ignoreIfExists"`
		IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
	} `json:"options"`
}

// operation replays a create, rename or delete.
func (p *editPlan) operation(op planOperation) error {
	switch op.Kind {
	case "create":
		f, rel, err := p.loadEntry(op.Kind, op.Path)
		if err != nil {
			return err
		}
		if f.exists && !op.Options.Overwrite {
			if op.Options.IgnoreIfExists {
				return nil
			}
			return lspseam.Errorf(lspseam.CodeConflict, "the edit creates %s, which already exists; nothing was changed", rel)
		}
		f.exists, f.text, f.mode, f.from, f.edits, f.diff = true, "", 0, "", 0, ""
	case "rename":
		src, oldRel, err := p.loadEntry(op.Kind, op.OldPath)
		if err != nil {
			return err
		}
		if !src.exists {
			return lspseam.Errorf(lspseam.CodeConflict, "the edit renames %s, which does not exist; nothing was changed", oldRel)
		}
		dst, newRel, err := p.loadEntry(op.Kind, op.NewPath)
		if err != nil {
			return err
		}
		if oldRel == newRel {
			return nil
		}
		if dst.exists && !op.Options.Overwrite {
			if op.Options.IgnoreIfExists {
				return nil
			}
			return lspseam.Errorf(lspseam.CodeConflict, "the edit renames %s to %s, which already exists; nothing was changed", oldRel, newRel)
		}
		dst.exists, dst.text, dst.mode, dst.from, dst.edits, dst.diff = true, src.text, src.mode, src.from, src.edits, ""
		src.exists, src.text, src.from, src.edits, src.diff = false, "", "", 0, ""
	case "delete":
		f, rel, err := p.loadEntry(op.Kind, op.Path)
		if err != nil {
			return err
		}
		if !f.exists {
			if op.Options.IgnoreIfNotExists {
				return nil
			}
			return lspseam.Errorf(lspseam.CodeConflict, "the edit deletes %s, which does not exist; nothing was changed", rel)
		}
		f.exists, f.text, f.from, f.edits, f.diff = false, "", "", 0, ""
	default:
		return lspseam.Errorf(lspseam.CodeMalformedResponse, "unknown resource operation %q", op.Kind)
	}
	return nil
}

// workspaceEditFiles plans a server's WorkspaceEdit against the files as
// they are now: each touched file's content before and after, with its
// diff. Edits outside the workspace are refused, and so is any step that
// cannot be done as the edit says (a text edit of a missing file, a
// create over an existing file without overwrite): nothing is applied.
//
// versions (Session.DocumentVersions) are the documents' versions the
// server was sent: a TextDocumentEdit made for another version of an open
// document is LSP_CONFLICT (one for a document not open is checked
// against the file's content at apply time, like every file).
func (t *Toolbox) workspaceEditFiles(ctx context.Context, r *workspacefs.Root, server, method string, edit json.RawMessage, versions map[string]int64) ([]plannedFile, error) {
	var plan struct {
		Files []struct {
			URI   string          `json:"uri"`
			Path  string          `json:"path"`
			Index *int            `json:"index"`
			Edits json.RawMessage `json:"edits"`
		} `json:"files"`
		Operations []planOperation `json:"operations"`
		Outside    []string        `json:"outside"`
		Conflicts  []struct {
			Path     string `json:"path"`
			Expected int64  `json:"expected"`
			Have     *int64 `json:"have"`
		} `json:"conflicts"`
	}
	wsURI := workspacefs.FileURI(r.Dir)
	in := map[string]any{"edit": edit, "workspaceUri": wsURI}
	if len(versions) > 0 {
		in["versions"] = versions
	}
	if err := t.core.Invoke(ctx, "planWorkspaceEdit", in, &plan); err != nil {
		return nil, serverPayloadError(err, server, method)
	}
	if len(plan.Outside) > 0 {
		return nil, lspseam.Errorf(lspseam.CodeSourceRejected, "language server %q answered %s with an edit of %s, outside the workspace; nothing was changed", server, method, strings.Join(plan.Outside, ", "))
	}
	for _, c := range plan.Conflicts {
		if c.Have != nil { // an open document the server saw another version of
			return nil, lspseam.Errorf(lspseam.CodeConflict, "language server %q made its edit of %s for version %d, but it was sent version %d: the edit is stale, and nothing was changed; call again", server, c.Path, c.Expected, *c.Have)
		}
	}
	// The steps in the edit's order: documentChanges interleave text
	// edits and resource operations by index; changes has no index and
	// no operations.
	type step struct {
		index int
		file  int // into plan.Files, or -1
		op    int // into plan.Operations, or -1
	}
	var steps []step
	for i, f := range plan.Files {
		idx := -1
		if f.Index != nil {
			idx = *f.Index
		}
		steps = append(steps, step{idx, i, -1})
	}
	for i, op := range plan.Operations {
		steps = append(steps, step{op.Index, -1, i})
	}
	sort.SliceStable(steps, func(a, b int) bool { return steps[a].index < steps[b].index })

	p := &editPlan{r: r, files: map[string]*planFile{}, editedAs: map[string]namedEdits{}}
	for _, s := range steps {
		if s.op >= 0 {
			if err := p.operation(plan.Operations[s.op]); err != nil {
				return nil, err
			}
			continue
		}
		pf := plan.Files[s.file]
		f, rel, err := p.load(pf.Path)
		if err != nil {
			return nil, err
		}
		if !f.exists {
			return nil, lspseam.Errorf(lspseam.CodeConflict, "%s, which the edit changes, does not exist; nothing was changed", rel)
		}
		name, _ := r.Rel(pf.Path)
		if twice, err := p.sameFileTwice(rel, name, pf.Edits); err != nil {
			return nil, err
		} else if twice {
			continue
		}
		applied, err := t.applyEdits(ctx, workspacefs.FileURI(r.Abs(rel)), f.text, pf.Edits, wsURI)
		if err != nil {
			return nil, serverPayloadError(err, server, method)
		}
		inPlace := f.edits == 0 && f.from == rel && f.disk.Exists && f.text == f.disk.Text
		f.text, f.edits, f.diff = applied.Text, f.edits+applied.Edits, ""
		if inPlace {
			f.diff = applied.Diff
		}
	}
	return p.result(ctx, t, wsURI)
}

// result lists the paths whose state changed, each with its diff: a file
// edited in place against its old text, a renamed file against the text
// it was renamed from, a created file against nothing, a deleted file to
// nothing.
func (p *editPlan) result(ctx context.Context, t *Toolbox, wsURI string) ([]plannedFile, error) {
	var files []plannedFile
	movedTo := map[string]string{}
	for _, rel := range p.order {
		if f := p.files[rel]; f.exists && f.from != "" && f.from != rel {
			movedTo[f.from] = rel
		}
	}
	for _, rel := range p.order {
		f := p.files[rel]
		if f.exists == f.disk.Exists && f.text == f.disk.Text && (f.from == rel || !f.exists) {
			continue
		}
		pf := plannedFile{rel: rel, uri: workspacefs.FileURI(p.r.Abs(rel)), before: f.disk.Text, after: f.text, edits: f.edits,
			version: f.disk.Version, created: !f.disk.Exists, deleted: !f.exists, mode: f.mode}
		base, head := f.disk.Text, ""
		switch {
		case f.exists && f.from != "" && f.from != rel:
			pf.from = f.from
			base = p.files[f.from].disk.Text
			head = "rename " + f.from + " → " + rel + "\n"
		case f.exists && !f.disk.Exists:
			head = "create " + rel + "\n"
		case !f.exists && movedTo[rel] != "":
			files = append(files, pf) // its rename shows with the new path
			continue
		case !f.exists:
			head = "delete " + rel + "\n"
		}
		if f.diff != "" { // one step's, made in place from the file as it is
			head += f.diff
		} else if base != f.text {
			d, err := t.textDiff(ctx, pf.uri, base, f.text, wsURI)
			if err != nil {
				return nil, err
			}
			head += d
		}
		pf.diff = head
		files = append(files, pf)
	}
	return files, nil
}

// textDiff is the unified diff from base to text, both texts the host
// already has: the whole replacement is applied verbatim, since text is
// what will be written (by default applyTextEdits would give the new text
// base's byte order mark and line breaks, and the diff would show a text
// other than the file's).
func (t *Toolbox) textDiff(ctx context.Context, uri, base, text, wsURI string) (string, error) {
	var a appliedEdits
	in := map[string]any{"uri": uri, "text": base, "edits": wholeReplacement(base, text), "workspaceUri": wsURI, "verbatim": true}
	err := t.core.Invoke(ctx, "applyTextEdits", in, &a)
	return a.Diff, err
}

// appliedEdits is applyTextEdits' answer.
type appliedEdits struct {
	Path  string `json:"path"`
	Text  string `json:"text"`
	Edits int    `json:"edits"`
	Diff  string `json:"diff"`
}

// applyEdits applies a server's edits of one file to its text. The core
// gets only the lines around the edits when that is less than half the
// text (core.TextEditWindows: a rename's edits of a 2,000-line file are a
// few lines each) and answers their new texts, spliced back here; any
// error of the windows is asked again with the whole text, which says it
// with the file's own lines.
func (t *Toolbox) applyEdits(ctx context.Context, uri, text string, edits json.RawMessage, wsURI string) (appliedEdits, error) {
	if w, ok := core.TextEditWindows(text, edits, diffContext); ok {
		wins := make([]core.WindowText, len(w.Windows))
		for i, win := range w.Windows {
			wins[i] = core.WindowText{Line: win.Line, Text: text[win.Start:win.End]}
		}
		var a struct {
			appliedEdits
			Windows []core.WindowText `json:"windows"`
		}
		in := map[string]any{"uri": uri, "windows": wins, "lines": w.Lines, "lineBreaks": w.LineBreaks, "edits": edits, "workspaceUri": wsURI, "context": diffContext}
		if err := t.core.Invoke(ctx, "applyTextEdits", in, &a); err == nil && len(a.Windows) == len(wins) {
			a.appliedEdits.Text = w.Splice(text, a.Windows)
			return a.appliedEdits, nil
		}
	}
	var a appliedEdits
	err := t.core.Invoke(ctx, "applyTextEdits", map[string]any{"uri": uri, "text": text, "edits": edits, "workspaceUri": wsURI, "context": diffContext}, &a)
	return a, err
}

// diffContext is the context lines of an edit plan's diffs.
const diffContext = 3

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
