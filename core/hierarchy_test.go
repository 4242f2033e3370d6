package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// A fake server's call graph for the host loop: each function's callers
// (for callers) or callees (for callees), by name. Every function lives in
// its own file f/NAME.go at line 1, column 6 (zero-based 0:5).
type fakeGraph map[string][]string

func fakeItem(name string) map[string]any {
	pos := func(l, c int) map[string]any { return map[string]any{"line": l, "character": c} }
	return map[string]any{
		"name": name, "kind": 12, "uri": "file:///ws/f/" + name + ".go",
		"range":          map[string]any{"start": pos(0, 0), "end": pos(3, 1)},
		"selectionRange": map[string]any{"start": pos(0, 5), "end": pos(0, 5+len(name))},
		"data":           map[string]any{"name": name},
	}
}

// expand answers one pending entry as a server would: the item's data
// names the function, so a lost data field fails the test.
func (g fakeGraph) expand(t *testing.T, kind string, item gjson.Result) any {
	t.Helper()
	name := item.Get("data.name").Str
	if name == "" || name != item.Get("name").Str {
		t.Fatalf("pending item lost its data: %s", item.Raw)
	}
	out := []any{}
	for i, other := range g[name] {
		site := map[string]any{"start": map[string]any{"line": 2 + i, "character": 1}, "end": map[string]any{"line": 2 + i, "character": 4}}
		switch kind {
		case "callers":
			out = append(out, map[string]any{"from": fakeItem(other), "fromRanges": []any{site}})
		case "callees":
			out = append(out, map[string]any{"to": fakeItem(other), "fromRanges": []any{site}})
		default:
			out = append(out, fakeItem(other))
		}
	}
	return out
}

// runHierarchy plays the host loop: call, expand every pending node, call
// again, until nothing is pending; rounds counts the calls. fail names
// nodes whose request fails; stopAfter > 0 stops after that many rounds
// with timedOut.
func runHierarchy(t *testing.T, g fakeGraph, args map[string]any, fail map[string]bool, stopAfter int) (ok gjson.Result, rounds int) {
	t.Helper()
	expansions := map[string]any{}
	in := map[string]any{"workspaceUri": "file:///ws"}
	for k, v := range args {
		in[k] = v
	}
	for {
		rounds++
		in["expansions"] = expansions
		if stopAfter > 0 && rounds > stopAfter {
			in["timedOut"] = true
		}
		input, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		env := Call("hierarchy", input)
		if !json.Valid(env) {
			t.Fatalf("invalid JSON: %s", env)
		}
		// Same input, same bytes.
		if again := Call("hierarchy", input); !bytes.Equal(env, again) {
			t.Fatalf("not deterministic:\n%s\n%s", env, again)
		}
		v := gjson.ParseBytes(env)
		if e := v.Get("error"); e.Exists() {
			t.Fatalf("error: %s", env)
		}
		ok = v.Get("ok")
		pending := ok.Get("pending").Array()
		if len(pending) == 0 {
			return ok, rounds
		}
		if rounds > 10 {
			t.Fatalf("still pending after %d rounds: %s", rounds, env)
		}
		for _, p := range pending {
			id := p.Get("id").Str
			if _, dup := expansions[id]; dup {
				t.Fatalf("node %s is pending again: %s", id, env)
			}
			if fail[p.Get("item.name").Str] {
				expansions[id] = map[string]any{"error": "boom"}
				continue
			}
			expansions[id] = map[string]any{"result": g.expand(t, args["kind"].(string), p.Get("item"))}
		}
	}
}

func names(list gjson.Result, field string) string {
	var out []string
	for _, v := range list.Array() {
		out = append(out, v.Get(field).Str)
	}
	return strings.Join(out, ",")
}

func TestHierarchyHostLoop(t *testing.T) {
	// callers: a ← b ← c ← d ← e ← f, with b ↔ x mutual recursion, a
	// recursive, and c also calling a directly.
	chain := fakeGraph{"a": {"b", "a", "c"}, "b": {"c", "x"}, "x": {"b"}, "c": {"d"}, "d": {"e"}, "e": {"f"}}
	id := func(n string) string { return "f/" + n + ".go:1:6#" + n }
	for _, tc := range []struct {
		name       string
		args       map[string]any
		fail       map[string]bool
		stopAfter  int
		wantNodes  string // node names in discovery order
		wantDepths string
		wantRounds int
		truncated  string // the reason, "" for none
		cycles     string // names of nodes marked cycle
		text       []string
	}{
		{name: "depth 1", args: map[string]any{"kind": "callers", "depth": 1},
			wantNodes: "a,b,c", wantDepths: "0,1,1", wantRounds: 2, cycles: "a",
			text: []string{"← a (function) f/a.go:1:6 — recursive call at f/a.go:4:2 (cycle)\n", "← c (function) f/c.go:1:6 — call at f/c.go:5:2"}},
		{name: "depth 2", args: map[string]any{"kind": "callers", "depth": 2},
			wantNodes: "a,b,c,x,d", wantDepths: "0,1,1,2,2", wantRounds: 3, cycles: "a"},
		{name: "depth 4", args: map[string]any{"kind": "callers", "depth": 4},
			wantNodes: "a,b,c,x,d,e,f", wantDepths: "0,1,1,2,2,3,4", wantRounds: 5, cycles: "a,b",
			text: []string{"      ← b (function) f/b.go:1:6 — call at f/b.go:3:2 (cycle)", "← c (function) f/c.go:1:6 — call at f/c.go:3:2 (see below)"}},
		{name: "node limit", args: map[string]any{"kind": "callers", "depth": 4, "limit": 4},
			wantNodes: "a,b,c,x", wantDepths: "0,1,1,2", wantRounds: 4, cycles: "a,b", truncated: "node limit 4 reached"},
		{name: "edge limit", args: map[string]any{"kind": "callers", "depth": 4, "maxEdges": 3},
			wantNodes: "a,b,c", wantDepths: "0,1,1", wantRounds: 3, cycles: "a", truncated: "edge limit 3 reached"},
		{name: "failure", args: map[string]any{"kind": "callers", "depth": 4}, fail: map[string]bool{"c": true},
			wantNodes: "a,b,c,x", wantDepths: "0,1,1,2", wantRounds: 4, cycles: "a,b",
			text: []string{"Failed to expand c (function) f/c.go:1:6: boom"}},
		{name: "timed out", args: map[string]any{"kind": "callers", "depth": 4}, stopAfter: 2,
			wantNodes: "a,b,c,x,d", wantDepths: "0,1,1,2,2", wantRounds: 3, cycles: "a",
			truncated: "time budget ran out before 2 nodes were expanded"},
		{name: "callees", args: map[string]any{"kind": "callees", "depth": 2},
			wantNodes: "a,b,c,x,d", wantDepths: "0,1,1,2,2", wantRounds: 3, cycles: "a",
			text: []string{"→ b (function) f/b.go:1:6 — call at f/a.go:3:2"}},
		{name: "supertypes", args: map[string]any{"kind": "supertypes", "depth": 3},
			wantNodes: "a,b,c,x,d,e", wantDepths: "0,1,1,2,2,3", wantRounds: 4, cycles: "a,b",
			text: []string{"↑ b (function) f/b.go:1:6\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"roots": []any{fakeItem("a")}}
			for k, v := range tc.args {
				args[k] = v
			}
			ok, rounds := runHierarchy(t, chain, args, tc.fail, tc.stopAfter)
			if got := names(ok.Get("nodes"), "name"); got != tc.wantNodes {
				t.Errorf("nodes %s, want %s", got, tc.wantNodes)
			}
			var depths []string
			for _, n := range ok.Get("nodes").Array() {
				depths = append(depths, n.Get("depth").Raw)
			}
			if got := strings.Join(depths, ","); got != tc.wantDepths {
				t.Errorf("depths %s, want %s", got, tc.wantDepths)
			}
			if rounds != tc.wantRounds {
				t.Errorf("%d rounds, want %d", rounds, tc.wantRounds)
			}
			if got := ok.Get("truncatedReason").Str; got != tc.truncated || ok.Get("truncated").Bool() != (tc.truncated != "") {
				t.Errorf("truncated %v %q, want %q", ok.Get("truncated").Bool(), got, tc.truncated)
			}
			var cycles []string
			for _, n := range ok.Get("nodes").Array() {
				if n.Get("cycle").Bool() {
					cycles = append(cycles, n.Get("name").Str)
				}
			}
			if got := strings.Join(cycles, ","); got != tc.cycles {
				t.Errorf("cycle nodes %s, want %s", got, tc.cycles)
			}
			// Every edge joins two listed nodes; edges are unique; a node's
			// depth is one more than the node it was found from, at most.
			depth := map[string]int64{}
			for _, n := range ok.Get("nodes").Array() {
				depth[n.Get("id").Str] = n.Get("depth").Int()
			}
			seen := map[string]bool{}
			for _, e := range ok.Get("edges").Array() {
				from, to := e.Get("from").Str, e.Get("to").Str
				df, okf := depth[from]
				dt, okt := depth[to]
				if !okf || !okt || dt > df+1 {
					t.Errorf("edge %s → %s: nodes missing or depth skipped", from, to)
				}
				if seen[from+" "+to] {
					t.Errorf("edge %s → %s twice", from, to)
				}
				seen[from+" "+to] = true
			}
			if ok.Get("totalEdges").Int() < int64(len(ok.Get("edges").Array())) || ok.Get("totalNodes").Int() < int64(len(ok.Get("nodes").Array())) {
				t.Errorf("totals below the counts: %s", ok.Raw)
			}
			text := ok.Get("rendered.text").Str
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			if tc.name == "depth 1" && ok.Get("nodes.0.id").Str != id("a") {
				t.Errorf("root id %s", ok.Get("nodes.0.id").Str)
			}
		})
	}
}

func TestHierarchyArguments(t *testing.T) {
	root := `[{"name":"a","kind":12,"uri":"file:///ws/a.go","range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}}}]`
	for _, tc := range []struct {
		name, input string
		code        Code // "" for ok
		contains    string
	}{
		{"defaults", `{"kind":"callers","roots":` + root + `,"workspaceUri":"file:///ws"}`, "", `"depth":1,"limit":100,"maxEdges":400`},
		{"maxEdges follows limit", `{"kind":"callers","limit":500,"roots":` + root + `,"workspaceUri":"file:///ws"}`, "", `"limit":500,"maxEdges":2000`},
		{"integral float depth", `{"kind":"subtypes","depth":2.0,"roots":` + root + `,"workspaceUri":"file:///ws"}`, "", `"depth":2`},
		{"not an object", `[]`, CodeInvalidArgument, "must be a JSON object"},
		{"kind missing", `{"roots":null,"workspaceUri":"file:///ws"}`, CodeInvalidArgument, "kind must be one of"},
		{"depth 0", `{"kind":"callers","depth":0,"roots":null,"workspaceUri":"file:///ws"}`, CodeInvalidArgument, "depth must be 1 to 4"},
		{"depth fraction", `{"kind":"callers","depth":1.5,"roots":null,"workspaceUri":"file:///ws"}`, CodeInvalidArgument, "depth must be 1 to 4"},
		{"limit 501", `{"kind":"callers","limit":501,"roots":null,"workspaceUri":"file:///ws"}`, CodeInvalidArgument, "limit must be 1 to 500"},
		{"maxEdges 5001", `{"kind":"callers","maxEdges":5001,"roots":null,"workspaceUri":"file:///ws"}`, CodeInvalidArgument, "maxEdges must be 1 to 5000"},
		{"workspace not a URI", `{"kind":"callers","roots":null,"workspaceUri":"ws"}`, CodeInvalidArgument, "workspaceUri must be the file: URI"},
		{"workspace missing", `{"kind":"callers","roots":null}`, CodeInvalidArgument, "workspaceUri must be the file: URI"},
		{"timedOut not a boolean", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","timedOut":"yes"}`, CodeInvalidArgument, "timedOut must be a boolean"},
		{"subject not a string", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","subject":1}`, CodeInvalidArgument, "subject must be a string"},
		{"expansions an array", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","expansions":[]}`, CodeInvalidArgument, "expansions must be an object"},
		{"expansion with both", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","expansions":{"x":{"result":[],"error":"e"}}}`, CodeInvalidArgument, "has both result and error"},
		{"expansion empty", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","expansions":{"x":{}}}`, CodeInvalidArgument, "must be {result: RAW}"},
		{"unknown expansion ignored", `{"kind":"callers","roots":null,"workspaceUri":"file:///ws","expansions":{"x":{"result":7}}}`, "", `"nodes":[]`},
		{"roots a string", `{"kind":"callers","roots":"x","workspaceUri":"file:///ws"}`, CodeMalformedResponse, "prepareCallHierarchy response is malformed: result must be null or an array"},
		{"root kind a string", `{"kind":"supertypes","roots":[{"name":"a","kind":"class"}],"workspaceUri":"file:///ws"}`, CodeMalformedResponse, "result[0].kind must be a SymbolKind number"},
		{"root detail a number", `{"kind":"callers","roots":[{"name":"a","kind":12,"detail":1}],"workspaceUri":"file:///ws"}`, CodeMalformedResponse, "result[0].detail must be a string"},
		{"root not an object", `{"kind":"callers","roots":[1],"workspaceUri":"file:///ws"}`, CodeMalformedResponse, "result[0] must be an item object"},
		{"unknown kind number", `{"kind":"callers","roots":[{"name":"a","kind":99,"uri":"file:///ws/a.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"selectionRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}],"workspaceUri":"file:///ws"}`, "", `"name":"a","path":"a.go"`},
		{"non-file URI is kept verbatim", `{"kind":"callers","roots":[{"name":"a","kind":12,"uri":"jdt://contents/X.class","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"selectionRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}],"workspaceUri":"file:///ws"}`, "", `"id":"jdt://contents/X.class:1:1#a"`},
		{"expansion result an object", `{"kind":"callees","roots":` + root + `,"workspaceUri":"file:///ws","expansions":{"a.go:1:6#a":{"result":{}}}}`, "", `result must be null or an array of {to, fromRanges}`},
		{"expansion entry not an object", `{"kind":"callers","roots":` + root + `,"workspaceUri":"file:///ws","expansions":{"a.go:1:6#a":{"result":[1]}}}`, "", `result[0] must be an object {from, fromRanges}`},
		{"type expansion item bad", `{"kind":"subtypes","roots":` + root + `,"workspaceUri":"file:///ws","expansions":{"a.go:1:6#a":{"result":[{"name":"b"}]}}}`, "", `typeHierarchy/subtypes response for a.go:1:6#a is malformed: result[0].kind must be a SymbolKind number`},
		{"fromRanges not an array", `{"kind":"callers","roots":` + root + `,"workspaceUri":"file:///ws","expansions":{"a.go:1:6#a":{"result":[{"from":` + root[1:len(root)-1] + `,"fromRanges":{}}]}}}`, "", `result[0].fromRanges must be an array of Range`},
		{"duplicate roots are one node", `{"kind":"callers","roots":[` + root[1:len(root)-1] + `,` + root[1:len(root)-1] + `],"workspaceUri":"file:///ws"}`, "", `"totalNodes":1`},
		{"roots beyond the limit", `{"kind":"callers","limit":1,"roots":[` + root[1:len(root)-1] + `,` + strings.Replace(root[1:len(root)-1], `"a"`, `"b"`, 1) + `],"workspaceUri":"file:///ws"}`, "", `"failures":[],"truncated":true,"truncatedReason":"node limit 1 reached","totalNodes":2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := Call("hierarchy", []byte(tc.input))
			if !json.Valid(env) {
				t.Fatalf("invalid JSON: %s", env)
			}
			v := gjson.ParseBytes(env)
			if got := Code(v.Get("error.code").Str); got != tc.code {
				t.Fatalf("code %q, want %q: %s", got, tc.code, env)
			}
			if !bytes.Contains(env, []byte(tc.contains)) {
				t.Errorf("envelope lacks %s: %s", tc.contains, env)
			}
		})
	}
}

// TestHierarchyTextBudget: the text stays within maxResultChars for every
// budget, cut between lines.
func TestHierarchyTextBudget(t *testing.T) {
	g := fakeGraph{"a": {"b", "c", "d", "e", "f", "g"}}
	ok, _ := runHierarchy(t, g, map[string]any{"kind": "callers", "roots": []any{fakeItem("a")}}, nil, 0)
	full := ok.Get("rendered.text").Str
	expansions := map[string]any{"f/a.go:1:6#a": map[string]any{"result": g.expand(t, "callers", gjson.Parse(`{"name":"a","data":{"name":"a"}}`))}}
	for n := 1; n <= len([]rune(full))+1; n += 7 {
		in, _ := json.Marshal(map[string]any{"kind": "callers", "roots": []any{fakeItem("a")}, "workspaceUri": "file:///ws", "expansions": expansions, "maxResultChars": n})
		v := gjson.ParseBytes(Call("hierarchy", in)).Get("ok.rendered")
		text := v.Get("text").Str
		if l := len([]rune(text)); l > n {
			t.Fatalf("maxResultChars %d: %d characters", n, l)
		}
		if cut := v.Get("truncated").Bool(); cut != (len([]rune(full)) > n) {
			t.Fatalf("maxResultChars %d: truncated %v (full text %d)", n, cut, len([]rune(full)))
		}
		if !v.Get("truncated").Bool() && text != full {
			t.Fatalf("maxResultChars %d: text differs", n)
		}
		if v.Get("shown").Int()+v.Get("omitted").Int() != 7 {
			t.Fatalf("maxResultChars %d: shown + omitted = %d", n, v.Get("shown").Int()+v.Get("omitted").Int())
		}
	}
}

// TestHierarchyLargeGraph: a wide, cyclic graph at the maximum budgets
// terminates within depth+1 rounds and respects the limits.
func TestHierarchyLargeGraph(t *testing.T) {
	g := fakeGraph{}
	for i := 0; i < 60; i++ {
		for j := 0; j < 12; j++ {
			g[fmt.Sprint("n", i)] = append(g[fmt.Sprint("n", i)], fmt.Sprint("n", (i*7+j*13)%60))
		}
	}
	ok, rounds := runHierarchy(t, g, map[string]any{"kind": "callees", "depth": 4, "limit": 500, "roots": []any{fakeItem("n0")}, "maxResultChars": 1 << 20}, nil, 0)
	if rounds > 5 {
		t.Errorf("%d rounds", rounds)
	}
	if n := len(ok.Get("nodes").Array()); n != 60 {
		t.Errorf("%d nodes, want 60", n)
	}
	// Its tree does not fit the default text budget: the first page is
	// listed in node order and ends with the last node that fits.
	ok, _ = runHierarchy(t, g, map[string]any{"kind": "callees", "depth": 4, "limit": 500, "roots": []any{fakeItem("n0")}}, nil, 0)
	text, n := ok.Get("rendered.text").Str, len(ok.Get("nodes").Array())
	if n == 0 || n == 60 || ok.Get("nextOffset").Int() != int64(n) || len([]rune(text)) > DefaultMaxResultChars ||
		!strings.Contains(text, fmt.Sprintf("nodes 1–%d of 60, each with its edges", n)) || !strings.Contains(text, "the next page continues after them") {
		t.Errorf("a first page cut by its text: %d nodes, nextOffset %d:\n%.300s", n, ok.Get("nextOffset").Int(), text)
	}
	ok, _ = runHierarchy(t, g, map[string]any{"kind": "callees", "depth": 4, "limit": 20, "maxEdges": 30, "roots": []any{fakeItem("n0")}}, nil, 0)
	if n, e := len(ok.Get("nodes").Array()), len(ok.Get("edges").Array()); n > 20 || e > 30 || !ok.Get("truncated").Bool() {
		t.Errorf("%d nodes, %d edges, truncated %v", n, e, ok.Get("truncated").Bool())
	}
}

// TestHierarchyPages: a graph paged by offset, each page played through
// the host loop, comes out as the unpaged graph: the pages' nodes in
// order are its nodes, their edges its edges, each once; each page's
// priorKey is the page before's resultKey, and the last has no
// nextOffset. With the default edge limit, which cuts this dense graph,
// the pages' nodes are still the unpaged graph's first ones, in order.
func TestHierarchyPages(t *testing.T) {
	g := fakeGraph{}
	for i := 0; i < 60; i++ {
		for j := 0; j < 12; j++ {
			g[fmt.Sprint("n", i)] = append(g[fmt.Sprint("n", i)], fmt.Sprint("n", (i*7+j*13)%60))
		}
	}
	args := func(extra map[string]any) map[string]any {
		a := map[string]any{"kind": "callees", "depth": 3, "roots": []any{fakeItem("n0")}, "maxResultChars": 1 << 20}
		for k, v := range extra {
			a[k] = v
		}
		return a
	}
	all, _ := runHierarchy(t, g, args(map[string]any{"limit": 500, "maxEdges": 5000}), nil, 0)
	wantNodes := names(all.Get("nodes"), "id")
	var wantEdges []string
	for _, e := range all.Get("edges").Array() {
		wantEdges = append(wantEdges, e.Raw)
	}
	follow := func(extra map[string]any) (nodes, edges []string, pages int) {
		t.Helper()
		key, offset := "", 0
		for pages = 1; ; pages++ {
			a := args(extra)
			a["offset"] = offset
			ok, _ := runHierarchy(t, g, a, nil, 0)
			if pages > 1 && ok.Get("priorKey").Str != key {
				t.Fatalf("page %d: priorKey %s, the page before's resultKey %s", pages, ok.Get("priorKey").Str, key)
			}
			for _, n := range ok.Get("nodes").Array() {
				nodes = append(nodes, n.Get("id").Str)
			}
			for _, e := range ok.Get("edges").Array() {
				edges = append(edges, e.Raw)
			}
			if ok.Get("totalNodes").Int() < int64(offset+len(ok.Get("nodes").Array())) {
				t.Fatalf("page %d: totalNodes below the nodes so far: %s", pages, ok.Raw)
			}
			key = ok.Get("resultKey").Str
			next := int(ok.Get("nextOffset").Int())
			if next == 0 {
				return nodes, edges, pages
			}
			if next != offset+len(ok.Get("nodes").Array()) || !strings.Contains(ok.Get("rendered.text").Str, "next page") {
				t.Fatalf("page %d: nextOffset %d after %d nodes from %d:\n%s", pages, next, len(ok.Get("nodes").Array()), offset, ok.Get("rendered.text").Str)
			}
			offset = next
		}
	}
	for _, limit := range []int{9, 25} {
		nodes, edges, pages := follow(map[string]any{"limit": limit, "maxEdges": 5000})
		if got := strings.Join(nodes, ","); got != wantNodes {
			t.Errorf("limit %d: the pages' nodes\n%s\nwant\n%s", limit, got, wantNodes)
		}
		if pages != (len(all.Get("nodes").Array())+limit-1)/limit {
			t.Errorf("limit %d: %d pages of %d nodes", limit, pages, len(all.Get("nodes").Array()))
		}
		slices.Sort(edges)
		want := slices.Clone(wantEdges)
		slices.Sort(want)
		if !slices.Equal(edges, want) {
			t.Errorf("limit %d: the pages' %d edges are not the graph's %d", limit, len(edges), len(want))
		}
		nodes, _, _ = follow(map[string]any{"limit": limit})
		if got := strings.Join(nodes, ","); len(nodes) == 0 || !strings.HasPrefix(wantNodes+",", got+",") {
			t.Errorf("limit %d, default edge limit: the pages' nodes\n%s\nare not the first of\n%s", limit, got, wantNodes)
		}
		// Pages cut by the text budget too.
		nodes, _, _ = follow(map[string]any{"limit": limit, "maxEdges": 5000, "maxResultChars": 2000})
		if got := strings.Join(nodes, ","); got != wantNodes {
			t.Errorf("limit %d, text cut: the pages' nodes\n%s\nwant\n%s", limit, got, wantNodes)
		}
	}
}

// A constructor with no callers says that instantiations may not count:
// pyright answered click's FileError.__init__ with none, though `raise
// FileError(…)` calls it, and "no callers found" read as unused.
func TestHierarchyConstructorWithoutCallers(t *testing.T) {
	for _, tt := range []struct {
		name   string
		kind   int
		caveat bool
	}{{"__init__", 6, true}, {"Ledger", 9, true}, {"tally", 12, false}} {
		item := fakeItem(tt.name)
		item["kind"] = tt.kind
		ok, _ := runHierarchy(t, fakeGraph{}, map[string]any{"kind": "callers", "roots": []any{item}}, nil, 0)
		text := ok.Get("rendered.text").Str
		if got := strings.Contains(text, "(no callers found; servers often do not count creating an instance"); got != tt.caveat {
			t.Errorf("%s (kind %d): caveat %v, want %v:\n%s", tt.name, tt.kind, got, tt.caveat, text)
		}
	}
}
