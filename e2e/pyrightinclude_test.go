package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPyrightIncludeScope: pyright analyzes its include and the open files
// only, so references of a function from a file it includes miss uses in
// files it leaves out (click's tests/). With the fixture's include cut to
// shapes/, references of total_area either find main.py's call or say
// that main.py is outside the include; with main.py included (the
// fixture as it is) nothing is said.
func TestPyrightIncludeScope(t *testing.T) {
	requireServers(t, "pyright-langserver")
	const at = "shapes/base.py:24:5"
	const notice = "outside the include of pyproject.toml's [tool.pyright] (such as main.py)"

	whole := copyFixture(t, "py")
	if text := referencesText(t, whole, at); strings.Contains(text, "outside the include") {
		t.Errorf("every file is included, yet the answer says some are not:\n%s", text)
	}

	cut := copyFixture(t, "py")
	path := filepath.Join(cut, "pyproject.toml")
	cfg := strings.Replace(string(readFile(t, path)), `include = ["shapes", "main.py"]`, `include = ["shapes"]`, 1)
	if !strings.Contains(cfg, `include = ["shapes"]`) {
		t.Fatalf("the fixture's pyproject.toml has no include to cut:\n%s", cfg)
	}
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	text := referencesText(t, cut, at)
	t.Logf("include cut to shapes/:\n%s", text)
	if !strings.Contains(text, "main.py:") && !(strings.Contains(text, "possibly incomplete") && strings.Contains(text, notice)) {
		t.Errorf("references miss main.py, outside the include, and do not say so:\n%s", text)
	}
}
