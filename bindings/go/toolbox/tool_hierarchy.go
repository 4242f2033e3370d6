package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// code_hierarchy: callers, callees, supertypes or subtypes of a target, up
// to four levels. The traversal is the core's (a pure function of the
// prepare result and the expansions so far, which lists the nodes to
// expand next); the host only sends those requests, until nothing is
// pending or the time budget runs low.

// hierarchyReserve is the part of the call's budget kept for the last
// round and the answer: expansions stop when less than this remains.
const hierarchyReserve = 2 * time.Second

type hierarchyPending struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Item   json.RawMessage `json:"item"`
}

func (t *Toolbox) hierarchy(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		rt, file, err := t.openTarget(ctx, s, call)
		if err != nil {
			return err
		}
		prepare, _, _ := core.HierarchyMethods(call.Kind)
		roots, err := t.request(ctx, s, prepare, file.URI, rt.Position)
		if err != nil {
			return err
		}
		expansions := map[string]map[string]any{}
		in := map[string]any{"kind": call.Kind, "depth": call.Depth, "limit": call.Limit, "roots": json.RawMessage(roots),
			"expansions": expansions, "workspaceUri": s.WorkspaceURI(), "subject": rt.Text}
		for round := 0; ; round++ {
			var step struct {
				Pending []hierarchyPending `json:"pending"`
			}
			out, err := t.coreJSON(ctx, "hierarchy", in)
			if err != nil {
				return serverPayloadError(err, s.Server(), prepare)
			}
			if err := json.Unmarshal(out, &step); err != nil {
				return err
			}
			if len(step.Pending) == 0 || in["timedOut"] == true {
				if a, err = coreAnswer(out); err != nil {
					return err
				}
				a.fields = append([]field{{"target", targetFields(rt)}}, a.fields...)
				a.incomplete = s.Notice()
				return nil
			}
			for _, p := range step.Pending {
				if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < hierarchyReserve {
					in["timedOut"] = true
					break
				}
				params, _ := json.Marshal(map[string]json.RawMessage{"item": p.Item})
				raw, err := s.Request(ctx, p.Method, params)
				var lerr *lspseam.Error
				switch {
				case err == nil:
					expansions[p.ID] = map[string]any{"result": raw}
				case ctx.Err() != nil:
					return err
				case round == 0 && errors.As(err, &lerr) && lerr.Code == lspseam.CodeUnsupportedOperation:
					// The server prepares items but cannot expand them
					// (clangd 14's outgoing calls): the operation is not
					// there, whatever a graph of the root alone would say.
					return t.insteadOf(ctx, err, prepare, s.Server())
				default:
					expansions[p.ID] = map[string]any{"error": err.Error()}
				}
			}
		}
	})
	return a, err
}
