package toolbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLinksToFile: the links that lead to a file, or to a directory
// holding it, found from a session's list of the workspace's links and by
// the walk the same, table-driven over the files of one workspace; links
// in hidden and dependency directories, to other files and dangling ones
// are not counted.
func TestLinksToFile(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"pkg/real.py", "pkg/sub/deep.py", "other.py"}
	for _, f := range files {
		p := filepath.Join(ws, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{ // link → target, relative to the link's directory
		"linked.py":           "pkg/real.py",
		"alias":               "pkg",
		"nested/sub":          "../pkg/sub",
		"to_other.py":         "other.py",
		"dangling.py":         "missing.py",
		"node_modules/pkg":    "../pkg",
		".cache/real.py":      "../pkg/real.py",
		"pkg/sub/up.py":       "../real.py",
		"venv/lib/pkg/sub.py": "../../../pkg/sub/deep.py",
	}
	var abs []string
	for link, target := range links {
		p := filepath.Join(ws, link)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		abs = append(abs, p)
	}
	r := openTestRoot(t, ws)
	for _, c := range []struct {
		file string
		want []string
	}{
		{"pkg/real.py", []string{"alias", "linked.py", "pkg/sub/up.py"}},
		{"pkg/sub/deep.py", []string{"alias", "nested/sub"}},
		{"other.py", []string{"to_other.py"}},
		{"missing.py", nil},
	} {
		for _, known := range []knownLinks{{}, {abs: abs, complete: true}} {
			got := linksToFile(context.Background(), known, r, c.file)
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("links to %s (list kept: %v) = %q, want %q", c.file, known.complete, got, c.want)
			}
		}
	}
}
