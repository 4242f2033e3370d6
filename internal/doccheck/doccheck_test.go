// Package doccheck holds tests that keep the repository's documents true:
// docs/go.md's Go programs compile as written (docs_go_test.go); the
// documents point only to files and headings the repository has, the
// license is the one the package declares, the README stays a short table
// of contents, and docs/design.md names what the code has (docs_test.go);
// docs/layout.md names every directory and Go package there is
// (layout_test.go); and every Go package has a doc comment whose file and
// package names exist (packagedoc_test.go). It has no code of its own.
package doccheck

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// repoRoot is the checkout this test file belongs to.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the repository")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docFiles returns the documents under docs/ (slash-separated, relative
// to the repository), sorted.
func docFiles(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		out = append(out, "docs/"+filepath.Base(p))
	}
	if len(out) == 0 {
		t.Fatal("no docs/*.md")
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// block is one fenced code block of a markdown file.
type block struct {
	line int    // one-based line of the opening fence
	text string // the lines between the fences
}

// fencedBlocks returns the ``` blocks whose info string is lang.
func fencedBlocks(md, lang string) []block {
	var out []block
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			continue
		}
		info := strings.TrimSpace(strings.TrimPrefix(l, "```"))
		start := i
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		if info == lang {
			out = append(out, block{line: start + 1, text: strings.Join(body, "\n") + "\n"})
		}
	}
	return out
}
