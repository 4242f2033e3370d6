package localstdio

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWatcherKeepsLinks: the watcher's list of the workspace's symbolic
// links follows links there at its start, created, replaced by a file,
// renamed, and removed with their directory; .git is not listed, and
// while polling the list is not offered as complete.
func TestWatcherKeepsLinks(t *testing.T) {
	root := canonicalTemp(t)
	write(t, filepath.Join(root, "real/a.py"), "x = 1\n")
	write(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	link := func(target, name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("real/a.py", "early.py")
	link("../real", ".git/linked")
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	expect := func(want ...string) {
		t.Helper()
		if err := sub.w.sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, complete := sub.w.symbolicLinks()
		if !complete {
			t.Fatal("the list is not complete while inotify works")
		}
		for i, p := range got {
			got[i] = strings.TrimPrefix(p, root+"/")
		}
		if !slices.Equal(got, want) {
			t.Fatalf("links = %q, want %q", got, want)
		}
	}
	expect("early.py")
	link("../real", "pkg/alias") // a directory link, in a directory created after the start
	link("real/a.py", "late.py")
	expect("early.py", "late.py", "pkg/alias")
	// A link replaced by a file (an atomic write's rename) is no link.
	write(t, filepath.Join(root, "tmp.py"), "y = 2\n")
	if err := os.Rename(filepath.Join(root, "tmp.py"), filepath.Join(root, "early.py")); err != nil {
		t.Fatal(err)
	}
	// A renamed link is listed under its new name.
	if err := os.Rename(filepath.Join(root, "late.py"), filepath.Join(root, "later.py")); err != nil {
		t.Fatal(err)
	}
	expect("later.py", "pkg/alias")
	if err := os.RemoveAll(filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "later.py")); err != nil {
		t.Fatal(err)
	}
	expect()
	sub.w.mu.Lock()
	sub.w.startPolling("a test")
	sub.w.mu.Unlock()
	if _, complete := sub.w.symbolicLinks(); complete {
		t.Fatal("while polling the list is offered as complete")
	}
}
