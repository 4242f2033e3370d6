package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenamePreviewAfterNewUse: a rename previewed, then another agent
// adds a file that calls the old name, then the preview applied by its
// previewId. The preview was bound to the contents of the files it
// changes alone, which the new caller does not touch: the apply went
// through and the build broke (a tester's cobra run: `go vet`:
// extra.go:3:22: undefined: MatchAll). Applying asks the server's rename
// again: the change now differs (it renames in the new file too), so
// nothing is written, LSP_CONFLICT answers with a fresh preview that
// changes the new file, and that one applies, the build clean. The new
// file comes through the write tool (Go) and on disk (TypeScript).
func TestRenamePreviewAfterNewUse(t *testing.T) {
	for _, c := range []struct {
		ws, server, file, symbol, newName string
		callerPath, caller                string
		viaWriteTool                      bool
	}{
		{"go", "gopls", "shape.go", "TotalArea", "SumOfAreas", "extra.go", "package shapes\n\nvar extraTotal = TotalArea(nil)\n", true},
		{"ts", "typescript-language-server", "src/shape.ts", "totalArea", "sumOfAreas", "src/extra.ts", "import { totalArea } from \"./shape\";\n\nexport const extraTotal = totalArea([]);\n", false},
	} {
		t.Run(c.ws, func(t *testing.T) {
			requireServers(t, c.server)
			t.Parallel()
			dir := copyFixture(t, c.ws)
			srv := catalogServe(t)
			defer srv.shutdown(t)
			args := map[string]any{"target": map[string]any{"path": c.file, "symbol": c.symbol}, "newName": c.newName}
			rename := func(previewID any) (toolCallAnswer, map[string]any) {
				m := map[string]any{"previewId": previewID}
				for k, v := range args {
					m[k] = v
				}
				if previewID == nil {
					delete(m, "previewId")
				}
				a := srv.toolCall(t, "code_rename", jsonArgs(m), dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}
			declared := filepath.Join(dir, c.file)
			before := string(readFile(t, declared))

			a, s := rename(nil)
			id, _ := s["previewId"].(string)
			if a.IsError || id == "" || strings.Contains(a.Content[0].Text, c.callerPath) {
				t.Fatalf("preview: %s", a.Content[0].Text)
			}

			// Another agent's new caller, in a file the preview does not change.
			if c.viaWriteTool {
				if a := srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": c.callerPath, "content": c.caller}), dir); a.IsError {
					t.Fatalf("write %s: %s", c.callerPath, a.Content[0].Text)
				}
			} else if err := os.WriteFile(filepath.Join(dir, c.callerPath), []byte(c.caller), 0o644); err != nil {
				t.Fatal(err)
			}

			a, s = rename(id)
			errObj, _ := s["error"].(map[string]any)
			fresh, _ := s["preview"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || fresh == nil || !strings.Contains(a.Content[0].Text, c.callerPath) {
				t.Fatalf("the preview applied after a new use: want LSP_CONFLICT with a fresh preview that changes %s:\n%s", c.callerPath, a.Content[0].Text)
			}
			if !strings.Contains(a.Content[0].Text, "+++ b/"+c.callerPath) {
				t.Errorf("the fresh preview has no diff of %s:\n%s", c.callerPath, a.Content[0].Text)
			}
			if got := string(readFile(t, declared)); got != before {
				t.Fatalf("a refused apply changed %s", c.file)
			}
			if got := string(readFile(t, filepath.Join(dir, c.callerPath))); got != c.caller {
				t.Fatalf("a refused apply changed %s", c.callerPath)
			}

			a, s = rename(fresh["previewId"])
			if a.IsError || s["applied"] != true {
				t.Fatalf("the fresh preview: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, filepath.Join(dir, c.callerPath))); !strings.Contains(got, c.newName) || countIdentifier(got, c.symbol) != 0 {
				t.Errorf("%s after the rename:\n%s", c.callerPath, got)
			}
			delta, _ := s["diagnostics"].(map[string]any)
			counts, _ := delta["counts"].(map[string]any)
			if counts == nil || counts["introduced"] != float64(0) {
				t.Errorf("the rename introduced problems: %s", a.Content[0].Text)
			}
			// The language's own check: no name left undefined.
			if c.ws == "go" {
				vet := exec.Command(filepath.Join(goroot, "bin", "go"), "vet", "./...")
				vet.Dir = dir
				if out, err := vet.CombinedOutput(); err != nil {
					t.Errorf("go vet after the rename: %v\n%s", err, out)
				}
			}
			d := srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": c.callerPath}), dir)
			if d.IsError || strings.Contains(d.Content[0].Text, c.symbol) {
				t.Errorf("%s's diagnostics after the rename: %s", c.callerPath, d.Content[0].Text)
			}
		})
	}
}

// TestRenameFilePreviewAfterNewImporter: the same for a file move on
// typescript-language-server: the importers' edits are the server's
// (workspace/willRenameFiles), and an importer added after the preview
// changes none of the previewed files. Applying asks again: LSP_CONFLICT
// with a fresh preview that updates the new importer too, which applies,
// and the new importer has no error.
func TestRenameFilePreviewAfterNewImporter(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	args := map[string]any{"path": "src/shape.ts", "newPath": "src/geometry/shape.ts"}
	a, s := refactorCall(t, srv, dir, "code_rename_file", args)
	if a.IsError || s["previewId"] == nil || !strings.Contains(a.Content[0].Text, "+++ b/src/report.ts") {
		t.Fatalf("preview: want the importers' edits: %s", a.Content[0].Text)
	}
	const importer = "import { totalArea } from \"./shape\";\n\nexport const extraTotal = totalArea([]);\n"
	if err := os.WriteFile(filepath.Join(dir, "src/extra.ts"), []byte(importer), 0o644); err != nil {
		t.Fatal(err)
	}
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", s["previewId"]))
	errObj, _ := s["error"].(map[string]any)
	fresh, _ := s["preview"].(map[string]any)
	if !a.IsError || errObj["code"] != "LSP_CONFLICT" || fresh == nil || !strings.Contains(a.Content[0].Text, "+++ b/src/extra.ts") {
		t.Fatalf("the move's preview applied after a new importer: want LSP_CONFLICT with a fresh preview that changes src/extra.ts:\n%s", a.Content[0].Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/shape.ts")); err != nil {
		t.Fatalf("a refused apply moved src/shape.ts: %v", err)
	}
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", fresh["previewId"]))
	if a.IsError || s["applied"] != true {
		t.Fatalf("the fresh preview: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "src/extra.ts"))); got != strings.Replace(importer, `"./shape"`, `"./geometry/shape"`, 1) {
		t.Errorf("src/extra.ts after the move:\n%s", got)
	}
	a, s = refactorCall(t, srv, dir, "code_diagnostics", map[string]any{"path": "src/extra.ts"})
	if counts, _ := s["counts"].(map[string]any); a.IsError || counts == nil || counts["error"] != float64(0) {
		t.Errorf("src/extra.ts's diagnostics after the move: %s", a.Content[0].Text)
	}
}
