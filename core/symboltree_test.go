package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func symbolJSON(name string, kind int, start, end int, children string) string {
	r := `{"start":{"line":` + strconv.Itoa(start) + `,"character":0},"end":{"line":` + strconv.Itoa(end) + `,"character":1}}`
	s := `{"name":"` + name + `","kind":` + strconv.Itoa(kind) + `,"range":` + r + `,"selectionRange":` + r
	if children != "" {
		s += `,"children":[` + children + `]`
	}
	return s + "}"
}

func infoJSON(name string, kind int, start, end int, container string) string {
	s := `{"name":"` + name + `","kind":` + strconv.Itoa(kind) + `,"location":{"uri":"file:///w/a.py","range":{"start":{"line":` +
		strconv.Itoa(start) + `,"character":0},"end":{"line":` + strconv.Itoa(end) + `,"character":1}}}`
	if container != "" {
		s += `,"containerName":"` + container + `"`
	}
	return s + "}"
}

// outline writes a tree as "name(children) name …" for comparisons.
func outline(list []*symbolNode) string {
	var parts []string
	for _, n := range list {
		s := qualified(n.Container, n.Name)
		if len(n.Children) > 0 {
			s += "(" + outline(n.Children) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestReadSymbolTree(t *testing.T) {
	tests := []struct {
		name, in, want string
		total          int
	}{
		{"tree sorted by position", `[` + symbolJSON("B", 12, 5, 6, "") + `,` + symbolJSON("A", 5, 0, 3, symbolJSON("y", 6, 2, 2, "")+","+symbolJSON("x", 6, 1, 1, "")) + `]`, "A(x y) B", 4},
		{"member names split", `[` + symbolJSON("(*T).M", 6, 1, 1, "") + `,` + symbolJSON("(T[K]).N", 6, 2, 2, "") + `,` + symbolJSON("Box<T>::get", 6, 3, 3, "") + `]`, "T.M T.N Box.get", 3},
		{"information nested in its enclosing container", `[` + infoJSON("C", 5, 0, 9, "") + `,` + infoJSON("m", 6, 1, 2, "C") + `,` + infoJSON("v", 13, 2, 2, "m") + `]`, "C(m(v))", 3},
		{"qualified containerName matches by last segment", `[` + infoJSON("C", 5, 0, 9, "mod") + `,` + infoJSON("m", 6, 1, 2, "mod.C") + `]`, "mod.C(m)", 2},
		{"container not enclosing: flat with container", `[` + infoJSON("C", 5, 0, 3, "") + `,` + infoJSON("m", 6, 5, 6, "C") + `]`, "C C.m", 2},
		{"innermost same-named container wins", `[` + infoJSON("C", 5, 0, 20, "") + `,` + infoJSON("C", 5, 2, 10, "C") + `,` + infoJSON("m", 6, 3, 4, "C") + `]`, "C(C(m))", 3},
		{"container must not be itself", `[` + infoJSON("C", 5, 0, 20, "C") + `]`, "C.C", 1},
		{"null", `null`, "", 0},
		{"empty", `[]`, "", 0},
	}
	for _, tt := range tests {
		tree, total, err := readSymbolTree(gjson.Parse(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := outline(tree); got != tt.want || total != tt.total {
			t.Errorf("%s: got %q (%d), want %q (%d)", tt.name, got, total, tt.want, tt.total)
		}
	}
}

func TestReadSymbolTreeMalformed(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, "result must be null or an array"},
		{`[1]`, "result[0] must be a DocumentSymbol or SymbolInformation object"},
		{`[{"kind":5}]`, "result[0].name must be a string"},
		{`[{"name":"a","kind":0}]`, "result[0].kind must be a SymbolKind number"},
		{`[{"name":"a","kind":5,"detail":3,"range":{}}]`, "result[0].detail must be a string"},
		{`[{"name":"a","kind":5,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"children":{}}]`, "result[0].children must be an array"},
		{`[{"name":"a","kind":5,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"selectionRange":{"start":{"line":-1,"character":0}}}]`, "result[0].selectionRange.start.line must be a non-negative integer"},
		{`[{"name":"a","kind":5,"location":3}]`, "result[0].location must be a Location object"},
		{`[{"name":"a","kind":5,"location":{"uri":"file:///a"}}]`, "result[0].location.range must be a Range object"},
		{`[{"name":"a","kind":5,"location":{"uri":"file:///a","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}},"containerName":1}]`, "result[0].containerName must be a string"},
	}
	for _, tt := range tests {
		_, _, err := readSymbolTree(gjson.Parse(tt.in))
		if err == nil || err.Code != CodeMalformedResponse || !strings.Contains(err.Message, tt.want) {
			t.Errorf("%s: got %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestSymbolTreeDepthBound(t *testing.T) {
	// 200 nested levels: the tree stops at maxSymbolDepth, without error.
	s := symbolJSON("leaf", 13, 0, 0, "")
	for i := 0; i < 200; i++ {
		s = symbolJSON("n"+strconv.Itoa(i), 5, 0, 1, s)
	}
	tree, total, err := readSymbolTree(gjson.Parse("[" + s + "]"))
	if err != nil || total != maxSymbolDepth {
		t.Fatalf("got %d symbols, %v; want %d", total, err, maxSymbolDepth)
	}
	env := Call("codeSymbols", []byte(`{"mode":"document","workspaceUri":"file:///w","uri":"file:///w/a.go","limit":500,"result":[`+s+`]}`))
	if !strings.HasPrefix(string(env), `{"ok":`) {
		t.Fatalf("deep tree: %s", env[:min(len(env), 300)])
	}
	// SymbolInformation chains are bounded too.
	var infos []string
	for i := 0; i < 200; i++ {
		c := ""
		if i > 0 {
			c = "n" + strconv.Itoa(i-1)
		}
		infos = append(infos, infoJSON("n"+strconv.Itoa(i), 5, i, 1000-i, c))
	}
	tree, total, err = readSymbolTree(gjson.Parse("[" + strings.Join(infos, ",") + "]"))
	if err != nil || total != 200 {
		t.Fatalf("got %d symbols, %v", total, err)
	}
	depth := 0
	for list := tree; len(list) > 0; list = list[0].Children {
		depth++
	}
	if depth > maxSymbolDepth {
		t.Fatalf("nesting of %d levels, bound %d", depth, maxSymbolDepth)
	}
}

func TestKeepSymbols(t *testing.T) {
	in := `[` + symbolJSON("A", 5, 0, 3, symbolJSON("a1", 6, 1, 1, "")+","+symbolJSON("a2", 6, 2, 2, "")) + `,` + symbolJSON("B", 5, 4, 5, symbolJSON("b1", 6, 5, 5, "")) + `]`
	tree, total, err := readSymbolTree(gjson.Parse(in))
	if err != nil || total != 5 {
		t.Fatal(total, err)
	}
	// Pages of the same outline: a member on a page its container is not
	// on comes to the page's top level, named with its container.
	tests := []struct {
		offset, limit int
		want          string
	}{
		{0, 1, "A"}, {0, 2, "A(a1)"}, {0, 3, "A(a1 a2)"}, {0, 4, "A(a1 a2) B"}, {0, 5, "A(a1 a2) B(b1)"}, {0, 9, "A(a1 a2) B(b1)"},
		{1, 2, "A.a1 A.a2"}, {2, 2, "A.a2 B"}, {3, 2, "B(b1)"}, {4, 100, "B.b1"}, {5, 100, ""}, {9, 1, ""},
	}
	for _, tt := range tests {
		if got := outline(keepSymbols(tree, tt.offset, tt.limit)); got != tt.want {
			t.Errorf("offset %d, limit %d: got %q, want %q", tt.offset, tt.limit, got, tt.want)
		}
	}
	if outline(tree) != "A(a1 a2) B(b1)" {
		t.Errorf("keepSymbols changed its input: %s", outline(tree))
	}
}

func TestCodeSymbolsLimitDefault(t *testing.T) {
	var items []string
	for i := 0; i < 250; i++ {
		items = append(items, `{"name":"s`+strconv.Itoa(i)+`","kind":13,"location":{"uri":"file:///w/a.go"}}`)
	}
	env := Call("codeSymbols", []byte(`{"mode":"workspace","workspaceUri":"file:///w","result":[`+strings.Join(items, ",")+`]}`))
	ok := gjson.GetBytes(env, "ok")
	if n := len(ok.Get("symbols").Array()); n != DefaultSymbolLimit || ok.Get("totalFound").Int() != 250 || !ok.Get("truncated").Bool() {
		t.Fatalf("got %d symbols: %s", n, env[:200])
	}
	if text := ok.Get("rendered.text").Str; !strings.HasPrefix(text, "Workspace symbols — 250:") || !strings.HasSuffix(text, "… 150 more; narrow the query or raise limit (now 100, at most 500)") {
		t.Fatalf("rendered: %q", text)
	}
}

func TestPlainQualifiedName(t *testing.T) {
	for s, want := range map[string]bool{"C": true, "geom.Circle": true, "example.com/geom": false, "": false, "a..b": false, "ns::C": false} {
		if got := plainQualifiedName(s); got != want {
			t.Errorf("plainQualifiedName(%q) = %v", s, got)
		}
	}
}

// An outline longer than the largest limit is read page by page: the
// pages' symbols are the whole outline's, in order, each page names the
// range it holds, and a next page is told from a changed outline by its
// resultKey.
func TestCodeSymbolsOutlinePages(t *testing.T) {
	var classes []string
	for i := 0; i < 300; i++ {
		classes = append(classes, symbolJSON("C"+strconv.Itoa(i), 5, 3*i, 3*i+2, symbolJSON("m"+strconv.Itoa(i), 6, 3*i+1, 3*i+1, "")))
	}
	result := "[" + strings.Join(classes, ",") + "]"
	page := func(offset int, result string) gjson.Result {
		t.Helper()
		env := Call("codeSymbols", []byte(`{"mode":"document","workspaceUri":"file:///w","uri":"file:///w/a.py","limit":500,"offset":`+strconv.Itoa(offset)+`,"result":`+result+`}`))
		ok := gjson.GetBytes(env, "ok")
		if !ok.Exists() {
			t.Fatalf("offset %d: %s", offset, env)
		}
		return ok
	}
	first, second := page(0, result), page(500, result)
	if first.Get("totalFound").Int() != 600 || !first.Get("truncated").Bool() || first.Get("rendered.shown").Int() != 500 {
		t.Fatalf("first page: total %d, truncated %v, shown %d", first.Get("totalFound").Int(), first.Get("truncated").Bool(), first.Get("rendered.shown").Int())
	}
	if second.Get("truncated").Bool() || second.Get("rendered.shown").Int() != 100 || second.Get("offset").Int() != 500 {
		t.Fatalf("second page: truncated %v, shown %d, offset %d", second.Get("truncated").Bool(), second.Get("rendered.shown").Int(), second.Get("offset").Int())
	}
	if first.Get("resultKey").Str == "" || first.Get("resultKey").Str != second.Get("resultKey").Str {
		t.Fatalf("resultKeys %q and %q: pages of one outline must share theirs", first.Get("resultKey").Str, second.Get("resultKey").Str)
	}
	// C250 is the 501st symbol: the second page starts with it, whole.
	text := second.Get("rendered.text").Str
	if !strings.Contains(text, "\n  class C250 751–753\n    method m250 752") || !strings.HasSuffix(text, "(symbols 501–600 of 600)") {
		t.Fatalf("second page:\n%s", text)
	}
	if strings.Contains(text, "C249") {
		t.Fatalf("the second page repeats the first's symbols:\n%s", text)
	}
	if !strings.Contains(first.Get("rendered.text").Str, "… 100 more symbols not shown") {
		t.Fatalf("first page does not say what follows:\n%s", first.Get("rendered.text").Str)
	}
	// A page starting inside a class names the class of its first member.
	mid := page(1, result).Get("rendered.text").Str
	if !strings.Contains(mid, "\n  method C0.m0 2\n  class C1 4–6") {
		t.Fatalf("a page from a member:\n%s", mid)
	}
	changed := page(500, strings.Replace(result, `"C0"`, `"D0"`, 1))
	if changed.Get("resultKey").Str == first.Get("resultKey").Str {
		t.Fatal("a renamed symbol left the outline's resultKey unchanged")
	}
}

// A search asked for dependencies says which servers answered none
// outside the workspace: tsserver answered ky's ExecutionContext query with
// the workspace's match alone, and nothing told the model libraries had
// not been searched.
func TestCodeSymbolsNoDependencies(t *testing.T) {
	inside := `{"name":"isExecutionContext","kind":12,"location":{"uri":"file:///w/test/helpers.ts","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":5}}}}`
	outside := `{"name":"ExecutionContext","kind":11,"location":{"uri":"file:///lib/ava/types.d.ts","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":5}}}}`
	for _, tt := range []struct {
		result string
		deps   bool
		want   bool
	}{
		{"[" + inside + "]", true, true},
		{"[]", true, true},
		{"[" + inside + "," + outside + "]", true, false},
		{"[" + inside + "]", false, false},
	} {
		env := Call("codeSymbols", []byte(`{"mode":"workspace","workspaceUri":"file:///w","query":"ExecutionContext","dependencies":`+strconv.FormatBool(tt.deps)+
			`,"scope":{"server":"typescript","path":"test/a.ts"},"result":`+tt.result+`}`))
		text := gjson.GetBytes(env, "ok.rendered.text").Str
		if got := strings.Contains(text, "dependencies: true found no match outside the workspace from typescript"); got != tt.want {
			t.Errorf("%s, dependencies %v: line %v, want %v:\n%s", tt.result, tt.deps, got, tt.want, env)
		}
	}
}
