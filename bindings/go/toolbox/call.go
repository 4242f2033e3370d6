package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// Dispatch: a tool call by name to the tool that answers it, every
// failure turned into an answer.

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
	return withRecovery(t.callCode(ctx, workspaceRelative(call, workspaceRoot), workspaceRoot), recovered)
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
	res, err := t.service.Query(ctx, lspseam.QueryRequest{Operation: call.Operation, FilePath: call.FilePath, Position: call.Position, WorkspaceRoot: workspaceRoot, PositionTerms: lspseam.OneBasedTerms})
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
	text := out.Text
	// The render's notice names maxLocations, the host's limit, which
	// the lsp tool has no argument for: say where the rest can be seen.
	if out.Omitted > 0 && t.offers(core.ToolCodeNavigate) {
		text += "\nThe lsp tool shows at most " + strconv.Itoa(out.Shown) + "; code_navigate (kind references, implementation or definition) pages through all of them with limit and cursor."
	}
	return ToolResult{Text: text, Structured: structured}
}
