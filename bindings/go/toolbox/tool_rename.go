package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_rename: prepareRename (its refusal surfaced as the server words
// it), rename, and the applier (preview, then apply).

func (t *Toolbox) rename(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.refactorChange(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (change, error) {
		rt, uri, what, files, err := t.renamePlan(ctx, s, r, call)
		if err != nil {
			return change{}, err
		}
		unsearched := joinNotices(t.renameExcluded(r, rt, files), t.renameLeftUses(ctx, s, r, rt, uri, call.NewName, files), t.renameOverrides(ctx, r, rt, files), t.renameUnseenUses(ctx, r, rt, files))
		return change{what: what, files: files, unsearched: unsearched, recompute: t.renameAgain(call, rt, uri)}, nil
	})
}

// markRenamed marks files as a rename's (renamedependents.go), from the identifier to newName.
func markRenamed(files []plannedFile, from, to string) []plannedFile {
	if from == "" || to == "" {
		return files
	}
	for i := range files {
		files[i].renamed = &renameOf{from, to}
	}
	return files
}

// renameAgain asks the server's rename again, at the target's position
// and to the same name: a preview's files are as they were, the target's
// among them (its name changes), so the position is the same place. It
// is the one request, without prepareRename: the target was found
// renameable when previewed, and a refusal now is the rename's answer.
func (t *Toolbox) renameAgain(call lspseam.CodeCall, rt lspseam.ResolvedTarget, uri string) *recompute {
	return &recompute{asks: "the server's rename", files: func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) ([]plannedFile, error) {
		if _, err := s.Open(ctx, call.Path); err != nil {
			return nil, err
		}
		req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "textDocument/rename", URI: uri, Position: &rt.Position, NewName: call.NewName, Methods: s.Methods(), Server: s.Server()})
		if err != nil {
			return nil, err
		}
		edit, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return nil, refusal(err, s.Server(), rt)
		}
		edit = t.withComponentRenames(ctx, s, uri, rt.Position, rt.Identifier, call.NewName, edit)
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), req.Method, json.RawMessage(edit), s.DocumentVersions())
		return markRenamed(files, rt.Identifier, call.NewName), err
	}}
}

// renameExcluded is what a rename's answer says of the Go files the build
// excludes that name the renamed identifier and that the rename leaves as
// they are: gopls does not rename there (a tester's rename of cobra's
// Command left command_win.go naming it, and the Windows build broke).
func (t *Toolbox) renameExcluded(r *workspacefs.Root, rt lspseam.ResolvedTarget, files []plannedFile) string {
	if !strings.HasSuffix(rt.Path, ".go") || rt.Identifier == "" {
		return ""
	}
	changed := map[string]bool{}
	for _, f := range files {
		changed[f.rel] = true
	}
	var left []string
	for _, rel := range t.goBuild.excludedUsers(r, rt.Path, []string{rt.Identifier}) {
		if !changed[rel] {
			left = append(left, rel)
		}
	}
	if len(left) == 0 {
		return ""
	}
	return "the rename did not change " + core.Listed(left, 8) + ", which this machine's build excludes and which " + plural(len(left), "names", "name") + " `" + rt.Identifier + "`: the server does not rename there, so rename the uses there too (edit), or that build breaks"
}

// renamePlan is a rename's target, its file's URI, the change's
// description and the files it changes, from the server's rename.
func (t *Toolbox) renamePlan(ctx context.Context, s lspseam.Session, r *workspacefs.Root, call lspseam.CodeCall) (lspseam.ResolvedTarget, string, string, []plannedFile, error) {
	rt, file, err := t.openTarget(ctx, s, call)
	if err != nil {
		return rt, "", "", nil, err
	}
	// A name the language never accepts is refused before the server
	// is asked: servers rename to anything (pyright to `class`).
	if problem := core.NewNameProblem(rt.Path, call.NewName, rt.Kind); problem != "" {
		return rt, "", "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "cannot rename %s: %s", quoteIdent(rt), problem)
	}
	what := "rename " + quoteIdent(rt) + " to `" + call.NewName + "`"
	if s.Methods()["textDocument/rename"] {
		// prepareRename is optional for servers: where it is not
		// offered (MethodNotFound), rename itself says what it refuses.
		prep, err := t.request(ctx, s, "textDocument/prepareRename", file.URI, rt.Position)
		if err == nil && bytes.Equal(bytes.TrimSpace(prep), []byte("null")) {
			return rt, "", "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "language server %q cannot rename %s at %s:%d:%d (prepareRename answered nothing: not a symbol it can rename, e.g. a keyword or a name from a library)", s.Server(), quoteIdent(rt), rt.Path, rt.Line, rt.Column)
		}
		if err != nil && !isUnsupported(err) {
			return rt, "", "", nil, refusal(err, s.Server(), rt)
		}
	}
	req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "textDocument/rename", URI: file.URI, Position: &rt.Position, NewName: call.NewName, Methods: s.Methods(), Server: s.Server()})
	if err != nil {
		return rt, "", "", nil, err
	}
	edit, err := s.Request(ctx, req.Method, req.Params)
	if err != nil {
		return rt, "", "", nil, refusal(err, s.Server(), rt)
	}
	if bytes.Equal(bytes.TrimSpace(edit), []byte("null")) {
		return rt, "", "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "language server %q cannot rename %s (its rename answered nothing)", s.Server(), quoteIdent(rt))
	}
	// The component files the server does not read (componentrename.go).
	edit = t.withComponentRenames(ctx, s, file.URI, rt.Position, rt.Identifier, call.NewName, edit)
	files, err := t.workspaceEditFiles(ctx, r, s.Server(), req.Method, json.RawMessage(edit), s.DocumentVersions())
	return rt, file.URI, what, markRenamed(files, rt.Identifier, call.NewName), err
}

// refusal: a server's error answer to prepareRename or rename is its
// refusal ("You cannot rename elements that are defined in the standard
// TypeScript library"), the caller's to correct, not a server failure: it
// is LSP_INVALID_ARGUMENT with the server's words.
func refusal(err error, server string, rt lspseam.ResolvedTarget) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeServerError {
		return err
	}
	reason := lerr.Message
	for _, marker := range []string{"failed with message: ", ": "} {
		if i := strings.LastIndex(reason, marker); i >= 0 {
			reason = reason[i+len(marker):]
			break
		}
	}
	return lspseam.Errorf(lspseam.CodeInvalidArgument, "language server %q refuses to rename %s at %s:%d:%d: %s", server, quoteIdent(rt), rt.Path, rt.Line, rt.Column, reason)
}

func isUnsupported(err error) bool {
	var lerr *lspseam.Error
	return errors.As(err, &lerr) && lerr.Code == lspseam.CodeUnsupportedOperation
}
