package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReferencesPaging: 301 references of one function on gopls (its
// declaration and 300 calls in 10 files), asked with limit 100, come in
// four pages through cursors whose union is the unpaged answer (limit
// 500), each location once; and a file edited between two pages makes the
// cursor LSP_CONFLICT, answered with the changed answer's first page.
func TestReferencesPaging(t *testing.T) {
	requireServers(t, "gopls")
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("go.mod", "module example.com/pages\n\ngo 1.22\n")
	write("f.go", "package pages\n\n// F is called 300 times.\nfunc F() {}\n")
	for i := 0; i < 10; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package pages\n\nfunc caller%d() {\n", i)
		for j := 0; j < 30; j++ {
			b.WriteString("\tF()\n")
		}
		b.WriteString("}\n")
		write(fmt.Sprintf("c%d.go", i), b.String())
	}
	srv := catalogServe(t)
	type page struct {
		pageHeader
		Locations []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"locations"`
	}
	ask := askStructured[page](t, srv, "code_navigate", dir)
	question := `{"target":{"path":"f.go","symbol":"F"},"kind":"references"`
	all, text := ask(question + `,"limit":500}`)
	if all.TotalFound != 301 || len(all.Locations) != 301 || all.Cursor != "" {
		t.Fatalf("unpaged: %d of %d, cursor %q\n%.600s", len(all.Locations), all.TotalFound, all.Cursor, text)
	}
	keys := func(p page) []string {
		var k []string
		for _, l := range p.Locations {
			k = append(k, fmt.Sprintf("%s:%d", l.Path, l.Line))
		}
		return k
	}
	want := keys(all)
	got, pages := followPages(t, ask, question+`,"limit":100}`, 301, keys)
	slices.Sort(want)
	slices.Sort(got)
	if pages != 4 || !slices.Equal(got, want) {
		t.Errorf("%d pages; their %d locations equal the unpaged %d: %v", pages, len(got), len(want), slices.Equal(got, want))
	}

	// An edit between pages: the cursor's answer is gone.
	first, _ := ask(question + `,"limit":100}`)
	write("c0.go", strings.Replace(string(readFile(t, filepath.Join(dir, "c0.go"))), "\tF()\n", "\tF()\n\tF()\n", 1))
	p, text := ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_CONFLICT" || p.Page == nil || p.Page.TotalFound != 302 || p.Page.Cursor == "" {
		t.Errorf("a cursor after an edit: %s", text)
	}
	if want := "the answer that cursor " + first.Cursor + " continues has changed (a file was edited since)"; !strings.Contains(text, want) {
		t.Errorf("a cursor after an edit: the message lacks %q:\n%.600s", want, text)
	}
	// A cursor is used once, and a second use says so.
	fresh := p.Page.Cursor
	p, text = ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_INVALID_ARGUMENT" || !strings.Contains(text, "was used already") {
		t.Errorf("a used cursor: %s", text)
	}
	// Another tool's cursor is refused, naming its tool, and stays good
	// for that tool.
	p, text = askStructured[page](t, srv, "code_symbols", dir)(`{"cursor":"` + fresh + `"}`)
	if p.Error == nil || !strings.Contains(text, "is a cursor of code_navigate, not of code_symbols") {
		t.Errorf("a cursor given to another tool: %s", text)
	}
	if p, text = ask(`{"cursor":"` + fresh + `"}`); p.Error != nil || len(p.Locations) == 0 {
		t.Errorf("the cursor after another tool refused it: %s", text)
	}
	srv.shutdown(t)
}

// TestSymbolsPaging: a search with 90 matches on gopls, asked with limit
// 40 — of the file's server (path) and of the whole workspace — comes in
// three pages whose union is the unpaged answer; a function added between
// two pages changes the set of matches, so the cursor is LSP_CONFLICT
// with the new first page.
func TestSymbolsPaging(t *testing.T) {
	requireServers(t, "gopls")
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("go.mod", "module example.com/pages\n\ngo 1.22\n")
	var b strings.Builder
	b.WriteString("package pages\n")
	for i := 0; i < 90; i++ {
		fmt.Fprintf(&b, "\nfunc Widget%02d() {}\n", i)
	}
	write("w.go", b.String())
	srv := catalogServe(t)
	type page struct {
		pageHeader
		Symbols []struct {
			Name string `json:"name"`
			Path string `json:"path"`
		} `json:"symbols"`
	}
	ask := askStructured[page](t, srv, "code_symbols", dir)
	keys := func(p page) []string {
		var k []string
		for _, s := range p.Symbols {
			k = append(k, s.Name+" "+s.Path)
		}
		return k
	}
	for _, scope := range []string{`"path":"w.go",`, ""} {
		question := `{` + scope + `"query":"Widget"`
		all, text := ask(question + `,"limit":500}`)
		if all.TotalFound < 90 || all.Cursor != "" {
			t.Fatalf("%s unpaged: %d found, cursor %q\n%.400s", scope, all.TotalFound, all.Cursor, text)
		}
		want := keys(all)
		got, pages := followPages(t, ask, question+`,"limit":40}`, all.TotalFound, keys)
		slices.Sort(want)
		slices.Sort(got)
		if pages != (all.TotalFound+39)/40 || !slices.Equal(got, want) {
			t.Errorf("%s: %d pages of %d matches; their union equals the unpaged answer: %v", scope, pages, all.TotalFound, slices.Equal(got, want))
		}
	}

	// An outline longer than limit pages the same way: 131 symbols (a
	// struct and its 130 fields) in three pages of 50, whose union is the
	// unpaged outline; a page starting among the fields names their struct.
	var g strings.Builder
	g.WriteString("package pages\n\ntype Gadget struct {\n")
	for i := 0; i < 130; i++ {
		fmt.Fprintf(&g, "\tF%03d int\n", i)
	}
	write("g.go", g.String()+"}\n")
	type outlinePage struct {
		pageHeader
		Symbols []outlineSymbol `json:"symbols"`
	}
	askOutline := askStructured[outlinePage](t, srv, "code_symbols", dir)
	outlineKeys := func(p outlinePage) []string { return flattenOutline(p.Symbols, "") }
	whole, text := askOutline(`{"path":"g.go","limit":500}`)
	if whole.TotalFound != 131 || whole.Cursor != "" {
		t.Fatalf("unpaged outline: %d symbols, cursor %q\n%.400s", whole.TotalFound, whole.Cursor, text)
	}
	got, pages := followPages(t, askOutline, `{"path":"g.go","limit":50}`, 131, outlineKeys)
	if want := outlineKeys(whole); pages != 3 || !slices.Equal(got, want) {
		t.Errorf("outline: %d pages; their union in order equals the unpaged outline: %v\n%v", pages, slices.Equal(got, want), got)
	}
	firstOutline, _ := askOutline(`{"path":"g.go","limit":50}`)
	if second, text := askOutline(`{"cursor":"` + firstOutline.Cursor + `"}`); !strings.Contains(text, "field Gadget.F049 ") || !strings.Contains(text, "(symbols 51–100 of 131)") || second.Cursor == "" {
		t.Errorf("the outline's second page:\n%.600s", text)
	}

	first, _ := ask(`{"query":"Widget","limit":40}`)
	write("w2.go", "package pages\n\nfunc WidgetNew() {}\n")
	p, text := ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_CONFLICT" || p.Page == nil || p.Page.TotalFound != first.TotalFound+1 {
		t.Errorf("a cursor after a new match: %s", text)
	}
	srv.shutdown(t)
}

// outlineSymbol is one symbol of a code_symbols outline, with its members.
type outlineSymbol struct {
	Name      string          `json:"name"`
	Container string          `json:"container"`
	Children  []outlineSymbol `json:"children"`
}

// flattenOutline lists an outline's symbols in document order, each named
// with its containers (Gadget.F001), nested or named on the symbol.
func flattenOutline(list []outlineSymbol, container string) []string {
	var out []string
	for _, s := range list {
		name := s.Name
		if c := s.Container; c != "" {
			name = c + "." + name
		} else if container != "" {
			name = container + "." + name
		}
		out = append(out, name)
		out = append(out, flattenOutline(s.Children, name)...)
	}
	return out
}

// fileWriter writes files into dir, failing the test on an error.
func fileWriter(t *testing.T, dir string) func(name, text string) {
	return func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// askStructured calls tool through srv in dir and decodes its structured
// answer into a T, returning it with the answer's text.
func askStructured[T any](t *testing.T, srv *serveClient, tool, dir string) func(args string) (T, string) {
	return func(args string) (T, string) {
		t.Helper()
		a := srv.toolCall(t, tool, json.RawMessage(args), dir)
		var v T
		if err := json.Unmarshal(a.StructuredContent, &v); err != nil {
			t.Fatalf("%s: %v", a.StructuredContent, err)
		}
		return v, a.Content[0].Text
	}
}

// pageHeader is what every paged answer carries beside its results: the
// total, the next page's cursor, and on a conflict the error and the new
// answer's first page.
type pageHeader struct {
	TotalFound int    `json:"totalFound"`
	Cursor     string `json:"cursor"`
	Error      *struct {
		Code string `json:"code"`
	} `json:"error"`
	Page *struct {
		TotalFound int    `json:"totalFound"`
		Cursor     string `json:"cursor"`
	} `json:"page"`
}

func (h pageHeader) header() pageHeader { return h }

// followPages asks first, then each page's cursor alone, until a page has
// none, and returns every page's result keys and the number of pages.
// Each page must answer the same total, and say in its text how to ask
// for the next.
func followPages[P interface{ header() pageHeader }](t *testing.T, ask func(string) (P, string), first string, total int, keys func(P) []string) ([]string, int) {
	t.Helper()
	var got []string
	p, text := ask(first)
	for pages := 1; ; pages++ {
		h := p.header()
		if h.Error != nil || h.TotalFound != total {
			t.Fatalf("page %d of %s: %s", pages, first, text)
		}
		got = append(got, keys(p)...)
		if h.Cursor == "" {
			return got, pages
		}
		if !strings.Contains(text, `{"cursor":"`+h.Cursor+`"}`) {
			t.Errorf("page %d's text does not say how to get the next:\n%.300s", pages, text[max(0, len(text)-300):])
		}
		p, text = ask(`{"cursor":"` + h.Cursor + `"}`)
	}
}

// TestInlayHintsPaging: 260 parameter-name hints on gopls (130 calls of a
// two-parameter function; the preset turns the hints on), asked with
// limit 100, come in three pages through cursors whose union is the
// unpaged answer (limit 500), each hint once and in order; a range pages
// the hints on its lines only; and a call added between two pages makes
// the cursor LSP_CONFLICT, answered with the changed answer's first page.
func TestInlayHintsPaging(t *testing.T) {
	requireServers(t, "gopls")
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("go.mod", "module example.com/pages\n\ngo 1.22\n")
	calls := func(n int) string {
		var b strings.Builder
		b.WriteString("package pages\n\nfunc g(width, height int) {}\n\nfunc caller() {\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\tg(%d, %d)\n", i, i+1)
		}
		b.WriteString("}\n")
		return b.String()
	}
	write("h.go", calls(130))
	srv := catalogServe(t)
	type page struct {
		pageHeader
		Hints []struct {
			Line   int    `json:"line"`
			Column int    `json:"column"`
			Label  string `json:"label"`
		} `json:"hints"`
	}
	ask := askStructured[page](t, srv, "code_inlay_hints", dir)
	keys := func(p page) []string {
		var k []string
		for _, h := range p.Hints {
			k = append(k, fmt.Sprintf("%d:%d %s", h.Line, h.Column, h.Label))
		}
		return k
	}
	question := `{"path":"h.go"`
	all, text := ask(question + `,"limit":500}`)
	if all.TotalFound != 260 || len(all.Hints) != 260 || all.Cursor != "" {
		t.Fatalf("unpaged: %d of %d, cursor %q\n%.600s", len(all.Hints), all.TotalFound, all.Cursor, text)
	}
	got, pages := followPages(t, ask, question+`,"limit":100}`, 260, keys)
	if want := keys(all); pages != 3 || !slices.Equal(got, want) {
		t.Errorf("%d pages; their %d hints equal the unpaged %d, in order: %v", pages, len(got), len(want), slices.Equal(got, want))
	}
	// A later page's text says which hints it shows.
	first, _ := ask(question + `,"limit":100}`)
	second, text := ask(`{"cursor":"` + first.Cursor + `"}`)
	if !strings.Contains(text, "(hints 101–200 of 260)") || second.Cursor == "" {
		t.Errorf("the second page's text:\n%.300s", text[max(0, len(text)-300):])
	}

	// A range: the hints on its lines (20 calls, 40 hints), in pages of 15.
	ranged := `{"path":"h.go","range":{"startLine":11,"endLine":30}`
	rall, text := ask(ranged + `,"limit":500}`)
	if rall.TotalFound != 40 {
		t.Fatalf("range unpaged: %d found\n%.400s", rall.TotalFound, text)
	}
	got, pages = followPages(t, ask, ranged+`,"limit":15}`, 40, keys)
	if want := keys(rall); pages != 3 || !slices.Equal(got, want) {
		t.Errorf("range: %d pages; their %d hints equal the unpaged %d: %v", pages, len(got), len(want), slices.Equal(got, want))
	}

	// An edit between pages: the cursor's answer is gone.
	first, _ = ask(question + `,"limit":100}`)
	write("h.go", calls(131))
	p, text := ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_CONFLICT" || p.Page == nil || p.Page.TotalFound != 262 || p.Page.Cursor == "" {
		t.Errorf("a cursor after an edit: %s", text)
	}
	srv.shutdown(t)
}

// TestHierarchyPaging: 150 callers of one function on gopls (15 in each
// of 10 files), asked with limit 60, come in three pages through cursors
// whose nodes are the unpaged answer's (limit 500), in its order, each
// once; and files edited between two pages (every caller a line lower)
// make the cursor LSP_CONFLICT, answered with the changed graph's first
// page.
func TestHierarchyPaging(t *testing.T) {
	requireServers(t, "gopls")
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("go.mod", "module example.com/pages\n\ngo 1.22\n")
	write("f.go", "package pages\n\n// F has 150 callers.\nfunc F() {}\n")
	callers := func(shift string) {
		for i := 0; i < 10; i++ {
			var b strings.Builder
			b.WriteString("package pages\n" + shift)
			for j := 0; j < 15; j++ {
				fmt.Fprintf(&b, "\nfunc caller%d_%d() { F() }\n", i, j)
			}
			write(fmt.Sprintf("c%d.go", i), b.String())
		}
	}
	callers("")
	srv := catalogServe(t)
	ask := askStructured[hierarchyPage](t, srv, "code_hierarchy", dir)
	question := `{"target":{"path":"f.go","symbol":"F"},"kind":"callers"`
	all, text := ask(question + `,"limit":500}`)
	if all.TotalNodes != 151 || len(all.Nodes) != 151 || all.Cursor != "" {
		t.Fatalf("unpaged: %d of %d nodes, cursor %q\n%.600s", len(all.Nodes), all.TotalNodes, all.Cursor, text)
	}
	ids := func(p hierarchyPage) []string {
		var k []string
		for _, n := range p.Nodes {
			k = append(k, n.ID)
		}
		return k
	}
	got, pages := followPages(t, ask, question+`,"limit":60}`, 151, ids)
	if pages != 3 || !slices.Equal(got, ids(all)) {
		t.Errorf("%d pages; their %d nodes are the unpaged %d in order: %v", pages, len(got), len(all.Nodes), slices.Equal(got, ids(all)))
	}

	// An edit between pages: the graph's first nodes are not the ones the
	// cursor continues.
	first, _ := ask(question + `,"limit":60}`)
	callers("\n")
	p, text := ask(`{"cursor":"` + first.Cursor + `"}`)
	if p.Error == nil || p.Error.Code != "LSP_CONFLICT" || p.Page == nil || p.Page.TotalNodes != 151 || p.Page.Cursor == "" {
		t.Errorf("a cursor after an edit: %.1000s", text)
	}
	srv.shutdown(t)
}

// hierarchyPage is a code_hierarchy answer: its nodes, and what every
// paged answer carries (totalNodes its total).
type hierarchyPage struct {
	TotalNodes int    `json:"totalNodes"`
	Cursor     string `json:"cursor"`
	Nodes      []struct {
		ID string `json:"id"`
	} `json:"nodes"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
	Page *struct {
		TotalNodes int    `json:"totalNodes"`
		Cursor     string `json:"cursor"`
	} `json:"page"`
}

func (p hierarchyPage) header() pageHeader {
	h := pageHeader{TotalFound: p.TotalNodes, Cursor: p.Cursor, Error: p.Error}
	if p.Page != nil {
		h.Page = &struct {
			TotalFound int    `json:"totalFound"`
			Cursor     string `json:"cursor"`
		}{p.Page.TotalNodes, p.Page.Cursor}
	}
	return h
}
