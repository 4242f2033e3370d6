package toolbox

import (
	"context"
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// code_format: the server's formatting (or rangeFormatting) edits for one
// file, through the applier.

func (t *Toolbox) format(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	var errs []string // the file's errors, when the server made no edits (formatblocked.go)
	var fresh bool
	var what string
	var cannot bool // the server formats no file of this kind (formatblocked.go)
	a, err := t.refactor(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return "", nil, err
		}
		method := "textDocument/formatting"
		if call.Range != nil {
			method = "textDocument/rangeFormatting"
		}
		req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: method, URI: f.URI, Text: f.Text, Range: call.Range, Methods: s.Methods(), Server: s.Server()})
		if err != nil {
			return "", nil, err
		}
		edits, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return "", nil, t.insteadOf(ctx, err, method, s.Server())
		}
		what = "format " + relOf(r, f.Path)
		if noEdits(edits) && formatsNothingOf(s.Server(), f.Path) {
			cannot = true
		} else if noEdits(edits) {
			if rep, derr := s.Diagnostics(ctx, f, lspseam.DiagnosticsOptions{}); derr == nil {
				errs, fresh = fileErrors(rep), rep.Fresh
			}
		}
		// TextEdit[] for one document: as a WorkspaceEdit, the applier's
		// one input.
		edit, _ := json.Marshal(map[string]any{"changes": map[string]json.RawMessage{f.URI: listOrEmpty(edits)}})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), method, edit, s.DocumentVersions())
		return what, files, err
	})
	if err == nil && cannot {
		a = unformattedFormat(a, what)
	}
	if err == nil && len(errs) > 0 {
		a = blockedFormat(a, what, errs, fresh)
	}
	return a, err
}
