package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// The lines a code_navigate answer shows count as a read of their file
// (the observation policy): the code tools show code so that a model need
// not read it, and the stale-version guard must hold for a model that
// follows them.

// totalAreaBody is TotalArea as the go fixture declares it: the text a
// model writes its replacement from after an includeBody answer.
const totalAreaBody = "func TotalArea(all []Shape) float64 {\n\ttotal := 0.0\n\tfor _, s := range all {\n\t\ttotal += s.Area()\n\t}\n\treturn total\n}"

func showTotalArea(t *testing.T, srv *serveClient, dir string) {
	t.Helper()
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"}, "kind": "definition", "includeBody": true}), dir)
	if a.IsError || !strings.Contains(a.Content[0].Text, "total += s.Area()") {
		t.Fatalf("code_navigate includeBody shows no body: %s", a.Content[0].Text)
	}
}

// TestReplaceFromShownBodyAfterAnotherSessionsEdit: session A is shown
// TotalArea's body by code_navigate includeBody, session B reads the file
// and edits that body, and A's code_replace written from the body it was
// shown went through ("Applied"), silently undoing B's edit (a tester's
// finding; with read instead of includeBody it was FS_STALE). It is
// FS_STALE now, and goes through once A has been shown the body again.
func TestReplaceFromShownBodyAfterAnotherSessionsEdit(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	a := catalogServe(t, "--approval", "auto")
	defer a.shutdown(t)
	b := catalogServe(t, "--approval", "auto")
	defer b.shutdown(t)

	showTotalArea(t, a, dir)
	if r := b.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "shape.go"}), dir); r.IsError {
		t.Fatal(r.Content[0].Text)
	}
	if r := b.toolCall(t, "edit", jsonArgs(map[string]any{"file_path": "shape.go", "old_string": "\ttotal := 0.0\n", "new_string": "\tif len(all) == 0 {\n\t\treturn 0 // B's guard\n\t}\n\ttotal := 0.0\n"}), dir); r.IsError {
		t.Fatal(r.Content[0].Text)
	}
	path := filepath.Join(dir, "shape.go")
	guarded := string(readFile(t, path))
	replace := jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"},
		"text": strings.Replace(totalAreaBody, "total := 0.0", "total := 0.0 // A", 1)})
	r := a.toolCall(t, "code_replace", replace, dir)
	if !r.IsError || answerCode(r) != "FS_STALE" || string(readFile(t, path)) != guarded {
		t.Fatalf("a replacement written from a body shown before another session's edit: %s", r.Content[0].Text)
	}
	if !strings.Contains(r.Content[0].Text, "code_navigate includeBody") {
		t.Errorf("FS_STALE does not say how a session without read looks again: %s", r.Content[0].Text)
	}
	// Shown again (with B's guard), A replaces knowingly.
	showTotalArea(t, a, dir)
	if r = a.toolCall(t, "code_replace", replace, dir); r.IsError || !strings.Contains(string(readFile(t, path)), "total := 0.0 // A") {
		t.Fatalf("the replacement once shown the body again: %s", r.Content[0].Text)
	}
}

// TestOwnChangesAfterShownBody: a session's own changes after it was
// shown a body are its observations, as after a read: its code_replace
// goes through, a second one after its own first too, and so does an
// edit without a read. A file whose one line a references answer showed
// is read too: edit needs no read of it (it was FS_NOT_OBSERVED).
func TestOwnChangesAfterShownBody(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	path := filepath.Join(dir, "shape.go")

	showTotalArea(t, srv, dir)
	first := jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"},
		"text": strings.Replace(totalAreaBody, "total := 0.0", "total := 0.0 // first", 1)})
	if r := srv.toolCall(t, "code_replace", first, dir); r.IsError || !strings.Contains(string(readFile(t, path)), "// first") {
		t.Fatalf("code_replace after the session's own includeBody: %s", r.Content[0].Text)
	}
	second := jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"},
		"text": strings.Replace(totalAreaBody, "total := 0.0", "total := 0.0 // second", 1)})
	if r := srv.toolCall(t, "code_replace", second, dir); r.IsError || !strings.Contains(string(readFile(t, path)), "// second") {
		t.Fatalf("code_replace after the session's own code_replace: %s", r.Content[0].Text)
	}
	if r := srv.toolCall(t, "edit", jsonArgs(map[string]any{"file_path": "shape.go", "old_string": "// second", "new_string": "// third"}), dir); r.IsError || !strings.Contains(string(readFile(t, path)), "// third") {
		t.Fatalf("edit after the session was shown the file and changed it: %s", r.Content[0].Text)
	}
	refs := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"}, "kind": "references"}), dir)
	if refs.IsError || !strings.Contains(refs.Content[0].Text, `fmt.Fprintf(&b, "total area=%.2f\n", TotalArea(all))`) {
		t.Fatalf("references show no line of report.go: %s", refs.Content[0].Text)
	}
	report := filepath.Join(dir, "report.go")
	if r := srv.toolCall(t, "edit", jsonArgs(map[string]any{"file_path": "report.go", "old_string": "total area=", "new_string": "total area: "}), dir); r.IsError || !strings.Contains(string(readFile(t, report)), "total area: ") {
		t.Fatalf("edit of a file whose line a references answer showed: %s", r.Content[0].Text)
	}
}
