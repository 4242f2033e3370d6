package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// The committed files say what the contract says: a method or tool
// added, renamed or redescribed in core/ without `go generate ./core`
// fails here.
func TestGeneratedBlocksAreFresh(t *testing.T) {
	if err := run(filepath.Join("..", ".."), true); err != nil {
		t.Fatal(err)
	}
}

// copyTargets copies every target file into a fresh directory laid out
// as the repository.
func copyTargets(t *testing.T) string {
	t.Helper()
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
	return dir
}

// The check can fail: a copy of the files with the table changed is
// stale, and writing makes it fresh again without touching the text
// around the blocks.
func TestCheckFailsWhenTheTableChanges(t *testing.T) {
	dir := copyTargets(t)
	saved := core.ABIMethods[0].Output
	core.ABIMethods[0].Output = "`{name, description, inputSchema}` | changed"
	defer func() { core.ABIMethods[0].Output = saved }()
	if err := run(dir, true); err == nil || !strings.Contains(err.Error(), "docs/abi.md") {
		t.Fatalf("check after a change: %v, want docs/abi.md stale", err)
	}
	if err := run(dir, false); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err != nil {
		t.Fatalf("after writing: %v", err)
	}
	abi, _ := os.ReadFile(filepath.Join(dir, "docs", "abi.md"))
	if !strings.Contains(string(abi), "| `toolDefinition` | `{}` | `{name, description, inputSchema}` \\| changed |") {
		t.Error("the changed row is not in docs/abi.md, with its | escaped")
	}
	if !strings.HasPrefix(string(abi), "# The core module's ABI\n") {
		t.Error("the text before the block changed")
	}
}

// The tool table is checked the same way: a block that no longer says
// what the tool definitions say (a tool dropped, a description edited by
// hand) is stale, and writing restores every tool's row.
func TestCheckFailsWhenTheToolTableIsStale(t *testing.T) {
	dir := copyTargets(t)
	path := filepath.Join(dir, "docs", "tools.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	row := "| `code_hover` |"
	i := strings.Index(string(data), row)
	if i < 0 {
		t.Fatalf("docs/tools.md has no %q row", row)
	}
	end := i + strings.IndexByte(string(data[i:]), '\n') + 1
	if err := os.WriteFile(path, append(append([]byte(nil), data[:i]...), data[end:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, true); err == nil || !strings.Contains(err.Error(), "docs/tools.md") || strings.Contains(err.Error(), "abi.md") {
		t.Fatalf("check with a row dropped: %v, want docs/tools.md (only) stale", err)
	}
	if err := run(dir, false); err != nil {
		t.Fatal(err)
	}
	fixed, _ := os.ReadFile(path)
	if string(fixed) != string(data) {
		t.Error("writing did not restore docs/tools.md byte for byte")
	}
	tools, cerr := core.ToolDefinitions(nil)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if len(tools) < 10 {
		t.Fatalf("core.ToolDefinitions lists %d tools", len(tools))
	}
	for _, tool := range tools {
		if !strings.Contains(string(fixed), "| `"+tool.Name+"` | "+tool.Title+" | `"+tool.Toolset+"` |") {
			t.Errorf("docs/tools.md has no row for %s (%q, %s)", tool.Name, tool.Title, tool.Toolset)
		}
	}
}

func TestToolTableRows(t *testing.T) {
	got := string(renderToolTable([]core.CodeTool{
		{Name: "a", Title: "A | b", Toolset: "code", ReadOnly: true, Description: "Does a.\nConventions."},
		{Name: "w", Title: "W", Toolset: "fs", Description: "Writes."},
	}))
	for _, want := range []string{
		"| `a` | A \\| b | `code` | no (read-only) | Does a. |\n",
		"| `w` | W | `fs` | **yes** (destructive) | Writes. |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table\n%s\nlacks %q", got, want)
		}
	}
	if strings.Contains(got, "Conventions") {
		t.Error("a description's later lines are in the table")
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
