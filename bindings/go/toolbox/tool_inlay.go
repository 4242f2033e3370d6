package toolbox

import (
	"context"
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// code_inlay_hints: the types and parameter names an editor shows inline,
// over the whole file or a range of lines. An answer cut at its limit
// pages (pages.go): each page asks the server again, and a changed list
// of hints is a conflict.

func (t *Toolbox) inlayHints(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.paged(ctx, call, ws, t.inlayHintsPage)
}

// inlayHintsPage answers code_inlay_hints from the offset-th hint.
func (t *Toolbox) inlayHintsPage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return err
		}
		req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "textDocument/inlayHint", URI: f.URI, Text: f.Text, Range: call.Range, Methods: s.Methods(), Server: s.Server()})
		if err != nil {
			return err
		}
		raw, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return err
		}
		in := map[string]any{"result": json.RawMessage(raw), "uri": f.URI, "workspaceUri": s.WorkspaceURI(), "limit": call.Limit, "offset": offset}
		if call.Range != nil {
			in["lines"] = call.Range // the server may answer for more
		}
		out, err := t.coreJSON(ctx, "inlayHints", in)
		if err != nil {
			return serverPayloadError(err, s.Server(), req.Method)
		}
		if a, err = t.pagedCoreAnswer(out, call, from); err != nil {
			return err
		}
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}
