package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneFileSearch: vscode-css-language-server's references and renames
// cover one stylesheet by design. On a copy of the css fixture where
// cards.css uses var(--gap) and page.html class="card-title" (neither
// found by the server), references of --gap say what they did not
// search, the rename does not say that no other file uses it, and
// code_delete of .card-title refuses (usesUnknown) instead of deleting a
// class the page uses, as it did. With theme.css alone in the workspace
// there is nothing unsearched: the delete goes ahead. The HTML server is
// one-document too: references of an inline script's function say so
// once a .js file the page may load is in the root.
func TestOneFileSearch(t *testing.T) {
	requireServers(t, "vscode-css-language-server", "vscode-html-language-server")
	const notice = `searches only the file asked about`
	dir := copyFixture(t, "css")
	for name, text := range map[string]string{
		"cards.css": ".deck .card { margin: var(--gap); }\n",
		"page.html": "<link rel=\"stylesheet\" href=\"theme.css\"><h2 class=\"card-title\">Hi</h2>\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	gap := map[string]any{"path": "theme.css", "line": 3, "matchText": "--gap"}
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": gap, "kind": "references"}), dir)
	if a.IsError || !strings.Contains(incomplete(a.StructuredContent), notice) {
		t.Errorf("references of --gap, used by cards.css, are not marked one file's: %s", a.Content[0].Text)
	}
	a = srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": gap, "newName": "--spacing"}), dir)
	if text := a.Content[0].Text; a.IsError || strings.Contains(text, "none use what changed.") || !strings.Contains(text, notice) {
		t.Errorf("the rename of --gap, used by cards.css, does not say it searched one file: %s", text)
	}
	before := string(readFile(t, filepath.Join(dir, "theme.css")))
	a = srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "theme.css", "symbol": ".card-title"}}), dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, notice) {
		t.Errorf("deleting .card-title, used by page.html: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "theme.css"))); got != before {
		t.Errorf("a refused delete changed theme.css")
	}

	alone := t.TempDir()
	if err := os.WriteFile(filepath.Join(alone, "theme.css"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	a = srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "theme.css", "symbol": ".card-title"}}), alone)
	if a.IsError || strings.Contains(a.Content[0].Text, notice) {
		t.Errorf("deleting .card-title from the only stylesheet: %s", a.Content[0].Text)
	}

	circle := map[string]any{"target": map[string]any{"path": "index.html", "line": 22, "matchText": "circleArea"}, "kind": "references"}
	if a := srv.toolCall(t, "code_navigate", jsonArgs(circle), copyFixture(t, "html")); a.IsError || incomplete(a.StructuredContent) != "" {
		t.Errorf("references of an inline script's function, no script file in the root: %s", a.Content[0].Text)
	}
	html := copyFixture(t, "html")
	if err := os.WriteFile(filepath.Join(html, "app.js"), []byte("console.log(circleArea(3));\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := srv.toolCall(t, "code_navigate", jsonArgs(circle), html); a.IsError || !strings.Contains(incomplete(a.StructuredContent), "such as app.js") {
		t.Errorf("references of an inline script's function, app.js in the root: %s", a.Content[0].Text)
	}
}
