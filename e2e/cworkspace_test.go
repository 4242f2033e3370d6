package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cWorkspace writes files (slash-separated paths) into a fresh directory,
// its path with symlinks resolved (clangd reports canonical paths), and a
// compile_commands.json listing the C sources named in listed, each by
// absolute path and compiled as `cc -std=c89 -Wall -I. -c FILE` in the
// workspace: what the C tests give clangd. With nothing listed there is
// no database. It returns the directory.
func cWorkspace(t *testing.T, files map[string]string, listed ...string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, files)
	if len(listed) == 0 {
		return dir
	}
	var db []map[string]any
	for _, name := range listed {
		db = append(db, map[string]any{"directory": dir, "file": filepath.Join(dir, filepath.FromSlash(name)),
			"arguments": []string{"cc", "-std=c89", "-Wall", "-I.", "-c", name}})
	}
	data, _ := json.Marshal(db)
	if err := os.WriteFile(filepath.Join(dir, "compile_commands.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cDeltaAnswer is an edit's answer with the delta of the other files.
type cDeltaAnswer struct {
	editResult
	Diagnostics *struct {
		Files  []deltaFile   `json:"files"`
		Others *impactOthers `json:"others"`
	} `json:"diagnostics"`
}

// cDeltaEditor reads file, then edits it, through srv in the workspace
// dir, and returns the answer (which must carry the other files' delta)
// and its text, logged with its time.
func cDeltaEditor(t *testing.T, srv *serveClient, dir string) func(what, file string, e verifyEdit) (cDeltaAnswer, string) {
	return func(what, file string, e verifyEdit) (cDeltaAnswer, string) {
		t.Helper()
		if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": file}), dir); a.IsError {
			t.Fatalf("read %s: %s", file, a.StructuredContent)
		}
		start := time.Now()
		a := srv.toolCall(t, "edit", editArgs(file, e, false), dir)
		text := a.Content[0].Text
		t.Logf("%s (%v):\n%s", what, time.Since(start).Round(time.Millisecond), text)
		var r cDeltaAnswer
		if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
			t.Fatalf("%s: no delta of other files (%v): %s", what, err, a.StructuredContent)
		}
		return r, text
	}
}
