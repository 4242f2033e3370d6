package toolbox

import (
	"context"
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// code_hover: the hover at a target, with the signature help of the call
// around it when there is one.

func (t *Toolbox) hover(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		rt, file, err := t.openTargetAsking(ctx, s, call, "textDocument/hover")
		if err != nil {
			return err
		}
		hover, err := t.askTarget(ctx, s, rt, "textDocument/hover")
		if err != nil {
			return err
		}
		in := map[string]any{"hover": json.RawMessage(hover), "subject": rt.Text}
		// An empty signature help is a normal answer (not inside a call),
		// and a server without it still hovers.
		if s.Methods()["textDocument/signatureHelp"] {
			if sig, err := t.request(ctx, s, "textDocument/signatureHelp", file.URI, rt.Position); err == nil {
				in["signatureHelp"] = json.RawMessage(sig)
			} else if ctx.Err() != nil {
				return err
			}
		}
		out, err := t.coreJSON(ctx, "codeHover", in)
		if err != nil {
			return serverPayloadError(err, s.Server(), "textDocument/hover")
		}
		if a, err = coreAnswer(out); err != nil {
			return err
		}
		a.fields = append([]field{{"target", targetFields(rt)}}, a.fields...)
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}
