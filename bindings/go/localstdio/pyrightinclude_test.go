package localstdio

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestTOMLStringArray(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
		ok        bool
	}{
		{"one line", "[tool.pyright]\ninclude = [\"src\", 'tests/typing']\n", []string{"src", "tests/typing"}, true},
		{"several lines, comments", "[project]\nname = \"x\"\n\n[tool.pyright]\n# the sources\ninclude = [\n  \"src\",  # code\n  \"tests/typing\",\n]\npythonVersion = \"3.10\"\n", []string{"src", "tests/typing"}, true},
		{"another table's include", "[tool.mypy]\ninclude = [\"a\"]\n[tool.pyright]\nstrict = [\"b\"]\n", nil, false},
		{"no such table", "[tool.ruff]\nline-length = 88\n", nil, false},
		{"not an array of strings", "[tool.pyright]\ninclude = \"src\"\n", nil, false},
		{"escapes are not read", "[tool.pyright]\ninclude = [\"s\\\\rc\"]\n", nil, false},
		{"empty", "[tool.pyright]\ninclude = []\n", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tomlStringArray(tc.doc, "tool.pyright", "include")
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestPyrightInclude(t *testing.T) {
	dir := t.TempDir()
	if inc := readPyrightConfig(dir, "pyright").include; inc != nil {
		t.Fatalf("no configuration: %q", inc)
	}
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[tool.basedpyright]\ninclude = [\"lib\"]\n[tool.pyright]\ninclude = [\"src\"]\n"), 0o644)
	if c := readPyrightConfig(dir, "pyright"); !slices.Equal(c.include, []string{"src"}) || c.from != "pyproject.toml's [tool.pyright]" {
		t.Errorf("pyright: %q from %s", c.include, c.from)
	}
	if c := readPyrightConfig(dir, "basedpyright"); !slices.Equal(c.include, []string{"lib"}) || c.from != "pyproject.toml's [tool.basedpyright]" {
		t.Errorf("basedpyright: %q from %s", c.include, c.from)
	}
	os.WriteFile(filepath.Join(dir, "pyrightconfig.json"), []byte(`{"include": ["app"]}`), 0o644)
	if c := readPyrightConfig(dir, "pyright"); !slices.Equal(c.include, []string{"app"}) || c.from != "pyrightconfig.json" {
		t.Errorf("pyrightconfig.json first: %q from %s", c.include, c.from)
	}
}
