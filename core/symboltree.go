package core

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// codeSymbols: code_symbols' answer (§5.1), the file's outline or a
// workspace-wide symbol search, from the server's raw result.
//
// Input {mode: "document"|"workspace", result, workspaceUri, uri?, query?,
// scope?, limit?}. result is the server's textDocument/documentSymbol
// result (document mode; uri names the file) or its workspace/symbol
// result (workspace mode; query is echoed; scope says which server and
// project searched, for the wording of an empty answer: searchScope).
// limit (default 100 — also when 0 —, at most 500) counts symbols, nested
// ones included. Workspace mode with results instead of result merges
// several servers' answers (symbolsearch.go).
//
// Document mode answers a tree of {name, kind, container?, detail?, line,
// endLine, column, children?}: line and endLine are the one-based lines of
// the symbol's whole range, column the one-based UTF-16 column of its
// name (of the range's start when the name is on another line). A SymbolInformation list (flat, with containerName) becomes a tree
// where a container is found by name around the symbol, else stays flat
// with container set. Member names as gopls ("(*Circle).Area") and clangd
// ("Circle::area") spell them at the top level become the member and its
// container, as targets spell them (symbols.go). Siblings are in document
// order; the first limit symbols in that order (parents before children)
// are kept.
//
// Workspace mode answers a flat list of {name, kind, container?, path,
// line?, column?} in the server's order (servers rank matches); path is
// workspace-relative, absolute outside it, and line/column are absent for
// a WorkspaceSymbol whose location has no range; incomplete says when the
// server's answer reached its cap on matches (scope.cap).

// Bounds of code_symbols.
const (
	DefaultSymbolLimit  = 100
	MaxSymbolLimit      = 500
	maxSymbolDetailRune = 160 // a longer detail (a struct's whole type) is cut with "…"
	maxRenderedNameRune = 200
	maxContainerScan    = 64 // candidate containers examined per SymbolInformation
)

// symbolsLimitArg reads an optional limit argument: 1 to MaxSymbolLimit,
// DefaultSymbolLimit when absent, null or 0 (as SnippetOptions' Limit).
func symbolsLimitArg(in gjson.Result, what string) (int, *Error) {
	v := get(in, "limit")
	if !v.Exists() || v.Type == gjson.Null {
		return DefaultSymbolLimit, nil
	}
	n, ok := integer(v, 0, MaxSymbolLimit)
	if n == 0 && ok {
		return DefaultSymbolLimit, nil
	}
	if !ok {
		return 0, Errorf(CodeInvalidArgument, "limit must be an integer from 1 to %d (how many %s to return; default %d), got %s", MaxSymbolLimit, what, DefaultSymbolLimit, describe(v))
	}
	return int(n), nil
}

// catalogWorkspace reads workspaceUri as a file: URI and returns its path.
func catalogWorkspace(in gjson.Result) (string, *Error) {
	ws := get(in, "workspaceUri")
	if ws.Type == gjson.String {
		if p, ok := WorkspacePath(ws.Str); ok {
			return p, nil
		}
	}
	return "", Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %s", describe(ws))
}

// symbolNode is one symbol of a document outline.
type symbolNode struct {
	Name      string
	Kind      SymbolKind
	Container string
	Detail    string
	Range     Range
	Column    uint32 // the name's zero-based UTF-16 column
	Children  []*symbolNode

	info          bool   // read from a SymbolInformation
	containerName string // its containerName
	depth         int
}

func (n *symbolNode) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, n.Name)
	b = append(b, `,"kind":`...)
	b = appendString(b, n.Kind.String())
	if n.Container != "" {
		b = append(b, `,"container":`...)
		b = appendString(b, n.Container)
	}
	if n.Detail != "" {
		b = append(b, `,"detail":`...)
		b = appendString(b, n.Detail)
	}
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, toOneBased(n.Range.Start.Line), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendUint(b, toOneBased(max(n.Range.End.Line, n.Range.Start.Line)), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, toOneBased(n.Column), 10)
	if len(n.Children) > 0 {
		b = append(b, `,"children":`...)
		b = appendArray(b, n.Children)
	}
	return append(b, '}')
}

// workspaceSymbol is one workspace/symbol match.
type workspaceSymbol struct {
	Name      string
	Kind      SymbolKind
	Container string
	Path      string
	HasPos    bool
	Pos       Position
	Server    string // the server that found it, in a merged search
}

func (w workspaceSymbol) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, w.Name)
	b = append(b, `,"kind":`...)
	b = appendString(b, w.Kind.String())
	if w.Container != "" {
		b = append(b, `,"container":`...)
		b = appendString(b, w.Container)
	}
	b = append(b, `,"path":`...)
	b = appendString(b, w.Path)
	if w.HasPos {
		b = append(b, `,"line":`...)
		b = strconv.AppendUint(b, toOneBased(w.Pos.Line), 10)
		b = append(b, `,"column":`...)
		b = strconv.AppendUint(b, toOneBased(w.Pos.Character), 10)
	}
	if w.Server != "" {
		b = append(b, `,"server":`...)
		b = appendString(b, w.Server)
	}
	return append(b, '}')
}

// CodeSymbols is codeSymbols' ok value.
type CodeSymbols struct {
	Mode       string
	Path       string // document mode
	Query      *string
	Tree       []*symbolNode     // document mode
	Matches    []workspaceSymbol // workspace mode
	TotalFound int
	Truncated  bool
	Notice     string
	Rendered   Rendered
	// Offset is the matches of earlier pages, skipped (a cursor's page);
	// ResultKey names the whole ranked list of a search's matches, so a
	// host can tell a next page of the same answer (workspace mode).
	Offset    int
	ResultKey string
	// DependenciesLeftOut counts a search's matches outside the workspace
	// (dependencies, the standard library) left out because the call did
	// not ask for them (dependencies: true).
	DependenciesLeftOut int
	// Exact counts a search's matches named exactly as the query (or
	// Container.name for a member): a model reading 100 fuzzy
	// matches is told which answer the name itself.
	Exact int
	// NoDependencies names the servers a search asked for dependencies
	// (dependencies: true) that answered none outside the workspace: the
	// server may not search libraries, which the answer says rather than
	// let "no match" read as "no such symbol in any dependency".
	NoDependencies []string
	// A merged workspace-wide search (symbolsearch.go).
	Merged      bool
	Searched    []*symbolSearchSource
	NotSearched []symbolSearchGap
	Incomplete  string
}

func (c CodeSymbols) appendJSON(b []byte) []byte {
	b = append(b, `{"mode":`...)
	b = appendString(b, c.Mode)
	if c.Mode == "document" {
		b = append(b, `,"path":`...)
		b = appendString(b, c.Path)
	}
	if c.Query != nil {
		b = append(b, `,"query":`...)
		b = appendString(b, *c.Query)
	}
	b = append(b, `,"symbols":`...)
	if c.Mode == "document" {
		b = appendArray(b, c.Tree)
	} else {
		b = appendArray(b, c.Matches)
	}
	b = append(b, `,"totalFound":`...)
	b = appendInt(b, int64(c.TotalFound))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, c.Truncated)
	if c.Offset > 0 {
		b = append(b, `,"offset":`...)
		b = appendInt(b, int64(c.Offset))
	}
	if c.Mode == "workspace" || c.ResultKey != "" {
		b = append(b, `,"resultKey":`...)
		b = appendString(b, c.ResultKey)
	}
	if c.Exact > 0 || (c.Mode == "workspace" && c.Query != nil && *c.Query != "" && c.TotalFound > 0) {
		b = append(b, `,"exact":`...)
		b = appendInt(b, int64(c.Exact))
	}
	if c.DependenciesLeftOut > 0 {
		b = append(b, `,"dependenciesLeftOut":`...)
		b = appendInt(b, int64(c.DependenciesLeftOut))
	}
	if c.Merged {
		b = append(b, `,"searched":`...)
		b = appendArray(b, c.Searched)
		b = append(b, `,"notSearched":`...)
		b = appendArray(b, c.NotSearched)
	}
	if c.Notice != "" {
		b = append(b, `,"notice":`...)
		b = appendString(b, c.Notice)
	}
	if c.Incomplete != "" {
		b = append(b, `,"incomplete":`...)
		b = appendString(b, c.Incomplete)
	}
	b = append(b, `,"rendered":`...)
	b = c.Rendered.appendJSON(b)
	return append(b, '}')
}

func codeSymbolsCall(in gjson.Result) (jsonAppender, *Error) {
	mode := get(in, "mode")
	if mode.Type != gjson.String || (mode.Str != "document" && mode.Str != "workspace") {
		return nil, Errorf(CodeInvalidArgument, `mode must be "document" (result is a textDocument/documentSymbol result, uri the file's URI) or "workspace" (result is a workspace/symbol result), got %s`, describe(mode))
	}
	wsPath, err := catalogWorkspace(in)
	if err != nil {
		return nil, err
	}
	limit, err := symbolsLimitArg(in, "symbols")
	if err != nil {
		return nil, err
	}
	out := CodeSymbols{Mode: mode.Str}
	result := get(in, "result")
	if mode.Str == "document" {
		uri := get(in, "uri")
		if uri.Type != gjson.String || uri.Str == "" {
			return nil, Errorf(CodeInvalidArgument, "uri must be the file's URI (the one the documentSymbol request named) in document mode, got %s", describe(uri))
		}
		out.Path = displayPath(uri.Str, wsPath)
		if !result.Exists() {
			return nil, symbolsMalformed("the response has no result member; a server must answer with a result (null for no symbols) or an error")
		}
		tree, total, err := readSymbolTree(result)
		if err != nil {
			return nil, err
		}
		offset, err := offsetArg(in, "symbols")
		if err != nil {
			return nil, err
		}
		out.TotalFound = total
		out.Offset = min(offset, total)
		out.Tree = keepSymbols(tree, out.Offset, limit)
		out.Truncated = total > out.Offset+limit
		if out.Truncated || out.Offset > 0 { // a page: the next is checked against it
			out.ResultKey = outlineKey(tree)
		}
		if total == 0 {
			out.Notice = noSymbolsNotice(out.Path)
		}
		out.Rendered = renderSymbolTree(out, limit)
		return out, nil
	}
	q := get(in, "query")
	switch {
	case q.Type == gjson.String:
		out.Query = &q.Str
	case q.Exists() && q.Type != gjson.Null:
		return nil, Errorf(CodeInvalidArgument, "query must be a string (the workspace/symbol query, echoed in the answer), got %s", describe(q))
	}
	if get(in, "results").Exists() {
		if result.Exists() {
			return nil, Errorf(CodeInvalidArgument, "give result (one server's answer) or results (a workspace-wide search's answers), not both")
		}
		return workspaceSearch(in, out, wsPath, limit)
	}
	if !result.Exists() {
		return nil, workspaceSymbolsMalformed("the response has no result member; a server must answer with a result (null for no symbols) or an error")
	}
	scope, serr := searchScope(get(in, "scope"))
	if serr != nil {
		return nil, serr
	}
	matches, err := readWorkspaceSymbols(result, wsPath)
	if err != nil {
		return nil, err
	}
	if matches, out.DependenciesLeftOut, err = workspaceOwn(in, matches); err != nil {
		return nil, err
	}
	out.TotalFound = len(matches)
	out.Exact = exactMatches(matches, out.Query)
	if server := get(get(in, "scope"), "server"); get(in, "dependencies").Type == gjson.True && server.Type == gjson.String {
		out.NoDependencies = withoutDependencies(matches, []string{clip(server.Str, 80)}, false)
	}
	if c, _ := integer(get(get(in, "scope"), "cap"), 1, maxUint31); c > 0 && int64(len(matches)) >= c {
		out.Incomplete = capReached(c)
	}
	if out.Matches, err = symbolPage(in, &out, matches, limit); err != nil {
		return nil, err
	}
	if out.TotalFound == 0 {
		where := "in what the language server searched (its project, not the other languages)"
		if scope != "" {
			where = "in " + scope
		}
		if out.Query != nil && *out.Query != "" {
			out.Notice = "no symbols match " + quoteCode(clip(*out.Query, 200)) + " " + where + ": try a shorter or different name (servers match names, often fuzzily), or leave out path to search every language and project of the workspace"
		} else {
			out.Notice = "no symbols found " + where + ": pass a query naming what to find, or code_symbols with a path for one file's outline"
		}
		if out.DependenciesLeftOut > 0 {
			out.Notice = dependenciesNotice(out)
		}
	}
	out.Rendered = renderWorkspaceSymbols(out, limit)
	return out, nil
}

func workspaceSymbolsMalformed(detail string) *Error {
	return &Error{Code: CodeMalformedResponse, Message: "the language server's workspace/symbol response is malformed: " + detail}
}

// readSymbolTree reads a documentSymbol result as an outline and counts
// its symbols.
func readSymbolTree(result gjson.Result) ([]*symbolNode, int, *Error) {
	if result.Type == gjson.Null {
		return nil, 0, nil
	}
	if !result.IsArray() {
		return nil, 0, symbolsMalformed("result must be null or an array of DocumentSymbol or SymbolInformation, got " + describe(result))
	}
	var top []*symbolNode
	var problem string
	i := 0
	result.ForEach(func(_, item gjson.Result) bool {
		var n *symbolNode
		n, problem = readSymbolNode(item, at{"result", i}, 0)
		top = append(top, n)
		i++
		return problem == ""
	})
	if problem != "" {
		return nil, 0, symbolsMalformed(problem)
	}
	sortSymbolNodes(top)
	top = nestSymbolInformation(top)
	total := 0
	var count func([]*symbolNode)
	count = func(list []*symbolNode) {
		for _, n := range list {
			total++
			count(n.Children)
		}
	}
	count(top)
	return top, total, nil
}

// readSymbolNode reads one DocumentSymbol (with its children, to
// maxSymbolDepth levels) or SymbolInformation.
func readSymbolNode(v gjson.Result, where at, depth int) (*symbolNode, string) {
	if !v.IsObject() {
		return nil, where.String() + " must be a DocumentSymbol or SymbolInformation object, got " + describe(v)
	}
	var name, kind, detail, rng, sel, children, location, containerName gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "name":
			name = first(name, val)
		case "kind":
			kind = first(kind, val)
		case "detail":
			detail = first(detail, val)
		case "range":
			rng = first(rng, val)
		case "selectionRange":
			sel = first(sel, val)
		case "children":
			children = first(children, val)
		case "location":
			location = first(location, val)
		case "containerName":
			containerName = first(containerName, val)
		}
		return true
	})
	if name.Type != gjson.String {
		return nil, where.field("name") + " must be a string, got " + describe(name)
	}
	k, ok := integer(kind, 1, maxUint31)
	if !ok {
		return nil, where.field("kind") + " must be a SymbolKind number, got " + describe(kind)
	}
	n := &symbolNode{Kind: SymbolKind(k), depth: depth}
	n.Name, n.Container = splitMemberName(name.Str, "")
	if detail.Exists() && detail.Type != gjson.Null {
		if detail.Type != gjson.String {
			return nil, where.field("detail") + " must be a string, got " + describe(detail)
		}
		n.Detail = clipRunes(strings.Join(strings.Fields(detail.Str), " "), maxSymbolDetailRune)
	}
	var problem string
	if location.Exists() && !rng.Exists() {
		// SymbolInformation.
		if !location.IsObject() {
			return nil, where.field("location") + " must be a Location object, got " + describe(location)
		}
		if n.Range, problem = rangeOf(get(location, "range"), at{where.field("location"), -1}, "range"); problem != "" {
			return nil, problem
		}
		n.Column = n.Range.Start.Character
		n.info = true
		if containerName.Exists() && containerName.Type != gjson.Null {
			if containerName.Type != gjson.String {
				return nil, where.field("containerName") + " must be a string, got " + describe(containerName)
			}
			n.containerName = containerName.Str
			n.Name = nameInContainer(n.Name, n.containerName)
		}
		return n, ""
	}
	if n.Range, problem = rangeOf(rng, where, "range"); problem != "" {
		return nil, problem
	}
	n.Column = n.Range.Start.Character
	if sel.Exists() && sel.Type != gjson.Null {
		s, problem := rangeOf(sel, where, "selectionRange")
		if problem != "" {
			return nil, problem
		}
		// The name's column when the name is on the range's first line
		// (else line:column stays the start of the range: a real position).
		if s.Start.Line == n.Range.Start.Line {
			n.Column = s.Start.Character
		}
	}
	if !children.Exists() || children.Type == gjson.Null {
		return n, ""
	}
	if !children.IsArray() {
		return nil, where.field("children") + " must be an array, got " + describe(children)
	}
	if depth+1 >= maxSymbolDepth {
		return n, "" // deeper levels are left out
	}
	i := 0
	children.ForEach(func(_, c gjson.Result) bool {
		var child *symbolNode
		child, problem = readSymbolNode(c, at{where.field("children"), i}, depth+1)
		n.Children = append(n.Children, child)
		i++
		return problem == ""
	})
	if problem != "" {
		return nil, problem
	}
	sortSymbolNodes(n.Children)
	return n, ""
}

// sortSymbolNodes orders siblings by position (stable).
func sortSymbolNodes(list []*symbolNode) {
	sort.SliceStable(list, func(i, j int) bool { return symbolNodeLess(list[i], list[j]) })
}

func symbolNodeLess(a, b *symbolNode) bool {
	if a.Range.Start.Line != b.Range.Start.Line {
		return a.Range.Start.Line < b.Range.Start.Line
	}
	return a.Column < b.Column
}

// nestSymbolInformation moves each SymbolInformation of the top level
// under the innermost earlier SymbolInformation named by its containerName
// (its last segment: "geom.Circle" and "geom::Circle" name Circle) whose
// range contains it; the others keep their containerName as container.
// top is in document order, so a container comes before its members.
func nestSymbolInformation(top []*symbolNode) []*symbolNode {
	byName := map[string][]*symbolNode{}
	kept := top[:0]
	for _, n := range top {
		if !n.info {
			kept = append(kept, n)
			continue
		}
		var parent *symbolNode
		if n.containerName != "" && n.Container == "" {
			cands := byName[lastNameSegment(n.containerName)]
			for i, scanned := len(cands)-1, 0; i >= 0 && scanned < maxContainerScan; i, scanned = i-1, scanned+1 {
				c := cands[i]
				if c.Range != n.Range && n.Range.Within(c.Range) && c.depth+1 < maxSymbolDepth {
					parent = c
					break
				}
			}
		}
		switch {
		case parent != nil:
			n.depth = parent.depth + 1
			parent.Children = append(parent.Children, n)
		default:
			if n.Container == "" {
				n.Container = n.containerName
			} else if n.containerName != "" {
				n.Container = n.containerName + "." + n.Container
			}
			kept = append(kept, n)
		}
		byName[n.Name] = append(byName[n.Name], n)
	}
	return kept
}

// lastNameSegment is the last name of a qualified container name
// ("a.b.C", "ns::C", "pkg/mod.C" → "C").
func lastNameSegment(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.LastIndexAny(s, "./\\"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// keepSymbols keeps the page of limit symbols from the offset-th in
// document order (a parent before its children). A symbol on the page whose parent is not (a later page
// starting inside a class) is lifted to the page's top level with its
// container named, so every line still says whose member it is.
func keepSymbols(tree []*symbolNode, offset, limit int) []*symbolNode {
	index, end := 0, offset+limit
	var keep func(list []*symbolNode, container string) []*symbolNode
	keep = func(list []*symbolNode, container string) []*symbolNode {
		var out []*symbolNode
		for _, n := range list {
			if index >= end {
				break
			}
			i := index
			index++
			if i < offset { // before the page: only its members may be on it
				out = append(out, keep(n.Children, qualified(n.Container, n.Name))...)
				continue
			}
			c := *n
			if c.Container == "" {
				c.Container = container
			}
			c.Children = keep(n.Children, "")
			out = append(out, &c)
		}
		return out
	}
	return keep(tree, "")
}

// outlineKey names an outline's symbols in document order, so a next page
// can tell it continues the same outline (an edit that moves or changes a
// symbol changes it).
func outlineKey(tree []*symbolNode) string {
	var keys []string
	var walk func(list []*symbolNode)
	walk = func(list []*symbolNode) {
		for _, n := range list {
			keys = append(keys, n.Name+"\x00"+n.Container+"\x00"+n.Kind.String()+"\x00"+
				strconv.FormatUint(uint64(n.Range.Start.Line), 10)+":"+strconv.FormatUint(uint64(n.Column), 10)+"-"+
				strconv.FormatUint(uint64(n.Range.End.Line), 10))
			walk(n.Children)
		}
	}
	walk(tree)
	return listKey(keys)
}

// renderSymbolTree writes the outline: a count, then one line per symbol,
// indented by depth: kind, name (Container.name for a member outside its
// container), lines, detail.
func renderSymbolTree(c CodeSymbols, limit int) Rendered {
	if c.TotalFound == 0 {
		return Rendered{Text: upperFirst(c.Notice) + "."}
	}
	var b strings.Builder
	b.WriteString(renderedName(c.Path) + " — " + strconv.Itoa(c.TotalFound) + " " + plural(c.TotalFound, "symbol", "symbols") + ":")
	shown := 0
	var write func(list []*symbolNode, depth int)
	write = func(list []*symbolNode, depth int) {
		for _, n := range list {
			shown++
			b.WriteString("\n  " + strings.Repeat("  ", min(depth, 16)))
			if k := n.Kind.String(); k != "" {
				b.WriteString(k + " ")
			}
			b.WriteString(renderedName(qualified(n.Container, n.Name)))
			b.WriteString(" " + strconv.FormatUint(toOneBased(n.Range.Start.Line), 10))
			if n.Range.End.Line > n.Range.Start.Line {
				b.WriteString("–" + strconv.FormatUint(toOneBased(n.Range.End.Line), 10))
			}
			if n.Detail != "" && n.Detail != n.Kind.String() {
				b.WriteString("  " + n.Detail)
			}
			write(n.Children, depth+1)
		}
	}
	write(c.Tree, 0)
	if c.Offset > 0 {
		b.WriteString("\n(symbols " + strconv.Itoa(c.Offset+1) + "–" + strconv.Itoa(c.Offset+shown) + " of " + strconv.Itoa(c.TotalFound) + ")")
	}
	omitted := c.TotalFound - c.Offset - shown
	if omitted > 0 {
		b.WriteString("\n… " + strconv.Itoa(omitted) + " more " + plural(omitted, "symbol", "symbols") + " not shown; " + raiseLimit(limit))
	}
	return Rendered{Text: b.String(), Shown: shown, Omitted: omitted}
}

// raiseLimit says how to see what a limit left out.
func raiseLimit(limit int) string {
	if limit >= MaxSymbolLimit {
		return "limit is at its maximum, " + strconv.Itoa(MaxSymbolLimit)
	}
	return "raise limit (now " + strconv.Itoa(limit) + ", at most " + strconv.Itoa(MaxSymbolLimit) + ")"
}

// renderedName is a name for a rendered line: on one line, clipped.
func renderedName(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return clipRunes(s, maxRenderedNameRune)
}

// readWorkspaceSymbols reads a workspace/symbol result: null, or an array
// of SymbolInformation or WorkspaceSymbol (whose location may be {uri}
// alone).
func readWorkspaceSymbols(result gjson.Result, wsPath string) ([]workspaceSymbol, *Error) {
	if result.Type == gjson.Null {
		return nil, nil
	}
	if !result.IsArray() {
		return nil, workspaceSymbolsMalformed("result must be null or an array of SymbolInformation or WorkspaceSymbol, got " + describe(result))
	}
	var out []workspaceSymbol
	var problem string
	paths := map[string]string{}
	i := 0
	result.ForEach(func(_, item gjson.Result) bool {
		where := at{"result", i}
		i++
		if !item.IsObject() {
			problem = where.String() + " must be a SymbolInformation or WorkspaceSymbol object, got " + describe(item)
			return false
		}
		f := fields(item, "name", "kind", "location", "containerName")
		name, kind, loc, container := f[0], f[1], f[2], f[3]
		if name.Type != gjson.String {
			problem = where.field("name") + " must be a string, got " + describe(name)
			return false
		}
		k, ok := integer(kind, 1, maxUint31)
		if !ok {
			problem = where.field("kind") + " must be a SymbolKind number, got " + describe(kind)
			return false
		}
		w := workspaceSymbol{Kind: SymbolKind(k)}
		if container.Exists() && container.Type != gjson.Null {
			if container.Type != gjson.String {
				problem = where.field("containerName") + " must be a string, got " + describe(container)
				return false
			}
			w.Container = container.Str
		}
		w.Name, w.Container = splitMemberName(name.Str, w.Container)
		if !loc.IsObject() {
			problem = where.field("location") + " must be a Location or {uri} object, got " + describe(loc)
			return false
		}
		lf := fields(loc, "uri", "range")
		if lf[0].Type != gjson.String || lf[0].Str == "" {
			problem = where.field("location") + ".uri must be a non-empty string, got " + describe(lf[0])
			return false
		}
		if lf[1].Exists() && lf[1].Type != gjson.Null {
			var r Range
			if r, problem = rangeOf(lf[1], at{where.field("location"), -1}, "range"); problem != "" {
				return false
			}
			w.HasPos, w.Pos = true, r.Start
		}
		p, seen := paths[lf[0].Str]
		if !seen {
			p = displayPath(lf[0].Str, wsPath)
			paths[lf[0].Str] = p
		}
		w.Path = p
		out = append(out, w)
		return true
	})
	if problem != "" {
		return nil, workspaceSymbolsMalformed(problem)
	}
	return out, nil
}

// renderWorkspaceSymbols writes the matches, one a line: kind, name
// (qualified by its container when that is a plain name), path:line:column.
func renderWorkspaceSymbols(c CodeSymbols, limit int) Rendered {
	if c.TotalFound == 0 {
		text := upperFirst(c.Notice) + "."
		if len(c.NoDependencies) > 0 {
			text += "\n" + noDependenciesLine(c.NoDependencies)
		}
		return Rendered{Text: text}
	}
	var b strings.Builder
	if c.Query != nil && *c.Query != "" {
		b.WriteString("Symbols matching " + quoteCode(renderedName(*c.Query)) + " — " + strconv.Itoa(c.TotalFound))
		// The count of exact matches is said whatever it is: 0 tells a
		// model reading fuzzy matches that none is the name it asked for
		// (cobra's `Depth`, once deleted, answered 7 unrelated names).
		switch {
		case c.Exact == 0:
			b.WriteString(", none named exactly so")
		case c.Exact == c.TotalFound && c.TotalFound == 1:
			b.WriteString(", named exactly so")
		case c.Exact == c.TotalFound:
			b.WriteString(", all named exactly so")
		default:
			b.WriteString(", " + strconv.Itoa(c.Exact) + " named exactly so")
			if c.Merged {
				b.WriteString(" (listed first)")
			}
		}
		b.WriteString(":")
	} else {
		b.WriteString("Workspace symbols — " + strconv.Itoa(c.TotalFound) + ":")
	}
	for _, m := range c.Matches {
		b.WriteString("\n  ")
		if k := m.Kind.String(); k != "" {
			b.WriteString(k + " ")
		}
		in := ""
		switch {
		case m.Container == "" || strings.HasPrefix(m.Name, m.Container+"."):
			b.WriteString(renderedName(m.Name))
		case plainQualifiedName(m.Container):
			b.WriteString(renderedName(m.Container + "." + m.Name))
		default:
			b.WriteString(renderedName(m.Name))
			in = "  (in " + renderedName(m.Container) + ")"
		}
		b.WriteString("  " + renderedName(m.Path))
		if m.HasPos {
			b.WriteString(":" + strconv.FormatUint(toOneBased(m.Pos.Line), 10) + ":" + strconv.FormatUint(toOneBased(m.Pos.Character), 10))
		}
		b.WriteString(in)
	}
	if c.Offset > 0 {
		b.WriteString("\n(matches " + strconv.Itoa(c.Offset+1) + "–" + strconv.Itoa(c.Offset+len(c.Matches)) + " of " + strconv.Itoa(c.TotalFound) + ")")
	}
	if omitted := c.TotalFound - c.Offset - len(c.Matches); omitted > 0 {
		b.WriteString("\n… " + strconv.Itoa(omitted) + " more; narrow the query or " + raiseLimit(limit))
	}
	if c.DependenciesLeftOut > 0 {
		b.WriteString("\n" + dependenciesLine(c.DependenciesLeftOut))
	}
	if len(c.NoDependencies) > 0 {
		b.WriteString("\n" + noDependenciesLine(c.NoDependencies))
	}
	return Rendered{Text: b.String(), Shown: len(c.Matches), Omitted: c.TotalFound - c.Offset - len(c.Matches)}
}

// plainQualifiedName reports whether s is identifiers joined by dots
// ("Circle", "geom.Circle"), fit to prefix a member's name.
func plainQualifiedName(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || !identifierLike(part) {
			return false
		}
	}
	return true
}

// noSymbolsNotice says why a file's outline is empty. A .vue file's is
// empty whatever it declares: typescript-language-server gives no
// document symbols for it (@vue/typescript-plugin does not map tsserver's
// navigation tree), so saying the file declares nothing would be false;
// its declarations are found by the workspace symbol search, which symbol
// targets in it use too.
func noSymbolsNotice(path string) string {
	if FinalExtension(path) == ".vue" {
		return "no outline of " + path + ": the server lists no symbols for .vue files (tsserver's outline does not reach a Vue file's <script>), which says nothing of what this file declares: find a declaration with code_symbols and query (the workspace symbol search finds .vue declarations), then target it by symbol, or by line with matchText"
	}
	return "no symbols in " + path + ": the server found no declarations in this file (it may be empty or not code, or the server may not have loaded it yet)"
}
