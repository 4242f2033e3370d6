package toolbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

func TestCDeclaringFiles(t *testing.T) {
	const lib = "#include \"lib.h\"\n\nint scale(int v)\n{\n    return v * 2;\n}\n"
	// scale's outline entry: a function, its name on line 2, its body to line 5.
	scale := lspseam.OutlineEntry{Name: "scale", Kind: 12}
	scale.Range.Start.Line, scale.Range.End.Line, scale.Range.End.Character = 2, 5, 1
	scale.SelectionRange.Start.Line = 2
	outlines := map[string][]lspseam.OutlineEntry{"lib.c": {scale}}
	for _, c := range []struct {
		name string
		c    changedText
		want string // rel: words, or "" for none
	}{
		{"a function added to a source file", changedText{rel: "lib.c", before: lib, after: lib + "\nstatic void probe(void)\n{\n}\n"}, "lib.c: probe"},
		{"a prototype added to a header", changedText{rel: "lib.h", before: "int scale(int v);\n", after: "int scale(int v);\nint helper(void);\n"}, "lib.h: helper"},
		{"a change inside a source file's function body", changedText{rel: "lib.c", before: lib, after: strings.Replace(lib, "v * 2", "v * factor", 1)}, ""},
		{"a comment changed in a header", changedText{rel: "lib.h", before: "/* a */\nint scale(int v);\n", after: "/* a scale */\nint scale(int v);\n"}, ""},
		{"a created header", changedText{rel: "new.h", after: "int fresh(void);\n", created: true}, ""},
		{"not a C-family file", changedText{rel: "a.go", before: "package a\n", after: "package a\n\nfunc F() {}\n"}, ""},
	} {
		var got []string
		for _, a := range cDeclaringFiles([]changedText{c.c}, outlines) {
			got = append(got, a.rel+": "+strings.Join(a.names, " "))
		}
		if want := []string{c.want}; c.want == "" && len(got) != 0 || c.want != "" && !slices.Equal(got, want) {
			t.Errorf("%s: cDeclaringFiles = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDeclaringIncludersOrder: the includers spelling the rarest of the
// change's new words come first, so the likeliest collision is checked
// (and reported on) first when the includers are many.
func TestDeclaringIncludersOrder(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.c":            "#include \"common.h\"\nint a(const char *expected);\n",
		"b.c":            "#include \"common.h\"\nint b(void);\n",
		"print_number.c": "#include \"common.h\"\nstatic void assert_print_number(const char *expected) {}\n",
		"common.h":       "#include \"lib.c\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := workspacefs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	includers := map[string]bool{"a.c": true, "b.c": true, "print_number.c": true, "common.h": true, "lib.c": true}
	declaring := []addedNames{{"lib.c", []string{"assert_print_number", "expected"}}}
	got, notice := (*Toolbox)(nil).declaringIncluders(t.Context(), r, declaring, includers, true, map[string]bool{"lib.c": true})
	if want := []string{"print_number.c", "a.c", "b.c", "common.h"}; !slices.Equal(got, want) || notice != "" {
		t.Errorf("declaringIncluders = %q, %q; want %q and no notice", got, notice, want)
	}
}
