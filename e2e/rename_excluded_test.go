package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameBuildExcludedUse: gopls renames in the files of this machine's
// build, so a file its build excludes (describe_windows.go) keeps the old
// name, and the other build breaks. A tester's rename of cobra's Command
// answered "none besides the 34 changed files refer to what changed"
// while command_win.go still named it. The answer, preview and applied,
// says which excluded files it did not change.
func TestRenameBuildExcludedUse(t *testing.T) {
	requireServers(t, "gopls")
	for _, approval := range []string{"preview", "auto"} {
		t.Run(approval, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, "go")
			excluded := "//go:build windows\n\npackage shapes\n\n// OnWindows is built on Windows alone.\nfunc OnWindows(s Shape) string { return Describe(s) }\n"
			if err := os.WriteFile(filepath.Join(dir, "describe_windows.go"), []byte(excluded), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t, "--approval", approval)
			defer srv.shutdown(t)
			a := srv.toolCall(t, "code_rename", json.RawMessage(`{"target":{"path":"shape.go","symbol":"Describe"},"newName":"Summary"}`), dir)
			var s map[string]any
			json.Unmarshal(a.StructuredContent, &s)
			inc, _ := s["incomplete"].(string)
			if a.IsError || !strings.Contains(inc, "describe_windows.go") || !strings.Contains(a.Content[0].Text, "the rename did not change describe_windows.go") {
				t.Fatalf("a rename that leaves a build-excluded use: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, filepath.Join(dir, "describe_windows.go"))); got != excluded {
				t.Fatalf("describe_windows.go changed: %s", got)
			}
		})
	}
}
