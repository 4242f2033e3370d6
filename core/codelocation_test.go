package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Unit tests of snippet planning and code-location rendering; the whole
// path (plan → read → build → render) is golden (testdata/core).

func TestMergeSpans(t *testing.T) {
	got := mergeSpans([]LineSpan{{10, 12}, {0, 3}, {4, 4}, {11, 20}, {30, 30}, {22, 25}})
	want := []LineSpan{{0, 4}, {10, 20}, {22, 25}, {30, 30}}
	if len(got) != len(want) {
		t.Fatalf("mergeSpans = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("mergeSpans = %v, want %v", got, want)
		}
	}
	if s := contextSpan(1, 3); s != (LineSpan{0, 4}) {
		t.Errorf("contextSpan(1, 3) = %v", s)
	}
}

func TestInsideWorkspace(t *testing.T) {
	tests := []struct {
		uri, ws string
		inside  bool
	}{
		{"file:///w/p/a.go", "/w/p", true},
		{"file:///w/p/sub/../a.go", "/w/p", true},
		{"file:///w/p/../q/a.go", "/w/p", false},
		{"file:///w/p", "/w/p", false},
		{"file:///w/pp/a.go", "/w/p", false},
		{"file:///a.go", "/", true},
		{"untitled:1", "/w/p", false},
		{"file://host/w/p/a.go", "/w/p", false},
	}
	for _, tt := range tests {
		if _, inside := insideWorkspace(tt.uri, tt.ws); inside != tt.inside {
			t.Errorf("insideWorkspace(%q, %q) = %v", tt.uri, tt.ws, inside)
		}
	}
}

func TestSnippetOptions(t *testing.T) {
	for _, o := range []SnippetOptions{{Context: -1}, {Context: 4}, {Limit: -1}, {Limit: 501}} {
		if _, err := o.check(); err == nil || err.Code != CodeInvalidArgument {
			t.Errorf("%+v accepted", o)
		}
	}
	if o, err := (SnippetOptions{}).check(); err != nil || o.Limit != DefaultLocationLimit {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

// TestRenderCodeLocationsBudget: for every budget the text stays within
// it, keeps whole locations only, and counts them.
func TestRenderCodeLocationsBudget(t *testing.T) {
	var locs []CodeLocation
	for i := 0; i < 12; i++ {
		l := CodeLocation{Path: []string{"a.go", "dir/b.go", "/outside/c.go"}[i%3], Line: uint64(i + 1), Column: 2, EndLine: uint64(i + 1), EndColumn: 5, Symbol: "f", Kind: "function"}
		switch i % 3 {
		case 0:
			l.Snippet = "x := f(🚀)"
		case 1:
			l.Snippet, l.SnippetLine = "a\n\tb\nc", uint64(i)
		default:
			l.Outside = true
		}
		locs = append(locs, l)
	}
	c := CodeLocations{Locations: locs, TotalFound: 15, Truncated: true, Limit: 12}
	full := RenderCodeLocations(c, "Target: `f` (function) at a.go:1:2", 0)
	if full.Shown != 12 || full.Omitted != 3 || full.Truncated || !strings.HasSuffix(full.Text, "(12 of 15 locations shown; limit is 12, at most 500)") {
		t.Fatalf("full render: %+v", full)
	}
	for budget := 1; budget <= utf8.RuneCountInString(full.Text)+5; budget++ {
		r := RenderCodeLocations(c, "Target: `f` (function) at a.go:1:2", budget)
		if n := utf8.RuneCountInString(r.Text); n > budget {
			t.Fatalf("budget %d: %d code points", budget, n)
		}
		if r.Shown+r.Omitted != c.TotalFound || r.Shown > len(locs) {
			t.Fatalf("budget %d: shown %d omitted %d", budget, r.Shown, r.Omitted)
		}
		if r.Shown < len(locs) && !r.Truncated {
			t.Fatalf("budget %d: %d shown but not marked truncated", budget, r.Shown)
		}
		if strings.Contains(r.Text, "\ufffd") {
			t.Fatalf("budget %d: cut inside a character", budget)
		}
	}
}

// TestRenderMergesWindows: neighbouring windows of a file are written
// once, under all their positions, and cut as one block.
func TestRenderMergesWindows(t *testing.T) {
	w := func(line uint64) CodeLocation {
		return CodeLocation{Path: "a.go", Line: line, Column: 1, EndLine: line, EndColumn: 2, SnippetLine: line - 1,
			Snippet: "l" + strings.Repeat("x", int(line-1)) + "\nl" + strings.Repeat("x", int(line)) + "\nl" + strings.Repeat("x", int(line+1))}
	}
	c := CodeLocations{Locations: []CodeLocation{w(5), w(6), w(8), w(20)}, TotalFound: 4, Limit: 100}
	r := RenderCodeLocations(c, "", 0)
	want := "4 locations in 1 file:\na.go\n  5:1\n  6:1\n  8:1\n    4 | lxxxx\n    5 | lxxxxx\n    6 | lxxxxxx\n    7 | lxxxxxxx\n    8 | lxxxxxxxx\n    9 | lxxxxxxxxx\n  20:1\n    19 | l" + strings.Repeat("x", 19) + "\n    20 | l" + strings.Repeat("x", 20) + "\n    21 | l" + strings.Repeat("x", 21)
	if r.Text != want || r.Shown != 4 {
		t.Fatalf("got %d shown:\n%s\nwant:\n%s", r.Shown, r.Text, want)
	}
	for budget := 1; budget < len(want); budget++ {
		r := RenderCodeLocations(c, "", budget)
		if r.Shown != 0 && r.Shown != 3 {
			t.Fatalf("budget %d: %d shown, a merged block is cut whole", budget, r.Shown)
		}
	}
}

// A page's key names the answer in the order pages take it: the same
// locations in the same order have the same key, and another order (a
// server that answered otherwise) another one, so two answers' pages are
// never stitched together.
func TestLocationListKeyFollowsTheOrder(t *testing.T) {
	a := Location{URI: "file:///w/a.go", Range: Range{Start: Position{Line: 1}, End: Position{Line: 1, Character: 3}}}
	b := Location{URI: "file:///w/b.go", Range: Range{Start: Position{Line: 2}, End: Position{Line: 2, Character: 3}}}
	key := func(locs ...Location) string {
		order, _ := groupByFile(locs, "/w")
		return locationListKey(locs, order)
	}
	if key(a, b) != key(a, b) {
		t.Error("the same answer has two keys")
	}
	if key(a, b) == key(b, a) {
		t.Error("two orders have one key: their pages could be mixed")
	}
	if key(a) == key(a, b) {
		t.Error("a longer answer has the key of a shorter one")
	}
}

// A long line's snippet holds the location: the line's start when the
// location is near it, else a window around it.
func TestSnippetAt(t *testing.T) {
	long := strings.Repeat("a", 300) + "needle" + strings.Repeat("b", 300)
	astral := "\t" + strings.Repeat("😀", 200) + "needle" + strings.Repeat("c", 100)
	for _, c := range []struct {
		name string
		line string
		col  uint32
		want func(string) bool
	}{
		{"short line whole", "\tx := f(y)  ", 6, func(s string) bool { return s == "x := f(y)" }},
		{"near the start: the start", long, 10, func(s string) bool { return strings.HasPrefix(s, "aaa") && strings.HasSuffix(s, "…") }},
		{"far: a window with the location", long, 300, func(s string) bool {
			return strings.HasPrefix(s, "…") && strings.HasSuffix(s, "…") && strings.Contains(s, "needle")
		}},
		{"astral characters before it: counted in UTF-16 units", astral, 1 + 400, func(s string) bool {
			return strings.HasPrefix(s, "…") && strings.Contains(s, "needle")
		}},
		{"at the end: the line's end", long, 600, func(s string) bool { return strings.HasPrefix(s, "…") && strings.HasSuffix(s, "bbb") }},
	} {
		got := snippetAt(c.line, c.col, maxSnippetLineRunes)
		if n := utf8.RuneCountInString(got); n > maxSnippetLineRunes || !c.want(got) {
			t.Errorf("%s: %d code points %q", c.name, n, got)
		}
	}
}
