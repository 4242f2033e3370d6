package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeDelete: code_delete on the four original servers. A function
// nothing uses (appended to a fixture file with its doc comment) is
// previewed, then deleted with its previewId, and the file is as it was
// before it was added; a function other files use is refused with
// LSP_CONFLICT naming its uses, and no file changes.
func TestCodeDelete(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws, file, unused, added string
		used                    string
		usedIn                  string // a file the refusal must name
	}{
		{"go", "shape.go", "unusedHelper", "\n// unusedHelper is used nowhere.\nfunc unusedHelper() int {\n\treturn 1\n}\n", "Describe", "report.go"},
		{"ts", "src/shape.ts", "unusedHelper", "\n/** unusedHelper is used nowhere. */\nexport function unusedHelper(): number {\n  return 1;\n}\n", "totalArea", "src/report.ts"},
		{"py", "shapes/base.py", "unused_helper", "\n\n# unused_helper is used nowhere.\ndef unused_helper() -> int:\n    return 1\n", "total_area", "shapes/report.py"},
		{"c", "shape.c", "unused_helper", "\n/* unused_helper is used nowhere. */\nint unused_helper(void) {\n    return 1;\n}\n", "total_area", "main.c"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, dir)
			}
			path := filepath.Join(dir, c.file)
			orig := string(readFile(t, path))
			if err := os.WriteFile(path, []byte(orig+c.added), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t)
			call := func(symbol, previewID string) (toolCallAnswer, map[string]any) {
				args := map[string]any{"target": map[string]any{"path": c.file, "symbol": symbol}}
				if previewID != "" {
					args["previewId"] = previewID
				}
				raw, _ := json.Marshal(args)
				a := srv.toolCall(t, "code_delete", raw, dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}

			// Used elsewhere: refused, the uses named, nothing written.
			a, s := call(c.used, "")
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "stillReferenced" || !strings.Contains(a.Content[0].Text, c.usedIn+":") {
				t.Errorf("deleting the used %s: %s", c.used, a.Content[0].Text)
			}
			if got := string(readFile(t, path)); got != orig+c.added {
				t.Fatalf("a refused delete changed %s", c.file)
			}

			// Unused: a preview, then applied; the file is as before.
			a, s = call(c.unused, "")
			id, _ := s["previewId"].(string)
			if a.IsError || id == "" || !strings.Contains(a.Content[0].Text, "-"+strings.Split(strings.TrimPrefix(c.added, "\n"), "\n")[0]) {
				t.Fatalf("preview of deleting %s: %s", c.unused, a.Content[0].Text)
			}
			a, s = call(c.unused, id)
			if a.IsError || s["applied"] != true {
				t.Fatalf("applying the delete of %s: %s", c.unused, a.Content[0].Text)
			}
			if got := string(readFile(t, path)); got != orig {
				t.Errorf("after deleting %s, %s holds:\n%s\nwant the fixture's text:\n%s", c.unused, c.file, got, orig)
			}
			srv.shutdown(t)
		})
	}
}
