package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The diagnostics delta against the real servers where it once invented
// changes (the new-user pass of session 14): an edit or a rename on the
// line of an existing error, gopls's analyzers, which it does not run
// while a package has type errors, and gopls's type errors, which it does
// not report for a file with a syntax error.

// deltaAnswer is an edit's answer with its delta's counts.
type deltaAnswer struct {
	OK          bool `json:"ok"`
	Diagnostics *struct {
		Files []struct {
			Path       string            `json:"path"`
			Fresh      bool              `json:"fresh"`
			Withheld   []json.RawMessage `json:"withheld"`
			Reappeared []json.RawMessage `json:"reappeared"`
			Unchecked  []json.RawMessage `json:"unchecked"`
			Rechecked  []json.RawMessage `json:"rechecked"`
		} `json:"files"`
		Counts struct {
			Introduced int `json:"introduced"`
			Resolved   int `json:"resolved"`
			Persisting int `json:"persisting"`
			Withheld   int `json:"withheld"`
			Reappeared int `json:"reappeared"`
			Unchecked  int `json:"unchecked"`
			Rechecked  int `json:"rechecked"`
		} `json:"counts"`
	} `json:"diagnostics"`
}

// editWithDelta makes an edit and returns its delta, failing without one.
func editWithDelta(t *testing.T, srv *serveClient, dir string, args map[string]any) (deltaAnswer, string) {
	t.Helper()
	a := srv.toolCall(t, "edit", jsonArgs(args), dir)
	var r deltaAnswer
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || !r.OK || r.Diagnostics == nil || len(r.Diagnostics.Files) != 1 {
		t.Fatalf("edit %v: %s", args, a.StructuredContent)
	}
	return r, a.Content[0].Text
}

// An edit on the line of an existing error, after it (a comment) and
// before it (the error moves along the line), leaves the error
// persisting: it answered "1 error introduced, 1 resolved" with the same
// TS2322 in both lists.
func TestDeltaEditOnErrorLineTypeScript(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	content := "// header\nexport const n: number = 'oops'; // note A\nexport const m = 1;\n"
	a := srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": "src/u2.ts", "content": content}), dir)
	if a.IsError || !strings.Contains(a.Content[0].Text, "TS2322") {
		t.Fatalf("write: the new file's error is not reported:\n%s", a.Content[0].Text)
	}
	for _, e := range []struct{ what, old, repl string }{
		{"a comment after the error", "// note A", "// note B"},
		{"a longer name before the error", "export const n:", "export const nn:"},
	} {
		r, text := editWithDelta(t, srv, dir, map[string]any{"file_path": "src/u2.ts", "old_string": e.old, "new_string": e.repl})
		t.Logf("%s:\n%s", e.what, text)
		c := r.Diagnostics.Counts
		if !r.Diagnostics.Files[0].Fresh {
			t.Logf("%s: the report is not fresh; the counts compare the latest one", e.what)
		}
		if c.Introduced != 0 || c.Resolved != 0 || c.Persisting != 1 || !strings.Contains(text, "0 introduced, 0 resolved, 1 persisting") {
			t.Errorf("%s: counts %+v; want 0 introduced, 0 resolved, 1 persisting:\n%s", e.what, c, text)
		}
	}
}

// gopls does not run its analyzers on a package with a type error: an
// edit that breaks the package does not resolve its unused function, and
// the fix does not introduce it.
func TestDeltaGoAnalyzersPausedByErrors(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	helper := "package shapes\n\n// unusedHelper is used nowhere.\nfunc unusedHelper() int { return 1 }\n\n// Two is two.\nfunc Two() int { return 2 }\n"
	if err := os.WriteFile(filepath.Join(dir, "helper.go"), []byte(helper), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	r, a := codeDiagnostics(t, srv, "helper.go", dir)
	if len(r.Problems) != 1 || r.Problems[0].Source != "unusedfunc" || r.Problems[0].Code != "default" {
		t.Fatalf("gopls does not report the unused function as expected: %v", r.Problems)
	}
	if !strings.Contains(a.Content[0].Text, "information unusedfunc: function \"unusedHelper\" is unused") {
		t.Errorf("the unused function's line does not name its analyzer (gopls's code says only \"default\"):\n%s", a.Content[0].Text)
	}
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "helper.go"}), dir); a.IsError {
		t.Fatalf("read: %s", a.StructuredContent)
	}
	breakIt := map[string]any{"file_path": "helper.go", "old_string": "return 2", "new_string": `return "two"`}
	d, text := editWithDelta(t, srv, dir, breakIt)
	t.Logf("break:\n%s", text)
	c := d.Diagnostics.Counts
	if c.Introduced != 1 || c.Resolved != 0 || c.Withheld != 1 || len(d.Diagnostics.Files[0].Withheld) != 1 ||
		!strings.Contains(text, "Not reported while the package has errors (not resolved: gopls runs its analyzers only on code that type-checks):\n  helper.go:4:6 information unusedfunc") {
		t.Errorf("break: counts %+v; want 1 introduced, 0 resolved, 1 withheld:\n%s", c, text)
	}
	breakIt["old_string"], breakIt["new_string"] = breakIt["new_string"], breakIt["old_string"]
	d, text = editWithDelta(t, srv, dir, breakIt)
	t.Logf("fix:\n%s", text)
	c = d.Diagnostics.Counts
	if c.Introduced != 0 || c.Resolved != 1 || c.Reappeared != 1 || len(d.Diagnostics.Files[0].Reappeared) != 1 ||
		!strings.Contains(text, "Reported again now that the package type-checks") || strings.Contains(text, "Introduced:") {
		t.Errorf("fix: counts %+v; want 0 introduced, 1 resolved, 1 reappeared:\n%s", c, text)
	}
}

// gopls drops a file's type errors while the file has a syntax error (the
// package's other files keep theirs): the tester's two steps (findings-enc
// §3) answered "Resolved: a.go:3:13 … IncompatibleAssign" for an error go
// vet shows throughout, then "Introduced:" it on the undo.
func TestDeltaGoTypeErrorsHiddenBySyntaxError(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	hidden := "package shapes\n\nvar HiddenA int = \"s\"\n\n// HiddenF is one.\nfunc HiddenF() int {\n\treturn 1\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "hidden.go"), []byte(hidden), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if r, a := codeDiagnostics(t, srv, "hidden.go", dir); len(r.Problems) != 1 || r.Problems[0].Source != "compiler" {
		t.Fatalf("gopls does not report the type error as expected:\n%s", a.Content[0].Text)
	}
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "hidden.go"}), dir); a.IsError {
		t.Fatalf("read: %s", a.StructuredContent)
	}
	breakIt := map[string]any{"file_path": "hidden.go", "old_string": "\treturn 1", "new_string": "\treturn 1 +"}
	d, text := editWithDelta(t, srv, dir, breakIt)
	t.Logf("syntax error:\n%s", text)
	c := d.Diagnostics.Counts
	if c.Introduced != 1 || c.Resolved != 0 || c.Unchecked != 1 || len(d.Diagnostics.Files[0].Unchecked) != 1 || strings.Contains(text, "Resolved:") ||
		!strings.Contains(text, "Not checked while the file does not parse (not resolved: gopls reports no type errors for a file with a syntax error") ||
		!strings.Contains(text, "hidden.go:3:19 error IncompatibleAssign") {
		t.Errorf("syntax error: counts %+v; want 1 introduced, 0 resolved, 1 unchecked:\n%s", c, text)
	}
	breakIt["old_string"], breakIt["new_string"] = breakIt["new_string"], breakIt["old_string"]
	d, text = editWithDelta(t, srv, dir, breakIt)
	t.Logf("fix:\n%s", text)
	c = d.Diagnostics.Counts
	if c.Introduced != 0 || c.Resolved != 1 || c.Rechecked != 1 || len(d.Diagnostics.Files[0].Rechecked) != 1 || strings.Contains(text, "Introduced:") ||
		!strings.Contains(text, "Reported again now that the file parses") || !strings.Contains(text, "hidden.go:3:19 error IncompatibleAssign") {
		t.Errorf("fix: counts %+v; want 0 introduced, 1 resolved, 1 rechecked:\n%s", c, text)
	}
}

// A rename that edits the line of an error and a line above it (the
// import and the call) leaves the error persisting: pyright's preview
// answered "1 error introduced, 1 resolved" with the same 3:10 in both
// lists, because the old rule matched a problem inside the changed lines
// only by its line's text.
func TestDeltaRenameOnErrorLinePyright(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	for name, text := range map[string]string{
		"helpers_x.py": "def used_helper(x: int) -> int:\n    return x + 1\n",
		"helpers_y.py": "from .helpers_x import used_helper\n\nz: str = used_helper(1)\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "shapes", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if r, a := codeDiagnostics(t, srv, "shapes/helpers_y.py", dir); len(r.Problems) != 1 || r.Problems[0].Code != "reportAssignmentType" {
		t.Fatalf("pyright does not report the assignment's error as expected:\n%s", a.Content[0].Text)
	}
	a := srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": map[string]any{"path": "shapes/helpers_x.py", "symbol": "used_helper"}, "newName": "better_helper"}), dir)
	t.Logf("rename preview:\n%s", a.Content[0].Text)
	var r deltaAnswer
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil {
		t.Fatalf("rename preview: %s", a.StructuredContent)
	}
	if c := r.Diagnostics.Counts; c.Introduced != 0 || c.Resolved != 0 || c.Persisting != 1 {
		t.Errorf("rename preview: counts %+v; want 0 introduced, 0 resolved, 1 persisting", c)
	}
}
