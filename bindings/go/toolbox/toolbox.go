package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/expiring"
)

// Toolbox runs the tools a harness offers a model: the lsp tool and the
// catalog's code tools (docs/design.md, "the code-intelligence catalog"),
// by name, with the model's raw arguments, and answers as a model reads
// them: a text and a structured value.
//
// Each catalog tool is a short script over the core's pure methods and
// one Session on the file's language server (Service.Session): open the
// file, ask for its document symbols, resolve the target (ResolveTarget),
// send the request (CodeRequest), and let the core plan, build and render
// the answer; the host only reads files, under the source rules.
//
// A Toolbox is safe for concurrent use; calls on one workspace and root
// take turns on its server, others run in parallel. It owns nothing: the
// caller keeps the Core and the Service.
type Toolbox struct {
	core     *lspseam.Core
	service  *lspseam.Service
	tools    []lspseam.Tool
	outlines *symbolCache
	observed observations              // the fs tools' observation policy: a Toolbox is one session
	previews *expiring.Store[*preview] // the refactor tools' pending previews
	pages    pageStore                 // cursors of cut answers (pages.go)
	actions  actionStore               // code_actions' listed actions, by actionId
	approval string                    // ApprovalPreview ("" too) or ApprovalAuto
	// applyHint, when set, is the preview's line saying how to apply it
	// (SetApplyHint); nil: call again with the previewId.
	applyHint func(tool, previewID string) string
	mutating  sync.Mutex // one change at a time (reads stay concurrent)
	writes    writeState // cross-process write locks and journals
}

// ToolResult is a tool's answer: Text for the model, Structured the same
// answer as a JSON object ({"ok":true, …}, or {"ok":false, "error":{code,
// message}, "ambiguous"?, "candidates"?}), IsError for a failed call.
type ToolResult struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	IsError    bool            `json:"isError"`
}

// NewToolbox offers the tools of the given toolsets (DefaultToolsets when
// none is given). An unknown toolset is LSP_INVALID_ARGUMENT.
func NewToolbox(ctx context.Context, c *lspseam.Core, s *lspseam.Service, toolsets ...string) (*Toolbox, error) {
	if len(toolsets) == 0 {
		toolsets = DefaultToolsets
	}
	tools, err := c.ToolDefinitions(ctx, toolsets)
	if err != nil {
		return nil, err
	}
	return &Toolbox{core: c, service: s, tools: tools, outlines: newSymbolCache(), previews: newPreviewStore(), pages: newPageStore()}, nil
}

// DefaultToolsets are the toolsets offered when none is chosen
// (core.DefaultToolsets).
var DefaultToolsets = slices.Clone(core.DefaultToolsets)

// coreJSON runs a catalog method whose answer the Toolbox passes on
// mostly as it is: the ok value's raw JSON.
func (t *Toolbox) coreJSON(ctx context.Context, method string, in any) (json.RawMessage, error) {
	var v json.RawMessage
	return v, t.core.Invoke(ctx, method, in, &v)
}

// Tools lists the offered tools' definitions.
func (t *Toolbox) Tools() []lspseam.Tool { return append([]lspseam.Tool(nil), t.tools...) }

// Call runs one tool. workspaceRoot is the session's workspace (the
// harness's working directory), never the model's. Failures are answers
// too (IsError, with the error's code, an unknown tool included).
// Call never returns a Go error: a harness hands every result to the
// model as it is.
func (t *Toolbox) Call(ctx context.Context, name string, args json.RawMessage, workspaceRoot string) ToolResult {
	if !t.offers(name) {
		names := make([]string, len(t.tools))
		for i, tool := range t.tools {
			names[i] = tool.Name
		}
		return errorResult(lspseam.Errorf(lspseam.CodeInvalidArgument, "tool %q is not offered here; the tools are %s", clipString(name, 60), strings.Join(names, ", ")))
	}
	if strings.TrimSpace(workspaceRoot) == "" {
		return errorResult(lspseam.Errorf(lspseam.CodeWorkspaceRequired, "%s needs the session's workspace root (the harness's working directory); none was given", name))
	}
	// A change a killed process left half made is finished or undone
	// before this call reads anything.
	recovered := t.recoverWorkspace(ctx, workspaceRoot)
	if name == "lsp" {
		// The lsp tool's answer keeps the seed's exact form: what was
		// recovered goes to the log only.
		return t.callLSP(ctx, args, workspaceRoot)
	}
	call, err := t.core.ParseCodeArgs(ctx, name, args)
	if err != nil {
		return withRecovery(errorResult(err), recovered)
	}
	return withRecovery(t.callCode(ctx, call, workspaceRoot), recovered)
}

// callCode runs a catalog tool whose arguments are parsed.
func (t *Toolbox) callCode(ctx context.Context, call lspseam.CodeCall, workspaceRoot string) ToolResult {
	var (
		a   answer
		err error
	)
	switch call.Tool {
	case "code_navigate":
		a, err = t.navigate(ctx, call, workspaceRoot)
	case "code_symbols":
		a, err = t.symbols(ctx, call, workspaceRoot)
	case "code_hover":
		a, err = t.hover(ctx, call, workspaceRoot)
	case "code_hierarchy":
		a, err = t.hierarchy(ctx, call, workspaceRoot)
	case "code_inlay_hints":
		a, err = t.inlayHints(ctx, call, workspaceRoot)
	case "code_diagnostics":
		a, err = t.diagnostics(ctx, call, workspaceRoot)
	case "read":
		a, err = t.read(ctx, call, workspaceRoot)
	case "write":
		a, err = t.write(ctx, call, workspaceRoot)
	case "edit":
		a, err = t.edit(ctx, call, workspaceRoot)
	case "code_rename":
		a, err = t.rename(ctx, call, workspaceRoot)
	case "code_format":
		a, err = t.format(ctx, call, workspaceRoot)
	case "code_rename_file":
		a, err = t.renameFile(ctx, call, workspaceRoot)
	case "code_insert", "code_replace":
		a, err = t.insertOrReplace(ctx, call, workspaceRoot)
	case "code_replace_batch":
		a, err = t.replaceBatch(ctx, call, workspaceRoot)
	case "code_delete":
		a, err = t.deleteSymbol(ctx, call, workspaceRoot)
	case "code_actions":
		a, err = t.codeActions(ctx, call, workspaceRoot)
	default:
		err = lspseam.Errorf(lspseam.CodeInternal, "tool %s is defined but not run by this Toolbox; this is a bug in lspseam", call.Tool)
	}
	var cwp *conflictWithPreview
	if errors.As(err, &cwp) {
		return conflictResult(cwp)
	}
	if err != nil {
		return errorResult(err)
	}
	return a.result(call.Tool)
}

// conflictResult is a stale preview's answer: LSP_CONFLICT, and a fresh
// preview to apply instead.
func conflictResult(c *conflictWithPreview) ToolResult {
	res := errorResult(c.err)
	var v map[string]any
	json.Unmarshal(res.Structured, &v)
	fresh := map[string]any{}
	for _, f := range c.preview.fields {
		fresh[f.name] = f.value
	}
	key := c.key
	if key == "" {
		key = "preview"
	}
	v[key] = fresh
	res.Structured, _ = json.Marshal(v)
	res.Text += "\n" + c.preview.text
	return res
}

func (t *Toolbox) offers(name string) bool {
	for _, tool := range t.tools {
		if tool.Name == name {
			return true
		}
	}
	return false
}

// callLSP is the lsp tool: the same validation, query and rendering the
// shim's surfaces use.
func (t *Toolbox) callLSP(ctx context.Context, args json.RawMessage, workspaceRoot string) ToolResult {
	call, err := t.core.ParseToolArgs(ctx, args)
	if err != nil {
		return errorResult(err)
	}
	// The provider renders in the call that translates (see WithRendering).
	ctx, rendering := lspseam.WithRendering(ctx, lspseam.Limits{})
	res, err := t.service.Query(ctx, lspseam.QueryRequest{Operation: call.Operation, FilePath: call.FilePath, Position: call.Position, WorkspaceRoot: workspaceRoot})
	if err != nil {
		return errorResult(err)
	}
	wsURI := res.WorkspaceURI // set with locations; a hover has no paths to make relative
	if wsURI == "" {
		abs, err := filepath.Abs(workspaceRoot)
		if err != nil {
			return errorResult(lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q: %v", workspaceRoot, err))
		}
		wsURI = workspacefs.HostPaths.FileURI(abs)
	}
	out, ok := rendering.For(res, wsURI)
	if !ok {
		if out, err = t.core.Render(ctx, res, wsURI, lspseam.Limits{}); err != nil {
			return errorResult(err)
		}
	}
	structured, _ := json.Marshal(struct {
		OK     bool           `json:"ok"`
		Tool   string         `json:"tool"`
		Result lspseam.Result `json:"result"`
	}{true, ToolLSP, res})
	return ToolResult{Text: out.Text, Structured: structured}
}

// answer is a tool's successful answer before it is written out: the
// structured fields in order, the rendered text, and what may make it
// partial.
type answer struct {
	fields     []field
	text       string
	notice     string // an empty answer's explanation (§7)
	noticeSaid bool   // text already says it (the core's rendering)
	incomplete string // the server may not have been ready
}

type field struct {
	name  string
	value any
}

func (a answer) result(tool string) ToolResult {
	b := []byte(`{"ok":true,"tool":`)
	b, _ = appendJSONValue(b, tool)
	for _, f := range a.fields {
		b = append(b, ',')
		b, _ = appendJSONValue(b, f.name)
		b = append(b, ':')
		b, _ = appendJSONValue(b, f.value)
	}
	text := a.text
	if a.notice != "" {
		b = append(b, `,"notice":`...)
		b, _ = appendJSONValue(b, a.notice)
		if !a.noticeSaid {
			text += "\n" + a.notice
		}
	}
	if a.incomplete != "" {
		b = append(b, `,"incomplete":`...)
		b, _ = appendJSONValue(b, a.incomplete)
		text += "\nIncomplete: " + a.incomplete
	}
	b = append(b, '}')
	return ToolResult{Text: text, Structured: b}
}

func appendJSONValue(b []byte, v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return append(b, raw...), nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		enc, _ = json.Marshal(err.Error())
	}
	return append(b, enc...), err
}

// ErrorResult is a failed call's answer, with the error's code: what Call
// answers for err, for surfaces that fail before calling it.
func ErrorResult(err error) ToolResult { return errorResult(err) }

// errorResult is a failed call's answer, with the error's code.
func errorResult(err error) ToolResult {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) {
		lerr = lspseam.Errorf(lspseam.CodeInternal, "%v", err)
	}
	e := map[string]string{"code": string(lerr.Code), "message": lerr.Message}
	if lerr.Reason != "" {
		e["reason"] = lerr.Reason // what a caller acts on (stillReferenced, editsOverlap)
	}
	v := map[string]any{"ok": false, "error": e}
	if lerr.Code == lspseam.CodeAmbiguousTarget {
		v["ambiguous"] = true
	}
	if len(lerr.Candidates) > 0 {
		v["candidates"] = lerr.Candidates
	}
	structured, _ := json.Marshal(v)
	return ToolResult{Text: string(lerr.Code) + ": " + lerr.Message, Structured: structured, IsError: true}
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ToolLSP is the lsp tool's name.
const ToolLSP = core.ToolName
