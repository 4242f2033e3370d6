package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestDeltaCNewDeclarationIncluders: a change that declares a new name in
// a file other units #include — a header, or a source file another unit
// includes (cJSON's tests/common.h does `#include "../cJSON.c"`) — can
// break an includer that declares the same name, and no reference leads
// there: the name had none before the change. A tester's insertions of
// `assert_print_number` into cJSON.c and cJSON.h answered "Other files:
// none refer to what changed (asked before the change)" while
// tests/print_number.c no longer compiled ("redefinition of
// 'assert_print_number'"). On a workspace the test writes (a header, its
// source file, a unit defining its own static helper, a unit including
// the source file), each insertion's collision is listed as introduced
// in the includer, from a report made after the change.
func TestDeltaCNewDeclarationIncluders(t *testing.T) {
	requireServers(t, "clangd")
	files := map[string]string{
		"lib.h":   "#ifndef LIB_H\n#define LIB_H\n\nint scale(int v);\n\n#endif\n",
		"lib.c":   "#include \"lib.h\"\n\nint scale(int v)\n{\n    return v * 2;\n}\n",
		"one.c":   "#include \"lib.h\"\n\nstatic int helper(void)\n{\n    return 1;\n}\n\nint one(void)\n{\n    return scale(helper());\n}\n",
		"whole.c": "#include \"lib.c\"\n\nstatic void probe(void)\n{\n}\n\nint whole(void)\n{\n    probe();\n    return 0;\n}\n",
	}
	dir := cWorkspace(t, files, "lib.c", "one.c", "whole.c")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	edit := cDeltaEditor(t, srv, dir)
	for _, c := range []struct {
		what, file string
		e          verifyEdit
		includer   string
	}{
		{"a prototype added to the header", "lib.h", verifyEdit{"int scale(int v);\n", "int scale(int v);\nint helper(void);\n"}, "one.c"},
		{"a function added to the source file another unit includes", "lib.c", verifyEdit{"    return v * 2;\n}\n", "    return v * 2;\n}\n\nstatic void probe(void)\n{\n}\n"}, "whole.c"},
	} {
		r, text := edit(c.what, c.file, c.e)
		o := r.Diagnostics.Others
		var collisions []verifyProblem
		for _, f := range o.Files {
			if f.Path == c.includer {
				for _, p := range f.Introduced {
					if p.Severity == "error" {
						collisions = append(collisions, p)
					}
				}
			}
		}
		if len(collisions) == 0 {
			t.Errorf("%s: no error introduced in %s, which declares the same name:\n%s", c.what, c.includer, text)
		}
		if slices.Contains(o.Stale, c.includer) {
			t.Errorf("%s: %s is stale: its report after the change was not told apart from the one before", c.what, c.includer)
		}
		if strings.Contains(text, "none refer to what changed") {
			t.Errorf("%s: the answer says no other file is affected:\n%s", c.what, text)
		}
		// Undo, so the next change starts from the files as written.
		edit("undo "+c.what, c.file, verifyEdit{c.e.NewString, c.e.OldString})
	}
}

// TestDeltaCNewDeclarationIncludersUnknown: when the files that #include
// the header cannot be found (here an include-only file no server reads,
// tables.def, may include it), a change declaring a name anew there does
// not answer "none refer to what changed" bare: it says a collision in
// an includer was not looked for.
func TestDeltaCNewDeclarationIncludersUnknown(t *testing.T) {
	requireServers(t, "clangd")
	files := map[string]string{
		"lib.h":      "#ifndef LIB_H\n#define LIB_H\n\nint scale(int v);\n\n#endif\n",
		"lib.c":      "#include \"lib.h\"\n\nint scale(int v)\n{\n    return v * 2;\n}\n",
		"tables.def": "ENTRY(one)\n",
	}
	dir := cWorkspace(t, files, "lib.c")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	edit := cDeltaEditor(t, srv, dir)
	_, text := edit("a prototype added to the header", "lib.h", verifyEdit{"int scale(int v);\n", "int scale(int v);\nint helper(void);\n"})
	if !strings.Contains(text, "could not all be found") {
		t.Errorf("the answer does not say the header's includers were not looked for:\n%s", text)
	}
}
