package toolbox

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
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
	// pageHint, when set, is a cut answer's line saying how to see more
	// (SetPageHint; "": no line); nil: call again with the cursor.
	pageHint func(tool, cursor string) string
	// reportWait, when set, is code_diagnostics' wait for reports not yet
	// in (SetReportWait); 0: the defaults, made for a session that can
	// ask again.
	reportWait time.Duration
	mutating   sync.Mutex     // one change at a time (reads stay concurrent)
	writes     writeState     // cross-process write locks and journals
	goBuild    goBuildMatches // Go files the default build excludes (gobuildtags.go)
	breaks     otherBreaks    // other files applied changes broke, by changed file (otherbreaks.go)
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

// ToolLSP is the lsp tool's name.
const ToolLSP = core.ToolName

// SetStateDir sets the directory of the Toolbox's write locks and
// journals (default: $LSPSEAM_STATE_DIR, else $XDG_STATE_HOME/lspseam,
// else ~/.local/state/lspseam). Processes that may write one workspace at
// once must share it: it is what serializes their writes and lets one
// finish a change another was killed in the middle of. Call it before
// the Toolbox is used.
func (t *Toolbox) SetStateDir(dir string) {
	t.writes.dir = dir
}

// SetLogger sets where the Toolbox logs what it does on its own: the
// changes of killed processes it finishes or undoes. Call it before the
// Toolbox is used.
func (t *Toolbox) SetLogger(log *slog.Logger) {
	t.writes.log = log
}

// SetApproval sets how the mutating refactor tools apply changes:
// ApprovalPreview (the default: a preview first, applied when the call
// comes back with its previewId) or ApprovalAuto (at once). Call it before
// the Toolbox is used.
func (t *Toolbox) SetApproval(mode string) error {
	switch mode {
	case ApprovalAuto, ApprovalPreview:
		t.approval = mode
		return nil
	}
	return lspseam.Errorf(lspseam.CodeInvalidArgument, "approval must be %q or %q, got %q", ApprovalAuto, ApprovalPreview, mode)
}

// SetApplyHint replaces the line of a preview's text that says how to
// apply it — by default, call the tool again with the previewId — for a
// host where that cannot work: `lspseam call` ends with the call, and its
// previews with it. The structured answer keeps the previewId. Call it
// before the Toolbox is used.
func (t *Toolbox) SetApplyHint(hint func(tool, previewID string) string) { t.applyHint = hint }

// SetPageHint replaces the line of a cut answer's text that says how to
// see the rest — by default, call the tool again with the cursor — for a
// host where that cannot work, as SetApplyHint does for previews (a
// cursor, too, lives in the Toolbox). The structured answer keeps the
// cursor. Call it before the Toolbox is used.
func (t *Toolbox) SetPageHint(hint func(tool, cursor string) string) { t.pageHint = hint }

// SetReportWait sets how long code_diagnostics waits for the reports of
// files the server has not reported on yet — by default 3 s for a file,
// 1.5 s for the files a workspace read holds open and 8 s for those it
// opens — for a host whose caller cannot usefully ask again: a one-shot
// call (lspseam call) starts its servers anew each time, so "stale: ask
// again shortly" would be its answer every time. The wait stays bounded by
// the call's deadline, less a reserve for the answer. Call it before the
// Toolbox is used.
func (t *Toolbox) SetReportWait(d time.Duration) { t.reportWait = d }

// Approval modes.
const (
	ApprovalAuto    = "auto"
	ApprovalPreview = "preview"
)
