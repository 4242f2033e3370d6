package localstdio

import (
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// TestToolboxLeavesOutLocationsInGoneFiles: a server's index outlives
// the files it was built from (clangd's background index after the shell
// moved cJSON_Utils.c listed a use at cJSON_Utils.c:348 beside the moved
// file's), and a rename then said "the rename leaves 1 use … rename it
// too (edit), or the code breaks" and "Not checked: cJSON_Utils.c". A
// location in a file that does not exist is left out of navigation
// answers, of the rename's uses left and of its dependents, and the
// answer says so once.
func TestToolboxLeavesOutLocationsInGoneFiles(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	caps := map[string]any{"textDocumentSync": 1, "definitionProvider": true, "referencesProvider": true,
		"documentSymbolProvider": true, "renameProvider": true}
	refs := []any{f.loc("a.go", 2, 5), f.loc("gone.go", 7, 3), f.loc("b.go", 2, 11)}
	edit := func(line, char int) []any {
		return []any{map[string]any{"newText": "Z", "range": map[string]any{
			"start": map[string]any{"line": line, "character": char}, "end": map[string]any{"line": line, "character": char + 1}}}}
	}
	f.setScript(map[string]any{"capabilities": caps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": refs},
		"textDocument/definition":     map[string]any{"result": []any{f.loc("gone.go", 2, 5), f.loc("a.go", 2, 5)}},
		"textDocument/rename": map[string]any{"result": map[string]any{"changes": map[string]any{
			f.uri("a.go"): edit(2, 5), f.uri("b.go"): edit(2, 11)}}},
	}})
	tb := f.toolbox()
	const said = "the server's index still lists 1 use in a file that no longer exists (gone.go); left out"

	res, s := f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`)
	if res.IsError || s["totalFound"] != float64(2) || strings.Contains(res.Text, "gone.go\n") || !strings.Contains(res.Text, said) {
		t.Fatalf("references with a use in a gone file:\n%s", res.Text)
	}
	res, s = f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"definition"}`)
	if res.IsError || s["totalFound"] != float64(1) || !strings.Contains(res.Text, "still lists 1 location in a file that no longer exists (gone.go)") {
		t.Fatalf("a definition in a gone file:\n%s", res.Text)
	}

	if err := tb.SetApproval(toolbox.ApprovalAuto); err != nil {
		t.Fatal(err)
	}
	res, s = f.call(tb, "code_rename", `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`)
	if res.IsError || s["applied"] != true {
		t.Fatalf("rename: %s", res.Text)
	}
	if strings.Count(res.Text, "gone.go") != 1 || !strings.Contains(res.Text, said) || strings.Contains(res.Text, "the rename leaves") {
		t.Fatalf("a rename whose references list a gone file names it as a use, a dependent, or not once:\n%s", res.Text)
	}
}
