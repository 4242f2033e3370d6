package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/internal/expiring"
)

// `lspseam mcp --approval elicit` (or the config's approval: elicit): the
// Toolbox runs in preview mode, and a refactor tool's preview is shown to
// the user through the client's elicitation (elicitation/create, or an
// input request on protocol 2026-07-28 and later) instead of to the model:
//
//   - accept: the server applies the preview (the same call with its
//     previewId) and answers what applying answers: the applied change, or
//     LSP_CONFLICT if a file changed in between.
//   - decline or cancel: nothing is changed, and the answer (not an error)
//     says so: applied false, declined true, userAction, the files and edit
//     counts, and no previewId, so the model cannot apply it anyway.
//   - a client that did not declare elicitation (form mode): the preview
//     passes through as in preview mode. So does a preview whose request
//     fails (the client's handler errs), with a line saying so.
//
// Every change is asked: a previewId the model sends (from an LSP_CONFLICT's
// fresh preview, say) is dropped, and the call previews afresh and asks.

// approvalInput is the id of the approval input request (SEP-2322).
const approvalInput = "lspseam/approve"

// elicitMaxLines and elicitMaxBytes clip the diff an elicitation shows.
const (
	elicitMaxLines = 200
	elicitMaxBytes = 16_000
)

// pendingTTL bounds how long an approval asked through an input request
// waits for the client's retry (a preview lives 10 minutes), maxPending
// how many wait at once, and maxPendingBytes how much they hold (each
// keeps its preview's answer, diffs included, as the Toolbox's previews
// are bounded).
const (
	pendingTTL      = 10 * time.Minute
	maxPending      = 64
	maxPendingBytes = 64 << 20
)

// pendingApproval is a preview whose approval was asked through an input
// request: the retried call must be the same call.
type pendingApproval struct {
	tool    string
	args    string // without previewId, as withoutPreviewID writes them
	preview toolbox.ToolResult
}

// newPendingApprovals holds the approvals asked through input requests, by
// previewId (the input request's requestState): each waits pendingTTL for
// the client's retry, at most maxPending and maxPendingBytes at once.
func newPendingApprovals() *expiring.Store[pendingApproval] {
	return expiring.NewSized(pendingTTL, maxPending, maxPendingBytes, func(p pendingApproval) int64 {
		return int64(len(p.tool) + len(p.args) + len(p.preview.Text) + len(p.preview.Structured))
	})
}

// clientCanElicit reports whether the client declared form elicitation
// (an empty elicitation capability means form, for older clients).
func clientCanElicit(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// withoutPreviewID returns a call's arguments without previewId, or args
// unchanged if they are not a JSON object (the tool then says why).
func withoutPreviewID(args json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	delete(m, "previewId")
	out, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return out
}

// withPreviewID returns a call's arguments with previewId set.
func withPreviewID(args json.RawMessage, id string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	m["previewId"], _ = json.Marshal(id)
	out, _ := json.Marshal(m)
	return out
}

// previewSummary is what a preview answer says about its change.
type previewSummary struct {
	Tool  string `json:"tool"`
	Edits int    `json:"edits"`
	Files []struct {
		Path  string `json:"path"`
		Edits int    `json:"edits"`
	} `json:"files"`
}

func summarize(preview toolbox.ToolResult) previewSummary {
	var s previewSummary
	json.Unmarshal(preview.Structured, &s)
	return s
}

// what is the change a preview names, from its text's first line
// ("Preview (nothing is changed yet): Rename `A` to `B`: 2 edits in 1 file.").
func what(preview toolbox.ToolResult) string {
	first, _, _ := strings.Cut(preview.Text, "\n")
	if _, after, ok := strings.Cut(first, ": "); ok && strings.HasPrefix(first, "Preview") {
		first = after
	}
	return strings.TrimSpace(first)
}

// approvalRequest is the elicitation that shows a preview to the user:
// the change, its files and its diff (clipped), and the question. The
// preview's line telling the model how to apply it is left out.
func approvalRequest(preview toolbox.ToolResult, workspace string) *mcp.ElicitParams {
	id := previewIDOf(preview)
	var b strings.Builder
	fmt.Fprintf(&b, "Apply this change to %s?\n%s\n", workspace, what(preview))
	lines := strings.Split(strings.TrimRight(preview.Text, "\n"), "\n")[1:]
	var body []string
	for _, l := range lines {
		if id != "" && strings.Contains(l, id) {
			continue
		}
		body = append(body, l)
	}
	shown, size := 0, 0
	for _, l := range body {
		if shown == elicitMaxLines || size+len(l)+1 > elicitMaxBytes {
			break
		}
		size += len(l) + 1
		shown++
	}
	if len(body) > 0 {
		b.WriteString("\n")
		b.WriteString(strings.Join(body[:shown], "\n"))
		b.WriteString("\n")
	}
	if shown < len(body) {
		s := summarize(preview)
		paths := make([]string, len(s.Files))
		for i, f := range s.Files {
			paths[i] = f.Path
		}
		fmt.Fprintf(&b, "… %d more lines of the diff not shown (%d of %d shown); the change touches %s.\n", len(body)-shown, shown, len(body), strings.Join(paths, ", "))
	}
	return &mcp.ElicitParams{
		Message:         b.String(),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}
}

// declinedResult answers a change the user declined (action "decline") or
// dismissed ("cancel"): nothing changed, and no previewId. The files are
// the preview's, without their diffs.
func declinedResult(tool string, preview toolbox.ToolResult, action string) toolbox.ToolResult {
	var p struct {
		Tool    string                       `json:"tool"`
		Edits   int                          `json:"edits"`
		Command string                       `json:"command"`
		Files   []map[string]json.RawMessage `json:"files"`
	}
	json.Unmarshal(preview.Structured, &p)
	if p.Tool == "" {
		p.Tool = tool
	}
	if p.Files == nil {
		p.Files = []map[string]json.RawMessage{}
	}
	paths := make([]string, len(p.Files))
	for i, f := range p.Files {
		delete(f, "diff")
		json.Unmarshal(f["path"], &paths[i])
	}
	text := "Not applied: the user declined this change: "
	if action == "cancel" {
		text = "Not applied: the user dismissed the request to approve this change: "
	}
	text += strings.TrimSuffix(what(preview), ".")
	if len(paths) > 0 {
		text += " (" + strings.Join(paths, ", ") + ")"
	}
	text += ".\nNothing was changed. Do not make this change another way; ask the user what they want instead (calling " + p.Tool + " again asks them again)."
	structured, _ := json.Marshal(struct {
		OK         bool                         `json:"ok"`
		Tool       string                       `json:"tool"`
		Applied    bool                         `json:"applied"`
		Declined   bool                         `json:"declined"`
		UserAction string                       `json:"userAction"`
		Edits      int                          `json:"edits"`
		Files      []map[string]json.RawMessage `json:"files"`
		Command    string                       `json:"command,omitempty"`
	}{true, p.Tool, false, true, action, p.Edits, p.Files, p.Command})
	return toolbox.ToolResult{Text: text, Structured: structured}
}

// unasked is a preview passed through because asking the user failed.
func unasked(preview toolbox.ToolResult, err error) toolbox.ToolResult {
	preview.Text = "The client could not ask the user to approve this change (" + oneLine(err.Error()) + "); nothing was changed, and it applies only as below.\n" + preview.Text
	return preview
}

// approve asks the user about a preview and answers as they decide (see
// the top of this file). args are the call's arguments without previewId.
func (t *mcpTool) approve(ctx context.Context, req *mcp.CallToolRequest, name string, args json.RawMessage, ws string, preview toolbox.ToolResult) *mcp.CallToolResult {
	id := previewIDOf(preview)
	params := approvalRequest(preview, ws)
	ss := req.Session
	if ss.InitializeParams().ProtocolVersion >= multiRoundTripVersion {
		// The client asks the user and calls again with the answer; the
		// preview waits here, found by the requestState it echoes.
		t.pending.Put(id, pendingApproval{tool: name, args: string(args), preview: preview})
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{approvalInput: params}, RequestState: id}
	}
	res, err := ss.Elicit(ctx, params)
	if ctx.Err() != nil {
		return codeResult(toolbox.ErrorResult(lspseam.Errorf(lspseam.CodeCancelled, "the call was cancelled while the user was asked to approve the change; nothing was changed")))
	}
	if err != nil {
		t.host.log.Info("elicitation failed; answering with the preview", "tool", name, "reason", err)
		return codeResult(unasked(preview, err))
	}
	return codeResult(t.decided(ctx, name, args, ws, preview, res.Action))
}

// approvalRetry answers a call that comes back with the user's answer to
// an approval input request; ok is false for any other call (a stale or
// foreign requestState included: that call previews and asks afresh).
func (t *mcpTool) approvalRetry(ctx context.Context, req *mcp.CallToolRequest, name string, args json.RawMessage, ws string) (*mcp.CallToolResult, bool) {
	r, ok := req.Params.InputResponses[approvalInput].(*mcp.ElicitResult)
	if !ok || req.Params.RequestState == "" {
		return nil, false
	}
	p, ok := t.pending.Take(req.Params.RequestState, func(a pendingApproval) bool {
		return a.tool == name && a.args == string(args) // an approval is this call's only
	})
	if !ok {
		return nil, false
	}
	return codeResult(t.decided(ctx, name, args, ws, p.preview, r.Action)), true
}

// decided applies an accepted preview, or answers a declined one.
func (t *mcpTool) decided(ctx context.Context, name string, args json.RawMessage, ws string, preview toolbox.ToolResult, action string) toolbox.ToolResult {
	if action != "accept" {
		if action != "cancel" {
			action = "decline"
		}
		return declinedResult(name, preview, action)
	}
	res := t.host.callTool(ctx, t.toolbox, name, withPreviewID(args, previewIDOf(preview)), ws, budgetSource(t.timeoutFlag, false), t.host.timeout)
	if !res.IsError {
		res.Text = "The user approved this change.\n" + res.Text
	}
	return res
}
