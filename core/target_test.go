package core

import (
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// Table-driven tests of the pieces targets are built from; the resolution
// orders and failures are golden cases (testdata/core).

func TestSplitMemberName(t *testing.T) {
	tests := []struct{ name, container, wantName, wantContainer string }{
		{"Helper", "", "Helper", ""},
		{"(*Circle).Area", "", "Area", "Circle"},
		{"(Square).Area", "", "Area", "Square"},
		{"(*List[T]).Push", "", "Push", "List"},
		{"Circle::area", "", "area", "Circle"},
		{"ns::Circle::area", "", "area", "ns.Circle"},
		{"Circle::area", "geo", "area", "geo.Circle"},
		{"Box<T>::get", "", "get", "Box"},
		{"ns::Map<K, V>::find", "", "find", "ns.Map"},
		{"operator<<", "", "operator<<", ""},
		{"(x)", "", "(x)", ""},
		{"::", "", "::", ""},
		{"a::", "", "a::", ""},
	}
	for _, tt := range tests {
		n, c := splitMemberName(tt.name, tt.container)
		if n != tt.wantName || c != tt.wantContainer {
			t.Errorf("splitMemberName(%q, %q) = %q, %q; want %q, %q", tt.name, tt.container, n, c, tt.wantName, tt.wantContainer)
		}
	}
}

func TestSymbolKinds(t *testing.T) {
	for name, want := range map[string]SymbolKind{"function": 12, "Function": 12, "enummember": 22, "enumMember": 22, "typeParameter": 26, "file": 1} {
		if k, ok := ParseSymbolKind(name); !ok || k != want {
			t.Errorf("ParseSymbolKind(%q) = %d, %v; want %d", name, k, ok, want)
		}
	}
	for _, bad := range []string{"", "func", "method "} {
		if _, ok := ParseSymbolKind(bad); ok {
			t.Errorf("ParseSymbolKind(%q) accepted", bad)
		}
	}
	if SymbolKind(0).String() != "" || SymbolKind(27).String() != "" || SymbolKind(6).String() != "method" {
		t.Error("SymbolKind.String out of range or wrong")
	}
}

func TestFlattenSymbols(t *testing.T) {
	text := "def  area(self):\r\n    return 1\r\nx = 1\n"
	// SymbolInformation at the declaration start moves onto the name; a
	// duplicate is dropped; a symbol past the end of the file is dropped;
	// a name that is not in the text keeps its (clamped) position.
	raw := `[
	 {"name":"x","kind":13,"location":{"uri":"file:///a.py","range":{"start":{"line":2,"character":0},"end":{"line":2,"character":5}}}},
	 {"name":"area","kind":12,"location":{"uri":"file:///a.py","range":{"start":{"line":0,"character":0},"end":{"line":1,"character":12}}}},
	 {"name":"area","kind":12,"location":{"uri":"file:///a.py","range":{"start":{"line":0,"character":0},"end":{"line":1,"character":12}}}},
	 {"name":"ghost","kind":12,"location":{"uri":"file:///a.py","range":{"start":{"line":9,"character":0},"end":{"line":9,"character":1}}}},
	 {"name":"<lambda>","kind":12,"location":{"uri":"file:///a.py","range":{"start":{"line":1,"character":40},"end":{"line":1,"character":41}}}}
	]`
	syms, err := FlattenSymbols(gjson.Parse(raw), text)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		name      string
		line, col uint32
	}
	want := []got{{"area", 0, 5}, {"<lambda>", 1, 12}, {"x", 2, 0}}
	if len(syms) != len(want) {
		t.Fatalf("got %d symbols %+v, want %v", len(syms), syms, want)
	}
	for i, w := range want {
		if s := syms[i]; s.Name != w.name || s.Selection.Start.Line != w.line || s.Selection.Start.Character != w.col {
			t.Errorf("symbol %d = %+v, want %v", i, s, w)
		}
	}
	for _, empty := range []string{"null", "[]"} {
		if s, err := FlattenSymbols(gjson.Parse(empty), text); err != nil || len(s) != 0 {
			t.Errorf("FlattenSymbols(%s) = %v, %v", empty, s, err)
		}
	}
	for _, bad := range []string{`{}`, `[1]`, `[{"name":1,"kind":1}]`, `[{"name":"a","kind":1,"range":{}}]`, `[{"name":"a","kind":1,"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"children":{}}]`} {
		if _, err := FlattenSymbols(gjson.Parse(bad), text); err == nil || err.Code != CodeMalformedResponse {
			t.Errorf("FlattenSymbols(%s) error %v, want LSP_MALFORMED_RESPONSE", bad, err)
		}
	}
}

func TestEnclosingSymbol(t *testing.T) {
	r := func(l1, c1, l2, c2 uint32) Range { return Range{Position{l1, c1}, Position{l2, c2}} }
	syms := []Symbol{
		{Name: "Outer", Kind: 5, Range: r(0, 0, 10, 1), Selection: r(0, 6, 0, 11)},
		{Name: "inner", Kind: 6, Container: "Outer", Range: r(2, 2, 4, 3), Selection: r(2, 2, 2, 7)},
	}
	tests := []struct {
		pos  Position
		want string
	}{
		{Position{0, 7}, "Outer"}, {Position{3, 0}, "Outer.inner"}, {Position{2, 3}, "Outer.inner"},
		{Position{6, 0}, "Outer"}, {Position{11, 0}, ""},
	}
	for _, tt := range tests {
		s, ok := EnclosingSymbol(syms, tt.pos)
		if got := s.QualifiedName(); (tt.want == "") == ok || (ok && got != tt.want) {
			t.Errorf("EnclosingSymbol(%v) = %q, %v; want %q", tt.pos, got, ok, tt.want)
		}
	}
	// SymbolAt: only on a name, or at the start of a declaration.
	for _, tt := range []struct {
		pos  Position
		want string
	}{{Position{0, 7}, "Outer"}, {Position{0, 0}, "Outer"}, {Position{2, 4}, "Outer.inner"}, {Position{3, 0}, ""}, {Position{6, 0}, ""}} {
		s, ok := SymbolAt(syms, tt.pos)
		if got := s.QualifiedName(); (tt.want == "") == ok || (ok && got != tt.want) {
			t.Errorf("SymbolAt(%v) = %q, %v; want %q", tt.pos, got, ok, tt.want)
		}
	}
}

func TestIdentifierAtAndColumns(t *testing.T) {
	line := `s := "🚀" + émoji2 + 42`
	tests := []struct {
		col   int
		id    string
		start int
	}{{0, "s", 0}, {1, "", 1}, {6, "", 6}, {12, "émoji2", 12}, {13, "émoji2", 12}, {11, "", 11}, {21, "", 21}, {99, "", 99}}
	for _, tt := range tests {
		if id, start := identifierAt(line, tt.col); id != tt.id || (id != "" && start != tt.start) {
			t.Errorf("identifierAt(%d) = %q, %d; want %q, %d", tt.col, id, start, tt.id, tt.start)
		}
	}
	// A private name's selection range starts on its '#': the name has it.
	for _, tt := range []struct {
		line string
		col  int
		id   string
	}{{"\tasync #retry() {", 7, "#retry"}, {"x #1", 2, ""}, {"a # b", 2, ""}} {
		if id, _ := identifierAt(tt.line, tt.col); id != tt.id {
			t.Errorf("identifierAt(%q, %d) = %q, want %q", tt.line, tt.col, id, tt.id)
		}
	}
	if got := byteOffsetOfColumn(line, 7); got != len(`s := "`) {
		t.Errorf("column inside a surrogate pair: byte %d", got)
	}
	if !HasIdentifier("x := Total(nil)\n", "Total") || HasIdentifier("x := Totals(nil)\n", "Total") || HasIdentifier("x", "") {
		t.Errorf("HasIdentifier: a whole identifier only")
	}
	if col, ok := findIdentifier("ab abc xabc abc", "abc", 0); !ok || col != 3 {
		t.Errorf("findIdentifier = %d, %v", col, ok)
	}
	if _, ok := findIdentifier("xabc abcx", "abc", 0); ok {
		t.Error("findIdentifier matched inside a longer identifier")
	}
	if got := SplitLines("a\r\nb\rc\n\nd"); len(got) != 5 || got[3] != "" || got[4] != "d" {
		t.Errorf("SplitLines = %q", got)
	}
	if got := SplitLines("a\n"); len(got) != 1 {
		t.Errorf("SplitLines with a final line break = %q", got)
	}
}

func TestRuneEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"Helpr", "Helper", 1}, {"kitten", "sitting", 3}, {"🚀a", "a", 1}, {"abc", "", 3}} {
		if d := runeEditDistance([]rune(tt.a), []rune(tt.b)); d != tt.d {
			t.Errorf("runeEditDistance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
	}
}

func TestResolveTargetSymbolMatching(t *testing.T) {
	syms := []Symbol{
		{Name: "Area", Kind: 6, Container: "geo.Circle"},
		{Name: "a.b", Kind: 7, Container: "obj"},
	}
	tests := []struct {
		query string
		i     int // index of the match, -1 none
	}{
		{"Area", 0}, {"Circle.Area", 0}, {"geo.Circle.Area", 0}, {"eo.Circle.Area", -1}, {"x.geo.Circle.Area", -1},
		{"Circle", -1}, {"a.b", 1}, {"obj.a.b", 1}, {"b", -1},
	}
	for _, tt := range tests {
		got := -1
		for i, s := range syms {
			if symbolMatches(s, tt.query, splitQuery(tt.query)) {
				got = i
				break
			}
		}
		if got != tt.i {
			t.Errorf("%q matched symbol %d, want %d", tt.query, got, tt.i)
		}
	}
}

// TestResolveTargetSameLine: two symbols of one name and kind start on one
// line (clangd's struct tag and typedef of `typedef struct canvas
// canvas;`, both "class"): the ambiguity lists their columns and asks for
// one, a line alone does not separate them, and a column picks exactly
// the symbol starting there (or whose name holds it).
func TestResolveTargetSameLine(t *testing.T) {
	text := "struct shape;\ntypedef struct canvas canvas;\nint shape_draw(canvas *c);\n"
	sym := func(name string, kind SymbolKind, line, start, end, selStart uint32) Symbol {
		return Symbol{Name: name, Kind: kind,
			Range:     Range{Start: Position{Line: line, Character: start}, End: Position{Line: line, Character: end}},
			Selection: Range{Start: Position{Line: line, Character: selStart}, End: Position{Line: line, Character: selStart + uint32(len(name))}}}
	}
	file := TargetFile{Text: text, Symbols: []Symbol{
		sym("shape", 5, 0, 0, 12, 7),
		sym("canvas", 5, 1, 8, 21, 15), // struct canvas (the tag), column 16
		sym("canvas", 5, 1, 0, 28, 22), // the typedef, column 23
		sym("shape_draw", 12, 2, 0, 25, 4),
	}}
	tests := []struct {
		name   string
		target Target
		col    uint32 // one-based column of the symbol picked; 0: ambiguous
	}{
		{"name alone", Target{Path: "s.h", Symbol: "canvas"}, 0},
		{"kind does not separate them", Target{Path: "s.h", Symbol: "canvas", Kind: "class"}, 0},
		{"line does not either", Target{Path: "s.h", Symbol: "canvas", Kind: "class", Line: 2}, 0},
		{"the tag's column", Target{Path: "s.h", Symbol: "canvas", Kind: "class", Line: 2, Column: 16}, 16},
		{"the typedef's column", Target{Path: "s.h", Symbol: "canvas", Kind: "class", Line: 2, Column: 23}, 23},
		{"inside the typedef's name", Target{Path: "s.h", Symbol: "canvas", Line: 2, Column: 26}, 23},
		{"a column on neither name", Target{Path: "s.h", Symbol: "canvas", Line: 2, Column: 1}, 0},
	}
	for _, tt := range tests {
		r, cs, err := ResolveTarget(tt.target, false, file)
		if tt.col == 0 {
			if err == nil || err.Code != CodeAmbiguousTarget || len(cs) != 2 {
				t.Errorf("%s: %+v, %v, %v; want LSP_AMBIGUOUS_TARGET with 2 candidates", tt.name, r, cs, err)
				continue
			}
			if cs[0].Column != 16 || cs[1].Column != 23 || cs[0].Line != 2 || cs[1].Line != 2 {
				t.Errorf("%s: candidates %+v, want line 2, columns 16 and 23", tt.name, cs)
			}
			if !strings.Contains(err.Message, "line and column") {
				t.Errorf("%s: the message does not ask for the column: %s", tt.name, err.Message)
			}
			continue
		}
		if err != nil || r.Column() != uint64(tt.col) || r.Line() != 2 || r.By != BySymbol || r.Identifier != "canvas" {
			t.Errorf("%s: %+v (%v); want canvas at 2:%d by symbol", tt.name, r, err, tt.col)
		}
	}
	// Symbols of one name on different lines are told apart by line, as
	// the message says (`typedef struct shape {…} shape;`).
	file.Symbols = append(file.Symbols, sym("shape", 5, 2, 15, 20, 15))
	_, _, err := ResolveTarget(Target{Path: "s.h", Symbol: "shape"}, false, file)
	if err == nil || !strings.Contains(err.Message, "the line of the one you mean") {
		t.Errorf("two shapes on two lines: %v; want to be asked for the line", err)
	}
}

func TestIdentifierOffsets(t *testing.T) {
	for _, tt := range []struct {
		path, text, name string
		want             []int
	}{
		{"run.sh", `LOG_LEVEL=${LOG_LEVEL:-info}`, "LOG_LEVEL", []int{0, 12}},
		{"run.sh", `APP_LOG_LEVEL=${LOG_LEVEL:-info}`, "LOG_LEVEL", []int{16}},
		{"run.sh", `LOG_LEVELS=1 xLOG_LEVEL=2`, "LOG_LEVEL", nil},
		{"run.sh", ``, "LOG_LEVEL", nil},
		{"run.sh", `echo $LOG_LEVEL`, "LOG_LEVEL", []int{6}},
		{"index.php", `$total = total($x);`, "total", []int{1, 9}},
		// In JavaScript '$' is a character of the name: $el is not el.
		{"app.js", `const $el = el($x)`, "el", []int{12}},
		{"app.js", `el$ el`, "el", []int{4}},
		{"style.css", `--main-color: main`, "main", []int{14}},
		{"café.py", `prix_é = prix(1)`, "prix", []int{10}},
		{"a.go", `x`, "", nil},
	} {
		if got := IdentifierOffsets(tt.path, tt.text, tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("IdentifierOffsets(%q, %q, %q) = %v, want %v", tt.path, tt.text, tt.name, got, tt.want)
		}
	}
}
