package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The uses of a .ts function in .svelte components, which
// typescript-language-server does not read, are asked of
// svelte-language-server from a component that imports it
// (bindings/go/toolbox/componentsearch.go). On the svelte fixture,
// describe (src/lib/shapes.ts) is used by App.svelte and Badge.svelte.

// TestSvelteUsesOfTsFunction: references from the .ts declaration list the
// .svelte uses, unmarked (findings s26b #2: "1 location in 1 file" and
// "3 Svelte files of the workspace are not searched").
func TestSvelteUsesOfTsFunction(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "src/lib/shapes.ts", "symbol": "describe"}, "kind": "references"}), dir)
	text := a.Content[0].Text
	t.Logf("references:\n%s", text)
	for _, want := range []string{"src/App.svelte", "17:13", "src/lib/Badge.svelte", "8:22", "src/lib/shapes.ts"} {
		if !strings.Contains(text, want) {
			t.Errorf("references of describe from shapes.ts lack %s", want)
		}
	}
	if strings.Contains(text, "Svelte files of the workspace are not searched") {
		t.Errorf("references of describe still say the .svelte files were not searched")
	}
}

// TestSvelteRenameOfTsFunction: a rename from the .ts file renames the
// .svelte imports and uses too (it broke 3 components, findings s26b #2).
func TestSvelteRenameOfTsFunction(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	args := map[string]any{"target": map[string]any{"path": "src/lib/shapes.ts", "symbol": "describe"}, "newName": "summarize"}
	a := srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	t.Logf("rename preview:\n%s", a.Content[0].Text)
	var s map[string]any
	if err := json.Unmarshal(a.StructuredContent, &s); err != nil || a.IsError || s["previewId"] == nil {
		t.Fatalf("rename preview: %s %s", a.Content[0].Text, a.StructuredContent)
	}
	// The preview shows the change to typescript-language-server only:
	// the .svelte files it edits are named as checked once written, not
	// as files no server covers.
	if p := a.Content[0].Text; strings.Contains(p, "no language server covers") || !strings.Contains(p, "checks them, and the change is shown before writing only to") {
		t.Errorf("the rename preview does not say the .svelte files are checked by their own server once written")
	}
	args["previewId"] = s["previewId"]
	a = srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	t.Logf("rename:\n%s", a.Content[0].Text)
	if a.IsError {
		t.Fatalf("rename refused: %s", a.Content[0].Text)
	}
	for _, f := range []string{"src/App.svelte", "src/lib/Badge.svelte", "src/lib/shapes.ts"} {
		got := string(readFile(t, filepath.Join(dir, filepath.FromSlash(f))))
		if strings.Contains(got, "describe(") || strings.Contains(got, "describe }") || strings.Contains(got, "{ describe,") || !strings.Contains(got, "summarize") {
			t.Errorf("%s after the rename:\n%s", f, got)
		}
	}
	if strings.Contains(a.Content[0].Text, "not searched") {
		t.Errorf("the rename still says files were not searched")
	}
}

// TestSvelteCallerOfChangedTsSignature: a signature change in the .ts file
// reports the .svelte callers it breaks (findings s26b #2: "none refer to
// what changed").
func TestSvelteCallerOfChangedTsSignature(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "src/lib/shapes.ts"}), dir)
	a := srv.toolCall(t, "edit", jsonArgs(map[string]any{"file_path": "src/lib/shapes.ts", "old_string": "describe(shape: Shape): string", "new_string": "describe(shape: Shape, prefix: string): string"}), dir)
	text := a.Content[0].Text
	t.Logf("edit:\n%s", text)
	if !strings.Contains(text, "Expected 2 arguments, but got 1") || !strings.Contains(text, "App.svelte") || !strings.Contains(text, "Badge.svelte") {
		t.Errorf("the signature change does not report the broken .svelte callers")
	}
}

// TestSveltePreviewOfChangedTsSignature: a preview of the same signature
// change names the .svelte callers as checked by their own server once the
// change is written (that server is not shown the previewed text), not as
// files no language server reports on.
func TestSveltePreviewOfChangedTsSignature(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	orig := string(readFile(t, filepath.Join(dir, "src", "lib", "shapes.ts")))
	a := srv.toolCall(t, "code_replace", jsonArgs(map[string]any{"target": map[string]any{"path": "src/lib/shapes.ts", "symbol": "describe"}, "text": describeWithPrefix}), dir)
	text := a.Content[0].Text
	t.Logf("preview:\n%s", text)
	if a.IsError || !strings.Contains(text, "another language server checks them, which is shown the change only once it is written") || strings.Contains(text, "no language server reports on them") {
		t.Errorf("the preview does not say the .svelte callers are checked by their own server once written")
	}
	for _, f := range []string{"src/App.svelte", "src/lib/Badge.svelte"} {
		if !strings.Contains(text, f) {
			t.Errorf("the preview does not name %s", f)
		}
	}
	if got := string(readFile(t, filepath.Join(dir, "src", "lib", "shapes.ts"))); got != orig {
		t.Errorf("the preview wrote shapes.ts")
	}
}

// describeWithPrefix is describe with a second, required parameter: its
// .svelte callers pass one argument.
const describeWithPrefix = "/** Describes a shape in one line. */\nexport function describe(shape: Shape, prefix: string): string {\n  return `${prefix}${shape.constructor.name} with area ${shape.area().toFixed(2)}`;\n}"

// TestSvelteScriptCallersOfTsFunction: typescript-language-server's call
// hierarchy has no .svelte file, template or script; the callers of a .ts
// function list a component's script call as well as its template's,
// found by svelte-language-server's references (a script call was
// missing while the template's was listed), and the answer no longer says
// the .svelte files were not searched.
func TestSvelteScriptCallersOfTsFunction(t *testing.T) {
	requireServers(t, "typescript-language-server", "svelteserver")
	dir := copyFixture(t, "svelte")
	app := filepath.Join(dir, "src", "App.svelte")
	text := string(readFile(t, app))
	withCall := strings.Replace(text, "  function total(): number {", "  const first = describe(shapes[0]);\n\n  function total(): number {", 1)
	if withCall == text {
		t.Fatal("the fixture's App.svelte has no function total")
	}
	if err := os.WriteFile(app, []byte(withCall), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_hierarchy", jsonArgs(map[string]any{"target": map[string]any{"path": "src/lib/shapes.ts", "symbol": "describe"}, "kind": "callers"}), dir)
	got := a.Content[0].Text
	t.Logf("callers:\n%s", got)
	for _, want := range []string{"src/App.svelte:7:17", "src/App.svelte", "19:13", "src/lib/Badge.svelte:8:22"} {
		if a.IsError || !strings.Contains(got, want) {
			t.Errorf("the callers of describe lack %s", want)
		}
	}
	if strings.Contains(got, "Svelte files of the workspace are not searched") {
		t.Errorf("the callers still say the .svelte files were not searched, which svelte-language-server did")
	}
}
