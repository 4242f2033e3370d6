package lspseam

import (
	"context"
	"encoding/json"
)

// code_symbols: a file's outline, or a workspace symbol search through the
// server of the file's language.

func (t *Toolbox) symbols(ctx context.Context, call CodeCall, ws string) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s Session) error {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return err
		}
		in := map[string]any{"workspaceUri": s.WorkspaceURI(), "limit": call.Limit}
		var req CodeRequest
		if call.Query == "" {
			in["mode"], in["uri"] = "document", f.URI
			req, err = t.core.CodeRequest(ctx, CodeRequestInput{Method: "textDocument/documentSymbol", URI: f.URI, Methods: s.Methods(), Server: s.Server()})
		} else {
			in["mode"], in["query"] = "workspace", call.Query
			req, err = t.core.CodeRequest(ctx, CodeRequestInput{Method: "workspace/symbol", Query: call.Query, Methods: s.Methods(), Server: s.Server()})
		}
		if err != nil {
			return err
		}
		raw, err := s.Request(ctx, req.Method, req.Params)
		if err != nil {
			return err
		}
		in["result"] = json.RawMessage(raw)
		out, err := t.core.callJSON(ctx, "codeSymbols", in)
		if err != nil {
			return serverPayloadError(err, s.Server(), req.Method)
		}
		if a, err = coreAnswer(out); err != nil {
			return err
		}
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}
