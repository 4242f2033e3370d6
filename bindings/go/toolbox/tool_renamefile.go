package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// code_rename_file: a file renamed (or moved) as one change with the
// edits that keep its importers right. The server is asked with
// workspace/willRenameFiles, the request an editor sends before it renames
// a file: its answer edits the files as they are, so the change is those
// edits followed by the RenameFile itself, and it goes through the applier
// like any other WorkspaceEdit (preview, approval, conflict check, atomic
// apply); a preview applied asks again, since an importer added meanwhile
// changes none of the previewed files (change.recompute). A server without willRenameFiles gets the bare rename, and the
// answer says nothing else was updated.

func (t *Toolbox) renameFile(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	var notice string
	plan := func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return "", nil, err
		}
		oldRel := relOf(r, f.Path)
		newRel, err := r.Rel(call.NewPath)
		if err != nil {
			return "", nil, err
		}
		if newRel == oldRel {
			return "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "newPath %q names the file itself; give the path it should have", call.NewPath)
		}
		if cur, err := r.Read(newRel); err != nil {
			return "", nil, err
		} else if cur.Exists {
			return "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "%s already exists; code_rename_file does not overwrite files: pick a new path, or delete that file first", newRel)
		}
		newURI := workspacefs.FileURI(r.Abs(newRel))
		var changes []json.RawMessage
		if s.Methods()["workspace/willRenameFiles"] {
			params, _ := json.Marshal(map[string]any{"files": []map[string]string{{"oldUri": f.URI, "newUri": newURI}}})
			edit, err := s.Request(ctx, "workspace/willRenameFiles", params)
			if err != nil {
				return "", nil, err
			}
			changes, err = asDocumentChanges(edit)
			if err != nil {
				return "", nil, lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered workspace/willRenameFiles with %.200s, not a WorkspaceEdit", s.Server(), edit)
			}
		} else {
			notice = noReferenceUpdates(s.Server(), oldRel)
		}
		op, _ := json.Marshal(map[string]any{"kind": "rename", "oldUri": f.URI, "newUri": newURI})
		edit, _ := json.Marshal(map[string]any{"documentChanges": append(changes, op)})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), "workspace/willRenameFiles", edit, s.DocumentVersions())
		return "move " + oldRel + " → " + newRel, files, err
	}
	a, err := t.refactorChange(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (change, error) {
		what, files, err := plan(ctx, s, r)
		ch := change{what: what, files: files}
		if err == nil {
			// The importers the server's edit leaves naming the old path
			// (movedimporters.go): named in the preview and the applied
			// answer alike.
			oldRel, _ := r.Rel(call.Path)
			newRel, _ := r.Rel(call.NewPath)
			ch.unsearched = joinNotices(t.movedFileImporters(ctx, r, oldRel, newRel, files), t.movedPythonImporters(ctx, r, oldRel, newRel))
		}
		if s.Methods()["workspace/willRenameFiles"] {
			// The importers' edits are the server's, from files the
			// move's files do not include: asked again when applied.
			ch.recompute = &recompute{asks: "the server's workspace/willRenameFiles", files: func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) ([]plannedFile, error) {
				_, files, err := plan(ctx, s, r)
				return files, err
			}}
		}
		return ch, err
	})
	if err == nil && notice == "" && call.PreviewID != "" {
		// A preview applied plans nothing, yet its answer must say what
		// the preview said: that the server left the importers alone.
		t.service.Session(ctx, call.NewPath, ws, func(ctx context.Context, s lspseam.Session) error { // the file is there now
			if !s.Methods()["workspace/willRenameFiles"] {
				notice = noReferenceUpdates(s.Server(), call.Path)
			}
			return nil
		})
	}
	if err == nil && notice != "" {
		a.notice, a.noticeSaid = notice, false
	}
	return a, err
}

// noReferenceUpdates is the notice of a file rename whose server does not
// update the files that import it.
func noReferenceUpdates(server, oldRel string) string {
	return "Language server " + server + " does not update references when a file is renamed (no workspace/willRenameFiles): check the files that import " + oldRel + "."
}

// asDocumentChanges turns a WorkspaceEdit (null, changes or
// documentChanges) into the documentChanges list it means, so steps can
// be added after it.
func asDocumentChanges(edit json.RawMessage) ([]json.RawMessage, error) {
	if len(bytes.TrimSpace(edit)) == 0 || string(bytes.TrimSpace(edit)) == "null" {
		return nil, nil
	}
	var we struct {
		Changes         map[string]json.RawMessage `json:"changes"`
		DocumentChanges []json.RawMessage          `json:"documentChanges"`
	}
	if err := json.Unmarshal(edit, &we); err != nil {
		return nil, err
	}
	if we.DocumentChanges != nil {
		return we.DocumentChanges, nil
	}
	uris := make([]string, 0, len(we.Changes))
	for uri := range we.Changes {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	var out []json.RawMessage
	for _, uri := range uris {
		b, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": uri, "version": nil}, "edits": we.Changes[uri]})
		out = append(out, b)
	}
	return out, nil
}
