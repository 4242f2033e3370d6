package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeScriptSearchOmitsSvelteFiles: typescript-language-server does
// not read .svelte files, so references of a function of a .ts file used
// only in .svelte files find the declaration alone. The answer says the
// .svelte files were not searched (naming the count and one), and
// code_delete, which trusted it and broke App.svelte, refuses instead.
func TestTypeScriptSearchOmitsSvelteFiles(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	text := referencesText(t, dir, "src/lib/shapes.ts:23:17")
	found := strings.Contains(text, "src/App.svelte")
	marked := strings.Contains(text, "possibly incomplete") && strings.Contains(text, "3 Svelte files of the workspace are not searched (such as src/App.svelte)")
	if !found && !marked {
		t.Errorf("references from shapes.ts miss the .svelte files and are not marked:\n%s", text)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	before := string(readFile(t, filepath.Join(dir, "src", "lib", "shapes.ts")))
	a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "src/lib/shapes.ts", "symbol": "describe"}}), dir)
	t.Logf("code_delete:\n%s", a.Content[0].Text)
	if !a.IsError || !strings.Contains(a.Content[0].Text, "App.svelte") {
		t.Errorf("code_delete of a function App.svelte uses is not refused naming a .svelte file:\n%s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "src", "lib", "shapes.ts"))); got != before {
		t.Errorf("code_delete changed shapes.ts although App.svelte uses describe")
	}
}

// TestVueTemplatesWithoutVue: without vue in node_modules (a fresh clone
// before npm install) the Vue plugin finds nothing in a template, so the
// references of a component's `label` miss its {{ label }}: the answer
// says the templates were not searched and how to have them searched.
func TestVueTemplatesWithoutVue(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "vue") // ships no node_modules
	text := referencesText(t, dir, "src/components/ShapeBadge.vue:8:7")
	found := strings.Contains(text, "12:26")
	marked := strings.Contains(text, "possibly incomplete") && strings.Contains(text, "templates were not searched") && strings.Contains(text, "npm install")
	if !found && !marked {
		t.Errorf("references of label miss the template's use and are not marked:\n%s", text)
	}
}
