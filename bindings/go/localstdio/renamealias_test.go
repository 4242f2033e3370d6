package localstdio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolboxRenameSaysTheServerWroteAnAlias: svelte-language-server,
// asked to rename a component's prop from its declaration, keeps the prop
// and renames the local name only (`errors` → `errors: problems`, `{errors}`
// → `errors={problems}`), inserting after the old name's range. The answer
// told a tester to rename the lines the rename had edited and the pages'
// `errors={…}` too "or the code breaks"; obeying broke the editor page. The
// preview and the applied answer name the alias and list none of them.
func TestToolboxRenameSaysTheServerWroteAnAlias(t *testing.T) {
	f := newFake(t, nil, map[string]any{"extensionToLanguage": map[string]string{".svelte": "svelte"}})
	f.cleanPull = true // not about the change's diagnostics
	for name, text := range map[string]string{
		"Editor.svelte": "<script>\n\tconst { article, errors } = $props();\n</script>\n<ListErrors {errors} />\n",
		"page.svelte":   "<Editor errors={form?.errors} />\n",
	} {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pos := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	rng := func(l1, c1, l2, c2 int) map[string]any {
		return map[string]any{"start": pos(l1, c1), "end": pos(l2, c2)}
	}
	f.setScript(map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "referencesProvider": true,
		"renameProvider": map[string]any{"prepareProvider": true}}, "methods": map[string]any{
		"textDocument/prepareRename": map[string]any{"result": rng(1, 18, 1, 24)},
		"textDocument/references":    map[string]any{"result": []any{f.loc("Editor.svelte", 1, 18), f.loc("Editor.svelte", 3, 13), f.loc("page.svelte", 0, 8)}},
		"textDocument/rename": map[string]any{"result": map[string]any{"changes": map[string]any{f.uri("Editor.svelte"): []any{
			map[string]any{"newText": ": problems", "range": rng(1, 24, 1, 24)},
			map[string]any{"newText": "errors={problems}", "range": rng(3, 12, 3, 20)},
		}}}},
	}})
	tb := f.toolbox()
	args := `{"target":{"path":"Editor.svelte","line":2,"matchText":"errors"},"newName":"problems"}`
	check := func(what, text string) {
		t.Helper()
		if want := "the server renamed only the local name (it wrote `errors: problems` at Editor.svelte:2): `errors` keeps its name for the files that use it, which stay as they are"; !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
		if strings.Contains(text, "the rename leaves") || strings.Contains(text, "page.svelte:1") {
			t.Errorf("%s tells to rename what the alias keeps:\n%s", what, text)
		}
	}
	preview, applied := f.previewThenApply(tb, "code_rename", args)
	check("the preview", preview)
	check("the applied answer", applied)
	got, err := os.ReadFile(filepath.Join(f.ws, "Editor.svelte"))
	if err != nil || !strings.Contains(string(got), "errors: problems") {
		t.Fatalf("Editor.svelte after the rename: %q, %v", got, err)
	}
}
