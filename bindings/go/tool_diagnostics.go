package lspseam

import (
	"context"
)

// code_diagnostics: the problems the file's language server reports for
// its current content, with whether the report is for that content.

func (t *Toolbox) diagnostics(ctx context.Context, call CodeCall, ws string) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s Session) error {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, f, DiagnosticsOptions{})
		if err != nil {
			return err
		}
		in := map[string]any{
			"workspaceUri": s.WorkspaceURI(),
			"files":        []any{map[string]any{"uri": f.URI, "diagnostics": rep.Diagnostics, "version": rep.Version, "how": rep.How, "fresh": rep.Fresh}},
			"scope":        "file",
			"limit":        call.Limit,
		}
		if call.Severity != "" {
			in["severity"] = call.Severity
		}
		out, err := t.core.callJSON(ctx, "diagnostics", in)
		if err != nil {
			return serverPayloadError(err, s.Server(), "textDocument/publishDiagnostics")
		}
		if a, err = coreAnswer(out); err != nil {
			return err
		}
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}
