package localstdio

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPyrightScopeIgnores: the created or deleted paths pyright does not
// look at, table-driven over one root, with and without an include, with
// and without its own exclusions.
func TestPyrightScopeIgnores(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"venv", "src/env"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "pyvenv.cfg"), []byte("home = /usr\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		path                      string
		wholeRoot, withSrc, plain bool // ignored: no include, own exclusions; include src; include src, exclude set
	}{
		{"a.py", false, true, true},
		{"src/a.py", false, false, false},
		{"src/pkg", false, false, false},
		{"src", false, false, false},
		{".venv/lib/site-packages/x.py", true, true, true},
		{"src/.hidden.py", true, true, false},
		{"src/.cache/x.py", true, true, false},
		{"node_modules/x.py", true, true, true},
		{"src/__pycache__/x.py", true, true, false},
		{"src/__editable__.pkg/x.py", true, true, false},
		{"venv/lib/x.py", true, true, true},
		{"venv", false, true, true}, // the environment itself: pyright looks at the directory
		{"src/env/lib/x.py", true, true, false},
		{"srcx/a.py", false, true, true},
	}
	scopes := []*pyrightScope{
		{root: root, autoExclude: true, venvs: map[string]bool{}},
		{root: root, include: []string{filepath.Join(root, "src")}, autoExclude: true, venvs: map[string]bool{}},
		{root: root, include: []string{filepath.Join(root, "src")}, venvs: map[string]bool{}},
	}
	for _, c := range cases {
		for i, want := range []bool{c.wholeRoot, c.withSrc, c.plain} {
			if got := scopes[i].ignores(filepath.Join(root, filepath.FromSlash(c.path))); got != want {
				t.Errorf("scope %d: ignores(%s) = %v, want %v", i, c.path, got, want)
			}
		}
	}
}

// TestPyrightExcludeSet: an exclude in pyrightconfig.json or either
// pyproject.toml table replaces pyright's own exclusions.
func TestPyrightExcludeSet(t *testing.T) {
	for _, c := range []struct {
		file, text string
		want       bool
	}{
		{"pyproject.toml", "[tool.pyright]\ninclude = [\"src\"]\n", false},
		{"pyproject.toml", "[tool.pyright]\nexclude = [\"build\"]\n", true},
		{"pyproject.toml", "[tool.basedpyright]\nexclude = [\n  \"build\",\n]\n", true},
		{"pyproject.toml", "[tool.other]\nexclude = [\"build\"]\n", false},
		{"pyrightconfig.json", `{"include": ["src"]}`, false},
		{"pyrightconfig.json", `{"exclude": []}`, true},
		{"pyrightconfig.json", `{not json`, true},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readPyrightConfig(dir, "pyright").excludeSet; got != c.want {
			t.Errorf("%s %q: exclude set = %v, want %v", c.file, c.text, got, c.want)
		}
	}
}
