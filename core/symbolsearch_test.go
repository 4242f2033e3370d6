package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestSymbolMatchClass(t *testing.T) {
	tests := []struct {
		name, container, query string
		want                   int
	}{
		{"Describe", "", "Describe", matchExact},
		{"describe", "", "Describe", matchExactFold},
		{"DescribeAll", "", "Describe", matchPrefix},
		{"describeAll", "", "Describe", matchPrefixFold},
		{"MustDescribe", "", "Describe", matchSubstring},
		{"mustdescribeit", "", "Describe", matchSubstring},
		{"DoSomethingElse", "", "dse", matchFuzzy},
		{"Área", "", "ár", matchPrefixFold},
		{"a", "", "abc", matchFuzzy}, // shorter than the query
		// A query naming a member compares Container.name too.
		{"Area", "Circle", "Circle.Area", matchExact},
		{"Area", "geom.Circle", "Circle.Area", matchExact},
		{"area", "geom::Circle", "Circle::area", matchExact},
		{"Area", "Circle", "circle.area", matchExactFold},
		{"AreaOf", "Circle", "Circle.Area", matchPrefix},
		// A plain query is compared with the name alone.
		{"Area", "Circle", "Circle", matchFuzzy},
		// A name that carries its container (gopls's Shape.Area, clangd's
		// ns::f) is named by its last segment too.
		{"Shape.Area", "example.com/geom", "Area", matchExact},
		{"geom::area", "", "area", matchExact},
		{"Shape.AreaOf", "", "Area", matchPrefix},
		{"Area.Shape", "", "Area", matchPrefix},
	}
	for _, tt := range tests {
		if got := symbolMatchClass(tt.name, tt.container, tt.query); got != tt.want {
			t.Errorf("symbolMatchClass(%q, %q, %q) = %d, want %d", tt.name, tt.container, tt.query, got, tt.want)
		}
	}
}

func TestRankWorkspaceSymbols(t *testing.T) {
	// Each match is "name@path"; the input order is the servers' order.
	tests := []struct {
		name, query string
		in, want    string
	}{
		{"exact, then prefix, then substring, then fuzzy", "Parse",
			"parseAll@a.go ParseNumber@b.ts MustParse@c.py Parse@d.go pArSe@e.go Pars_e@f.go",
			"Parse@d.go pArSe@e.go ParseNumber@b.ts parseAll@a.go MustParse@c.py Pars_e@f.go"},
		{"stable among equals: the servers' order is kept", "Area",
			"Area@z.go Area@a.ts Area@m.py",
			"Area@z.go Area@a.ts Area@m.py"},
		{"the workspace before its dependencies within a class", "Println",
			"Println@/usr/local/go/src/fmt/print.go Println@log.go Printlnf@/usr/x.go Printlnx@y.go",
			"Println@log.go Println@/usr/local/go/src/fmt/print.go Printlnx@y.go Printlnf@/usr/x.go"},
		{"a worse class inside the workspace still after a better one outside", "Do",
			"DoIt@a.go Do@/lib/x.go",
			"Do@/lib/x.go DoIt@a.go"},
		{"the query's surrounding spaces are ignored", " Area ",
			"Areas@a.go Area@b.go",
			"Area@b.go Areas@a.go"},
		{"empty", "x", "", ""},
	}
	for _, tt := range tests {
		var ms []workspaceSymbol
		for _, f := range strings.Fields(tt.in) {
			name, path, _ := strings.Cut(f, "@")
			ms = append(ms, workspaceSymbol{Name: name, Path: path})
		}
		rankWorkspaceSymbols(ms, tt.query)
		var got []string
		for _, m := range ms {
			got = append(got, m.Name+"@"+m.Path)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, g, tt.want)
		}
	}
}

func TestSearchScope(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"server":"gopls","path":"a/b.go","root":"a"}`, "the project gopls serves for a/b.go (its root: a)"},
		{`{"server":"gopls","path":"b.go","root":"."}`, "the project gopls serves for b.go (its root: the workspace root)"},
		{`{"server":"gopls","path":"b.go"}`, "the project gopls serves for b.go (its root: the workspace root)"},
		{`{"server":"typescript","path":"src/a.ts","root":".","followsDocument":true}`, "the projects typescript has for src/a.ts (it searches only the projects of the file it is given)"},
		{`null`, ""},
	}
	for _, tt := range tests {
		got, err := searchScope(gjson.Parse(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("searchScope(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`{"server":"gopls"}`, `{"path":"a.go"}`, `"gopls"`, `{"server":"","path":"a.go"}`} {
		if _, err := searchScope(gjson.Parse(bad)); err == nil || err.Code != CodeInvalidArgument {
			t.Errorf("searchScope(%s): %v, want LSP_INVALID_ARGUMENT", bad, err)
		}
	}
}

func TestSourceLanguage(t *testing.T) {
	for ext, want := range map[string]string{".go": "Go", ".TSX": "TypeScript", ".rs": "Rust", ".md": "", ".json": "", "": ""} {
		if got := SourceLanguage(ext); got != want {
			t.Errorf("SourceLanguage(%q) = %q, want %q", ext, got, want)
		}
	}
}
