package core

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Call and type hierarchies (code_hierarchy, docs/design.md "the
// code-intelligence catalog", seed §5.3): the ABI method hierarchy.
//
// The traversal is a pure, re-entrant step. The host calls hierarchy with
// the raw prepareCallHierarchy / prepareTypeHierarchy result as roots and no
// expansions; the answer's pending lists the nodes to expand, each with the
// LSP method and the item exactly as the server sent it (so the server gets
// its data back). The host sends one request per pending node ({"item":
// ITEM}), puts each raw result — or the request's error message — into
// expansions under the node's id, and calls hierarchy again with
// everything so far. It stops when pending is empty, or when its time
// budget ran out: it then passes timedOut and the answer marks the nodes
// that were not expanded. The same input always gives the same answer, so
// the whole traversal is replayed (and tested) from its inputs.
//
// The graph is built breadth first: roots (depth 0, several when prepare
// returns several items) in the server's order, then each node's results
// in their order. A node's id is its path (workspace-relative inside the
// workspace, absolute outside), the one-based line and column of its
// selectionRange start and its name: "geom/geom.go:20:6#total". Nodes are
// deduplicated by id and a node is expanded once, however often it is
// reached, which is what stops recursion; an edge into a node that can
// already reach the expanded node closes a cycle and marks both the edge
// and the node reached again. A node at the requested depth is not
// expanded. Edges are deduplicated by (from, to); their call sites merge.
//
// Edges point the way of the question: from the node expanded to the node
// its result named. So for callers `to` calls `from`, for callees `from`
// calls `to`, for supertypes `to` is a supertype of `from`, for subtypes
// `to` is a subtype of `from` (the answer's edgeMeaning says it in words).
// Call sites are in the caller's file: incomingCalls' fromRanges are in the
// caller found, outgoingCalls' in the node expanded.
//
// Budgets: at most limit nodes (default 100, at most 500) and maxEdges
// edges (default 4 × limit, at most 5000). What does not fit is left out
// and the answer says truncated with the reason. A node beyond the node
// limit is refused (counted in totalNodes) but the nodes in the graph are
// still expanded, so the edges among them are all there and the first N
// nodes are the same, in the same order, whatever the limit above N (a
// node is found by the expansion of an earlier one, and expansions go in
// node order). The edge limit ends the traversal: nothing more is pending
// once it is reached. A failed expansion (the host's error message, or a
// result of the wrong shape) is listed in failures and does not stop the
// others. Roots of the wrong shape are LSP_MALFORMED_RESPONSE; bad
// arguments LSP_INVALID_ARGUMENT.
//
// Pages (offset > 0): that prefix stability pages a graph cut at its node
// limit. A page from offset runs the traversal with offset + limit nodes
// (at most MaxHierarchyPagedNodes) and the edge limit scaled the same way
// (maxEdges × (offset + limit) / limit rounded up, at most
// MaxHierarchyPagedEdges), and answers the nodes from offset to offset +
// limit and the edges whose later node (in node order) is among them:
// each edge is on exactly one page, and the pages' union is the unpaged
// graph (short of edges an edge limit cut). pending still lists
// every node to expand, earlier pages' too (the host expands them again),
// failures only the page's nodes. priorKey names the ids of the nodes
// before offset in order, resultKey those through the page's last node:
// a next page whose priorKey is not this page's resultKey is of another
// graph (a file was edited). nextOffset, when set, is where the next page
// starts: the graph is final, was not cut by the clock, and more nodes
// were found. A later page's text lists its nodes, each with its edges,
// within maxResultChars: a page whose text cannot hold every node ends at
// the last one it holds (nodes, edges, resultKey and nextOffset follow).
// A first page is the tree below, or, when the tree of a final graph does
// not fit, listed the same way.
//
// The answer: {kind, depth, limit, maxEdges, edgeMeaning, nodes: [{id,
// name, kind? (the outline's when given), symbol? (the outline's
// qualified name), detail?, path, line, column, endLine, endColumn (one-based,
// of the selectionRange), depth, expanded, unexpanded?: pending | depth |
// budget | time | failed, cycle?, outsideWorkspace?}], edges: [{from, to,
// callSites?: [{path, line, column, endLine, endColumn}], cycle?}],
// pending: [{id, method, item}], failures: [{id, message}], truncated,
// truncatedReason?, totalNodes, totalEdges (found, the ones cut by a
// budget included), offset, priorKey, resultKey, nextOffset?, notice? (no
// item at the target), rendered}.

// Bounds of a hierarchy traversal.
const (
	MaxHierarchyDepth     = 4
	DefaultHierarchyLimit = 100
	MaxHierarchyLimit     = 500
	MaxHierarchyEdges     = 5000
	// A graph pages through its first MaxHierarchyPagedNodes nodes, with
	// at most MaxHierarchyPagedEdges edges.
	MaxHierarchyPagedNodes = 2000
	MaxHierarchyPagedEdges = 4 * MaxHierarchyEdges
	maxCallSitesShown      = 5 // per edge, in the text
)

// hierarchyKind is one of the four questions.
type hierarchyKind struct {
	name    string // callers, callees, supertypes, subtypes
	method  string // the LSP request that expands a node
	prepare string // the LSP request whose result the roots are
	title   string // heading of the text
	arrow   string
	meaning string // what an edge says, for the answer's edgeMeaning
	calls   bool
	legend  string // what "A arrow B" says, for a page's text
}

var hierarchyKinds = []hierarchyKind{
	{"callers", "callHierarchy/incomingCalls", "textDocument/prepareCallHierarchy", "Callers", "←", "to calls from", true, "A ← B: B calls A"},
	{"callees", "callHierarchy/outgoingCalls", "textDocument/prepareCallHierarchy", "Callees", "→", "from calls to", true, "A → B: A calls B"},
	{"supertypes", "typeHierarchy/supertypes", "textDocument/prepareTypeHierarchy", "Supertypes", "↑", "to is a supertype of from", false, "A ↑ B: B is a supertype of A"},
	{"subtypes", "typeHierarchy/subtypes", "textDocument/prepareTypeHierarchy", "Subtypes", "↓", "to is a subtype of from", false, "A ↓ B: B is a subtype of A"},
}

// hierarchyInput is hierarchy's input, decoded.
type hierarchyInput struct {
	Kind         hierarchyKind
	Depth        int
	Limit        int
	MaxEdges     int
	Offset       int
	Roots        gjson.Result // the raw prepare result
	Expansions   map[string]hierarchyExpansion
	WorkspaceURI string
	TimedOut     bool
	Subject      string
	// NoItem is the host's reason, when it knows one, for roots with no
	// item: it replaces the guesses of the notice.
	NoItem         string
	MaxResultChars int
	// Outlines are the outline entries on the nodes' lines, by the
	// node's path: what names a node's kind and container (label).
	Outlines map[string][]Symbol
}

// hierarchyExpansion is the host's answer for one node: the raw result, or
// the message of the request's error.
type hierarchyExpansion struct {
	result gjson.Result
	err    string
	failed bool
}

// hierarchyItem is a CallHierarchyItem or TypeHierarchyItem.
type hierarchyItem struct {
	name, detail, uri string
	kind              SymbolKind
	sel               Range
	raw               string
}

// Why a node was not expanded.
const (
	unexpandedPending = "pending" // its expansion is asked for in pending
	unexpandedDepth   = "depth"   // it is at the requested depth
	unexpandedBudget  = "budget"  // the node or edge limit was reached
	unexpandedTime    = "time"    // the host's time budget ran out
	unexpandedFailed  = "failed"  // its expansion failed (see failures)
)

type hierarchyNode struct {
	id         string
	item       hierarchyItem
	path       string
	outside    bool
	depth      int
	parentEdge int // the edge it was discovered through; -1 for a root
	expanded   bool
	unexpanded string
	cycle      bool
	out        []int // indexes of the nodes its edges go to
	refused    int   // edges from it a limit left out
}

type callSite struct {
	uri string
	r   Range
}

type hierarchyEdge struct {
	from, to int
	sites    []callSite
	cycle    bool
}

type hierarchyFailure struct {
	node    int
	message string
}

// hierarchyGraph is hierarchy's answer.
type hierarchyGraph struct {
	in       hierarchyInput
	wsPath   string
	nodes    []hierarchyNode
	edges    []hierarchyEdge
	pending  []int
	failures []hierarchyFailure
	reasons  []string
	// budgetReached: the node or edge limit cut the graph.
	budgetReached bool
	totalNodes    int
	totalEdges    int
	notice        string
	rendered      Rendered
	// The page: nodes [start, end) and the edges whose later node is
	// among them; nextOffset 0 when no page follows.
	start, end          int
	priorKey, resultKey string
	nextOffset          int
}

// hierarchyCall: {kind, depth?, limit?, maxEdges?, offset?, roots, expansions?,
// workspaceUri, timedOut?, subject?, noItem?, maxResultChars?, outlines?} → hierarchyGraph.
func hierarchyCall(in gjson.Result) (jsonAppender, *Error) {
	hi, err := decodehierarchyInput(in)
	if err != nil {
		return nil, err
	}
	return wrap(buildHierarchy(hi))
}

func hierarchyArgError(format string, args ...any) *Error {
	return Errorf(CodeInvalidArgument, format, args...)
}

func decodehierarchyInput(in gjson.Result) (hierarchyInput, *Error) {
	var hi hierarchyInput
	k := get(in, "kind")
	for _, hk := range hierarchyKinds {
		if k.Type == gjson.String && k.Str == hk.name {
			hi.Kind = hk
		}
	}
	if hi.Kind.name == "" {
		return hi, hierarchyArgError("kind must be one of callers, callees, supertypes, subtypes; got %s", describe(k))
	}
	for _, f := range []struct {
		name     string
		dst      *int
		min, max int64
		what     string
	}{
		{"depth", &hi.Depth, 1, MaxHierarchyDepth, "depth must be 1 to 4 (levels of the hierarchy to follow; default 1)"},
		{"limit", &hi.Limit, 1, MaxHierarchyLimit, "limit must be 1 to 500 (nodes in the graph; default 100)"},
		{"maxEdges", &hi.MaxEdges, 1, MaxHierarchyEdges, "maxEdges must be 1 to 5000 (edges in the graph; default 4 × limit)"},
		{"offset", &hi.Offset, 0, MaxHierarchyPagedNodes - 1, "offset must be 0 to 1999 (the nodes of earlier pages; a graph pages through its first 2000 nodes)"},
		{"maxResultChars", &hi.MaxResultChars, 1, maxUint31, "maxResultChars must be a positive integer"},
	} {
		v := get(in, f.name)
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		n, ok := integer(v, f.min, f.max)
		if !ok {
			return hi, hierarchyArgError("%s, got %s", f.what, describe(v))
		}
		*f.dst = int(n)
	}
	ws := get(in, "workspaceUri")
	if ws.Type != gjson.String {
		return hi, hierarchyArgError("workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %s", describe(ws))
	}
	hi.WorkspaceURI = ws.Str
	hi.Roots = get(in, "roots")
	if !hi.Roots.Exists() {
		return hi, hierarchyArgError("roots must be the raw result of %s (an array of items, or null), got missing", hi.Kind.prepare)
	}
	if t := get(in, "timedOut"); t.Exists() && t.Type != gjson.Null {
		if t.Type != gjson.True && t.Type != gjson.False {
			return hi, hierarchyArgError("timedOut must be a boolean, got %s", describe(t))
		}
		hi.TimedOut = t.Type == gjson.True
	}
	if s := get(in, "subject"); s.Exists() && s.Type != gjson.Null {
		if s.Type != gjson.String {
			return hi, hierarchyArgError("subject must be a string (the resolved target's line), got %s", describe(s))
		}
		hi.Subject = s.Str
	}
	if s := get(in, "noItem"); s.Exists() && s.Type != gjson.Null {
		if s.Type != gjson.String {
			return hi, hierarchyArgError("noItem must be a string (why the target has no item), got %s", describe(s))
		}
		hi.NoItem = s.Str
	}
	if o := get(in, "outlines"); o.Exists() && o.Type != gjson.Null {
		if !o.IsObject() {
			return hi, hierarchyArgError("outlines must be an object keyed by node path, each an array of flattenSymbols entries, got %s", describe(o))
		}
		hi.Outlines = map[string][]Symbol{}
		var err *Error
		o.ForEach(func(path, v gjson.Result) bool {
			hi.Outlines[path.Str], err = decodeOutline(v, "outlines["+strconv.Quote(clip(path.Str, 200))+"]")
			return err == nil
		})
		if err != nil {
			return hi, err
		}
	}
	ex := get(in, "expansions")
	if ex.Exists() && ex.Type != gjson.Null && !ex.IsObject() {
		return hi, hierarchyArgError("expansions must be an object keyed by node id, each {result: RAW} or {error: \"message\"}, got %s", describe(ex))
	}
	hi.Expansions = map[string]hierarchyExpansion{}
	var err *Error
	ex.ForEach(func(key, v gjson.Result) bool {
		if _, dup := hi.Expansions[key.Str]; dup {
			return true // the first one wins, as with get
		}
		bad := func() *Error {
			return hierarchyArgError("expansions[%s] must be {result: RAW} (the server's raw result) or {error: \"message\"}, got %s", strconv.Quote(clip(key.Str, 200)), describe(v))
		}
		if !v.IsObject() {
			err = bad()
			return false
		}
		f := fields(v, "result", "error")
		switch {
		case f[0].Exists() && f[1].Exists():
			err = hierarchyArgError("expansions[%s] has both result and error; pass one", strconv.Quote(clip(key.Str, 200)))
		case f[0].Exists():
			hi.Expansions[key.Str] = hierarchyExpansion{result: f[0]}
		case f[1].Type == gjson.String:
			hi.Expansions[key.Str] = hierarchyExpansion{err: f[1].Str, failed: true}
		default:
			err = bad()
		}
		return err == nil
	})
	return hi, err
}

// buildHierarchy builds the graph of one traversal step (see above).
func buildHierarchy(hi hierarchyInput) (*hierarchyGraph, *Error) {
	wsPath, ok := WorkspacePath(hi.WorkspaceURI)
	if !ok {
		return nil, hierarchyArgError("workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %q", clip(hi.WorkspaceURI, 200))
	}
	if hi.Kind.name == "" {
		return nil, hierarchyArgError("kind must be one of callers, callees, supertypes, subtypes")
	}
	if hi.Depth == 0 {
		hi.Depth = 1
	}
	if hi.Limit == 0 {
		hi.Limit = DefaultHierarchyLimit
	}
	if hi.MaxEdges == 0 {
		hi.MaxEdges = min(4*hi.Limit, MaxHierarchyEdges)
	}
	if hi.Depth < 1 || hi.Depth > MaxHierarchyDepth || hi.Limit < 1 || hi.Limit > MaxHierarchyLimit || hi.MaxEdges < 1 || hi.MaxEdges > MaxHierarchyEdges {
		return nil, hierarchyArgError("depth must be 1 to 4, limit 1 to 500 and maxEdges 1 to 5000; got %d, %d and %d", hi.Depth, hi.Limit, hi.MaxEdges)
	}
	if hi.Offset < 0 || hi.Offset >= MaxHierarchyPagedNodes {
		return nil, hierarchyArgError("offset must be 0 to %d (the nodes of earlier pages; a graph pages through its first %d nodes), got %d", MaxHierarchyPagedNodes-1, MaxHierarchyPagedNodes, hi.Offset)
	}
	if hi.MaxResultChars <= 0 {
		hi.MaxResultChars = DefaultMaxResultChars
	}
	g := &hierarchyGraph{in: hi, wsPath: wsPath}
	// The traversal's budgets: a page's reach offset + limit nodes, the
	// edges scaled alike.
	nodeLimit := min(hi.Offset+hi.Limit, MaxHierarchyPagedNodes)
	edgeLimit := pagedEdgeLimit(hi.MaxEdges, hi.Offset, hi.Limit)
	t := traversal{g: g, nodeLimit: nodeLimit, edgeLimit: edgeLimit, index: map[string]int{}, edgeIndex: map[[2]int]int{}, refusedNodes: map[string]bool{}, refusedEdges: map[[2]string]bool{}}

	// Roots.
	roots := hi.Roots
	if roots.Type != gjson.Null {
		if !roots.IsArray() {
			return nil, hierarchyMalformed(hi.Kind.prepare, "", "result must be null or an array of items, got "+describe(roots))
		}
		items, problem := parseItemList(roots)
		if problem != "" {
			return nil, hierarchyMalformed(hi.Kind.prepare, "", problem)
		}
		for _, it := range items {
			id := t.nodeID(it)
			if _, ok := t.index[id]; ok {
				continue
			}
			if len(g.nodes) == t.nodeLimit {
				t.refuseNode(id)
				continue
			}
			t.addNode(it, id, 0, -1)
		}
	}
	if len(g.nodes) == 0 {
		switch {
		case hi.NoItem != "":
			g.notice = hi.NoItem
		case hi.Kind.calls:
			g.notice = "no call hierarchy item at the target; the cursor may not be on a function, method or constructor (put it on the name of one), or the server has not indexed the file yet"
		default:
			g.notice = "no type hierarchy item at the target; the cursor may not be on a class, interface or other type (put it on the name of one), or the server has not indexed the file yet"
		}
	}

	// Expansions, breadth first: nodes added while expanding are expanded
	// in turn when the host has their results.
	for i := 0; i < len(g.nodes); i++ {
		n := &g.nodes[i]
		if n.depth >= hi.Depth {
			n.unexpanded = unexpandedDepth
			continue
		}
		ex, ok := hi.Expansions[n.id]
		if !ok {
			continue
		}
		if ex.failed {
			n.unexpanded = unexpandedFailed
			g.failures = append(g.failures, hierarchyFailure{i, ex.err})
			continue
		}
		found, problem := t.parseExpansion(i, ex.result)
		if problem != "" {
			n.unexpanded = unexpandedFailed
			g.failures = append(g.failures, hierarchyFailure{i, string(CodeMalformedResponse) + ": " + hierarchyMalformed(hi.Kind.method, n.id, problem).Message})
			continue
		}
		n.expanded = true
		for _, f := range found {
			t.link(i, f)
		}
	}

	// What is left: pending, or stopped by the edge budget or the clock
	// (a node limit only refuses new nodes).
	waiting := 0
	for i := range g.nodes {
		n := &g.nodes[i]
		if n.expanded || n.unexpanded != "" {
			continue
		}
		switch {
		case t.edgeFull:
			n.unexpanded = unexpandedBudget
		case hi.TimedOut:
			n.unexpanded = unexpandedTime
			waiting++
		default:
			n.unexpanded = unexpandedPending
			g.pending = append(g.pending, i)
		}
	}
	g.reasons = t.reasons
	g.budgetReached = len(t.reasons) > 0
	if waiting > 0 {
		g.reasons = append(g.reasons, "time budget ran out before "+strconv.Itoa(waiting)+" "+plural(waiting, "node was", "nodes were")+" expanded")
	}
	g.totalNodes = len(g.nodes) + len(t.refusedNodes)
	g.totalEdges = len(g.edges) + len(t.refusedEdges)
	g.page(hi.Offset, len(g.nodes))
	if hi.Offset == 0 || len(g.nodes) == 0 {
		g.rendered = g.render()
		if !g.rendered.Truncated || len(g.nodes) == 0 || len(g.pending) > 0 || hi.TimedOut {
			return g, nil
		}
		// A final graph whose tree does not fit: the first page is listed
		// like a later one, in node order, so that it can end with the
		// last node that fits and the next page go on from there.
	}
	if g.rendered = g.renderPage(); g.rendered.Shown < g.end-g.start {
		// The text holds fewer nodes: the page ends with them.
		g.page(hi.Offset, g.start+g.rendered.Shown)
		g.rendered.Omitted = g.totalNodes - g.end
	}
	return g, nil
}

// pagedEdgeLimit is the edge limit of a page's traversal: maxEdges per
// limit nodes, for offset + limit nodes (rounded up, so that each page
// reaches further than the one before), at most MaxHierarchyPagedEdges.
func pagedEdgeLimit(maxEdges, offset, limit int) int {
	return min(maxEdges+(maxEdges*offset+limit-1)/limit, max(maxEdges, MaxHierarchyPagedEdges))
}

// page sets the page: the nodes from offset (the ones before are earlier
// pages') to end, their keys, and where the next page starts.
func (g *hierarchyGraph) page(offset, end int) {
	g.start, g.end = min(offset, len(g.nodes)), end
	ids := make([]string, g.end)
	for i := range ids {
		ids[i] = g.nodes[i].id
	}
	g.priorKey, g.resultKey = listKey(ids[:g.start]), listKey(ids)
	g.nextOffset = 0
	if g.continues(g.end) {
		g.nextOffset = g.end
	}
}

// continues reports whether a next page would follow a page that ends
// at end: the graph is final and not cut by the clock, the page showed a
// node, more were found, and the next is within the nodes pages reach.
func (g *hierarchyGraph) continues(end int) bool {
	return len(g.pending) == 0 && !g.in.TimedOut && end > g.start && g.totalNodes > end && end < MaxHierarchyPagedNodes
}

// onPage reports whether an edge is on the page: its later node is.
func (g *hierarchyGraph) onPage(e hierarchyEdge) bool {
	last := max(e.from, e.to)
	return last >= g.start && last < g.end
}

func hierarchyMalformed(method, node, detail string) *Error {
	what := "the language server's " + method + " response"
	if node != "" {
		what += " for " + node
	}
	return &Error{Code: CodeMalformedResponse, Message: what + " is malformed: " + detail}
}

// traversal is the state of building one graph.
type traversal struct {
	g            *hierarchyGraph
	nodeLimit    int
	edgeLimit    int
	index        map[string]int
	edgeIndex    map[[2]int]int
	refusedNodes map[string]bool
	refusedEdges map[[2]string]bool
	reasons      []string
	nodeFull     bool
	edgeFull     bool
}

func (t *traversal) nodeID(it hierarchyItem) string {
	return displayPath(it.uri, t.g.wsPath) + ":" + strconv.FormatUint(toOneBased(it.sel.Start.Line), 10) + ":" +
		strconv.FormatUint(toOneBased(it.sel.Start.Character), 10) + "#" + it.name
}

func (t *traversal) addNode(it hierarchyItem, id string, depth, parentEdge int) int {
	_, inside := insideWorkspace(it.uri, t.g.wsPath)
	t.index[id] = len(t.g.nodes)
	t.g.nodes = append(t.g.nodes, hierarchyNode{id: id, item: it, path: displayPath(it.uri, t.g.wsPath), outside: !inside, depth: depth, parentEdge: parentEdge})
	return len(t.g.nodes) - 1
}

func (t *traversal) refuseNode(id string) {
	t.refusedNodes[id] = true
	if !t.nodeFull {
		t.nodeFull = true
		t.reasons = append(t.reasons, "node limit "+strconv.Itoa(t.nodeLimit)+" reached")
	}
}

// foundItem is one entry of an expansion's result: the item and the call
// sites (in the caller's file).
type foundItem struct {
	item  hierarchyItem
	sites []callSite
}

// parseExpansion reads a node's raw result; problem names the first bad
// field.
func (t *traversal) parseExpansion(node int, v gjson.Result) ([]foundItem, string) {
	if v.Type == gjson.Null {
		return nil, ""
	}
	kind := t.g.in.Kind
	member := "from"
	if kind.name == "callees" {
		member = "to"
	}
	if !v.IsArray() {
		if kind.calls {
			return nil, "result must be null or an array of {" + member + ", fromRanges}, got " + describe(v)
		}
		return nil, "result must be null or an array of TypeHierarchyItem, got " + describe(v)
	}
	if !kind.calls {
		items, problem := parseItemList(v)
		if problem != "" {
			return nil, problem
		}
		out := make([]foundItem, len(items))
		for i, it := range items {
			out[i].item = it
		}
		return out, ""
	}
	var out []foundItem
	var problem string
	i := 0
	v.ForEach(func(_, call gjson.Result) bool {
		where := at{"result", i}
		i++
		if !call.IsObject() {
			problem = where.String() + " must be an object {" + member + ", fromRanges}, got " + describe(call)
			return false
		}
		f := fields(call, member, "fromRanges")
		var fi foundItem
		fi.item, problem = parseItem(f[0], where.field(member))
		if problem != "" {
			return false
		}
		siteURI := fi.item.uri // incoming: in the caller found
		if member == "to" {
			siteURI = t.g.nodes[node].item.uri // outgoing: in the node expanded
		}
		if r := f[1]; r.Exists() && r.Type != gjson.Null {
			if !r.IsArray() {
				problem = where.field("fromRanges") + " must be an array of Range, got " + describe(r)
				return false
			}
			j := 0
			r.ForEach(func(_, rv gjson.Result) bool {
				var rng Range
				rng, problem = rangeOf(rv, at{where.String(), -1}, "fromRanges["+strconv.Itoa(j)+"]")
				j++
				fi.sites = append(fi.sites, callSite{siteURI, rng})
				return problem == ""
			})
			if problem != "" {
				return false
			}
		}
		out = append(out, fi)
		return true
	})
	return out, problem
}

// refuseEdge counts the edge from node from to the node id as found but
// left out by a limit.
func (t *traversal) refuseEdge(from int, id string) {
	key := [2]string{t.g.nodes[from].id, id}
	if !t.refusedEdges[key] {
		t.refusedEdges[key] = true
		t.g.nodes[from].refused++
	}
}

// link adds the edge from node to a found item (and the item's node).
func (t *traversal) link(from int, f foundItem) {
	g := t.g
	id := t.nodeID(f.item)
	to, known := t.index[id]
	if known {
		if e, ok := t.edgeIndex[[2]int{from, to}]; ok {
			g.edges[e].sites = mergeSites(g.edges[e].sites, f.sites)
			return
		}
	}
	if len(g.edges) == t.edgeLimit {
		t.refuseEdge(from, id)
		if !known {
			t.refusedNodes[id] = true
		}
		if !t.edgeFull {
			t.edgeFull = true
			t.reasons = append(t.reasons, "edge limit "+strconv.Itoa(t.edgeLimit)+" reached")
		}
		return
	}
	cycle := false
	if known {
		cycle = t.reaches(to, from)
	} else {
		if len(g.nodes) == t.nodeLimit {
			t.refuseNode(id)
			t.refuseEdge(from, id)
			return
		}
		to = t.addNode(f.item, id, g.nodes[from].depth+1, len(g.edges))
	}
	t.edgeIndex[[2]int{from, to}] = len(g.edges)
	g.edges = append(g.edges, hierarchyEdge{from: from, to: to, sites: mergeSites(nil, f.sites), cycle: cycle})
	g.nodes[from].out = append(g.nodes[from].out, to)
	if cycle {
		g.nodes[to].cycle = true
	}
}

// reaches reports whether a path of edges leads from a to b (a == b
// included): an edge b → a then closes a cycle.
func (t *traversal) reaches(a, b int) bool {
	if a == b {
		return true
	}
	seen := make([]bool, len(t.g.nodes))
	seen[a] = true
	stack := []int{a}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range t.g.nodes[n].out {
			if m == b {
				return true
			}
			if !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
	return false
}

// mergeSites adds the sites not already in list, in order.
func mergeSites(list, add []callSite) []callSite {
	if len(list)+len(add) > 32 {
		seen := make(map[callSite]bool, len(list)+len(add))
		for _, s := range list {
			seen[s] = true
		}
		for _, s := range add {
			if !seen[s] {
				seen[s] = true
				list = append(list, s)
			}
		}
		return list
	}
	for _, s := range add {
		dup := false
		for _, have := range list {
			if have == s {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, s)
		}
	}
	return list
}

// parseItemList reads a result that is an array of items.
func parseItemList(v gjson.Result) ([]hierarchyItem, string) {
	var out []hierarchyItem
	var problem string
	i := 0
	v.ForEach(func(_, item gjson.Result) bool {
		var it hierarchyItem
		it, problem = parseItem(item, at{"result", i}.String())
		i++
		out = append(out, it)
		return problem == ""
	})
	return out, problem
}

// parseItem reads a CallHierarchyItem or TypeHierarchyItem named where.
func parseItem(v gjson.Result, where string) (hierarchyItem, string) {
	if !v.IsObject() {
		return hierarchyItem{}, where + " must be an item object {name, kind, uri, range, selectionRange}, got " + describe(v)
	}
	var name, kind, detail, uri, rng, sel gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "name":
			name = first(name, val)
		case "kind":
			kind = first(kind, val)
		case "detail":
			detail = first(detail, val)
		case "uri":
			uri = first(uri, val)
		case "range":
			rng = first(rng, val)
		case "selectionRange":
			sel = first(sel, val)
		}
		return true
	})
	w := at{where, -1}
	if name.Type != gjson.String {
		return hierarchyItem{}, w.field("name") + " must be a string, got " + describe(name)
	}
	k, ok := integer(kind, 1, maxUint31)
	if !ok {
		return hierarchyItem{}, w.field("kind") + " must be a SymbolKind number, got " + describe(kind)
	}
	if detail.Exists() && detail.Type != gjson.Null && detail.Type != gjson.String {
		return hierarchyItem{}, w.field("detail") + " must be a string, got " + describe(detail)
	}
	if uri.Type != gjson.String || uri.Str == "" {
		return hierarchyItem{}, w.field("uri") + " must be a non-empty string, got " + describe(uri)
	}
	if _, problem := rangeOf(rng, w, "range"); problem != "" {
		return hierarchyItem{}, problem
	}
	s, problem := rangeOf(sel, w, "selectionRange")
	if problem != "" {
		return hierarchyItem{}, problem
	}
	return hierarchyItem{name: name.Str, kind: SymbolKind(k), detail: detail.Str, uri: uri.Str, sel: s, raw: v.Raw}, ""
}

// JSON.

func (g *hierarchyGraph) appendJSON(b []byte) []byte {
	in := g.in
	b = append(b, `{"kind":`...)
	b = appendString(b, in.Kind.name)
	b = append(b, `,"depth":`...)
	b = appendInt(b, int64(in.Depth))
	b = append(b, `,"limit":`...)
	b = appendInt(b, int64(in.Limit))
	b = append(b, `,"maxEdges":`...)
	b = appendInt(b, int64(in.MaxEdges))
	b = append(b, `,"edgeMeaning":`...)
	b = appendString(b, in.Kind.meaning)
	b = append(b, `,"nodes":[`...)
	for i, n := range g.nodes[g.start:g.end] {
		if i > 0 {
			b = append(b, ',')
		}
		b = g.appendNode(b, n)
	}
	b = append(b, `],"edges":[`...)
	first := true
	for _, e := range g.edges {
		if !g.onPage(e) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, `{"from":`...)
		b = appendString(b, g.nodes[e.from].id)
		b = append(b, `,"to":`...)
		b = appendString(b, g.nodes[e.to].id)
		if len(e.sites) > 0 {
			b = append(b, `,"callSites":[`...)
			for j, s := range e.sites {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"path":`...)
				b = appendString(b, displayPath(s.uri, g.wsPath))
				b = appendPosition(b, s.r)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		if e.cycle {
			b = append(b, `,"cycle":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `],"pending":[`...)
	for i, p := range g.pending {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendString(b, g.nodes[p].id)
		b = append(b, `,"method":`...)
		b = appendString(b, in.Kind.method)
		b = append(b, `,"item":`...)
		b = RawJSON(g.nodes[p].item.raw).appendJSON(b)
		b = append(b, '}')
	}
	b = append(b, `],"failures":[`...)
	first = true
	for _, f := range g.failures {
		if f.node < g.start || f.node >= g.end {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, `{"id":`...)
		b = appendString(b, g.nodes[f.node].id)
		b = append(b, `,"message":`...)
		b = appendString(b, f.message)
		b = append(b, '}')
	}
	b = append(b, `],"truncated":`...)
	b = appendBool(b, len(g.reasons) > 0)
	if len(g.reasons) > 0 {
		b = append(b, `,"truncatedReason":`...)
		b = appendString(b, strings.Join(g.reasons, "; "))
	}
	b = append(b, `,"totalNodes":`...)
	b = appendInt(b, int64(g.totalNodes))
	b = append(b, `,"totalEdges":`...)
	b = appendInt(b, int64(g.totalEdges))
	b = append(b, `,"offset":`...)
	b = appendInt(b, int64(g.in.Offset))
	b = append(b, `,"priorKey":`...)
	b = appendString(b, g.priorKey)
	b = append(b, `,"resultKey":`...)
	b = appendString(b, g.resultKey)
	if g.nextOffset > 0 {
		b = append(b, `,"nextOffset":`...)
		b = appendInt(b, int64(g.nextOffset))
	}
	if g.notice != "" {
		b = append(b, `,"notice":`...)
		b = appendString(b, g.notice)
	}
	b = append(b, `,"rendered":`...)
	b = g.rendered.appendJSON(b)
	return append(b, '}')
}

func (g *hierarchyGraph) appendNode(b []byte, n hierarchyNode) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, n.id)
	b = append(b, `,"name":`...)
	b = appendString(b, n.item.name)
	kind, symbol := g.named(n)
	if kind != "" {
		b = append(b, `,"kind":`...)
		b = appendString(b, kind)
	}
	if symbol != "" {
		b = append(b, `,"symbol":`...)
		b = appendString(b, symbol)
	}
	if n.item.detail != "" {
		b = append(b, `,"detail":`...)
		b = appendString(b, n.item.detail)
	}
	b = append(b, `,"path":`...)
	b = appendString(b, n.path)
	b = appendPosition(b, n.item.sel)
	b = append(b, `,"depth":`...)
	b = appendInt(b, int64(n.depth))
	b = append(b, `,"expanded":`...)
	b = appendBool(b, n.expanded)
	if n.unexpanded != "" {
		b = append(b, `,"unexpanded":`...)
		b = appendString(b, n.unexpanded)
	}
	if n.cycle {
		b = append(b, `,"cycle":true`...)
	}
	if n.outside {
		b = append(b, `,"outsideWorkspace":true`...)
	}
	return append(b, '}')
}

// appendPosition appends ,"line":…,"column":…,"endLine":…,"endColumn":…
// (one-based) of a range.
func appendPosition(b []byte, r Range) []byte {
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, toOneBased(r.Start.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, toOneBased(r.Start.Character), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendUint(b, toOneBased(r.End.Line), 10)
	b = append(b, `,"endColumn":`...)
	b = strconv.AppendUint(b, toOneBased(r.End.Character), 10)
	return b
}

// Text.

// render writes the graph for the model: the subject, a heading, the tree
// (one line per edge, indented by depth, each node's own edges under the
// line it was discovered on; an edge to a node listed elsewhere is one
// line marked "(cycle)" or "(see above/below)"), then failures and
// truncation. The text stays within maxResultChars code points, cut
// between lines.
func (g *hierarchyGraph) render() Rendered {
	in := g.in
	var head []string
	if in.Subject != "" {
		head = append(head, in.Subject)
	}
	if len(g.nodes) == 0 {
		head = append(head, upperFirst(g.notice)+".")
		return fitText(Rendered{Text: strings.Join(head, "\n"), Omitted: g.totalNodes}, in.MaxResultChars)
	}
	head = append(head, g.heading()+", depth "+strconv.Itoa(in.Depth)+" — "+strconv.Itoa(len(g.nodes))+" "+plural(len(g.nodes), "node", "nodes")+
		", "+strconv.Itoa(len(g.edges))+" "+plural(len(g.edges), "edge", "edges")+":")

	// The tree: lines with the node they show for the first time (-1 for
	// none).
	type line struct {
		text string
		node int
	}
	var body []line
	printed := make([]bool, len(g.nodes))
	edgesFrom := make([][]int, len(g.nodes))
	for i, e := range g.edges {
		edgesFrom[e.from] = append(edgesFrom[e.from], i)
	}
	var walk func(n, indent int)
	walk = func(n, indent int) {
		for _, ei := range edgesFrom[n] {
			e := g.edges[ei]
			to := g.nodes[e.to]
			var b strings.Builder
			b.WriteString(strings.Repeat("  ", indent) + in.Kind.arrow + " " + g.label(to))
			if s := g.sitesText(e); s != "" {
				b.WriteString(" — " + s)
			}
			switch {
			case e.cycle:
				b.WriteString(" (cycle)")
			case to.parentEdge != ei && printed[e.to]:
				b.WriteString(" (see above)")
			case to.parentEdge != ei:
				b.WriteString(" (see below)")
			default:
				b.WriteString(g.state(to))
				printed[e.to] = true
				body = append(body, line{b.String(), e.to})
				walk(e.to, indent+1)
				continue
			}
			body = append(body, line{b.String(), -1})
		}
	}
	for i, n := range g.nodes {
		if n.depth != 0 {
			continue
		}
		printed[i] = true
		body = append(body, line{"- " + g.label(n) + g.state(n), i})
		switch {
		case !n.expanded || len(edgesFrom[i]) > 0:
		case n.refused > 0: // all of them past a limit: not "none"
			more := ""
			if g.nextOffset > 0 {
				more = "; they follow on the next page"
			}
			body = append(body, line{"  (" + in.Kind.name + " found past the limit: " + strconv.Itoa(n.refused) + more + ")", -1})
		default:
			body = append(body, line{"  (no " + in.Kind.name + " found" + noCallersCaveat(in.Kind.name, n.item) + ")", -1})
		}
		walk(i, 1)
	}

	var tail []string
	if len(g.pending) > 0 {
		tail = append(tail, "("+strconv.Itoa(len(g.pending))+" "+plural(len(g.pending), "node", "nodes")+" still to expand)")
	}
	for _, f := range g.failures {
		tail = append(tail, "Failed to expand "+g.label(g.nodes[f.node])+": "+clip(f.message, 300))
	}
	if len(g.reasons) > 0 {
		s := "(truncated: " + strings.Join(g.reasons, "; ")
		if g.totalNodes > len(g.nodes) {
			// Nodes past the limit are not expanded: more may be beyond.
			s += "; " + strconv.Itoa(len(g.nodes)) + " of at least " + strconv.Itoa(g.totalNodes) + " nodes found are shown"
		}
		switch {
		case g.nextOffset > 0:
			s += "; the rest follow on the next page"
		case g.budgetReached && in.Limit < MaxHierarchyLimit:
			s += "; ask for a smaller depth, or raise limit (at most " + strconv.Itoa(MaxHierarchyLimit) + ")"
		default:
			s += "; ask for a smaller depth"
		}
		tail = append(tail, s+")")
	}

	shown := 0
	for _, l := range body {
		if l.node >= 0 {
			shown++
		}
	}
	all := append(append(append([]string{}, head...), func() []string {
		out := make([]string, len(body))
		for i, l := range body {
			out[i] = l.text
		}
		return out
	}()...), tail...)
	text := strings.Join(all, "\n")
	if utf8.RuneCountInString(text) <= in.MaxResultChars {
		return Rendered{Text: text, Shown: shown, Omitted: g.totalNodes - shown}
	}
	// Too long: the head, the most lines of the tree that fit, a notice.
	notice := func(shown int) string {
		return "(text cut to " + strconv.Itoa(in.MaxResultChars) + " characters: " + strconv.Itoa(shown) + " of " +
			strconv.Itoa(g.totalNodes) + " nodes shown; ask for a smaller depth or limit)"
	}
	var b strings.Builder
	b.WriteString(strings.Join(head, "\n"))
	used := utf8.RuneCountInString(b.String())
	shown = 0
	for _, l := range body {
		n := 1 + utf8.RuneCountInString(l.text)
		add := 0
		if l.node >= 0 {
			add = 1
		}
		if used+n+1+utf8.RuneCountInString(notice(shown+add)) > in.MaxResultChars {
			break
		}
		b.WriteString("\n" + l.text)
		used += n
		shown += add
	}
	b.WriteString("\n" + notice(shown))
	out := Rendered{Text: b.String(), Shown: shown, Omitted: g.totalNodes - shown, Truncated: true}
	if utf8.RuneCountInString(out.Text) > in.MaxResultChars {
		out.Text = firstRunes(out.Text, in.MaxResultChars)
	}
	return out
}

// heading is "Callers of `total` (function) at geom/geom.go:20:6" or
// "Callers of 2 items at the target".
func (g *hierarchyGraph) heading() string {
	roots := 0
	for _, n := range g.nodes {
		if n.depth == 0 {
			roots++
		}
	}
	s := g.in.Kind.title + " of "
	if roots != 1 {
		return s + strconv.Itoa(roots) + " items at the target"
	}
	return s + quoteCode(g.nodes[0].item.name) + g.kindText(g.nodes[0]) + " at " + g.location(g.nodes[0])
}

// named is a node's kind and qualified name: the outline's symbol at the
// node when the host gave its file's outline (a hierarchy item says less:
// gopls calls every method a function and a struct a class, with no
// receiver; pyright's methods have no class), else the item's kind and
// no qualified name.
func (g *hierarchyGraph) named(n hierarchyNode) (kind, symbol string) {
	for _, s := range g.in.Outlines[n.path] {
		if s.Selection.Start == n.item.sel.Start || (s.Selection.Start.Line == n.item.sel.Start.Line && s.Name == n.item.name) {
			return s.Kind.String(), s.QualifiedName()
		}
	}
	return n.item.kind.String(), ""
}

// kindText is " (method Circle.Area)", " (struct)" or "" for a label.
func (g *hierarchyGraph) kindText(n hierarchyNode) string {
	kind, symbol := g.named(n)
	if symbol == n.item.name {
		symbol = ""
	}
	if symbol == "" && strings.HasPrefix(n.item.name, "("+kind+") ") {
		return "" // the name says it: pyright's module-level caller "(module) a.py"
	}
	switch {
	case kind != "" && symbol != "":
		return " (" + kind + " " + symbol + ")"
	case kind != "" || symbol != "":
		return " (" + kind + symbol + ")"
	}
	return ""
}

// renderPage writes a later page (offset > 0), or a first page whose
// tree does not fit maxResultChars, for the model: the heading
// with the page's node range, then each node of the page in node order
// with its edges to the nodes before it (earlier pages' included), one
// line per edge that names both ends ("from arrow to"), then what is
// left. The text stays within maxResultChars: a page that does not fit
// ends with the last node whose lines fit (Shown says how many).
func (g *hierarchyGraph) renderPage() Rendered {
	in := g.in
	var head []string
	if in.Subject != "" {
		head = append(head, in.Subject)
	}
	at := func(n hierarchyNode) string { return n.item.name + " " + g.location(n) }
	if g.start >= g.end {
		head = append(head, g.heading()+", depth "+strconv.Itoa(in.Depth)+" — no nodes after the first "+strconv.Itoa(g.start)+
			" ("+strconv.Itoa(g.totalNodes)+" found).")
		return fitText(Rendered{Text: strings.Join(head, "\n"), Omitted: max(0, g.totalNodes-g.start)}, in.MaxResultChars)
	}
	total := strconv.Itoa(g.totalNodes)
	if g.budgetReached {
		total = "at least " + total
	}
	heading := func(end int) string {
		return g.heading() + ", depth " + strconv.Itoa(in.Depth) + " — nodes " + strconv.Itoa(g.start+1) + "–" + strconv.Itoa(end) +
			" of " + total + ", each with its edges to the nodes before it (" + in.Kind.legend + "):"
	}
	head = append(head, heading(g.end))

	// One group of lines per node of the page.
	groups := make([][]string, g.end-g.start)
	failed := map[int]string{}
	for _, f := range g.failures {
		failed[f.node] = f.message
	}
	for i := g.start; i < g.end; i++ {
		n := g.nodes[i]
		state := g.state(n)
		if msg, ok := failed[i]; ok {
			state = " (not expanded: failed: " + clip(msg, 300) + ")"
		}
		groups[i-g.start] = []string{"- " + g.label(n) + ", depth " + strconv.Itoa(n.depth) + state}
	}
	for _, e := range g.edges {
		if !g.onPage(e) {
			continue
		}
		last := max(e.from, e.to)
		l := "  " + at(g.nodes[e.from]) + " " + in.Kind.arrow + " " + at(g.nodes[e.to])
		if s := g.sitesText(e); s != "" {
			l += " — " + s
		}
		if e.cycle {
			l += " (cycle)"
		}
		groups[last-g.start] = append(groups[last-g.start], l)
	}

	var tail []string
	if len(g.pending) > 0 {
		tail = append(tail, "("+strconv.Itoa(len(g.pending))+" "+plural(len(g.pending), "node", "nodes")+" still to expand)")
	}
	switch {
	case g.nextOffset > 0:
		tail = append(tail, "(more follow: "+strconv.Itoa(g.totalNodes-g.end)+" more "+plural(g.totalNodes-g.end, "node", "nodes")+
			" found so far; the next page continues with them)")
	case len(g.reasons) > 0:
		tail = append(tail, "(truncated: "+strings.Join(g.reasons, "; ")+"; ask for a smaller depth)")
	}

	lines := head
	for _, gr := range groups {
		lines = append(lines, gr...)
	}
	text := strings.Join(append(lines, tail...), "\n")
	if utf8.RuneCountInString(text) <= in.MaxResultChars {
		return Rendered{Text: text, Shown: g.end - g.start, Omitted: g.totalNodes - g.end}
	}
	// Too long: the most whole groups that fit with the notice (the
	// heading of fewer nodes is no longer).
	notice := func(shown int) string {
		s := "(text cut to " + strconv.Itoa(in.MaxResultChars) + " characters: "
		if shown == 0 {
			return s + "no node fits)"
		}
		s += "nodes " + strconv.Itoa(g.start+1) + "–" + strconv.Itoa(g.start+shown) + " shown"
		if g.continues(g.start + shown) {
			s += "; the next page continues after them"
		}
		return s + ")"
	}
	used := utf8.RuneCountInString(strings.Join(head, "\n"))
	shown := 0
	for _, gr := range groups {
		n := 0
		for _, l := range gr {
			n += 1 + utf8.RuneCountInString(l)
		}
		if used+n+1+utf8.RuneCountInString(notice(shown+1)) > in.MaxResultChars {
			break
		}
		used += n
		shown++
	}
	head[len(head)-1] = heading(g.start + max(shown, 1))
	var b strings.Builder
	b.WriteString(strings.Join(head, "\n"))
	for _, gr := range groups[:shown] {
		for _, l := range gr {
			b.WriteString("\n" + l)
		}
	}
	b.WriteString("\n" + notice(shown))
	out := Rendered{Text: b.String(), Shown: shown, Omitted: g.totalNodes - g.start - shown, Truncated: true}
	if utf8.RuneCountInString(out.Text) > in.MaxResultChars {
		out.Text = firstRunes(out.Text, in.MaxResultChars)
	}
	return out
}

func (g *hierarchyGraph) location(n hierarchyNode) string {
	return n.path + ":" + strconv.FormatUint(toOneBased(n.item.sel.Start.Line), 10) + ":" + strconv.FormatUint(toOneBased(n.item.sel.Start.Character), 10)
}

// label is "name (kind) path:line:column", "name (kind Container.name)
// path:line:column" with the outline's symbol.
func (g *hierarchyGraph) label(n hierarchyNode) string {
	return n.item.name + g.kindText(n) + " " + g.location(n)
}

// state says why a node listed in the tree was not expanded.
func (g *hierarchyGraph) state(n hierarchyNode) string {
	switch n.unexpanded {
	case unexpandedPending:
		return " (not expanded yet)"
	case unexpandedBudget:
		return " (not expanded: budget reached)"
	case unexpandedTime:
		return " (not expanded: time budget ran out)"
	case unexpandedFailed:
		return " (not expanded: failed, see below)"
	}
	return ""
}

// sitesText is "call at path:l:c" or "3 calls at path:l:c, l:c, l:c" (all
// in the caller's file), "recursive" for a function calling itself.
func (g *hierarchyGraph) sitesText(e hierarchyEdge) string {
	if len(e.sites) == 0 {
		return ""
	}
	var b strings.Builder
	if e.from == e.to {
		b.WriteString("recursive ")
	}
	if len(e.sites) == 1 {
		b.WriteString("call at ")
	} else {
		b.WriteString(strconv.Itoa(len(e.sites)) + " calls at ")
	}
	prev := ""
	for i, s := range e.sites {
		if i == maxCallSitesShown {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		p := displayPath(s.uri, g.wsPath)
		if p != prev {
			b.WriteString(p + ":")
			prev = p
		}
		b.WriteString(strconv.FormatUint(toOneBased(s.r.Start.Line), 10) + ":" + strconv.FormatUint(toOneBased(s.r.Start.Character), 10))
	}
	return b.String()
}

// noCallersCaveat qualifies "no callers found" for a constructor: servers
// often do not link a class's instantiation to it (pyright answers
// click's FileError.__init__ with none, though `raise FileError(…)` calls
// it), and "no callers" would read as "unused".
func noCallersCaveat(kind string, item hierarchyItem) string {
	if kind != "callers" || (item.kind != symbolKindConstructor && item.name != "__init__" && item.name != "constructor") {
		return ""
	}
	return "; servers often do not count creating an instance (calling the class) as a call of its constructor: the class's references show those"
}
