package localstdio

import (
	"context"
	"encoding/json"
	"sync"
)

// Server commands: a code action that runs a command (workspace/
// executeCommand) makes its changes by sending workspace/applyEdit back to
// the client while the command runs. Such an edit is taken only during a
// command the caller approved (session.ExecuteCommand), and only through
// the caller's applyEdit function (the Toolbox's applier: checked,
// atomic); at any other time the core refuses it (serverRequest).

// editHook is the applyEdit function of the command running on an
// instance, if any.
type editHook struct {
	mu      sync.Mutex
	apply   func(context.Context, json.RawMessage) error
	ctx     context.Context
	pending sync.WaitGroup // edits being applied
}

// take returns the running command's applyEdit, counting the edit as
// pending until done is called; ok is false outside a command.
func (h *editHook) take() (apply func(context.Context, json.RawMessage) error, ctx context.Context, done func(), ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.apply == nil {
		return nil, nil, nil, false
	}
	h.pending.Add(1)
	return h.apply, h.ctx, h.pending.Done, true
}

// ExecuteCommand implements lspseam.Session.
func (ss *session) ExecuteCommand(ctx context.Context, params json.RawMessage, applyEdit func(context.Context, json.RawMessage) error) (json.RawMessage, error) {
	in := ss.inst()
	in.diags.bump(true) // a command may change what the server reports
	defer in.diags.bump(true)
	in.edits.mu.Lock()
	in.edits.apply, in.edits.ctx = applyEdit, ctx
	in.edits.mu.Unlock()
	defer func() {
		in.edits.mu.Lock()
		in.edits.apply, in.edits.ctx = nil, nil
		in.edits.mu.Unlock()
		// An edit the server sent before it answered is finished before
		// the caller looks at the files.
		in.edits.pending.Wait()
	}()
	return ss.Request(ctx, "workspace/executeCommand", params)
}

// answerApplyEdit answers a server's workspace/applyEdit during an
// approved command: {applied} or {applied: false, failureReason}.
func (in *instance) answerApplyEdit(params json.RawMessage) (json.RawMessage, bool) {
	apply, ctx, done, ok := in.edits.take()
	if !ok {
		return nil, false
	}
	defer done()
	var p struct {
		Edit json.RawMessage `json:"edit"`
	}
	json.Unmarshal(params, &p)
	if err := apply(ctx, p.Edit); err != nil {
		b, _ := json.Marshal(map[string]any{"applied": false, "failureReason": err.Error()})
		return b, true
	}
	return json.RawMessage(`{"applied":true}`), true
}
