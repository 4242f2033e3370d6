package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_insert, code_replace and code_replace_batch: text edits at targets
// found by name (no server request beyond the outline), through the
// applier like every change.

func (t *Toolbox) insertOrReplace(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.refactor(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		where, verb := call.Position, "insert "+call.Position+" "
		if call.Tool == "code_replace" {
			where, verb = "replace", "replace "
		}
		uri, edit, rt, err := t.targetEdit(ctx, s, *call.Target, where, *call.Text, call.EndLine)
		if err != nil {
			return "", nil, err
		}
		we, _ := json.Marshal(map[string]any{"changes": map[string][]json.RawMessage{uri: {edit}}})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), call.Tool, we, nil)
		return verb + targetLabel(rt), files, err
	})
}

func (t *Toolbox) replaceBatch(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	// One server resolves every target: a batch is one language.
	server := t.service.ProviderOf(ctx, call.Path, ws)
	for i, e := range call.Edits {
		if p := t.service.ProviderOf(ctx, e.Target.Path, ws); p != server {
			return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "edits[%d] is in %s, which another language server owns than edits[0]'s %s; batch the edits of one language at a time", i, e.Target.Path, call.Path)
		}
	}
	return t.refactor(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		changes := map[string][]json.RawMessage{}
		var order []string
		var labels []string
		for i, e := range call.Edits {
			uri, edit, rt, err := t.targetEdit(ctx, s, e.Target, "replace", e.Text, e.EndLine)
			if err != nil {
				var lerr *lspseam.Error
				if errors.As(err, &lerr) { // the candidates stay with it
					named := *lerr
					named.Message = "edits[" + strconv.Itoa(i) + "]: " + lerr.Message
					return "", nil, &named
				}
				return "", nil, err
			}
			if _, ok := changes[uri]; !ok {
				order = append(order, uri)
			}
			changes[uri] = append(changes[uri], edit)
			labels = append(labels, targetLabel(rt))
		}
		we, _ := json.Marshal(map[string]any{"changes": changes})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), call.Tool, we, nil)
		var lerr *lspseam.Error
		if errors.As(err, &lerr) && lerr.Code == lspseam.CodeMalformedResponse && lerr.Reason == core.ReasonEditsOverlap {
			return "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "two edits of the batch overlap (%s); make the targets disjoint, or merge them into one edit", lerr.Message)
		}
		return "replace " + strconv.Itoa(len(call.Edits)) + " targets (" + strings.Join(labels, "; ") + ")", files, err
	})
}
