package localstdio

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMarkCachesIgnored: a server's cache directory gets a .gitignore of
// its own (version control then skips it), written once, never over a
// file there, never through a link out of the root, and nothing is made
// where the server made no directory.
func TestMarkCachesIgnored(t *testing.T) {
	dirs := []string{filepath.Join(".cache", "clangd"), filepath.Join("build", ".cache", "clangd")}
	t.Run("made", func(t *testing.T) {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, ".cache", "clangd", "index"), 0o755)
		if !markCachesIgnored(root, dirs) {
			t.Fatal("the cache directory exists, yet it is not reported done")
		}
		got, err := os.ReadFile(filepath.Join(root, ".cache", "clangd", ".gitignore"))
		if err != nil || string(got) != cacheIgnoreText {
			t.Fatalf(".gitignore = %q, %v", got, err)
		}
		if _, err := os.Stat(filepath.Join(root, "build")); !os.IsNotExist(err) {
			t.Errorf("build/ was made (%v)", err)
		}
	})
	t.Run("none yet", func(t *testing.T) {
		root := t.TempDir()
		if markCachesIgnored(root, dirs) {
			t.Error("done with no cache directory")
		}
		if entries, _ := os.ReadDir(root); len(entries) != 0 {
			t.Errorf("the root holds %d entries, want none", len(entries))
		}
	})
	t.Run("kept", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, "build", ".cache", "clangd")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("mine\n"), 0o644)
		markCachesIgnored(root, dirs)
		if got, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(got) != "mine\n" {
			t.Errorf("an existing .gitignore was replaced: %q", got)
		}
	})
	t.Run("link out", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(outside, "clangd"), 0o755)
		os.Symlink(outside, filepath.Join(root, ".cache"))
		markCachesIgnored(root, dirs)
		if _, err := os.Stat(filepath.Join(outside, "clangd", ".gitignore")); !os.IsNotExist(err) {
			t.Errorf("written through a link out of the root (%v)", err)
		}
	})
}
