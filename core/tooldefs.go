package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The catalog's tool definitions (docs/design.md, "the code-intelligence
// catalog"): every tool a harness can offer, by toolset, with a
// description written for a model and a hand-written JSON Schema, so the
// bytes a model reads are part of the reviewed contract. The ABI method
// toolDefinitions lists them; parseCodeArgs (codeargs.go) validates calls.

// Toolsets, in the order they are listed.
const (
	ToolsetLSP      = "lsp"
	ToolsetCode     = "code"
	ToolsetFS       = "fs"
	ToolsetRefactor = "refactor"
)

// Toolsets names every toolset this module defines tools for.
var Toolsets = []string{ToolsetLSP, ToolsetCode, ToolsetFS, ToolsetRefactor}

// DefaultToolsets is what a harness offers unless told otherwise.
var DefaultToolsets = []string{ToolsetLSP, ToolsetCode}

// The code toolset's tools.
const (
	ToolCodeSymbols     = "code_symbols"
	ToolCodeNavigate    = "code_navigate"
	ToolCodeHover       = "code_hover"
	ToolCodeHierarchy   = "code_hierarchy"
	ToolCodeInlayHints  = "code_inlay_hints"
	ToolCodeDiagnostics = "code_diagnostics"
)

// The refactor toolset's tools (built so far).
const (
	ToolCodeRename       = "code_rename"
	ToolCodeFormat       = "code_format"
	ToolCodeRenameFile   = "code_rename_file"
	ToolCodeInsert       = "code_insert"
	ToolCodeReplace      = "code_replace"
	ToolCodeReplaceBatch = "code_replace_batch"
	ToolCodeDelete       = "code_delete"
	ToolCodeActions      = "code_actions"
)

// The fs toolset's tools (seed 002's names and snake_case arguments).
const (
	ToolRead  = "read"
	ToolWrite = "write"
	ToolEdit  = "edit"
)

// ToolTitle is the lsp tool's human-readable name in clients' lists.
const ToolTitle = "Code navigation (language servers)"

// CodeTool is one tool's definition in a toolset.
type CodeTool struct {
	Name string
	// Title is the tool's human-readable name in clients' lists (MCP's
	// title), a few words.
	Title       string
	Toolset     string
	Description string
	InputSchema RawJSON
	// ReadOnly: the tool changes nothing (MCP's readOnlyHint).
	ReadOnly bool
}

func (t CodeTool) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, t.Name)
	b = append(b, `,"title":`...)
	b = appendString(b, t.Title)
	b = append(b, `,"toolset":`...)
	b = appendString(b, t.Toolset)
	b = append(b, `,"description":`...)
	b = appendString(b, t.Description)
	b = append(b, `,"inputSchema":`...)
	b = t.InputSchema.appendJSON(b)
	b = append(b, `,"readOnly":`...)
	b = appendBool(b, t.ReadOnly)
	return append(b, '}')
}

// targetConvention is appended to target errors, so a model that got a
// target wrong learns the forms from the error itself. The descriptions
// state the shorter targetGrammar once per listing (sharedConventions).
const targetConvention = "A target names a place in a file without counting columns: " +
	`{"path":"geom/geom.go","symbol":"Helper"} (a function, type, method or variable by name; "Circle.Area" for a member; add "kind":"method" to pick among same-named symbols), ` +
	`{"path":"geom/geom.go","line":12,"matchText":"total("} (the first occurrence of matchText on that line), ` +
	`{"path":…,"line":12,"column":7} (one-based; columns count UTF-16 code units, an emoji counts as 2), or {"path":…,"line":12} (the name declared on the line, else its first non-keyword name). ` +
	"path is relative to the workspace root or absolute inside it. Prefer symbol; use line + matchText for a use inside a body. " +
	"When several symbols match, the error lists them (qualifiedName, kind, line): call again with kind or Container.member, or firstMatch: true to take the first"

// changeTargetConvention is targetConvention for the refactor tools: a
// change never takes the first of several matches.
var changeTargetConvention = strings.TrimSuffix(targetConvention, ", or firstMatch: true to take the first") + " (a change never takes the first of several)"

// A convention is prose several tools share. A listing states it in full
// in the first tool that needs it and has the others refer to that tool
// in a few words, so a model reads it once however many tools it gets
// (issue 23: the target grammar repeated in every targeted tool was a
// quarter of the default listing's tokens).
type convention struct {
	full string
	ref  func(owner string) string
}

// targetGrammar: how a target names a place; stated in the first targeted
// tool of a listing (code_navigate, or code_rename without the code
// toolset).
var targetGrammar = &convention{
	full: "A target is a place in a file, without counting columns: " +
		`{"path":"geom/geom.go","symbol":"Circle.Area"} (a name or Container.member; "kind":"method" picks among same-named ones), ` +
		`{"path":…,"line":12,"matchText":"total("} (first occurrence on the line: a use in a body), {"path":…,"line":12,"column":7} (UTF-16) or {"path":…,"line":12}. ` +
		"One-based; path is relative to the workspace root. If several match, the error lists them: add kind or Container.member, or firstMatch: true.",
	ref: func(owner string) string { return "target: as in " + owner + "." },
}

// approvalGrammar: how a change is previewed and applied; stated in the
// first refactor tool of a listing.
var approvalGrammar = &convention{
	full: "By default a call only previews: it answers a unified diff and a previewId and changes nothing; " +
		"the same call plus that previewId applies it (LSP_CONFLICT with a fresh preview if a file changed in between). " +
		"An applied change lists the files changed and the problems it introduced or resolved.",
	ref: func(owner string) string { return "Previews, then applies with previewId, as " + owner + " says." },
}

// observationGrammar: the read-before-update policy of write and edit
// (seed 002: the prose pins the policy).
var observationGrammar = &convention{
	full: "Updating an existing file requires that this session has read it (any window) or written it, and that it has not changed since; " +
		"otherwise FS_NOT_OBSERVED (read it first) or FS_STALE (read it again) and nothing is written. A new file needs no read.",
	ref: func(owner string) string { return "The read-first rule of " + owner + " applies." },
}

const targetSchema = `{
      "type": "object",
      "properties": {
        "path": {"type": "string"},
        "symbol": {"type": "string"},
        "kind": {"type": "string"},
        "line": {"type": "integer"},
        "column": {"type": "integer"},
        "matchText": {"type": "string"}
      },
      "required": ["path"]
    }`

const firstMatchSchema = `"firstMatch": {"type": "boolean"}`

// pagedRequired: target and kind, or a next page's cursor alone.
const pagedRequired = `"anyOf": [{"required": ["target", "kind"]}, {"required": ["cursor"]}]`

// limitSchema: the default (100) is left unsaid; an answer cut by it says
// so, and gives the cursor of the next page, which is then given alone
// (the schema says so: pagedRequired). Its bounds (1–500) are left to the
// argument check's message, for the tokens.
const limitSchema = `"limit": {"type": "integer"},
    "cursor": {"type": "string"}`

const codeSymbolsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "query": {"type": "string"},
    "dependencies": {"type": "boolean"},
    ` + limitSchema + `
  }
}`

const codeNavigateSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "kind": {"type": "string", "enum": ["definition", "typeDefinition", "declaration", "implementation", "references"]},
    "context": {"type": "integer", "description": "0–3 lines around each result."},
    "includeBody": {"type": "boolean"},
    ` + limitSchema + `,
    ` + firstMatchSchema + `
  },
  ` + pagedRequired + `
}`

const codeHoverSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    ` + firstMatchSchema + `
  },
  "required": ["target"]
}`

const codeHierarchySchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "kind": {"type": "string", "enum": ["callers", "callees", "supertypes", "subtypes"]},
    "depth": {"type": "integer", "description": "1–4 (default 1)."},
    ` + limitSchema + `,
    ` + firstMatchSchema + `
  },
  ` + pagedRequired + `
}`

// lineRangeSchema is an optional range of whole lines.
const lineRangeSchema = `"range": {
      "type": "object",
      "properties": {
        "startLine": {"type": "integer"},
        "endLine": {"type": "integer"}
      },
      "required": ["startLine", "endLine"],
      "description": "Inclusive (default: the whole file)."
    }`

const codeInlayHintsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    ` + lineRangeSchema + `,
    ` + limitSchema + `
  },
  "required": ["path"]
}`

const codeDiagnosticsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "severity": {"type": "string", "enum": ["error", "warning", "information", "hint"], "description": "The least severe to list."},
    ` + limitSchema + `,
    "activateWorkspace": {"type": "boolean", "description": "Without path: also check files no server has open, newest first."},
    "activationLimit": {"type": "integer", "description": "At most 200 (default 20)."}
  }
}`

const filePathSchema = `"file_path": {"type": "string", "description": "Relative to the workspace root or absolute inside it."}`

const readSchema = `{
  "type": "object",
  "properties": {
    ` + filePathSchema + `,
    "offset": {"type": "integer", "minimum": 1, "description": "The first line, one-based (default 1)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Lines (default 2000)."}
  },
  "required": ["file_path"]
}`

const writeSchema = `{
  "type": "object",
  "properties": {
    ` + filePathSchema + `,
    "content": {"type": "string", "description": "The whole new content."}
  },
  "required": ["file_path", "content"]
}`

const editSchema = `{
  "type": "object",
  "properties": {
    ` + filePathSchema + `,
    "old_string": {"type": "string", "description": "The exact text, as the file has it (line breaks as \\n)."},
    "new_string": {"type": "string", "description": "The replacement; empty deletes old_string."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence (default false)."}
  },
  "required": ["file_path", "old_string", "new_string"]
}`

const previewIDSchema = `"previewId": {"type": "string", "description": "This call's preview, to apply it."}`

const codeRenameSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "newName": {"type": "string"},
    ` + previewIDSchema + `
  },
  "required": ["target", "newName"]
}`

const codeRenameFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "newPath": {"type": "string", "description": "Must not exist yet; missing directories are made."},
    ` + previewIDSchema + `
  },
  "required": ["path", "newPath"]
}`

const codeFormatSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    ` + lineRangeSchema + `,
    ` + previewIDSchema + `
  },
  "required": ["path"]
}`

const codeInsertSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "position": {"type": "string", "enum": ["before", "after", "start", "end"], "description": "before/after: new whole lines above/below the target; start/end: the first/last lines of a symbol's body (of a line target: at its first non-blank or its end)."},
    "text": {"type": "string", "description": "Whole lines (a final line break is added), except at a line target's start/end."},
    ` + previewIDSchema + `
  },
  "required": ["target", "position", "text"]
}`

const replaceFields = `"text": {"type": "string", "description": "The whole new declaration, or the whole new lines."},
    "endLine": {"type": "integer", "minimum": 1, "description": "Replace the whole lines from the target's to this one instead of the symbol."}`

const codeReplaceSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    ` + replaceFields + `,
    ` + previewIDSchema + `
  },
  "required": ["target", "text"]
}`

const codeDeleteSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    ` + previewIDSchema + `
  },
  "required": ["target"]
}`

const codeReplaceBatchSchema = `{
  "type": "object",
  "properties": {
    "edits": {
      "type": "array",
      "minItems": 1,
      "maxItems": 100,
      "items": {
        "type": "object",
        "properties": {
          "target": ` + targetSchema + `,
          ` + replaceFields + `
        },
        "required": ["target", "text"]
      }
    },
    ` + previewIDSchema + `
  },
  "required": ["edits"]
}`

const codeActionsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "line": {"type": "integer", "minimum": 1, "description": "The first line the actions are for."},
    "endLine": {"type": "integer", "minimum": 1, "description": "The last line (default: line)."},
    "only": {"type": "string", "description": "A kind and its subkinds: quickfix, refactor, refactor.extract, source.organizeImports, …"},
    "apply": {"type": "string", "description": "A listed actionId (or exact, unique title) to apply."},
    ` + previewIDSchema + `
  },
  "required": ["path", "line"]
}`

// toolText is a tool's description before a listing composes it: what
// the tool does, the shared conventions it needs, an example.
type toolText struct {
	about       string
	conventions []*convention
	example     string
}

// toolTexts holds every catalog tool's description parts, by name.
var toolTexts = map[string]toolText{
	ToolCodeSymbols: {
		about: "A file's outline (symbols, kinds, lines), or symbols named like query: in path's project, or without path in every language " +
			"(the answer names any it could not search); dependencies: true adds libraries'.",
		example: `Examples: {"path":"geom/geom.go"}; {"query":"Area"}.`,
	},
	ToolCodeNavigate: {
		about: "A symbol's definition, typeDefinition, declaration, implementations or references as path:line:column and source line; " +
			"includeBody adds each definition's body (up to 200 lines). Check the answer's first line: what the target resolved to.",
		conventions: []*convention{targetGrammar},
		example:     `Example: {"target":{"path":"main.go","symbol":"Describe"},"kind":"references"}.`,
	},
	ToolCodeHover: {
		about:       "A symbol's type or signature and its documentation's first paragraph; inside a call's parentheses, then the callee's signature, current parameter in **bold**.",
		conventions: []*convention{targetGrammar},
	},
	ToolCodeHierarchy: {
		about:       "A function's callers or callees, or a type's supertypes or subtypes, up to 4 levels: each node once, recursion marked as a cycle, call sites as path:line:column.",
		conventions: []*convention{targetGrammar},
	},
	ToolCodeDiagnostics: {
		about: "A file's problems, errors first, as path:line:column and message; the answer says if the report is fresh or stale. " +
			"Without path: the files servers have open (more with activateWorkspace).",
	},
	ToolCodeInlayHints: {
		about: "Inferred types and parameter names an editor shows inline, as line:column (not every server has them: pyright does not).",
	},
	ToolCodeRename: {
		about:       "Rename a symbol everywhere the language server knows it is used, across files; a newName that is not an identifier of the file's language, or is a keyword, is refused, as is what the server cannot rename (a library's name).",
		conventions: []*convention{approvalGrammar, targetGrammar},
		example:     `Example: {"target":{"path":"shape.go","symbol":"Describe"},"newName":"Summary"}.`,
	},
	ToolCodeRenameFile: {
		about:       "Rename or move a source file and update the imports that name it where the server can (TypeScript and JavaScript servers do); the answer says when it updates nothing.",
		conventions: []*convention{approvalGrammar},
		example:     `Example: {"path":"src/shape.ts","newPath":"src/geometry/shape.ts"}.`,
	},
	ToolCodeInsert: {
		about:       "Insert code by a symbol or line found by name: whole lines above its declaration (and doc comment) or below it, at its indentation, or statements at the start or end of its body (after a docstring), indented as the body; to add a method after a type's methods, target the last method.",
		conventions: []*convention{approvalGrammar, targetGrammar},
		example:     `Example: {"target":{"path":"shape.go","symbol":"Describe"},"position":"after","text":"\nfunc Name() string { return \"shape\" }"}.`,
	},
	ToolCodeReplace: {
		about:       "Replace a symbol's whole declaration (found by name), or whole lines from a target to endLine, with new text.",
		conventions: []*convention{approvalGrammar, targetGrammar},
		example:     `Example: {"target":{"path":"shape.go","symbol":"TotalArea"},"text":"func TotalArea() float64 {\n\treturn 0\n}"}.`,
	},
	ToolCodeReplaceBatch: {
		about:       "Several code_replace edits as one change: every target is resolved first, overlapping edits are refused, and all files change together or none does.",
		conventions: []*convention{approvalGrammar},
	},
	ToolCodeDelete: {
		about:       "Delete a symbol's declaration with its doc comment, only if nothing outside it still uses it; otherwise the answer lists the uses (LSP_CONFLICT) and changes nothing.",
		conventions: []*convention{approvalGrammar, targetGrammar},
		example:     `Example: {"target":{"path":"shape.go","symbol":"unusedHelper"}}.`,
	},
	ToolCodeActions: {
		about:       "List the server's quick fixes and refactorings for some lines (organize imports, extract, …), each with an actionId; call again with apply set to one to apply it.",
		conventions: []*convention{approvalGrammar},
		example:     `Examples: {"path":"main.go","line":12}; {"path":"main.go","line":1,"only":"source.organizeImports"}.`,
	},
	ToolCodeFormat: {
		about:       "Format a file, or some of its lines, with the language's formatter.",
		conventions: []*convention{approvalGrammar},
		example:     `Example: {"path":"src/main.ts"}.`,
	},
	ToolRead: {
		about: "Read a UTF-8 text file: its lines numbered from 1, a window of them with offset and limit, and a footer with the file's line count. " +
			"Reading any window lets this session write or edit the file afterwards.",
	},
	ToolWrite: {
		about:       "Create a UTF-8 text file or replace its whole content, atomically, keeping its permissions; the answer lists the problems the write introduced or resolved.",
		conventions: []*convention{observationGrammar},
	},
	ToolEdit: {
		about: "Replace exact text in an existing UTF-8 text file (write creates files): old_string must occur exactly once (add surrounding lines) unless replace_all; line endings are kept. " +
			"The answer lists the problems the edit introduced or resolved.",
		conventions: []*convention{observationGrammar},
	},
}

// refactorTools is the refactor toolset, in listing order.
var refactorTools = []CodeTool{
	{Name: ToolCodeRename, Title: "Rename a symbol", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeRenameSchema)},
	{Name: ToolCodeRenameFile, Title: "Rename or move a file", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeRenameFileSchema)},
	{Name: ToolCodeInsert, Title: "Insert code by a symbol", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeInsertSchema)},
	{Name: ToolCodeReplace, Title: "Replace a symbol's code", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeReplaceSchema)},
	{Name: ToolCodeReplaceBatch, Title: "Replace several symbols", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeReplaceBatchSchema)},
	{Name: ToolCodeDelete, Title: "Delete an unused symbol", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeDeleteSchema)},
	{Name: ToolCodeActions, Title: "Quick fixes and refactorings", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeActionsSchema)},
	{Name: ToolCodeFormat, Title: "Format a file", Toolset: ToolsetRefactor, InputSchema: RawJSON(codeFormatSchema)},
}

// fsTools is the fs toolset, in listing order.
var fsTools = []CodeTool{
	{Name: ToolRead, Title: "Read a file", Toolset: ToolsetFS, ReadOnly: true, InputSchema: RawJSON(readSchema)},
	{Name: ToolWrite, Title: "Write a file", Toolset: ToolsetFS, InputSchema: RawJSON(writeSchema)},
	{Name: ToolEdit, Title: "Edit a file", Toolset: ToolsetFS, InputSchema: RawJSON(editSchema)},
}

// codeTools is the code toolset, in listing order.
var codeTools = []CodeTool{
	{Name: ToolCodeSymbols, Title: "Find symbols", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeSymbolsSchema)},
	{Name: ToolCodeNavigate, Title: "Definitions and references", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeNavigateSchema)},
	{Name: ToolCodeHover, Title: "Type and docs", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeHoverSchema)},
	{Name: ToolCodeHierarchy, Title: "Call and type hierarchy", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeHierarchySchema)},
	{Name: ToolCodeDiagnostics, Title: "Diagnostics", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeDiagnosticsSchema)},
	{Name: ToolCodeInlayHints, Title: "Inlay hints", Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeInlayHintsSchema)},
}

// describe composes the descriptions of a listing's catalog tools, in
// listing order: each shared convention in full in the first tool that
// needs it, referred to by the others.
func describeTools(tools []CodeTool) {
	owner := map[*convention]string{}
	for i := range tools {
		text, ok := toolTexts[tools[i].Name]
		if !ok {
			continue
		}
		parts := []string{text.about}
		for _, c := range text.conventions {
			if o, ok := owner[c]; ok {
				parts = append(parts, c.ref(o))
			} else {
				owner[c] = tools[i].Name
				parts = append(parts, c.full)
			}
		}
		if text.example != "" {
			parts = append(parts, text.example)
		}
		tools[i].Description = strings.Join(parts, "\n")
	}
}

// ToolDefinitions lists the tools of the given toolsets (all when none),
// the lsp tool first. Unknown toolset names are LSP_INVALID_ARGUMENT.
func ToolDefinitions(toolsets []string) ([]CodeTool, *Error) {
	want := map[string]bool{}
	for _, s := range toolsets {
		if !knownToolset(s) {
			return nil, unknownToolset(s)
		}
		want[s] = true
	}
	all := len(want) == 0
	var out []CodeTool
	if all || want[ToolsetLSP] {
		out = append(out, CodeTool{Name: ToolName, Title: ToolTitle, Toolset: ToolsetLSP, ReadOnly: true, Description: ToolDescription, InputSchema: RawJSON(toolInputSchema)})
	}
	for _, list := range [][]CodeTool{codeTools, refactorTools, fsTools} {
		for _, t := range list {
			if all || want[t.Toolset] {
				out = append(out, t)
			}
		}
	}
	describeTools(out)
	return out, nil
}

func knownToolset(name string) bool {
	for _, s := range Toolsets {
		if s == name {
			return true
		}
	}
	return false
}

func unknownToolset(name string) *Error {
	msg := "unknown toolset " + strconv.Quote(clip(name, 40)) + "; this build has: " + strings.Join(Toolsets, ", ")
	if t, ok := codeToolByName(name); ok {
		// --tools lsp,edit: a tool's name where a toolset's belongs.
		msg += " (" + strconv.Quote(name) + " is a tool of the " + strconv.Quote(t.Toolset) + " toolset: name that toolset)"
	} else if near := closest(name, Toolsets); near != "" {
		msg += " (did you mean " + strconv.Quote(near) + "?)"
	}
	return Errorf(CodeInvalidArgument, "%s", msg)
}

// codeToolByName finds a catalog tool (not lsp).
func codeToolByName(name string) (CodeTool, bool) {
	for _, list := range [][]CodeTool{codeTools, refactorTools, fsTools} {
		for _, t := range list {
			if t.Name == name {
				return t, true
			}
		}
	}
	return CodeTool{}, false
}

// toolDefinitionsCall: {toolsets?: [name]} → [tool].
func toolDefinitionsCall(in gjson.Result) (jsonAppender, *Error) {
	var sets []string
	ts := get(in, "toolsets")
	switch {
	case !ts.Exists() || ts.Type == gjson.Null:
	case ts.IsArray():
		var err *Error
		ts.ForEach(func(_, v gjson.Result) bool {
			if v.Type != gjson.String {
				err = Errorf(CodeInvalidArgument, "toolsets must be an array of toolset names (%s), got an element %s", strings.Join(Toolsets, ", "), describe(v))
				return false
			}
			sets = append(sets, v.Str)
			return true
		})
		if err != nil {
			return nil, err
		}
	default:
		return nil, Errorf(CodeInvalidArgument, "toolsets must be an array of toolset names (%s), got %s", strings.Join(Toolsets, ", "), describe(ts))
	}
	tools, err := ToolDefinitions(sets)
	if err != nil {
		return nil, err
	}
	return jsonList[CodeTool](tools), nil
}

// jsonList is a list value for dispatch.
type jsonList[T jsonAppender] []T

func (l jsonList[T]) appendJSON(b []byte) []byte { return appendArray(b, []T(l)) }
