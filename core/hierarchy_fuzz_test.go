package core

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// FuzzHierarchy feeds hierarchy hostile roots and expansions (servers'
// payloads) and arguments: the answer is a well-formed envelope with a
// documented code, and an ok graph keeps its own rules — within the
// budgets, edges between listed nodes, pending nodes listed once and not
// already expanded, the text within maxResultChars.
func FuzzHierarchy(f *testing.F) {
	seed(f, "hierarchy")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("hierarchy", input)
		ok := checkEnvelope(t, input, env, 64*len(input)+1<<17)
		if !ok.Exists() {
			return
		}
		nodes, edges := ok.Get("nodes").Array(), ok.Get("edges").Array()
		offset := int(ok.Get("offset").Int())
		maxEdges := pagedEdgeLimit(int(ok.Get("maxEdges").Int()), offset, int(ok.Get("limit").Int()))
		if int64(len(nodes)) > ok.Get("limit").Int() || len(edges) > maxEdges {
			t.Fatalf("budgets exceeded: %d nodes, %d edges: %s", len(nodes), len(edges), env)
		}
		if ok.Get("totalNodes").Int() < int64(len(nodes)) || ok.Get("totalEdges").Int() < int64(len(edges)) {
			t.Fatalf("totals below the counts: %s", env)
		}
		maxDepth := ok.Get("depth").Int()
		ids := map[string]gjson.Result{}
		for _, n := range nodes {
			id := n.Get("id").Str
			if _, dup := ids[id]; dup {
				t.Fatalf("node %q twice: %s", id, env)
			}
			if d := n.Get("depth").Int(); d < 0 || d > maxDepth || (n.Get("expanded").Bool() && d >= maxDepth) {
				t.Fatalf("node %q at depth %d (max %d): %s", id, d, maxDepth, env)
			}
			ids[id] = n
		}
		seen := map[string]bool{}
		for _, e := range edges {
			from, to := e.Get("from").Str, e.Get("to").Str
			_, okFrom := ids[from]
			_, okTo := ids[to]
			// A later page's edge may come from or go to an earlier
			// page's node; its other node is on the page.
			if !okFrom && (offset == 0 || !okTo) {
				t.Fatalf("edge from unknown node %q: %s", from, env)
			}
			if !okTo && (offset == 0 || !okFrom) {
				t.Fatalf("edge to unknown node %q: %s", to, env)
			}
			if seen[from+"\x00"+to] {
				t.Fatalf("edge %q → %q twice: %s", from, to, env)
			}
			seen[from+"\x00"+to] = true
		}
		pending := map[string]bool{}
		for _, p := range ok.Get("pending").Array() {
			id := p.Get("id").Str
			n, listed := ids[id]
			if (!listed && offset == 0) || pending[id] || n.Get("expanded").Bool() || !p.Get("item").IsObject() || p.Get("method").Str == "" {
				t.Fatalf("bad pending entry %s: %s", p.Raw, env)
			}
			pending[id] = true
		}
		// A node limit only refuses new nodes; the edge limit and the
		// clock end the traversal.
		if reason := ok.Get("truncatedReason").Str; len(pending) > 0 && (strings.Contains(reason, "edge limit") || strings.Contains(reason, "time budget")) {
			t.Fatalf("a graph cut by the edge limit or the clock with pending nodes: %s", env)
		}
		if offset > 0 {
			samePage(t, input, ok)
		}
		max := int(gjson.GetBytes(input, "maxResultChars").Int())
		if max <= 0 {
			max = DefaultMaxResultChars
		}
		if n := utf8.RuneCountInString(ok.Get("rendered.text").Str); n > max {
			t.Fatalf("text of %d characters, maxResultChars %d", n, max)
		}
	})
}

// samePage checks a later page against the graph it is a page of: the
// same input at offset 0 with offset + limit nodes and the page's edge
// limit has the page's nodes from offset on, in order, and the page's
// edges are the ones whose later node is among them.
func samePage(t *testing.T, input []byte, page gjson.Result) {
	offset, limit := int(page.Get("offset").Int()), int(page.Get("limit").Int())
	edges := pagedEdgeLimit(int(page.Get("maxEdges").Int()), offset, limit)
	if offset+limit > MaxHierarchyLimit || edges > MaxHierarchyEdges {
		return // beyond what one page can ask for
	}
	in := map[string]json.RawMessage{}
	if json.Unmarshal(input, &in) != nil {
		return
	}
	in["offset"], _ = json.Marshal(0)
	in["limit"], _ = json.Marshal(offset + limit)
	in["maxEdges"], _ = json.Marshal(edges)
	in["maxResultChars"], _ = json.Marshal(maxUint31)
	whole, _ := json.Marshal(in)
	env := Call("hierarchy", whole)
	all := gjson.GetBytes(env, "ok")
	if !all.Exists() {
		t.Fatalf("the page is ok, the whole graph is not: %s", env)
	}
	var ids []string
	index := map[string]int{}
	for i, n := range all.Get("nodes").Array() {
		ids = append(ids, n.Get("id").Str)
		index[n.Get("id").Str] = i
	}
	got := page.Get("nodes").Array()
	for i, n := range got {
		if offset+i >= len(ids) || ids[offset+i] != n.Get("id").Str {
			t.Fatalf("page node %d is %s, the whole graph's %v:\npage %s\nwhole %s", offset+i, n.Get("id").Str, ids, page.Raw, all.Raw)
		}
	}
	end := offset + len(got)
	var want, have []string
	for _, e := range all.Get("edges").Array() {
		if last := max(index[e.Get("from").Str], index[e.Get("to").Str]); last >= offset && last < end {
			want = append(want, e.Raw)
		}
	}
	for _, e := range page.Get("edges").Array() {
		have = append(have, e.Raw)
	}
	if strings.Join(want, "\n") != strings.Join(have, "\n") {
		t.Fatalf("page edges\n%s\nwant\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
	if page.Get("totalNodes").Int() != all.Get("totalNodes").Int() {
		t.Fatalf("page totalNodes %d, whole %d", page.Get("totalNodes").Int(), all.Get("totalNodes").Int())
	}
}
