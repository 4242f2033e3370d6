package localstdio

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadCompileDB: an entry's file is resolved as clangd resolves it
// (relative to its directory, a relative directory to the database's),
// and also through a symbolic link in its directory, so that a database
// naming the project through a link covers the walk's canonical paths.
func TestReadCompileDB(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(real, "compile_commands.json")
	text := `[
 {"directory": "` + real + `", "file": "a.c", "arguments": ["cc", "-c", "a.c"]},
 {"directory": "src", "file": "b.c", "command": "cc -c b.c"},
 {"directory": "/nowhere", "file": "/abs/c.c"},
 {"directory": "` + filepath.Join(base, "link") + `", "file": "d.c"}
]`
	if err := os.WriteFile(db, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	files, entries, sample, err := readCompileDB(db)
	if err != nil || entries != 4 || sample != filepath.Join(real, "a.c") {
		t.Fatalf("readCompileDB = %v entries, sample %q, %v", entries, sample, err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{filepath.Join(real, "a.c"), true},
		{filepath.Join(real, "src", "b.c"), true},
		{"/abs/c.c", true},
		{filepath.Join(base, "link", "d.c"), true},
		{filepath.Join(real, "d.c"), true}, // through the link
		{filepath.Join(real, "e.c"), false},
	} {
		if files[c.path] != c.want {
			t.Errorf("%s listed: %v, want %v", c.path, files[c.path], c.want)
		}
	}
	if _, _, _, err := readCompileDB(filepath.Join(real, "missing.json")); err == nil {
		t.Error("a missing database read without an error")
	}
}
