package lspseam

import (
	"context"
	"encoding/json"

	"github.com/lspseam/lspseam/core"
)

// The catalog's core methods: target resolution and code locations with
// snippets (docs/design.md, "the code-intelligence catalog"). They are
// pure: the host asks the server for the document symbols and the
// locations, and reads the files the plan names (inside the workspace
// only); the module decides what to ask and what to read, and writes the
// answer.

// Target is a model's target, one-based: {path, symbol?, kind?, line?,
// column?, matchText?}. Zero Line or Column means absent.
type Target = core.Target

// TargetCandidate is a symbol listed by an LSP_AMBIGUOUS_TARGET (every
// match) or a symbol LSP_TARGET_NOT_FOUND (the nearest names), in the
// error's Candidates. Line, Column and EndLine are one-based.
type TargetCandidate = core.TargetCandidate

// SnippetOptions are a model's snippet arguments: Context 0–3 lines
// around each location, IncludeBody (a definition's whole symbol range, at
// most 200 lines), Limit (0 = 100, at most 500).
type SnippetOptions = core.SnippetOptions

// LineSpan is a zero-based, inclusive range of lines to read.
type LineSpan = core.LineSpan

// ResolveTargetInput is the input of ResolveTarget. Symbols is the
// server's raw textDocument/documentSymbol result for the target's file;
// nil when the server has no documentSymbol provider (symbol targets then
// fail, naming line + matchText instead). FirstMatch takes the first of
// several matching symbols instead of LSP_AMBIGUOUS_TARGET (reads only).
type ResolveTargetInput struct {
	Target     Target `json:"target"`
	FirstMatch bool   `json:"firstMatch,omitempty"`
	// Exact: a change's target, which never takes the first of several
	// (firstMatch refused, not offered in the ambiguity's message).
	Exact   bool            `json:"exact,omitempty"`
	Text    string          `json:"text"`
	Symbols json.RawMessage `json:"symbols,omitempty"`
}

// ResolvedTarget is where a target points: one-based Line and Column
// (UTF-16) for the model, the zero-based Position for the LSP request, the
// Identifier there, the Symbol (qualified name), Kind and Container when
// known, By (symbol, matchText, column or line: the form used), the
// targeted symbol's zero-based Range, and Text, the line to echo in the
// answer ("Target: `Area` (method Circle.Area) at geom/geom.go:10:18").
type ResolvedTarget struct {
	Path       string   `json:"path"`
	Line       uint64   `json:"line"`
	Column     uint64   `json:"column"`
	Position   Position `json:"position"`
	Identifier string   `json:"identifier"`
	Symbol     string   `json:"symbol,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Container  string   `json:"container,omitempty"`
	By         string   `json:"by"`
	Range      *Range   `json:"range,omitempty"`
	// Note says what of the target was not used (a line given with a
	// symbol that is elsewhere); Text carries it too.
	Note string `json:"note,omitempty"`
	Text string `json:"text"`
	// Request is the request for the target, when the input asked for one
	// (resolveTarget's request: codeRequest's input without a position).
	Request *CodeRequest `json:"request,omitempty"`
}

// SnippetsInput is the input of PlanSnippets: the server's locations, the
// workspace's file: URI, the model's options and the document symbols the
// host already has (each file's raw documentSymbol result by its URI; only
// IncludeBody needs them).
type SnippetsInput struct {
	Locations    []Location `json:"locations"`
	WorkspaceURI string     `json:"workspaceUri"`
	SnippetOptions
	Symbols map[string]json.RawMessage `json:"symbols,omitempty"`
}

// FileRead is one file to read: its URI, absolute path, the line spans
// needed (merged, in order) and whether its document symbols are needed
// first (IncludeBody without them: ask the server and plan again).
type FileRead struct {
	URI         string     `json:"uri"`
	Path        string     `json:"path"`
	Spans       []LineSpan `json:"spans"`
	NeedSymbols bool       `json:"needSymbols,omitempty"`
}

// SnippetPlan is what PlanSnippets decided: the locations kept (without
// duplicates, grouped by file, the first Limit), how many there were, and
// the reads. Files outside the workspace are never listed.
type SnippetPlan struct {
	Locations  []Location `json:"locations"`
	TotalFound int        `json:"totalFound"`
	Truncated  bool       `json:"truncated"`
	Files      []FileRead `json:"files"`
}

// LineChunk is consecutive lines of a file from Start (zero-based),
// without line terminators: what the host read of a planned span (any
// superset of the spans works, e.g. the whole file; core.LineChunks cuts
// a text to the spans).
type LineChunk = core.LineChunk

// CodeLocationsInput is the input of CodeLocations: the same as
// PlanSnippets' (the module plans again), the lines the host read by file
// URI (a file missing here, unreadable or outside the workspace, gets no
// snippet), the subject line to start the text with (a ResolvedTarget's
// Text) and the text's budget (0 = the default).
type CodeLocationsInput struct {
	SnippetsInput
	Files          map[string][]LineChunk `json:"files,omitempty"`
	Subject        string                 `json:"subject,omitempty"`
	MaxResultChars int                    `json:"maxResultChars,omitempty"`
}

// CodeLocation is one location for the model, one-based (UTF-16 columns):
// Path relative inside the workspace, absolute outside; Snippet the
// trimmed line, or (SnippetLine set) the lines from SnippetLine on (the
// context window or the body; BodyEndLine is where a body cut at 200
// lines really ends); the symbol the location lies in when the file's
// symbols were known; OutsideWorkspace for a file never read.
type CodeLocation struct {
	Path             string `json:"path"`
	Line             uint64 `json:"line"`
	Column           uint64 `json:"column"`
	EndLine          uint64 `json:"endLine"`
	EndColumn        uint64 `json:"endColumn"`
	Snippet          string `json:"snippet,omitempty"`
	SnippetLine      uint64 `json:"snippetLine,omitempty"`
	BodyEndLine      uint64 `json:"bodyEndLine,omitempty"`
	Symbol           string `json:"symbol,omitempty"`
	Kind             string `json:"kind,omitempty"`
	Container        string `json:"container,omitempty"`
	OutsideWorkspace bool   `json:"outsideWorkspace,omitempty"`
}

// CodeLocations is CodeLocations' answer: the locations grouped by file,
// the first limit of TotalFound, and their text for the model.
type CodeLocations struct {
	Locations  []CodeLocation `json:"locations"`
	TotalFound int            `json:"totalFound"`
	Truncated  bool           `json:"truncated"` // locations after this page's were left out
	Offset     int            `json:"offset,omitempty"`
	// ResultKey names the whole list of locations the server answered
	// (every page's, in page order): a cursor's next page is of the same
	// answer only when the key is the same.
	ResultKey string   `json:"resultKey"`
	Rendered  Rendered `json:"rendered"`
}

// ResolveTarget resolves a model's target in its file's text and document
// symbols. A symbol matching several symbols is an *Error
// LSP_AMBIGUOUS_TARGET, a missing one LSP_TARGET_NOT_FOUND, both with
// Candidates; a matchText not on its line is LSP_TARGET_NOT_FOUND quoting
// the line as it is now.
func (c *Core) ResolveTarget(ctx context.Context, in ResolveTargetInput) (ResolvedTarget, error) {
	var v ResolvedTarget
	return v, c.Invoke(ctx, "resolveTarget", in, &v)
}

// PlanSnippets plans the reads for a server's locations: which lines of
// which files inside the workspace the host reads before CodeLocations.
func (c *Core) PlanSnippets(ctx context.Context, in SnippetsInput) (SnippetPlan, error) {
	in.Locations = nonNil(in.Locations)
	var v SnippetPlan
	return v, c.Invoke(ctx, "planSnippets", in, &v)
}

// CodeLocations builds the code locations of a server's locations from the
// lines the host read for PlanSnippets' plan, and renders them for the
// model under the subject line.
func (c *Core) CodeLocations(ctx context.Context, in CodeLocationsInput) (CodeLocations, error) {
	in.Locations = nonNil(in.Locations)
	var v CodeLocations
	return v, c.Invoke(ctx, "codeLocations", in, &v)
}

// Tool is one tool's definition: its name, toolset ("lsp", "code"), the
// description a model reads, its input JSON Schema, and whether it only
// reads.
type Tool struct {
	Name string `json:"name"`
	// Title is the tool's human-readable name in clients' lists.
	Title       string          `json:"title"`
	Toolset     string          `json:"toolset"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	ReadOnly    bool            `json:"readOnly"`
}

// ToolDefinitions lists the tools of the given toolsets (every toolset
// when none is given), the lsp tool first. An unknown toolset is
// LSP_INVALID_ARGUMENT. Known toolsets are answered from the generated
// answers (handshake.go), without waiting for the module.
func (c *Core) ToolDefinitions(ctx context.Context, toolsets []string) ([]Tool, error) {
	var v []Tool
	return v, c.invokeRaw(ctx, "toolDefinitions", handshakeAnswers().toolsetsInput(toolsets), &v)
}

// LineRange is a one-based, inclusive range of lines.
type LineRange = core.LineRange

// CodeCall is a validated catalog tool call (see core/codeargs.go): Path is
// the file the call is about, the host routes by it.
type CodeCall struct {
	Tool        string  `json:"tool"`
	Toolset     string  `json:"toolset"`
	Path        string  `json:"path"`
	Target      *Target `json:"target,omitempty"`
	FirstMatch  bool    `json:"firstMatch,omitempty"`
	Kind        string  `json:"kind,omitempty"`
	Context     int     `json:"context,omitempty"`
	IncludeBody bool    `json:"includeBody,omitempty"`
	Limit       int     `json:"limit,omitempty"`
	Depth       int     `json:"depth,omitempty"`
	Query       string  `json:"query,omitempty"`
	// Cursor names the next page of an earlier, cut answer.
	Cursor string `json:"cursor,omitempty"`
	// Dependencies: code_symbols' search keeps matches outside the
	// workspace.
	Dependencies bool       `json:"dependencies,omitempty"`
	Range        *LineRange `json:"range,omitempty"`
	Severity     string     `json:"severity,omitempty"`
	// The refactor tools': rename's new name, the preview a call applies.
	NewName   string `json:"newName,omitempty"`
	NewPath   string `json:"newPath,omitempty"` // code_rename_file
	PreviewID string `json:"previewId,omitempty"`
	// code_insert's position and text, code_replace's text and endLine,
	// code_replace_batch's edits.
	Position string      `json:"position,omitempty"`
	Text     *string     `json:"text,omitempty"`
	EndLine  int64       `json:"endLine,omitempty"`
	Edits    []BatchEdit `json:"edits,omitempty"`
	// code_actions: the kind asked for, the action to apply.
	Only  string `json:"only,omitempty"`
	Apply string `json:"apply,omitempty"`
	// code_diagnostics without a path: the workspace.
	ActivateWorkspace bool `json:"activateWorkspace,omitempty"`
	ActivationLimit   int  `json:"activationLimit,omitempty"`
	// The fs tools': read's one-based offset, write's content, edit's
	// strings.
	Offset     int64   `json:"offset,omitempty"`
	Content    *string `json:"content,omitempty"`
	OldString  string  `json:"oldString,omitempty"`
	NewString  string  `json:"newString,omitempty"`
	ReplaceAll bool    `json:"replaceAll,omitempty"`
}

// ParseCodeArgs validates a model's arguments to a catalog tool.
func (c *Core) ParseCodeArgs(ctx context.Context, tool string, args json.RawMessage) (CodeCall, error) {
	var v CodeCall
	return v, c.Invoke(ctx, "parseCodeArgs", map[string]any{"name": tool, "arguments": args}, &v)
}

// CodeRequestInput is the input of CodeRequest: the LSP method, the
// file's URI, the zero-based position (positional methods), the query
// (workspace/symbol), the file's text and one-based lines (inlay hints),
// and the server's negotiated methods with its id, so a method it lacks is
// LSP_UNSUPPORTED_OPERATION naming what to use instead.
type CodeRequestInput struct {
	Method   string          `json:"method"`
	URI      string          `json:"uri,omitempty"`
	Position *Position       `json:"position,omitempty"`
	Query    string          `json:"query,omitempty"`
	Text     string          `json:"text,omitempty"`
	Range    *LineRange      `json:"range,omitempty"`
	Methods  map[string]bool `json:"methods,omitempty"`
	Server   string          `json:"server,omitempty"`
	NewName  string          `json:"newName,omitempty"`
	// textDocument/codeAction: the file's diagnostics, the kinds asked for.
	Diagnostics json.RawMessage `json:"diagnostics,omitempty"`
	Only        []string        `json:"only,omitempty"`
}

// CodeRequest is one catalog request, ready to send.
type CodeRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// CodeRequest builds a catalog request's params.
func (c *Core) CodeRequest(ctx context.Context, in CodeRequestInput) (CodeRequest, error) {
	var v CodeRequest
	return v, c.Invoke(ctx, "codeRequest", in, &v)
}

// BatchEdit is one edit of code_replace_batch: a target, its replacement
// text, and optionally the last of the whole lines it replaces.
type BatchEdit struct {
	Target  Target `json:"target"`
	Text    string `json:"text"`
	EndLine int64  `json:"endLine,omitempty"`
}
