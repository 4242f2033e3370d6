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
	ToolCodeActions      = "code_actions"
)

// The fs toolset's tools (seed 002's names and snake_case arguments).
const (
	ToolRead  = "read"
	ToolWrite = "write"
	ToolEdit  = "edit"
)

// CodeTool is one tool's definition in a toolset.
type CodeTool struct {
	Name        string
	Toolset     string
	Description string
	InputSchema RawJSON
	// ReadOnly: the tool changes nothing (MCP's readOnlyHint).
	ReadOnly bool
}

func (t CodeTool) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, t.Name)
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

// targetConvention is stated in every targeted tool's description and
// appended to target errors, so a model learns the forms from either.
const targetConvention = "A target names a place in a file without counting columns: " +
	`{"path":"geom/geom.go","symbol":"Helper"} (a function, type, method or variable by name; "Circle.Area" for a member; add "kind":"method" to pick among same-named symbols), ` +
	`{"path":"geom/geom.go","line":12,"matchText":"total("} (the first occurrence of matchText on that line), ` +
	`{"path":…,"line":12,"column":7} (one-based; columns count UTF-16 code units, an emoji counts as 2), or {"path":…,"line":12} (the line's first non-blank character). ` +
	"path is relative to the workspace root or absolute inside it. Prefer symbol; use line + matchText for a use inside a body. " +
	"When several symbols match, the error lists them (qualifiedName, kind, line): call again with kind or Container.member, or firstMatch: true to take the first"

// changeTargetConvention is targetConvention for the refactor tools: a
// change never takes the first of several matches.
var changeTargetConvention = strings.TrimSuffix(targetConvention, ", or firstMatch: true to take the first") + " (a change never takes the first of several)"

const targetSchema = `{
      "type": "object",
      "properties": {
        "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
        "symbol": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "A symbol of the file by name, or Container.member (Circle.Area)."},
        "kind": {"type": "string", "enum": [` + symbolKindEnum + `], "description": "The symbol's kind, to choose among same-named symbols."},
        "line": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "One-based line (with matchText or column, or alone for the line's first non-blank character; with symbol, narrows same-named symbols)."},
        "column": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "One-based column in UTF-16 code units; needs line."},
        "matchText": {"type": "string", "minLength": 1, "maxLength": 1000, "description": "Text on line whose first occurrence is the target; needs line."}
      },
      "required": ["path"],
      "additionalProperties": false
    }`

const symbolKindEnum = `"file", "module", "namespace", "package", "class", "method", "property", "field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key", "null", "enummember", "struct", "event", "operator", "typeparameter"`

const firstMatchSchema = `"firstMatch": {"type": "boolean", "description": "When the symbol matches several, take the first in the file instead of listing them."}`

const limitSchema = `"limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "At most this many results (default 100, at most 500); the answer says when more were found."}`

const codeSymbolsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "A file: its outline (without query). With query, only the language server of this file's language searches, in this file's project; leave path out to search every language and project of the workspace. Required without query."},
    "query": {"type": "string", "minLength": 1, "maxLength": 1000, "description": "A name to search for (the servers' fuzzy match; exact names are listed first). Without path, the servers of every language in the workspace are asked and the answer says which were searched and which were not."},
    ` + limitSchema + `
  },
  "additionalProperties": false
}`

const codeNavigateSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "kind": {"type": "string", "enum": ["definition", "typeDefinition", "declaration", "implementation", "references"], "description": "What to find."},
    "context": {"type": "integer", "minimum": 0, "maximum": 3, "description": "Lines of source around each result's line (default 0: the line alone)."},
    "includeBody": {"type": "boolean", "description": "With definition and the like: each result's whole symbol (at most 200 lines), to read it in one step."},
    ` + limitSchema + `,
    ` + firstMatchSchema + `
  },
  "required": ["target", "kind"],
  "additionalProperties": false
}`

const codeHoverSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    ` + firstMatchSchema + `
  },
  "required": ["target"],
  "additionalProperties": false
}`

const codeHierarchySchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "kind": {"type": "string", "enum": ["callers", "callees", "supertypes", "subtypes"], "description": "Who calls the target, what it calls, or its type's parents or children."},
    "depth": {"type": "integer", "minimum": 1, "maximum": 4, "description": "Levels to follow (default 1)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "At most this many nodes (default 100)."},
    ` + firstMatchSchema + `
  },
  "required": ["target", "kind"],
  "additionalProperties": false
}`

const codeInlayHintsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "range": {
      "type": "object",
      "properties": {
        "startLine": {"type": "integer", "minimum": 1, "maximum": 2147483647},
        "endLine": {"type": "integer", "minimum": 1, "maximum": 2147483647}
      },
      "required": ["startLine", "endLine"],
      "additionalProperties": false,
      "description": "One-based, inclusive lines (default: the whole file)."
    },
    ` + limitSchema + `
  },
  "required": ["path"],
  "additionalProperties": false
}`

const codeDiagnosticsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "A file: its problems as the language server sees its current content. Without path: the workspace (see activateWorkspace)."},
    "severity": {"type": "string", "enum": ["error", "warning", "information", "hint"], "description": "The least severe problems to list (default: all)."},
    ` + limitSchema + `,
    "activateWorkspace": {"type": "boolean", "description": "Without path: also open and check source files the servers have not opened (most recently changed first), not only the ones they hold open."},
    "activationLimit": {"type": "integer", "minimum": 1, "maximum": 200, "description": "With activateWorkspace: at most this many files are opened (default 20)."}
  },
  "additionalProperties": false
}`

// observationPolicy is stated in the write and edit descriptions (seed
// 002: the prose pins the policy).
const observationPolicy = "Updating an existing file requires that this session has read it (any read of it, even a window, counts) or written it before, and that it has not changed since; " +
	"otherwise the call fails with FS_NOT_OBSERVED (read it first) or FS_STALE (it changed: read it again) and nothing is written. Creating a new file needs no read."

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "offset": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "The first line to return, one-based (default 1)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "At most this many lines (default 2000)."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "content": {"type": "string", "description": "The whole new UTF-8 content of the file."}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "old_string": {"type": "string", "minLength": 1, "description": "The exact text to replace, as the file has it (line breaks as \\n); it must occur exactly once unless replace_all."},
    "new_string": {"type": "string", "description": "The replacement text; empty deletes old_string."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence (default false)."}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

// approvalConvention is stated in every mutating refactor tool's
// description.
const approvalConvention = "By default the first call only previews: it answers with a unified diff and a previewId and changes nothing; " +
	"call again with the same arguments plus that previewId to apply it. If a file changed in between, the answer is LSP_CONFLICT with a fresh preview. " +
	"The answer of an applied change lists the files changed and the problems the change introduced or resolved."

const previewIDSchema = `"previewId": {"type": "string", "minLength": 1, "maxLength": 200, "description": "The previewId of this call's preview, to apply it."}`

const codeRenameSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "newName": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "The new name."},
    ` + previewIDSchema + `
  },
  "required": ["target", "newName"],
  "additionalProperties": false
}`

const codeRenameFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file to rename or move, relative to the workspace root or absolute inside it."},
    "newPath": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "Its new path (missing directories are made); it must not exist yet."},
    ` + previewIDSchema + `
  },
  "required": ["path", "newPath"],
  "additionalProperties": false
}`

const codeFormatSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "range": {
      "type": "object",
      "properties": {
        "startLine": {"type": "integer", "minimum": 1, "maximum": 2147483647},
        "endLine": {"type": "integer", "minimum": 1, "maximum": 2147483647}
      },
      "required": ["startLine", "endLine"],
      "additionalProperties": false,
      "description": "One-based, inclusive lines to format (default: the whole file)."
    },
    ` + previewIDSchema + `
  },
  "required": ["path"],
  "additionalProperties": false
}`

const codeInsertSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    "position": {"type": "string", "enum": ["before", "after", "start", "end"], "description": "before: new lines above the symbol (or line); after: new lines below it; start/end: exactly at the symbol's start or end (a line's first non-blank character or end)."},
    "text": {"type": "string", "description": "The text to insert (before/after: whole lines; a final line break is added)."},
    ` + previewIDSchema + `
  },
  "required": ["target", "position", "text"],
  "additionalProperties": false
}`

const replaceFields = `"text": {"type": "string", "description": "The replacement: for a symbol its whole declaration, for lines the whole lines."},
    "endLine": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "Replace whole lines from the target's first line to this one-based line (inclusive) instead of the symbol."}`

const codeReplaceSchema = `{
  "type": "object",
  "properties": {
    "target": ` + targetSchema + `,
    ` + replaceFields + `,
    ` + previewIDSchema + `
  },
  "required": ["target", "text"],
  "additionalProperties": false
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
        "required": ["target", "text"],
        "additionalProperties": false
      }
    },
    ` + previewIDSchema + `
  },
  "required": ["edits"],
  "additionalProperties": false
}`

const codeActionsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The file, relative to the workspace root or absolute inside it."},
    "line": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "The one-based line the actions are for (with endLine, the first of the lines)."},
    "endLine": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "The last line, one-based (default: line)."},
    "only": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "Only actions of this kind or its subkinds: quickfix, refactor, refactor.extract, source.organizeImports, …"},
    "apply": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "The actionId of a listed action (or its exact, unique title) to apply."},
    ` + previewIDSchema + `
  },
  "required": ["path", "line"],
  "additionalProperties": false
}`

// refactorTools is the refactor toolset, in listing order.
var refactorTools = []CodeTool{
	{
		Name: ToolCodeRename, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeRenameSchema),
		Description: "Rename a symbol everywhere the language server knows it is used, across files (the declaration, every reference, and for some servers file names). " +
			"The server refuses what cannot be renamed (a keyword, a name from a library) and the answer says why. " + approvalConvention + "\n" + changeTargetConvention + ".\n" +
			`Example: {"target":{"path":"shape.go","symbol":"Describe"},"newName":"Summary"}.`,
	},
	{
		Name: ToolCodeRenameFile, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeRenameFileSchema),
		Description: "Rename or move a source file, and update the imports that name it where the language server can (TypeScript/JavaScript servers do: workspace/willRenameFiles); " +
			"the answer says when the server updates nothing. " + approvalConvention + " " +
			`Example: {"path":"src/shape.ts","newPath":"src/geometry/shape.ts"}.`,
	},
	{
		Name: ToolCodeInsert, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeInsertSchema),
		Description: "Insert text next to a symbol or line found by name, without matching file text: a new method after a type's last method, an import before the first declaration, a statement at the start of a function. " +
			approvalConvention + "\n" + changeTargetConvention + ".\n" +
			`Example: {"target":{"path":"shape.go","symbol":"Describe"},"position":"after","text":"\n// Name returns s's type name.\nfunc Name(s Shape) string { return fmt.Sprintf(\"%T\", s) }"}.`,
	},
	{
		Name: ToolCodeReplace, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeReplaceSchema),
		Description: "Replace a symbol's whole declaration (found by name), or whole lines from a target to endLine, with new text. " +
			approvalConvention + "\n" + changeTargetConvention + ".\n" +
			`Example: {"target":{"path":"shape.go","symbol":"TotalArea"},"text":"func TotalArea(all []Shape) float64 {\n\treturn 0\n}"}.`,
	},
	{
		Name: ToolCodeReplaceBatch, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeReplaceBatchSchema),
		Description: "Several code_replace edits as one change: every target is resolved first, overlapping edits are refused, and all files change together or none does. " +
			approvalConvention,
	},
	{
		Name: ToolCodeActions, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeActionsSchema),
		Description: "List the language server's quick fixes and refactorings for some lines (fixes for the problems there, organize imports, extract, …), each with an actionId; " +
			"call again with apply set to an actionId (or the exact title) to apply one. " + approvalConvention + " " +
			`Examples: {"path":"main.go","line":12}; {"path":"main.go","line":1,"only":"source.organizeImports"}; {"path":"main.go","line":12,"apply":"a-3f2c…"}.`,
	},
	{
		Name: ToolCodeFormat, Toolset: ToolsetRefactor, InputSchema: RawJSON(codeFormatSchema),
		Description: "Format a file (or a range of its lines) with the language's formatter, as an editor's Format Document does. " + approvalConvention + " " +
			`Example: {"path":"src/main.ts"}.`,
	},
}

// fsTools is the fs toolset, in listing order.
var fsTools = []CodeTool{
	{
		Name: ToolRead, Toolset: ToolsetFS, ReadOnly: true, InputSchema: RawJSON(readSchema),
		Description: "Read a UTF-8 text file: its lines numbered from 1, a window of them with offset and limit, and a footer saying how many lines the file has and how to read on. " +
			"Reading a file (any window of it) lets this session write or edit it afterwards.",
	},
	{
		Name: ToolWrite, Toolset: ToolsetFS, InputSchema: RawJSON(writeSchema),
		Description: "Create a UTF-8 text file, or replace an existing file's whole content. " + observationPolicy + " " +
			"The write is atomic (the old content stays if it fails) and keeps the file's permissions. " +
			"The answer lists the problems the language server reports that the write introduced or resolved.",
	},
	{
		Name: ToolEdit, Toolset: ToolsetFS, InputSchema: RawJSON(editSchema),
		Description: "Replace exact text in an existing UTF-8 text file: old_string must occur exactly once (add surrounding lines to make it unique) unless replace_all is true; the file keeps its line endings. " +
			observationPolicy + " " +
			"The answer lists the problems the language server reports that the edit introduced or resolved, so you can fix what you broke.",
	},
}

// codeTools is the code toolset, in listing order.
var codeTools = []CodeTool{
	{
		Name: ToolCodeSymbols, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeSymbolsSchema),
		Description: "List the symbols of a file as an outline (name, kind, lines; nested members indented), " +
			"or search the whole workspace for symbols by name with query: every language's server is asked, exact names come first, and the answer says which languages were searched and which could not be (then it is marked incomplete). " +
			"Use it as a table of contents before reading a file, or to find where a type or function lives when you know (part of) its name but not the file. " +
			`Examples: {"path":"geom/geom.go"}; {"query":"Area"} (every language); {"path":"geom/geom.go","query":"Area"} (only the server and project of path).`,
	},
	{
		Name: ToolCodeNavigate, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeNavigateSchema),
		Description: "Find where a symbol is defined, its type's definition, its declaration, the implementations of an interface or abstract member, or every reference to it. " +
			"Each result is path:line:column with its source line (context widens it; includeBody gives a definition's whole body), grouped by file, so you rarely need to read the file afterwards. " +
			"The answer's first line echoes what the target resolved to: check it.\n" + targetConvention + ".\n" +
			`Examples: {"target":{"path":"geom/geom.go","symbol":"Helper"},"kind":"references","context":1}; {"target":{"path":"geom/geom.go","symbol":"Shape.Area"},"kind":"implementation"}; {"target":{"path":"main.go","line":14,"matchText":"Describe"},"kind":"definition","includeBody":true}.`,
	},
	{
		Name: ToolCodeHover, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeHoverSchema),
		Description: "Show a symbol's type or signature and the first paragraph of its documentation; inside a call's parentheses, also the called function's signature with the current parameter in **bold**. " +
			"Use it to learn an inferred type or a function's parameters without reading its source.\n" + targetConvention + ".\n" +
			`Example: {"target":{"path":"main.py","line":9,"matchText":"area"}}.`,
	},
	{
		Name: ToolCodeHierarchy, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeHierarchySchema),
		Description: "Follow the call graph (callers: who calls the target; callees: what it calls) or the type hierarchy (supertypes, subtypes) up to 4 levels deep. " +
			"Nodes appear once; a recursive call is marked as a cycle instead of being followed again; call sites are listed as path:line:column. " +
			"Use it to judge the impact of a change or to trace how a value reaches a function.\n" + targetConvention + ".\n" +
			`Example: {"target":{"path":"geom/geom.go","symbol":"total"},"kind":"callers","depth":2}.`,
	},
	{
		Name: ToolCodeDiagnostics, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeDiagnosticsSchema),
		Description: "List the problems (errors, warnings) the language server reports for a file's current content, errors first, as path:line:column with the message. " +
			"The answer says whether the server reported on this exact content (fresh) or not yet (stale). " +
			"After edit and write you get what the change introduced and resolved without asking; use this to check a file you did not just change. " +
			"Without path it reports on the workspace: the files the servers hold open, and with activateWorkspace also up to activationLimit more (the answer says which files it covers, so an empty list is never a claim about files it did not check). " +
			`Examples: {"path":"src/main.ts","severity":"error"}; {"activateWorkspace":true,"severity":"error"}.`,
	},
	{
		Name: ToolCodeInlayHints, Toolset: ToolsetCode, ReadOnly: true, InputSchema: RawJSON(codeInlayHintsSchema),
		Description: "Show the types and parameter names an editor would display inline in a file (inferred variable types, parameter names at call sites), one per line as line:column. " +
			"Most useful in Python, JavaScript and TypeScript, where types are inferred and invisible in the source. " +
			`Example: {"path":"src/main.ts","range":{"startLine":1,"endLine":40}}.`,
	},
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
		out = append(out, CodeTool{Name: ToolName, Toolset: ToolsetLSP, ReadOnly: true, Description: ToolDescription, InputSchema: RawJSON(toolInputSchema)})
	}
	for _, list := range [][]CodeTool{codeTools, refactorTools, fsTools} {
		for _, t := range list {
			if all || want[t.Toolset] {
				out = append(out, t)
			}
		}
	}
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
