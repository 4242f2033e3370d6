package e2e

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVueSymbolTargets: tsserver (through @vue/typescript-plugin) lists no
// document symbols for a .vue file. The outline answer says so instead of
// "the file declares nothing"; symbol targets resolve from the server's
// workspace symbol search, so code_replace, code_insert and code_delete
// by symbol edit whole declarations (doc comment kept above); a line
// target's replacement names the line it replaced; code_format says the
// server does not format .vue files; a template's kebab-case attribute is
// named whole in the target line (findings s27 #6, #8).
func TestVueSymbolTargets(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "vue")
	const rel = "src/components/TogglePanel.vue"
	file := filepath.Join(dir, filepath.FromSlash(rel))
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	call := func(tool string, args map[string]any) string {
		t.Helper()
		a := srv.toolCall(t, tool, jsonArgs(args), dir)
		text := a.Content[0].Text
		t.Logf("%s:\n%s", tool, text)
		return text
	}

	outline := call("code_symbols", map[string]any{"path": rel})
	if strings.Contains(outline, "found no declarations") || !strings.Contains(outline, "says nothing of what this file declares") {
		t.Errorf("the outline of a .vue file claims it declares nothing, or does not say the server gives no outline of .vue files:\n%s", outline)
	}

	replaced := call("code_replace", map[string]any{"target": map[string]any{"path": rel, "symbol": "double"},
		"text": "function double(n: number): number {\n  return n + n;\n}"})
	text := string(readFile(t, file))
	if !strings.HasPrefix(replaced, "Applied: replace `double`") || strings.Contains(text, "n * 2") || !strings.Contains(text, "  return n + n;\n}\n\nfunction unused") {
		t.Errorf("code_replace by symbol in a .vue file did not replace the whole function:\n%s\n--- file:\n%s", replaced, text)
	}

	inserted := call("code_insert", map[string]any{"target": map[string]any{"path": rel, "symbol": "toggle"}, "position": "before",
		"text": "function reset(): void {\n  open = false;\n}\n"})
	text = string(readFile(t, file))
	if !strings.HasPrefix(inserted, "Applied: insert before `toggle`") || !strings.Contains(text, "function reset(): void {\n  open = false;\n}\n\n/** Flips the panel. */\nfunction toggle") {
		t.Errorf("code_insert before a .vue function did not land above its doc comment:\n%s\n--- file:\n%s", inserted, text)
	}

	// The fixture ships no vue, so templates are not searched and the
	// delete is refused for that; what matters here is that the symbol
	// was found (before: LSP_TARGET_NOT_FOUND, no symbols in the file).
	deleted := call("code_delete", map[string]any{"target": map[string]any{"path": rel, "symbol": "unused"}})
	if strings.Contains(deleted, "LSP_TARGET_NOT_FOUND") || !strings.Contains(deleted, "`unused` ("+rel+":17)") {
		t.Errorf("code_delete by symbol in a .vue file does not find the function:\n%s", deleted)
	}
	text = string(readFile(t, file))

	line := strings.Count(text[:strings.Index(text, "function toggle")], "\n") + 1
	lineReplaced := call("code_replace", map[string]any{"target": map[string]any{"path": rel, "line": line, "matchText": "toggle"},
		"text": "function toggle(): undefined {"})
	if want := "Applied: replace line " + strconv.Itoa(line) + " of " + rel + " (at `toggle`"; !strings.HasPrefix(lineReplaced, want) {
		t.Errorf("a line target's replacement does not say it replaced the line (want %q):\n%s", want, lineReplaced)
	}

	formatted := call("code_format", map[string]any{"path": rel})
	if strings.Contains(formatted, "nothing to change") || !strings.Contains(formatted, "does not format .vue files") {
		t.Errorf("code_format of a .vue file reads as already formatted:\n%s", formatted)
	}

	text = string(readFile(t, file))
	tline := strings.Count(text[:strings.Index(text, ":aria-pressed")], "\n") + 1
	hover := call("code_navigate", map[string]any{"target": map[string]any{"path": rel, "line": tline, "matchText": "aria-pressed"}, "kind": "definition"})
	if !strings.Contains(hover, "`aria-pressed`") {
		t.Errorf("the target line does not name the kebab-case attribute whole:\n%s", hover)
	}
}
