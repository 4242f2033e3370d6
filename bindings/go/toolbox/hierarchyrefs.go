package toolbox

import (
	"context"
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A callers answer reads its target's references for the callers in
// templates (hierarchytemplates.go) and for the uses that are no calls
// (hierarchyuses.go): they are asked once.

// targetRefs asks the target's references once per answer.
type targetRefs struct {
	t     *Toolbox
	s     lspseam.Session
	rt    lspseam.ResolvedTarget
	uri   string
	asked bool
	raw   json.RawMessage
	err   error
}

func (r *targetRefs) get(ctx context.Context) (json.RawMessage, error) {
	if !r.asked {
		r.asked = true
		r.raw, r.err = r.t.request(ctx, r.s, "textDocument/references", r.uri, r.rt.Position)
	}
	return r.raw, r.err
}
