//go:build unix

package workspacefs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRootRelOneForm: every spelling of a file inside the workspace is
// the one workspace-relative path the tools' checks compare; a path
// outside it is refused.
func TestRootRelOneForm(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, alias := filepath.Join(base, "ws"), filepath.Join(base, "alias")
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, alias); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pkg", filepath.Join(dir, "pkglink")); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{dir, alias} {
		r, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for path, want := range map[string]string{
			"pkg/val.go":                              "pkg/val.go",
			"./pkg/val.go":                            "pkg/val.go",
			"pkg/../pkg/val.go":                       "pkg/val.go",
			filepath.Join(dir, "pkg/val.go"):          "pkg/val.go",
			filepath.Join(alias, "pkg/val.go"):        "pkg/val.go",
			dir + "/pkg/../pkg/val.go":                "pkg/val.go",
			filepath.Join(dir, "pkglink/val.go"):      "pkglink/val.go", // a link inside stays itself
			filepath.Join(alias, "pkg/new/nofile.go"): "pkg/new/nofile.go",
			filepath.Join(base, "elsewhere.go"):       "",
			"../elsewhere.go":                         "",
			"/":                                       "",
			dir:                                       "",
		} {
			got, err := r.Rel(path)
			if want == "" {
				if err == nil {
					t.Errorf("workspace %s: Rel(%q) = %q, want an error", root, path, got)
				}
				continue
			}
			if err != nil || got != want {
				t.Errorf("workspace %s: Rel(%q) = %q, %v; want %q", root, path, got, err, want)
			}
		}
	}
}
