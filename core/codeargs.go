package core

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Validating a model's call of a catalog tool (tooldefs.go): parseCodeArgs
// checks the arguments against the tool's schema rules, reports every
// problem at once (with the target convention when a target is involved,
// so a model corrects its call in one step), and returns the call in one
// normalized shape whatever the tool, with defaults filled in.

// Navigation kinds of code_navigate and hierarchy kinds of code_hierarchy.
var (
	NavigateKinds  = []string{"definition", "typeDefinition", "declaration", "implementation", "references"}
	HierarchyKinds = []string{"callers", "callees", "supertypes", "subtypes"}
)

// Snippet and result bounds shared by the catalog's tools.
const (
	DefaultLimit  = 100
	MaxLimit      = 500
	MaxContext    = 3
	MaxDepth      = 4
	defaultDepth  = 1
	maxInlayLines = 1 << 20
)

// LineRange is a one-based, inclusive range of lines.
type LineRange struct {
	StartLine int64 `json:"startLine"`
	EndLine   int64 `json:"endLine"`
}

func (r LineRange) appendJSON(b []byte) []byte {
	b = append(b, `{"startLine":`...)
	b = appendInt(b, r.StartLine)
	b = append(b, `,"endLine":`...)
	b = appendInt(b, r.EndLine)
	return append(b, '}')
}

// CodeCall is a validated catalog tool call. Path is the file the call is
// about (the target's path for targeted tools): the host routes by it.
type CodeCall struct {
	Tool        string
	Toolset     string
	Path        string
	Target      *Target
	FirstMatch  bool
	Kind        string // code_navigate's and code_hierarchy's kind
	Context     int
	IncludeBody bool
	Limit       int
	Depth       int
	Query       string
	// Cursor names the next page of an earlier answer that was cut at its
	// limit (code_navigate, code_symbols searches, code_diagnostics,
	// code_hierarchy); the host holds the rest of the question.
	Cursor string
	// Dependencies: code_symbols' search includes symbols outside the
	// workspace (dependencies, the standard library).
	Dependencies bool
	Range        *LineRange
	// code_diagnostics: Path "" is the workspace.
	Severity          string
	ActivateWorkspace bool
	ActivationLimit   int
	// refactor: rename's new name; the preview a call applies; insert's
	// position and text, replace's text and endLine; a batch's edits.
	NewName   string
	NewPath   string // code_rename_file
	PreviewID string
	Position  string
	Text      *string
	EndLine   int64
	Edits     []BatchEdit
	// code_actions: the kind asked for, the action to apply.
	Only  string
	Apply string
	// fs: read's offset (one-based), write's content, edit's strings.
	Offset     int64
	Content    *string
	OldString  string
	NewString  string
	ReplaceAll bool
}

func (c CodeCall) appendJSON(b []byte) []byte {
	b = append(b, `{"tool":`...)
	b = appendString(b, c.Tool)
	b = append(b, `,"toolset":`...)
	b = appendString(b, c.Toolset)
	b = append(b, `,"path":`...)
	b = appendString(b, c.Path)
	if c.Target != nil {
		b = append(b, `,"target":`...)
		b = c.Target.appendJSON(b)
		b = append(b, `,"firstMatch":`...)
		b = appendBool(b, c.FirstMatch)
	}
	if c.Kind != "" {
		b = append(b, `,"kind":`...)
		b = appendString(b, c.Kind)
	}
	if c.Tool == ToolCodeNavigate {
		b = append(b, `,"context":`...)
		b = appendInt(b, int64(c.Context))
		b = append(b, `,"includeBody":`...)
		b = appendBool(b, c.IncludeBody)
	}
	if c.Tool == ToolCodeHierarchy && c.Depth > 0 { // 0: a next page, whose question the host holds
		b = append(b, `,"depth":`...)
		b = appendInt(b, int64(c.Depth))
	}
	if c.Limit > 0 {
		b = append(b, `,"limit":`...)
		b = appendInt(b, int64(c.Limit))
	}
	if c.Query != "" {
		b = append(b, `,"query":`...)
		b = appendString(b, c.Query)
	}
	if c.Cursor != "" {
		b = append(b, `,"cursor":`...)
		b = appendString(b, c.Cursor)
	}
	if c.Dependencies {
		b = append(b, `,"dependencies":true`...)
	}
	if c.Range != nil {
		b = append(b, `,"range":`...)
		b = c.Range.appendJSON(b)
	}
	if c.Position != "" {
		b = append(b, `,"position":`...)
		b = appendString(b, c.Position)
	}
	if c.Text != nil {
		b = append(b, `,"text":`...)
		b = appendString(b, *c.Text)
	}
	if c.EndLine != 0 {
		b = append(b, `,"endLine":`...)
		b = appendInt(b, c.EndLine)
	}
	if c.Tool == ToolCodeReplaceBatch {
		b = append(b, `,"edits":`...)
		b = appendArray(b, c.Edits)
	}
	for _, f := range []struct{ name, v string }{{"only", c.Only}, {"apply", c.Apply}} {
		if f.v != "" {
			b = append(b, `,"`+f.name+`":`...)
			b = appendString(b, f.v)
		}
	}
	if c.NewPath != "" {
		b = append(b, `,"newPath":`...)
		b = appendString(b, c.NewPath)
	}
	if c.NewName != "" {
		b = append(b, `,"newName":`...)
		b = appendString(b, c.NewName)
	}
	if c.PreviewID != "" {
		b = append(b, `,"previewId":`...)
		b = appendString(b, c.PreviewID)
	}
	if c.Severity != "" {
		b = append(b, `,"severity":`...)
		b = appendString(b, c.Severity)
	}
	if c.Tool == ToolCodeDiagnostics && c.Path == "" {
		b = append(b, `,"activateWorkspace":`...)
		b = appendBool(b, c.ActivateWorkspace)
		b = append(b, `,"activationLimit":`...)
		b = appendInt(b, int64(c.ActivationLimit))
	}
	switch c.Tool {
	case ToolRead:
		b = append(b, `,"offset":`...)
		b = appendInt(b, c.Offset)
	case ToolWrite:
		b = append(b, `,"content":`...)
		b = appendString(b, *c.Content)
	case ToolEdit:
		b = append(b, `,"oldString":`...)
		b = appendString(b, c.OldString)
		b = append(b, `,"newString":`...)
		b = appendString(b, c.NewString)
		b = append(b, `,"replaceAll":`...)
		b = appendBool(b, c.ReplaceAll)
	}
	return append(b, '}')
}

func (t Target) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, t.Path)
	for _, f := range []struct{ name, v string }{{"symbol", t.Symbol}, {"kind", t.Kind}, {"matchText", t.MatchText}} {
		if f.v != "" {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = appendString(b, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"line", t.Line}, {"column", t.Column}} {
		if f.v != 0 {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = appendInt(b, f.v)
		}
	}
	return append(b, '}')
}

// codeArgFields lists each tool's argument names.
var codeArgFields = map[string][]string{
	ToolCodeSymbols:      {"path", "query", "dependencies", "limit", "cursor"},
	ToolCodeNavigate:     {"target", "kind", "context", "includeBody", "limit", "firstMatch", "cursor"},
	ToolCodeHover:        {"target", "firstMatch"},
	ToolCodeHierarchy:    {"target", "kind", "depth", "limit", "firstMatch", "cursor"},
	ToolCodeInlayHints:   {"path", "range", "limit", "cursor"},
	ToolCodeDiagnostics:  {"path", "severity", "limit", "activateWorkspace", "activationLimit", "cursor"},
	ToolRead:             {"file_path", "offset", "limit"},
	ToolWrite:            {"file_path", "content"},
	ToolEdit:             {"file_path", "old_string", "new_string", "replace_all"},
	ToolCodeRename:       {"target", "newName", "previewId"},
	ToolCodeFormat:       {"path", "range", "previewId"},
	ToolCodeRenameFile:   {"path", "newPath", "previewId"},
	ToolCodeInsert:       {"target", "position", "text", "previewId"},
	ToolCodeReplace:      {"target", "text", "endLine", "previewId"},
	ToolCodeReplaceBatch: {"edits", "previewId"},
	ToolCodeDelete:       {"target", "previewId"},
	ToolCodeActions:      {"path", "line", "endLine", "only", "apply", "previewId"},
}

// maxBatchEdits bounds code_replace_batch.
const maxBatchEdits = 100

// Maximum read window and content sizes.
const (
	defaultReadLimit       = 2000
	maxReadLimit           = 10000
	defaultActivationLimit = 20
)

// MaxActivationLimit is the most files one code_diagnostics call opens
// (activationLimit's bound).
const MaxActivationLimit = 200

// ParseCodeArgs validates a catalog tool's arguments.
func ParseCodeArgs(tool string, args gjson.Result) (CodeCall, *Error) {
	def, ok := codeToolByName(tool)
	if !ok {
		names := []string{ToolName}
		for _, list := range [][]CodeTool{codeTools, refactorTools, fsTools} {
			for _, t := range list {
				names = append(names, t.Name)
			}
		}
		msg := "unknown tool " + strconv.Quote(clip(tool, 60)) + "; the catalog has " + strings.Join(names, ", ")
		if tool == ToolName {
			msg = "lsp is not a catalog tool: validate its arguments with parseToolArgs"
		} else if near := closest(tool, names); near != "" {
			msg += " (did you mean " + strconv.Quote(near) + "?)"
		}
		return CodeCall{}, Errorf(CodeInvalidArgument, "%s", msg)
	}
	c := CodeCall{Tool: tool, Toolset: def.Toolset}
	if !args.IsObject() {
		return c, codeArgError(tool, []string{"the arguments must be a JSON object, got " + describe(args)})
	}
	// An overlong string ends validation at once (arglimits.go): nothing
	// below copies or compares a value that is refused anyway.
	if over := overlongArgs(args); len(over) > 0 {
		return c, codeArgError(tool, over)
	}
	if cur := get(args, "cursor"); cur.Exists() && onlyCursor(tool, args) {
		return cursorCall(c, args, cur)
	}
	var problems []string
	add := func(p string) { problems = append(problems, p) }
	fields := codeArgFields[tool]
	args.ForEach(func(k, _ gjson.Result) bool {
		for _, f := range fields {
			if f == k.Str {
				return true
			}
		}
		msg := "unknown argument " + strconv.Quote(clip(k.Str, 60))
		if near := closest(k.Str, fields); near != "" {
			msg += " (did you mean " + strconv.Quote(near) + "?)"
		} else {
			sorted := append([]string(nil), fields...)
			sort.Strings(sorted)
			msg += " (" + tool + " takes " + strings.Join(sorted, ", ") + ")"
		}
		add(msg)
		return true
	})

	targeted := tool == ToolCodeNavigate || tool == ToolCodeHover || tool == ToolCodeHierarchy || tool == ToolCodeRename ||
		tool == ToolCodeInsert || tool == ToolCodeReplace || tool == ToolCodeDelete
	if targeted {
		tv := get(args, "target")
		if !tv.Exists() {
			add("target is required")
		} else if tv.IsObject() && unknownTargetField(tv) != "" {
			add("target has an unknown field " + strconv.Quote(clip(unknownTargetField(tv), 60)) + " (a target takes path, symbol, kind, line, column, matchText)")
		} else if t, err := decodeTarget(tv); err != nil {
			add(strings.TrimSuffix(err.Message, "."))
		} else {
			if t.Path == "" {
				add("target.path must be a non-empty path")
			}
			if t.Kind != "" {
				if _, ok := ParseSymbolKind(t.Kind); !ok {
					add("target.kind must be a symbol kind (" + strings.Join(SymbolKindNames(), ", ") + "), got " + strconv.Quote(clip(t.Kind, 40)))
				}
			}
			if (t.Column != 0 || t.MatchText != "") && t.Line == 0 {
				add("target.column and target.matchText need target.line")
			}
			if t.Column != 0 && t.MatchText != "" {
				add("give target.column or target.matchText, not both")
			}
			if t.Symbol == "" && t.Line == 0 {
				add("target needs symbol or line")
			}
			c.Target = &t
			c.Path = t.Path
		}
		fm := get(args, "firstMatch")
		if (tool == ToolCodeRename || tool == ToolCodeInsert || tool == ToolCodeReplace || tool == ToolCodeDelete) && fm.Exists() {
			add("firstMatch is for reads: a change needs an exact target (kind or Container.member)")
		}
		switch fm.Type {
		case gjson.True:
			c.FirstMatch = true
		case gjson.False, gjson.Null:
		default:
			if fm.Exists() {
				add("firstMatch must be a boolean, got " + describe(fm))
			}
		}
	} else if tool == ToolCodeReplaceBatch {
		c.Edits = batchEdits(args, add)
		if len(c.Edits) > 0 {
			c.Path = c.Edits[0].Target.Path
		}
	} else {
		name := "path"
		if def.Toolset == ToolsetFS {
			name = "file_path"
		}
		p := get(args, name)
		switch {
		case !p.Exists() && tool == ToolCodeDiagnostics: // the workspace
		case !p.Exists() && tool == ToolCodeSymbols && get(args, "query").Exists() && get(args, "query").Type != gjson.Null:
			// A workspace-wide search of every language (query is checked below).
		case !p.Exists() && tool == ToolCodeSymbols:
			add("path is required for a file's outline; to search the whole workspace by name, give query (path is then optional)")
		case !p.Exists():
			add(name + " is required")
		case p.Type != gjson.String || strings.TrimSpace(p.Str) == "":
			add(name + " must be a non-empty string, got " + describe(p))
		default:
			c.Path = p.Str
		}
	}

	switch tool {
	case ToolCodeNavigate:
		c.Cursor = cursorArg(args, add)
		c.Kind = enumArg(args, "kind", NavigateKinds, add)
		c.Context = int(intArg(args, "context", 0, MaxContext, 0, add))
		if ib := get(args, "includeBody"); ib.Exists() && ib.Type != gjson.Null {
			if ib.Type != gjson.True && ib.Type != gjson.False {
				add("includeBody must be a boolean, got " + describe(ib))
			}
			c.IncludeBody = ib.Type == gjson.True
		}
		c.Limit = int(intArg(args, "limit", 1, MaxLimit, DefaultLimit, add))
	case ToolCodeHierarchy:
		c.Cursor = cursorArg(args, add)
		c.Kind = enumArg(args, "kind", HierarchyKinds, add)
		c.Depth = int(intArg(args, "depth", 1, MaxDepth, defaultDepth, add))
		c.Limit = int(intArg(args, "limit", 1, MaxLimit, DefaultLimit, add))
	case ToolCodeSymbols:
		if c.Cursor = cursorArg(args, add); c.Cursor != "" && c.Path != "" && !get(args, "query").Exists() {
			add("cursor pages a search (query): an outline comes whole")
		}
		if q := get(args, "query"); q.Exists() && q.Type != gjson.Null {
			switch {
			case q.Type != gjson.String || strings.TrimSpace(q.Str) == "":
				add("query must be a non-empty string, got " + describe(q))
			default:
				c.Query = q.Str
			}
		}
		if d := get(args, "dependencies"); d.Exists() && d.Type != gjson.Null {
			switch {
			case d.Type != gjson.True && d.Type != gjson.False:
				add("dependencies must be a boolean, got " + describe(d))
			case c.Query == "":
				add("dependencies is for a search (query): an outline has no dependencies; leave it out")
			}
			c.Dependencies = d.Type == gjson.True
		}
		c.Limit = int(intArg(args, "limit", 1, MaxLimit, DefaultLimit, add))
	case ToolCodeDiagnostics:
		c.Cursor = cursorArg(args, add)
		if v := get(args, "severity"); v.Exists() && v.Type != gjson.Null {
			c.Severity = enumArg(args, "severity", []string{"error", "warning", "information", "hint"}, add)
		}
		c.Limit = int(intArg(args, "limit", 1, MaxLimit, DefaultLimit, add))
		if aw := get(args, "activateWorkspace"); aw.Exists() && aw.Type != gjson.Null {
			if aw.Type != gjson.True && aw.Type != gjson.False {
				add("activateWorkspace must be a boolean, got " + describe(aw))
			}
			c.ActivateWorkspace = aw.Type == gjson.True
		}
		c.ActivationLimit = int(intArg(args, "activationLimit", 1, MaxActivationLimit, defaultActivationLimit, add))
		if c.Path != "" && (c.ActivateWorkspace || get(args, "activationLimit").Exists()) {
			add("activateWorkspace and activationLimit are for the workspace: leave out path, or leave them out")
		}
	case ToolRead:
		c.Offset = intArg(args, "offset", 1, maxOneBased, 1, add)
		c.Limit = int(intArg(args, "limit", 1, maxReadLimit, defaultReadLimit, add))
	case ToolWrite:
		v := get(args, "content")
		switch {
		case !v.Exists():
			add("content is required: the file's whole new text (an empty string empties the file)")
		case v.Type != gjson.String:
			add("content must be a string, got " + describe(v))
		default:
			c.Content = &v.Str
		}
	case ToolEdit:
		for _, f := range []struct {
			name string
			dst  *string
		}{{"old_string", &c.OldString}, {"new_string", &c.NewString}} {
			v := get(args, f.name)
			switch {
			case !v.Exists():
				add(f.name + " is required")
			case v.Type != gjson.String:
				add(f.name + " must be a string, got " + describe(v))
			default:
				*f.dst = v.Str
			}
		}
		if get(args, "old_string").Type == gjson.String && c.OldString == "" {
			add("old_string must not be empty: give the exact text to replace (to replace a whole file, use write)")
		}
		if ra := get(args, "replace_all"); ra.Exists() && ra.Type != gjson.Null {
			if ra.Type != gjson.True && ra.Type != gjson.False {
				add("replace_all must be a boolean, got " + describe(ra))
			}
			c.ReplaceAll = ra.Type == gjson.True
		}
	case ToolCodeRename:
		v := get(args, "newName")
		switch {
		case !v.Exists():
			add("newName is required")
		case v.Type != gjson.String || strings.TrimSpace(v.Str) == "":
			add("newName must be a non-empty string, got " + describe(v))
		default:
			c.NewName = v.Str
		}
		c.PreviewID = previewArg(args, add)
	case ToolCodeRenameFile:
		v := get(args, "newPath")
		switch {
		case !v.Exists():
			add("newPath is required")
		case v.Type != gjson.String || strings.TrimSpace(v.Str) == "":
			add("newPath must be a non-empty string, got " + describe(v))
		default:
			c.NewPath = v.Str
		}
		c.PreviewID = previewArg(args, add)
	case ToolCodeInsert:
		c.Position = enumArg(args, "position", []string{"before", "after", "start", "end"}, add)
		c.Text = stringArg(args, "text", add)
		c.PreviewID = previewArg(args, add)
	case ToolCodeReplace:
		c.Text = stringArg(args, "text", add)
		if e := get(args, "endLine"); e.Exists() && e.Type != gjson.Null {
			c.EndLine = intArg(args, "endLine", 1, maxOneBased, 0, add)
		}
		c.PreviewID = previewArg(args, add)
	case ToolCodeReplaceBatch, ToolCodeDelete:
		c.PreviewID = previewArg(args, add)
	case ToolCodeActions:
		start := intArg(args, "line", 1, maxOneBased, 0, add)
		if !get(args, "line").Exists() {
			add("line is required: the one-based line the actions are for")
		}
		end := intArg(args, "endLine", 1, maxOneBased, start, add)
		if end < start {
			add("endLine (" + strconv.FormatInt(end, 10) + ") is before line (" + strconv.FormatInt(start, 10) + ")")
		}
		c.Range = &LineRange{StartLine: start, EndLine: end}
		for _, f := range []struct {
			name string
			dst  *string
		}{{"only", &c.Only}, {"apply", &c.Apply}} {
			if v := get(args, f.name); v.Exists() && v.Type != gjson.Null {
				if v.Type != gjson.String || v.Str == "" {
					add(f.name + " must be a non-empty string, got " + describe(v))
				} else {
					*f.dst = v.Str
				}
			}
		}
		c.PreviewID = previewArg(args, add)
	case ToolCodeFormat:
		if r := get(args, "range"); r.Exists() && r.Type != gjson.Null {
			lr, problem := decodeLineRange(r)
			if problem != "" {
				add(problem)
			} else {
				c.Range = &lr
			}
		}
		c.PreviewID = previewArg(args, add)
	case ToolCodeInlayHints:
		c.Cursor = cursorArg(args, add)
		if r := get(args, "range"); r.Exists() && r.Type != gjson.Null {
			lr, problem := decodeLineRange(r)
			if problem != "" {
				add(problem)
			} else {
				c.Range = &lr
			}
		}
		c.Limit = int(intArg(args, "limit", 1, MaxLimit, DefaultLimit, add))
	}
	if len(problems) > 0 {
		return c, codeArgError(tool, problems)
	}
	return c, nil
}

func decodeLineRange(r gjson.Result) (LineRange, string) {
	if !r.IsObject() {
		return LineRange{}, "range must be {startLine, endLine} (one-based, inclusive), got " + describe(r)
	}
	var lr LineRange
	ok := true
	r.ForEach(func(k, _ gjson.Result) bool {
		ok = k.Str == "startLine" || k.Str == "endLine"
		return ok
	})
	if !ok {
		return lr, "range takes only startLine and endLine (one-based, inclusive)"
	}
	s, ok1 := integer(get(r, "startLine"), 1, maxOneBased)
	e, ok2 := integer(get(r, "endLine"), 1, maxOneBased)
	switch {
	case !ok1 || !ok2:
		return lr, "range.startLine and range.endLine must be positive integers (one-based lines), got " + describe(r)
	case e < s:
		return lr, "range.endLine (" + strconv.FormatInt(e, 10) + ") is before range.startLine (" + strconv.FormatInt(s, 10) + ")"
	case e-s >= maxInlayLines:
		return lr, "range spans more than " + strconv.Itoa(maxInlayLines) + " lines"
	}
	return LineRange{StartLine: s, EndLine: e}, ""
}

// enumArg reads a required string argument that must be one of values,
// suggesting the nearest on a near miss.
func enumArg(args gjson.Result, name string, values []string, add func(string)) string {
	v := get(args, name)
	if !v.Exists() || v.Type == gjson.Null {
		add(name + " is required: one of " + strings.Join(values, ", "))
		return ""
	}
	if v.Type == gjson.String {
		for _, x := range values {
			if x == v.Str {
				return x
			}
		}
		for _, x := range values { // case slips: "TypeDefinition"
			if strings.EqualFold(x, v.Str) {
				add(name + " must be written " + strconv.Quote(x) + ", got " + strconv.Quote(clip(v.Str, 40)))
				return ""
			}
		}
	}
	msg := name + " must be one of " + strings.Join(values, ", ") + ", got " + describe(v)
	if v.Type == gjson.String {
		if near := closest(v.Str, values); near != "" {
			msg = "did you mean " + strconv.Quote(near) + "? " + msg
		}
	}
	add(msg)
	return ""
}

// intArg reads an optional integer in [lo, hi], def when absent.
func intArg(args gjson.Result, name string, lo, hi, def int64, add func(string)) int64 {
	v := get(args, name)
	if !v.Exists() || v.Type == gjson.Null {
		return def
	}
	n, ok := integer(v, lo, hi)
	if !ok {
		add(name + " must be an integer from " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10) + ", got " + describe(v))
		return def
	}
	return n
}

func codeArgError(tool string, problems []string) *Error {
	msg := "invalid " + tool + " arguments: " + strings.Join(problems, "; ") + "."
	if tool == ToolRead || tool == ToolWrite || tool == ToolEdit {
		return &Error{Code: CodeFSInvalidArgument, Message: msg}
	}
	switch tool {
	case ToolCodeNavigate, ToolCodeHover, ToolCodeHierarchy:
		msg += " " + targetConvention + "."
	case ToolCodeRename, ToolCodeInsert, ToolCodeReplace, ToolCodeReplaceBatch, ToolCodeDelete:
		msg += " " + changeTargetConvention + "."
	}
	return &Error{Code: CodeInvalidArgument, Message: msg}
}

// parseCodeArgsCall: {name, arguments} → CodeCall.
func parseCodeArgsCall(in gjson.Result) (jsonAppender, *Error) {
	name := get(in, "name")
	if name.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "name must be the tool's name as a string, got %s", describe(name))
	}
	return wrap(ParseCodeArgs(name.Str, get(in, "arguments")))
}

// unknownTargetField names a target field that is not one of the six.
func unknownTargetField(t gjson.Result) string {
	bad := ""
	t.ForEach(func(k, _ gjson.Result) bool {
		switch k.Str {
		case "path", "symbol", "kind", "line", "column", "matchText":
			return true
		}
		bad = k.Str
		return false
	})
	return bad
}

// previewArg reads an optional previewId.
func previewArg(args gjson.Result, add func(string)) string {
	v := get(args, "previewId")
	if !v.Exists() || v.Type == gjson.Null {
		return ""
	}
	if v.Type != gjson.String || v.Str == "" || len(v.Str) > 200 {
		add("previewId must be the previewId string of this call's preview, got " + describe(v))
		return ""
	}
	return v.Str
}

// BatchEdit is one edit of code_replace_batch.
type BatchEdit struct {
	Target  Target
	Text    string
	EndLine int64
}

func (e BatchEdit) appendJSON(b []byte) []byte {
	b = append(b, `{"target":`...)
	b = e.Target.appendJSON(b)
	b = append(b, `,"text":`...)
	b = appendString(b, e.Text)
	if e.EndLine != 0 {
		b = append(b, `,"endLine":`...)
		b = appendInt(b, e.EndLine)
	}
	return append(b, '}')
}

// stringArg reads a required string argument.
func stringArg(args gjson.Result, name string, add func(string)) *string {
	v := get(args, name)
	switch {
	case !v.Exists():
		add(name + " is required")
	case v.Type != gjson.String:
		add(name + " must be a string, got " + describe(v))
	default:
		return &v.Str
	}
	return nil
}

// batchEdits reads code_replace_batch's edits: each {target, text,
// endLine?}, every problem named by its index.
func batchEdits(args gjson.Result, add func(string)) []BatchEdit {
	v := get(args, "edits")
	if !v.IsArray() || len(v.Array()) == 0 || len(v.Array()) > maxBatchEdits {
		add("edits must be an array of 1 to " + strconv.Itoa(maxBatchEdits) + " {target, text, endLine?}, got " + describe(v))
		return nil
	}
	var out []BatchEdit
	i := 0
	v.ForEach(func(_, e gjson.Result) bool {
		where := "edits[" + strconv.Itoa(i) + "]"
		i++
		if !e.IsObject() {
			add(where + " must be an object {target, text, endLine?}, got " + describe(e))
			return true
		}
		var be BatchEdit
		if bad := unknownFieldOf(e, "target", "text", "endLine"); bad != "" {
			add(where + " has an unknown field " + strconv.Quote(clip(bad, 40)))
		}
		tv := get(e, "target")
		t, err := decodeTarget(tv)
		switch {
		case tv.IsObject() && unknownTargetField(tv) == "firstMatch":
			add(where + ".target.firstMatch: firstMatch is for reads: a change needs an exact target (kind or Container.member)")
		case tv.IsObject() && unknownTargetField(tv) != "":
			add(where + ".target has an unknown field " + strconv.Quote(clip(unknownTargetField(tv), 60)) + " (a target takes path, symbol, kind, line, column, matchText)")
		case err != nil:
			add(where + "." + strings.TrimSuffix(err.Message, "."))
		case t.Path == "":
			add(where + ".target.path must be a non-empty path")
		case t.Symbol == "" && t.Line == 0:
			add(where + ".target needs symbol or line")
		}
		be.Target = t
		if txt := get(e, "text"); txt.Type == gjson.String {
			be.Text = txt.Str
		} else {
			add(where + ".text must be a string, got " + describe(txt))
		}
		if el := get(e, "endLine"); el.Exists() && el.Type != gjson.Null {
			n, ok := integer(el, 1, maxOneBased)
			if !ok {
				add(where + ".endLine must be a positive integer, got " + describe(el))
			}
			be.EndLine = n
		}
		out = append(out, be)
		return true
	})
	return out
}

// unknownFieldOf names a field of obj not among known.
func unknownFieldOf(obj gjson.Result, known ...string) string {
	bad := ""
	obj.ForEach(func(k, _ gjson.Result) bool {
		for _, f := range known {
			if k.Str == f {
				return true
			}
		}
		bad = k.Str
		return false
	})
	return bad
}

// cursorCall is a call that asks for the next page of an earlier answer:
// {"cursor": "c-…"} and nothing else, since the question is the earlier
// call's (the host holds it with the cursor).
func cursorCall(c CodeCall, args, cur gjson.Result) (CodeCall, *Error) {
	var problems []string
	if cur.Type != gjson.String || !strings.HasPrefix(cur.Str, "c-") {
		problems = append(problems, "cursor must be the \"cursor\" string of an earlier answer (c-…), got "+describe(cur))
	}
	args.ForEach(func(k, _ gjson.Result) bool {
		if k.Str != "cursor" {
			problems = append(problems, "give cursor alone: it continues the earlier call's question, so "+strconv.Quote(clip(k.Str, 60))+" cannot change it")
		}
		return true
	})
	if len(problems) > 0 {
		return c, codeArgError(c.Tool, problems)
	}
	c.Cursor = cur.Str
	return c, nil
}

// onlyCursor reports whether args ask for a next page by cursor alone:
// the question's own arguments are absent (code_navigate's and
// code_hierarchy's target and kind, code_symbols' path and query,
// code_inlay_hints' path).
func onlyCursor(tool string, args gjson.Result) bool {
	switch tool {
	case ToolCodeNavigate, ToolCodeHierarchy:
		return !get(args, "target").Exists() && !get(args, "kind").Exists()
	case ToolCodeSymbols:
		return !get(args, "path").Exists() && !get(args, "query").Exists()
	case ToolCodeInlayHints:
		return !get(args, "path").Exists()
	case ToolCodeDiagnostics: // no path is a question too: the workspace
		n := 0
		args.ForEach(func(_, _ gjson.Result) bool { n++; return true })
		return n == 1
	}
	return false
}

// cursorArg reads a cursor given with the question's own arguments (the
// host checks it is the question the cursor continues); "" when absent.
func cursorArg(args gjson.Result, add func(string)) string {
	cur := get(args, "cursor")
	if !cur.Exists() || cur.Type == gjson.Null {
		return ""
	}
	if cur.Type != gjson.String || !strings.HasPrefix(cur.Str, "c-") {
		add("cursor must be the \"cursor\" string of an earlier answer (c-…), got " + describe(cur))
		return ""
	}
	return cur.Str
}
