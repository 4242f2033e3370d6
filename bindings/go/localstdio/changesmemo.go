package localstdio

import (
	"bytes"
	"context"
	"encoding/json"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// changesMemo remembers the core's last fileChanges answer with its input:
// an agent that edits one file reports that file's write before each of
// its next calls, the same input every time, and a call into the module
// after a pause costs 0.8 ms of an edit's 10. The module is pure, so the
// same input has the same answer; anything different asks the core.
//
// It is an instance's, used with the workspace turn held (catchUp).
type changesMemo struct {
	input, plan []byte // JSON; nil: nothing remembered
}

// fileChanges is c.FileChanges(ctx, in), from memory when in is the last
// input answered.
func (m *changesMemo) fileChanges(ctx context.Context, c *lspseam.Core, in lspseam.FileChangesInput) (lspseam.FileChangesResult, error) {
	key, kerr := json.Marshal(in)
	if kerr == nil && m.input != nil && bytes.Equal(key, m.input) {
		var plan lspseam.FileChangesResult
		if json.Unmarshal(m.plan, &plan) == nil {
			return plan, nil
		}
	}
	plan, err := c.FileChanges(ctx, in)
	if err != nil {
		return plan, err
	}
	m.input, m.plan = nil, nil
	if b, err := json.Marshal(plan); err == nil && kerr == nil {
		m.input, m.plan = key, b
	}
	return plan, nil
}
