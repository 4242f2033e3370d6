package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestDeltaCHeaderSignature: the C refactor an agent does in two edits,
// on clangd, in a workspace the test writes (a header with a prototype,
// its definition with a call after it, two more files calling it, a
// compilation database with absolute paths).
//
//  1. The prototype gains a parameter: every caller's new error is listed
//     as introduced in the other files, from a report made after the
//     change (clangd parses the includers from the disk's copy of the
//     header: a write overlapping their reports before the change had
//     them hold its errors already, compared after with after — "no new
//     problems").
//  2. The definition changes to match: the conflicting-types error is
//     resolved, and the call errors, unchanged but for clangd's note (it
//     now points at the definition, not the prototype), are neither
//     introduced nor resolved anywhere.
func TestDeltaCHeaderSignature(t *testing.T) {
	requireServers(t, "clangd")
	files := map[string]string{
		"lib.h": "#ifndef LIB_H\n#define LIB_H\nint scale(int v);\n#endif\n",
		"lib.c": "#include \"lib.h\"\n\nint scale(int v)\n{\n    return v * 2;\n}\n\nint twice(void)\n{\n    return scale(4);\n}\n",
		"one.c": "#include \"lib.h\"\n\nint one(void)\n{\n    return scale(1);\n}\n",
		"two.c": "#include \"lib.h\"\n\nint two(void)\n{\n    return scale(2) + scale(3);\n}\n",
	}
	dir := cWorkspace(t, files, "lib.c", "one.c", "two.c")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	edit := cDeltaEditor(t, srv, dir)
	calls := func(fs []deltaFile, list func(deltaFile) []verifyProblem) map[string][]int {
		out := map[string][]int{}
		for _, f := range fs {
			for _, p := range list(f) {
				if p.Code == "typecheck_call_too_few_args" {
					out[f.Path] = append(out[f.Path], p.Line)
				}
			}
		}
		return out
	}
	introduced := func(f deltaFile) []verifyProblem { return f.Introduced }
	resolved := func(f deltaFile) []verifyProblem { return f.Resolved }

	// 1. The prototype.
	r, text := edit("prototype", "lib.h", verifyEdit{"int scale(int v);", "int scale(int v, int w);"})
	o := r.Diagnostics.Others
	got := calls(o.Files, introduced)
	for _, want := range []string{"one.c", "two.c", "lib.c"} {
		if len(got[want]) == 0 {
			t.Errorf("prototype: the call in %s is not introduced (introduced calls %v)", want, got)
		}
		if slices.Contains(o.Stale, want) {
			t.Errorf("prototype: %s is stale: its report after the change was not told apart from the one before", want)
		}
	}
	if len(got["two.c"]) != 2 {
		t.Errorf("prototype: two.c's calls introduced at lines %v, want two", got["two.c"])
	}
	if strings.Contains(text, "no new problems") {
		t.Errorf("prototype: the answer reads as a pass:\n%s", text)
	}

	// 2. The definition, to match.
	r, text = edit("definition", "lib.c", verifyEdit{"int scale(int v)\n", "int scale(int v, int w)\n"})
	own := r.Diagnostics.Files
	if n := len(calls(own, introduced)["lib.c"]) + len(calls(own, resolved)["lib.c"]); n != 0 {
		t.Errorf("definition: lib.c's unchanged call error came out introduced or resolved (%d):\n%s", n, text)
	}
	if len(own) != 1 || len(own[0].Resolved) != 1 || own[0].Resolved[0].Code != "conflicting_types" || len(own[0].Introduced) != 0 || own[0].Persisting != 1 {
		t.Errorf("definition: lib.c's delta %+v; want the conflicting types resolved, the call's error persisting, nothing introduced", own)
	}
	o = r.Diagnostics.Others
	if o.Counts.Introduced != 0 || o.Counts.Resolved != 0 {
		t.Errorf("definition: %d introduced, %d resolved in other files; want none", o.Counts.Introduced, o.Counts.Resolved)
	}
	for _, f := range append(own, o.Files...) {
		for _, p := range append(f.Introduced, f.Resolved...) {
			if p.Severity == "information" || strings.Contains(p.Message, "note:") {
				t.Errorf("definition: a note listed as a problem, or in one: %s:%d %s %q", f.Path, p.Line, p.Severity, p.Message)
			}
		}
	}
}
