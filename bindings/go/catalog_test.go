package lspseam

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCatalogMethods runs target resolution and code locations through the
// module's typed methods: a symbol target, an ambiguous one with its
// candidates, and plan → read → build for a references answer.
func TestCatalogMethods(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t)
	text := "package geom\n\ntype Circle struct{ R float64 }\n\nfunc (c *Circle) Area() float64 { return 3 * c.R * c.R }\n\ntype Square struct{ S float64 }\n\nfunc (s Square) Area() float64 { return s.S * s.S }\n\nfunc Helper(x int) int { return 2 * x }\n"
	sym := func(name, detail string, kind, line, col, end int) map[string]any {
		r := map[string]any{"start": map[string]int{"line": line, "character": 0}, "end": map[string]int{"line": line, "character": 40}}
		return map[string]any{"name": name, "detail": detail, "kind": kind, "range": r,
			"selectionRange": map[string]any{"start": map[string]int{"line": line, "character": col}, "end": map[string]int{"line": line, "character": end}}}
	}
	symbols, err := json.Marshal([]any{
		sym("Circle", "struct{...}", 23, 2, 5, 11), sym("(*Circle).Area", "func() float64", 6, 4, 17, 21),
		sym("Square", "struct{...}", 23, 6, 5, 11), sym("(Square).Area", "func() float64", 6, 8, 16, 20),
		sym("Helper", "func(x int) int", 12, 10, 5, 11),
	})
	if err != nil {
		t.Fatal(err)
	}

	r, err := c.ResolveTarget(ctx, ResolveTargetInput{Target: Target{Path: "geom/geom.go", Symbol: "Helper"}, Text: text, Symbols: symbols})
	if err != nil || r.Line != 11 || r.Column != 6 || r.Position != (Position{Line: 10, Character: 5}) || r.Identifier != "Helper" || r.Kind != "function" || r.By != "symbol" ||
		r.Text != "Target: `Helper` (function) at geom/geom.go:11:6" {
		t.Fatalf("ResolveTarget(Helper) = %+v, %v", r, err)
	}
	_, err = c.ResolveTarget(ctx, ResolveTargetInput{Target: Target{Path: "geom/geom.go", Symbol: "Area"}, Text: text, Symbols: symbols})
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeAmbiguousTarget || len(lerr.Candidates) != 2 ||
		lerr.Candidates[0] != (TargetCandidate{QualifiedName: "Circle.Area", Kind: "method", Path: "geom/geom.go", Line: 5, Column: 18, EndLine: 5, Container: "Circle"}) {
		t.Fatalf("ResolveTarget(Area) error = %#v", err)
	}
	r, err = c.ResolveTarget(ctx, ResolveTargetInput{Target: Target{Path: "geom/geom.go", Symbol: "Area"}, FirstMatch: true, Text: text, Symbols: symbols})
	if err != nil || r.Symbol != "Circle.Area" || r.Line != 5 {
		t.Fatalf("ResolveTarget(Area, firstMatch) = %+v, %v", r, err)
	}
	if _, err := c.ResolveTarget(ctx, ResolveTargetInput{Target: Target{Path: "geom/geom.go", Symbol: "Helper"}, Text: text}); !isCode(err, CodeUnsupportedOperation) {
		t.Fatalf("ResolveTarget(no documentSymbol) error = %v", err)
	}

	loc := func(uri string, line, col, end uint32) Location {
		return Location{URI: uri, Range: Range{Start: Position{Line: line, Character: col}, End: Position{Line: line, Character: end}}}
	}
	geom := "file:///w/proj/geom/geom.go"
	in := SnippetsInput{
		Locations:      []Location{loc(geom, 10, 5, 11), loc(geom, 8, 40, 46), loc("file:///usr/lib/go/src/fmt/print.go", 272, 5, 12)},
		WorkspaceURI:   "file:///w/proj",
		SnippetOptions: SnippetOptions{Context: 1},
		Symbols:        map[string]json.RawMessage{geom: symbols},
	}
	plan, err := c.PlanSnippets(ctx, in)
	if err != nil || plan.TotalFound != 3 || len(plan.Files) != 1 || plan.Files[0].Path != "/w/proj/geom/geom.go" ||
		len(plan.Files[0].Spans) != 1 || plan.Files[0].Spans[0] != (LineSpan{Start: 7, End: 11}) {
		t.Fatalf("PlanSnippets = %+v, %v", plan, err)
	}
	lines := strings.Split(text, "\n")
	read := map[string][]LineChunk{}
	for _, f := range plan.Files {
		for _, s := range f.Spans {
			read[f.URI] = append(read[f.URI], LineChunk{Start: s.Start, Lines: lines[s.Start : s.End+1]})
		}
	}
	cl, err := c.CodeLocations(ctx, CodeLocationsInput{SnippetsInput: in, Files: read, Subject: r.Text})
	if err != nil || cl.TotalFound != 3 || len(cl.Locations) != 3 || cl.Truncated {
		t.Fatalf("CodeLocations = %+v, %v", cl, err)
	}
	if l := cl.Locations[1]; l.Path != "geom/geom.go" || l.Line != 9 || l.SnippetLine != 8 || l.Snippet != "\nfunc (s Square) Area() float64 { return s.S * s.S }\n" || l.Symbol != "Area" || l.Container != "Square" {
		t.Fatalf("CodeLocations[1] = %+v", l)
	}
	if l := cl.Locations[2]; !l.OutsideWorkspace || l.Snippet != "" || l.Line != 273 {
		t.Fatalf("CodeLocations[2] = %+v", l)
	}
	if !strings.HasPrefix(cl.Rendered.Text, r.Text+"\n3 locations in 2 files:\ngeom/geom.go\n") || cl.Rendered.Shown != 3 {
		t.Fatalf("CodeLocations text = %q", cl.Rendered.Text)
	}
	if _, err := c.PlanSnippets(ctx, SnippetsInput{WorkspaceURI: "file:///w/proj", SnippetOptions: SnippetOptions{Context: 4}}); !isCode(err, CodeInvalidArgument) {
		t.Fatalf("PlanSnippets(context 4) error = %v", err)
	}
}
