package core

import (
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
		if int64(len(nodes)) > ok.Get("limit").Int() || int64(len(edges)) > ok.Get("maxEdges").Int() {
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
			if _, ok := ids[from]; !ok {
				t.Fatalf("edge from unknown node %q: %s", from, env)
			}
			if _, ok := ids[to]; !ok {
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
			if !listed || pending[id] || n.Get("expanded").Bool() || !p.Get("item").IsObject() || p.Get("method").Str == "" {
				t.Fatalf("bad pending entry %s: %s", p.Raw, env)
			}
			pending[id] = true
		}
		if len(pending) > 0 && ok.Get("truncated").Bool() {
			t.Fatalf("a truncated graph with pending nodes: %s", env)
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
