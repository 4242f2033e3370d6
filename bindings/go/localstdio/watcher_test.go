package localstdio

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/fsnotify/fsnotify"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The workspace watcher on a real file system: what is recorded for each
// kind of change, the barrier's exactness, and the polling fallback.

func canonicalTemp(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// net is the change a first and last raw change amount to (the core's
// rule, restated as the tests' oracle).
func net(first, last string) string {
	before, after := first != "created", last != "deleted"
	switch {
	case before && after:
		return "changed"
	case after:
		return "created"
	case before:
		return "deleted"
	}
	return "none"
}

// settle passes the barrier and returns the recorded changes as
// "rel net-change" strings, sorted.
func settle(t *testing.T, sub *subscription, root string) (changes []string, lost string) {
	t.Helper()
	if err := sub.w.sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, lost := sub.take("")
	for _, c := range got {
		rel, _ := filepath.Rel(root, c.Path)
		changes = append(changes, rel+" "+net(c.First, c.Last))
	}
	slices.Sort(changes)
	return changes, lost
}

func expectChanges(t *testing.T, sub *subscription, root string, want ...string) {
	t.Helper()
	got, lost := settle(t, sub, root)
	if lost != "" {
		t.Fatalf("changes lost: %s", lost)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("changes:\n got %q\nwant %q", got, want)
	}
}

type watchMode struct {
	name  string
	setup func(set *watcherSet)
}

var watchModes = []watchMode{
	{"inotify", func(*watcherSet) {}},
	{"polling", func(set *watcherSet) {
		set.newNotify = func() (*fsnotify.Watcher, error) { return nil, syscall.EMFILE }
	}},
}

func TestWatcherRecordsChanges(t *testing.T) {
	for _, mode := range watchModes {
		t.Run(mode.name, func(t *testing.T) {
			root := canonicalTemp(t)
			write(t, filepath.Join(root, "a.go"), "package a\n")
			write(t, filepath.Join(root, "sub/b.go"), "package sub\n")
			write(t, filepath.Join(root, "sub/deep/c.go"), "package deep\n")
			write(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
			set := newWatcherSet(slog.New(slog.DiscardHandler))
			mode.setup(set)
			sub := set.subscribe(root)
			defer func() { sub.close(); set.wait() }()
			if mode.name == "polling" != sub.w.polling {
				t.Fatalf("polling = %v", sub.w.polling)
			}
			expectChanges(t, sub, root)

			write(t, filepath.Join(root, "new.go"), "package a\n")
			expectChanges(t, sub, root, "new.go created")

			write(t, filepath.Join(root, "a.go"), "package a // edited\n")
			expectChanges(t, sub, root, "a.go changed")

			// An atomic write (temp file renamed over the target) is a change
			// of the target; the temp file came and went.
			write(t, filepath.Join(root, "a.go.tmp"), "package a // atomic\n")
			if err := os.Rename(filepath.Join(root, "a.go.tmp"), filepath.Join(root, "a.go")); err != nil {
				t.Fatal(err)
			}
			got, _ := settle(t, sub, root)
			if !slices.Contains(got, "a.go changed") {
				t.Fatalf("atomic write: %q", got)
			}

			if err := os.Remove(filepath.Join(root, "new.go")); err != nil {
				t.Fatal(err)
			}
			expectChanges(t, sub, root, "new.go deleted")

			// A new directory, filled at once.
			write(t, filepath.Join(root, "pkg/x/y.go"), "package x\n")
			write(t, filepath.Join(root, "pkg/z.go"), "package pkg\n")
			expectChanges(t, sub, root, "pkg created", "pkg/x created", "pkg/x/y.go created", "pkg/z.go created")

			// A directory moved away: every file below it is deleted.
			if err := os.Rename(filepath.Join(root, "sub"), filepath.Join(filepath.Dir(root), filepath.Base(root)+"-moved")); err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(filepath.Join(filepath.Dir(root), filepath.Base(root)+"-moved"))
			expectChanges(t, sub, root, "sub deleted", "sub/b.go deleted", "sub/deep deleted", "sub/deep/c.go deleted")

			// A directory renamed inside the workspace: deleted at the old
			// name, created at the new, and the new name is watched.
			if err := os.Rename(filepath.Join(root, "pkg"), filepath.Join(root, "lib")); err != nil {
				t.Fatal(err)
			}
			expectChanges(t, sub, root, "pkg deleted", "pkg/x deleted", "pkg/x/y.go deleted", "pkg/z.go deleted",
				"lib created", "lib/x created", "lib/x/y.go created", "lib/z.go created")
			write(t, filepath.Join(root, "lib/x/y.go"), "package x // edited\n")
			expectChanges(t, sub, root, "lib/x/y.go changed")

			// .git internals are ignored.
			write(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/other\n")
			write(t, filepath.Join(root, ".git/refs/heads/other"), "0000\n")
			expectChanges(t, sub, root)
		})
	}
}

// TestWatcherBarrierIsExact: a change that completed before sync is always
// recorded when sync returns — in every one of many rounds, with no sleep.
func TestWatcherBarrierIsExact(t *testing.T) {
	root := canonicalTemp(t)
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	for i := range 300 {
		name := fmt.Sprintf("f%d/g.go", i%7)
		write(t, filepath.Join(root, name), fmt.Sprintf("package g // %d\n", i))
		if err := sub.w.sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, lost := sub.take("")
		if lost != "" {
			t.Fatal(lost)
		}
		found := false
		for _, c := range got {
			found = found || strings.HasSuffix(c.Path, name)
		}
		if !found {
			t.Fatalf("round %d: the write of %s completed before sync but was not recorded: %+v", i, name, got)
		}
	}
}

// TestWatcherBurst: 2,000 files created and then changed are all
// recorded, once each.
func TestWatcherBurst(t *testing.T) {
	root := canonicalTemp(t)
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	for i := range 2000 {
		write(t, filepath.Join(root, fmt.Sprintf("d%02d/f%04d.go", i%40, i)), "package d\n")
	}
	for i := range 2000 {
		write(t, filepath.Join(root, fmt.Sprintf("d%02d/f%04d.go", i%40, i)), "package d // changed\n")
	}
	got, lost := settle(t, sub, root)
	if lost != "" {
		t.Fatal(lost)
	}
	if len(got) != 2040 {
		t.Fatalf("%d paths recorded, want 2,000 files and 40 directories", len(got))
	}
	for _, c := range got {
		if !strings.HasSuffix(c, " created") {
			t.Fatalf("unexpected record %q", c)
		}
	}
}

// TestWatcherLimitFallsBackToPolling: when the watch limit is reached for a
// directory created later, the watcher switches to polling, marks the
// subscription lost (its server restarts), and later changes are still
// recorded exactly.
func TestWatcherLimitFallsBackToPolling(t *testing.T) {
	root := canonicalTemp(t)
	write(t, filepath.Join(root, "a.go"), "package a\n")
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	watches := 0
	set.addWatch = func(w *fsnotify.Watcher, dir string) error {
		watches++
		if watches > 3 { // the sentinel directory, the root, one more
			return fmt.Errorf("inotify_add_watch: %w", syscall.ENOSPC)
		}
		return w.Add(dir)
	}
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	write(t, filepath.Join(root, "one/x.go"), "package one\n")
	expectChanges(t, sub, root, "one created", "one/x.go created")
	write(t, filepath.Join(root, "two/y.go"), "package two\n") // no watch left for two/
	if _, lost := settle(t, sub, root); !strings.Contains(lost, "watch limit") {
		t.Fatalf("lost = %q, want the watch limit named", lost)
	}
	if !sub.w.polling {
		t.Fatal("the watcher did not switch to polling")
	}
	// The server restarts here and reads the disk; what the watcher
	// records from now on is relative to that.
	settle(t, sub, root)
	write(t, filepath.Join(root, "two/y.go"), "package two // edited\n")
	write(t, filepath.Join(root, "three/z.go"), "package three\n")
	if err := os.Remove(filepath.Join(root, "a.go")); err != nil {
		t.Fatal(err)
	}
	expectChanges(t, sub, root, "two/y.go changed", "three created", "three/z.go created", "a.go deleted")
}

// TestWatcherPollingSeesSameSizeEdits: two same-size writes within one
// timestamp tick are told apart by content.
func TestWatcherPollingSeesSameSizeEdits(t *testing.T) {
	root := canonicalTemp(t)
	path := filepath.Join(root, "a.go")
	write(t, path, "package a // 1\n")
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	watchModes[1].setup(set)
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	for i := 2; i < 30; i++ {
		st, _ := os.Stat(path)
		write(t, path, fmt.Sprintf("package a // %d\n", i%10))
		_ = os.Chtimes(path, st.ModTime(), st.ModTime()) // same mtime, same size
		if i%10 == (i-1)%10 {
			continue
		}
		expectChanges(t, sub, root, "a.go changed")
	}
}

func TestWatcherOverflowLosesSubscriptions(t *testing.T) {
	root := canonicalTemp(t)
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	other := set.subscribe(root)
	defer func() { sub.close(); other.close(); set.wait() }()
	sub.w.mu.Lock()
	sub.w.handleError(fsnotify.ErrEventOverflow)
	sub.w.mu.Unlock()
	for _, s := range []*subscription{sub, other} {
		if _, lost := settle(t, s, root); !strings.Contains(lost, "overflow") {
			t.Fatalf("lost = %q", lost)
		}
	}
	// Afterwards, watching goes on.
	write(t, filepath.Join(root, "n/a.go"), "package n\n")
	expectChanges(t, sub, root, "n created", "n/a.go created")
}

func TestWatcherSharedAndStopped(t *testing.T) {
	root := canonicalTemp(t)
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	a := set.subscribe(root)
	b := set.subscribe(root)
	if a.w != b.w {
		t.Fatal("two subscriptions to one workspace got two watchers")
	}
	write(t, filepath.Join(root, "x.go"), "package x\n")
	expectChanges(t, a, root, "x.go created")
	expectChanges(t, b, root, "x.go created")
	sentinel := a.w.sentinel
	a.close()
	b.close()
	set.wait()
	if _, err := os.Stat(sentinel); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("sentinel directory left behind: %v", err)
	}
	c := set.subscribe(root)
	defer func() { c.close(); set.wait() }()
	if c.w == a.w {
		t.Fatal("a stopped watcher was reused")
	}
}

// TestWatcherCancelledSync: a sync whose context is done returns its
// error instead of waiting for the sentinel. The sentinel directory's watch
// is removed first, so no sentinel event can ever release the wait: the
// only nil return left is barrierTimeout's fallback to polling, so a sync
// that ignored its context would return nil (after barrierTimeout) with
// the watcher polling.
func TestWatcherCancelledSync(t *testing.T) {
	root := canonicalTemp(t)
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	w := sub.w
	w.mu.Lock()
	fsw, polling := w.fsw, w.polling
	w.mu.Unlock()
	if polling || fsw == nil {
		t.Fatal("the watcher is polling; this test needs inotify")
	}
	if err := fsw.Remove(w.sentinel); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.sync(ctx); codeOf(err) != lspseam.CodeCancelled {
		t.Fatalf("cancelled sync returned %v, want LSP_CANCELLED", err)
	}
	w.mu.Lock()
	polling, waiting := w.polling, len(w.waiters)
	w.mu.Unlock()
	if polling || waiting != 0 {
		t.Fatalf("after a cancelled sync: polling %v, %d waiters left", polling, waiting)
	}
}
