package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsesThroughLinks: a symbolic link to a declaration's file (or to a
// directory holding it) makes it a second file to pyright and tsserver,
// whose references then miss the uses through the link. With the server
// already running, a link created by another tool makes code_navigate
// references, the lsp tool's findReferences, code_hierarchy callers and a
// code_rename preview say that
// uses through it are not listed, naming it; a link into a dependency
// directory does not, nor does a file no link reaches, and once the link
// is gone the answers say nothing of it.
func TestUsesThroughLinks(t *testing.T) {
	requireServers(t, "typescript-language-server", "pyright-langserver")
	for _, c := range []struct{ ws, file, symbol, fileLink, target, dirLink, dirTarget, depLink, unlinked, unlinkedSymbol string }{
		{"py", "shapes/base.py", "total_area", "linked.py", "shapes/base.py", "alias", "shapes", "venv/shapes", "shapes/report.py", "report"},
		{"ts", "src/shape.ts", "totalArea", "src/linked.ts", "shape.ts", "lib", "src", "node_modules/shapes", "src/report.ts", "report"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			srv := catalogServe(t, "--approval", "preview")
			defer srv.shutdown(t)
			call := func(tool, file, symbol string, extra map[string]any) (text, incomplete string) {
				t.Helper()
				args := map[string]any{"target": map[string]any{"path": file, "symbol": symbol}}
				for k, v := range extra {
					args[k] = v
				}
				a := srv.toolCall(t, tool, jsonArgs(args), dir)
				if a.IsError {
					t.Fatalf("%s %s: %s", tool, symbol, a.Content[0].Text)
				}
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				incomplete, _ = s["incomplete"].(string)
				return a.Content[0].Text, incomplete
			}
			refs := func() string {
				_, inc := call("code_navigate", c.file, c.symbol, map[string]any{"kind": "references"})
				return inc
			}
			mustNotName := func(what, inc, link string) {
				t.Helper()
				if strings.Contains(inc, "symbolic link") || strings.Contains(inc, link) {
					t.Fatalf("%s says uses are missing through a link (%s): %q", what, link, inc)
				}
			}
			mustName := func(what, inc, link string) {
				t.Helper()
				if !strings.Contains(inc, "symbolic link "+link) || !strings.Contains(inc, "not listed") {
					t.Fatalf("%s does not say uses through %s are not listed: incomplete = %q", what, link, inc)
				}
			}
			mustNotName("references before any link", refs(), c.fileLink)

			// Another tool links the file while the server runs.
			if err := os.Symlink(c.target, filepath.Join(dir, c.fileLink)); err != nil {
				t.Fatal(err)
			}
			mustName("references", refs(), c.fileLink)
			// The lsp tool's findReferences at the declaration, too.
			text := string(readFile(t, filepath.Join(dir, c.file)))
			line := lineOf(t, text, " "+c.symbol+"(")
			col := strings.Index(strings.Split(text, "\n")[line], c.symbol) + 1
			if a := srv.toolCall(t, "lsp", jsonArgs(map[string]any{"operation": "findReferences", "file_path": c.file, "line": line + 1, "character": col}), dir); a.IsError {
				t.Fatalf("lsp findReferences: %s", a.Content[0].Text)
			} else {
				mustName("the lsp tool's findReferences", a.Content[0].Text, c.fileLink)
			}
			_, inc := call("code_hierarchy", c.file, c.symbol, map[string]any{"kind": "callers"})
			mustName("callers", inc, c.fileLink)
			text, inc = call("code_rename", c.file, c.symbol, map[string]any{"newName": c.symbol + "_renamed"})
			mustName("a rename's preview", inc, c.fileLink)
			if !strings.Contains(text, "previewId") && !strings.Contains(text, "preview") {
				t.Fatalf("the rename was not previewed: %s", text)
			}
			_, inc = call("code_navigate", c.unlinked, c.unlinkedSymbol, map[string]any{"kind": "references"})
			mustNotName("references in a file no link reaches", inc, c.fileLink)

			// A link to the directory holding it; one into a dependency
			// directory, which the servers resolve themselves, is not named.
			if err := os.Remove(filepath.Join(dir, c.fileLink)); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(c.dirTarget, filepath.Join(dir, c.dirLink)); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, c.depLink)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(dir, c.dirTarget), filepath.Join(dir, c.depLink)); err != nil {
				t.Fatal(err)
			}
			inc = refs()
			mustName("references through a directory link", inc, c.dirLink)
			if strings.Contains(inc, c.depLink) || strings.Contains(inc, c.fileLink) {
				t.Fatalf("references name a dependency's or a removed link: %q", inc)
			}
			if err := os.Remove(filepath.Join(dir, c.dirLink)); err != nil {
				t.Fatal(err)
			}
			mustNotName("references once the links are gone", refs(), c.dirLink)
		})
	}
}
