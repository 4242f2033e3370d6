package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestDeltaCSourceBody: the edits of a C source file on clangd, in a
// workspace the test writes (a header, a source file with two functions,
// another source file calling one of them, a compilation database with
// absolute paths). clangd publishes no report on a file whose inputs did
// not change, so every dependent of a source file's change waited out
// the whole wait and came out "stale" (~3 s an edit on cJSON):
//
//  1. a change inside a function's body: the other files are not
//     checked, "the change stays inside function bodies";
//  2. the definition's signature: the definition's own error is listed,
//     and the other files, which #include no source file, are named as
//     not needing a check (no file is stale);
//  3. the header's prototype, which the other source file compiles
//     against: that file is still checked, its broken call introduced.
func TestDeltaCSourceBody(t *testing.T) {
	requireServers(t, "clangd")
	files := map[string]string{
		"lib.h": "#ifndef LIB_H\n#define LIB_H\nint scale(int v);\nint twice(void);\n#endif\n",
		"lib.c": "#include \"lib.h\"\n\nint scale(int v)\n{\n    int r = v * 2;\n    return r;\n}\n\nint twice(void)\n{\n    return scale(4);\n}\n",
		"one.c": "#include \"lib.h\"\n\nint one(void)\n{\n    return scale(1);\n}\n",
	}
	dir := cWorkspace(t, files, "lib.c", "one.c")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	edit := cDeltaEditor(t, srv, dir)

	// 1. Inside scale's body.
	r, text := edit("body", "lib.c", verifyEdit{"    int r = v * 2;\n", "    /* doubled */\n    int r = v + v;\n"})
	o := r.Diagnostics.Others
	if o.InsideBodies < 1 || o.Checked != 0 || len(o.NotChecked) != 0 || !strings.Contains(text, "Other files: not checked — the change stays inside function bodies") {
		t.Errorf("body: others %+v; want no file checked, the change inside a body:\n%s", o, text)
	}
	if strings.Contains(text, "Stale") {
		t.Errorf("body: a stale file:\n%s", text)
	}

	// 2. The definition's signature.
	r, text = edit("definition", "lib.c", verifyEdit{"int scale(int v)\n", "int scale(int v, int w)\n"})
	own := r.Diagnostics.Files
	if len(own) != 1 || !slices.ContainsFunc(own[0].Introduced, func(p verifyProblem) bool { return p.Code == "conflicting_types" }) {
		t.Errorf("definition: lib.c's delta %+v; want the conflicting types introduced", own)
	}
	o = r.Diagnostics.Others
	var separate []string
	for _, n := range o.NotChecked {
		if n.Reason == "otherUnit" {
			separate = append(separate, n.Path)
		}
	}
	slices.Sort(separate)
	if o.Checked != 0 || len(o.Stale) != 0 || !slices.Equal(separate, []string{"lib.h", "one.c"}) || !strings.Contains(text, "do not #include the changed source file") {
		t.Errorf("definition: others %+v; want lib.h and one.c named as not needing a check, none stale:\n%s", o, text)
	}
	if strings.Contains(text, "no new problems") {
		t.Errorf("definition: the answer reads as a pass for the other files:\n%s", text)
	}

	// 3. The header's prototype: one.c compiles against it.
	r, text = edit("prototype", "lib.h", verifyEdit{"int scale(int v);", "int scale(int v, int w);"})
	o = r.Diagnostics.Others
	broken := false
	for _, f := range o.Files {
		for _, p := range f.Introduced {
			broken = broken || f.Path == "one.c" && p.Code == "typecheck_call_too_few_args"
		}
	}
	if !broken || slices.Contains(o.Stale, "one.c") {
		t.Errorf("prototype: one.c's broken call not introduced from a fresh report (others %+v):\n%s", o, text)
	}
}
