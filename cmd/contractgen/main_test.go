package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// The committed files say what the table says: a method added, renamed
// or redescribed in core/contract.go without `go generate ./core` fails
// here.
func TestGeneratedBlocksAreFresh(t *testing.T) {
	if err := run(filepath.Join("..", ".."), true); err != nil {
		t.Fatal(err)
	}
}

// The check can fail: a copy of the files with the table changed is
// stale, and writing makes it fresh again without touching the text
// around the blocks.
func TestCheckFailsWhenTheTableChanges(t *testing.T) {
	dir := t.TempDir()
	for _, tg := range targets {
		data, err := os.ReadFile(filepath.Join("..", "..", tg.path))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tg.path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, tg.path), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved := core.ABIMethods[0].Output
	core.ABIMethods[0].Output = "`{name, description, inputSchema}` | changed"
	defer func() { core.ABIMethods[0].Output = saved }()
	if err := run(dir, true); err == nil || !strings.Contains(err.Error(), "README.md") {
		t.Fatalf("check after a change: %v, want README.md stale", err)
	}
	if err := run(dir, false); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err != nil {
		t.Fatalf("after writing: %v", err)
	}
	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !strings.Contains(string(readme), "| `toolDefinition` | `{}` | `{name, description, inputSchema}` \\| changed |") {
		t.Error("the changed row is not in the README, with its | escaped")
	}
	if !strings.HasPrefix(string(readme), "# lspseam\n") {
		t.Error("the text before the block changed")
	}
}

func TestReplaceBlock(t *testing.T) {
	in := "a\n<!-- begin x -->\nold\nlines\n<!-- end -->\nz\n"
	got, err := replaceBlock([]byte(in), "<!-- begin", "<!-- end", []byte("new\n"))
	if err != nil || string(got) != "a\n<!-- begin x -->\nnew\n<!-- end -->\nz\n" {
		t.Errorf("replaceBlock = %q, %v", got, err)
	}
	if _, err := replaceBlock([]byte("a\n"), "<!-- begin", "<!-- end", nil); err == nil {
		t.Error("no markers: no error")
	}
}
