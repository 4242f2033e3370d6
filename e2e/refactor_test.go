package e2e

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefactorRename: code_rename on the real servers, the way an agent
// uses it through serve: a preview (nothing written), a change from
// outside that makes it stale (LSP_CONFLICT with a fresh preview, nothing
// written), the fresh preview applied, and the files on disk checked byte
// for byte against the expected rename, with no problem introduced.
func TestRefactorRename(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws, file, symbol, newName string
		// files that must hold the new name (and no longer the old one
		// where the old one was a whole identifier of this symbol)
		changed []string
		touch   string // a file of the rename changed from outside
	}{
		{"go", "shape.go", "Describe", "Summarize", []string{"shape.go", "report.go", "cmd/shapes/main.go"}, "report.go"},
		{"ts", "src/shape.ts", "describe", "summarizeShape", []string{"src/shape.ts", "src/report.ts", "src/main.ts"}, "src/report.ts"},
		{"py", "shapes/base.py", "describe", "summarize_shape", []string{"shapes/base.py", "shapes/report.py", "main.py"}, "shapes/report.py"},
		{"c", "shape.c", "total_area", "area_sum", []string{"shape.c", "shape.h", "main.c", "report.c"}, "report.c"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, dir)
			}
			before := map[string]string{}
			for _, f := range c.changed {
				before[f] = string(readFile(t, filepath.Join(dir, f)))
			}
			srv := catalogServe(t)
			args := map[string]any{"target": map[string]any{"path": c.file, "symbol": c.symbol}, "newName": c.newName}
			call := func(extra map[string]any) (toolCallAnswer, map[string]any) {
				m := map[string]any{}
				for k, v := range args {
					m[k] = v
				}
				for k, v := range extra {
					m[k] = v
				}
				raw, _ := json.Marshal(m)
				a := srv.toolCall(t, "code_rename", raw, dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}

			// The preview: every file's diff, nothing written.
			a, s := call(nil)
			id, _ := s["previewId"].(string)
			if a.IsError || id == "" || s["applied"] != false {
				t.Fatalf("preview: %s", a.Content[0].Text)
			}
			for _, f := range c.changed {
				if !strings.Contains(a.Content[0].Text, "+++ b/"+f) {
					t.Errorf("the preview has no diff of %s:\n%s", f, a.Content[0].Text)
				}
				if got := string(readFile(t, filepath.Join(dir, f))); got != before[f] {
					t.Fatalf("the preview changed %s", f)
				}
			}

			// Stale: a file of the rename changes from outside.
			touched := before[c.touch] + "\n"
			if err := os.WriteFile(filepath.Join(dir, c.touch), []byte(touched), 0o644); err != nil {
				t.Fatal(err)
			}
			a, s = call(map[string]any{"previewId": id})
			errObj, _ := s["error"].(map[string]any)
			fresh, _ := s["preview"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || fresh == nil {
				t.Fatalf("stale preview: %s", a.Content[0].Text)
			}
			for _, f := range c.changed {
				want := before[f]
				if f == c.touch {
					want = touched
				}
				if got := string(readFile(t, filepath.Join(dir, f))); got != want {
					t.Fatalf("a stale preview changed %s", f)
				}
			}

			// The fresh preview applies.
			a, s = call(map[string]any{"previewId": fresh["previewId"]})
			if a.IsError || s["applied"] != true {
				t.Fatalf("apply: %s", a.Content[0].Text)
			}
			delta, _ := s["diagnostics"].(map[string]any)
			counts, _ := delta["counts"].(map[string]any)
			if counts == nil || counts["introduced"] != float64(0) {
				t.Errorf("the rename introduced problems: %s", a.Content[0].Text)
			}
			for _, f := range c.changed {
				want := before[f]
				if f == c.touch {
					want = touched
				}
				// Byte for byte: the new name is there, and only the
				// renamed occurrences differ (naming them back gives the
				// file as it was).
				got := string(readFile(t, filepath.Join(dir, f)))
				if !strings.Contains(got, c.newName) || strings.ReplaceAll(got, c.newName, c.symbol) != want {
					t.Errorf("%s after the rename:\n%s\nwas:\n%s", f, got, want)
				}
				if n := countIdentifier(got, c.symbol); n != 0 {
					t.Errorf("%s still uses %s as an identifier %d times:\n%s", f, c.symbol, n, got)
				}
			}
		})
	}
}

// countIdentifier counts whole-identifier occurrences of name outside
// comments (a line's text after // or #, and lines of block comments).
func countIdentifier(text, name string) int {
	n := 0
	isIdent := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "*") || strings.HasPrefix(trimmed, "/*") || strings.HasPrefix(trimmed, "\"\"\"") {
			continue
		}
		for _, marker := range []string{"//", "#"} {
			if i := strings.Index(line, marker); i >= 0 && !strings.HasPrefix(trimmed, "#include") {
				line = line[:i]
			}
		}
		for i := 0; ; {
			j := strings.Index(line[i:], name)
			if j < 0 {
				break
			}
			j += i
			end := j + len(name)
			if (j == 0 || !isIdent(line[j-1])) && (end == len(line) || !isIdent(line[end])) {
				n++
			}
			i = end
		}
	}
	return n
}

// TestRefactorRenameRefused: renames a server will not do answer with the
// server's reason and change nothing — a name from the standard library or
// a keyword. gopls would rename the standard library itself: its edit of
// files outside the workspace is refused. A newName the language never
// accepts (a keyword, two words) is refused before the server is asked:
// pyright previewed `def class(...)` as a normal rename.
func TestRefactorRenameRefused(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws      string
		target  map[string]any
		code    string
		reason  string
		newName string // "" is Renamed
	}{
		{"go", map[string]any{"path": "shape.go", "line": 16, "matchText": "Sprintf"}, "LSP_SOURCE_REJECTED", "outside the workspace; nothing was changed", ""},
		{"ts", map[string]any{"path": "src/circle.ts", "line": 8, "matchText": "PI"}, "LSP_INVALID_ARGUMENT", "You cannot rename elements that are defined in the standard TypeScript library", ""},
		{"ts", map[string]any{"path": "src/circle.ts", "line": 8, "matchText": "return"}, "LSP_INVALID_ARGUMENT", "You cannot rename this element", ""},
		{"py", map[string]any{"path": "main.py", "line": 16, "matchText": "print"}, "LSP_INVALID_ARGUMENT", "cannot rename `print`", ""},
		{"c", map[string]any{"path": "main.c", "line": 20, "matchText": "printf"}, "LSP_INVALID_ARGUMENT", "refuses to rename `printf`", ""},
		{"py", map[string]any{"path": "shapes/base.py", "symbol": "total_area"}, "LSP_INVALID_ARGUMENT", "newName `class` is a keyword in Python", "class"},
		{"py", map[string]any{"path": "shapes/base.py", "symbol": "total_area"}, "LSP_INVALID_ARGUMENT", "newName `two words` is not a valid Python identifier", "two words"},
		{"go", map[string]any{"path": "shape.go", "symbol": "Describe"}, "LSP_INVALID_ARGUMENT", "newName `func` is a keyword in Go", "func"},
	} {
		name, _ := c.target["matchText"].(string)
		if c.newName != "" {
			name = "newName " + c.newName
		}
		t.Run(c.ws+"/"+name, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, dir)
			}
			before := snapshotFiles(t, dir)
			srv := catalogServe(t)
			newName := c.newName
			if newName == "" {
				newName = "Renamed"
			}
			raw, _ := json.Marshal(map[string]any{"target": c.target, "newName": newName})
			a := srv.toolCall(t, "code_rename", raw, dir)
			var s map[string]any
			json.Unmarshal(a.StructuredContent, &s)
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != c.code || !strings.Contains(a.Content[0].Text, c.reason) {
				t.Fatalf("want %s saying %q, got %s", c.code, c.reason, a.Content[0].Text)
			}
			if after := snapshotFiles(t, dir); !maps.Equal(before, after) {
				t.Error("a refused rename changed files")
			}
		})
	}
}

// snapshotFiles maps each regular file under dir (outside dot
// directories) to its content.
func snapshotFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != dir {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[path] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
