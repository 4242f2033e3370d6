package localstdio

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestWatcherOutside: directories outside the workspace that a server
// reads are watched by the same watcher (the barrier covers them), with
// and without inotify; their changes reach only the subscriptions that
// asked; a directory watched alone keeps its subdirectories out; a tree
// over the cap is not watched and reported.
func TestWatcherOutside(t *testing.T) {
	for _, mode := range watchModes {
		t.Run(mode.name, func(t *testing.T) {
			tmp := canonicalTemp(t)
			root, lib, shared := filepath.Join(tmp, "ws"), filepath.Join(tmp, "lib"), filepath.Join(tmp, "shared")
			write(t, filepath.Join(root, "a.go"), "package a\n")
			write(t, filepath.Join(lib, "lib.go"), "package lib\n")
			write(t, filepath.Join(lib, "sub/s.go"), "package sub\n")
			write(t, filepath.Join(shared, "x.ts"), "export const x = 1;\n")
			write(t, filepath.Join(shared, "deep/y.ts"), "export const y = 1;\n")
			// Written long before any server started: not changes
			// (TestWatcherOutsideCatchUp).
			backdate(t, filepath.Join(lib, "lib.go"), filepath.Join(lib, "sub/s.go"), filepath.Join(shared, "x.ts"), filepath.Join(shared, "deep/y.ts"))
			set := newWatcherSet(slog.New(slog.DiscardHandler))
			mode.setup(set)
			sub := set.subscribe(root)
			other := set.subscribe(root) // another server, which reads neither
			defer func() { sub.close(); other.close(); set.wait() }()
			if skipped := sub.w.watchOutside(sub, []outsideDir{{lib, true}, {shared, false}}); len(skipped) != 0 {
				t.Fatalf("skipped %v", skipped)
			}
			expectChanges(t, sub, tmp)

			write(t, filepath.Join(lib, "lib.go"), "package lib // edited\n")
			write(t, filepath.Join(lib, "sub/s.go"), "package sub // edited\n")
			write(t, filepath.Join(shared, "x.ts"), "export const x = 2;\n")
			write(t, filepath.Join(shared, "deep/y.ts"), "export const y = 2;\n") // below a directory watched alone
			write(t, filepath.Join(root, "a.go"), "package a // edited\n")
			expectChanges(t, sub, tmp, "lib/lib.go changed", "lib/sub/s.go changed", "shared/x.ts changed", "ws/a.go changed")
			expectChanges(t, other, tmp, "ws/a.go changed")

			// The extension fallback's take (within the server's root)
			// keeps what the subscription heard outside.
			write(t, filepath.Join(lib, "new.go"), "package lib\n")
			if err := sub.w.sync(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got, _ := sub.take(root); len(got) != 1 || got[0].Path != filepath.Join(lib, "new.go") {
				t.Fatalf("take(root) = %v", got)
			}
			if mode.name == "inotify" {
				if links, _ := sub.w.symbolicLinks(); len(links) != 0 {
					t.Fatalf("links = %v", links)
				}
			}
		})
	}
}

// backdate sets the files' modification time an hour back.
func backdate(t *testing.T, paths ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, p := range paths {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWatcherOutsideCatchUp: a server reads a file outside the workspace
// and only then registers a watcher for it; a change in between makes no
// event. When the subscription hears of the directory, the files there
// modified since it began count as changed, the others not; a directory
// it already hears of is not caught up again. Before, the watch took the
// changed file as its baseline and the change was never delivered
// (findings-v24.md, 1).
func TestWatcherOutsideCatchUp(t *testing.T) {
	for _, mode := range watchModes {
		t.Run(mode.name, func(t *testing.T) {
			tmp := canonicalTemp(t)
			root, shared := filepath.Join(tmp, "ws"), filepath.Join(tmp, "shared")
			write(t, filepath.Join(root, "a.ts"), "export const a = 1;\n")
			write(t, filepath.Join(shared, "x.ts"), "export const x = 1;\n")
			write(t, filepath.Join(shared, "old.ts"), "export const o = 1;\n")
			write(t, filepath.Join(shared, "deep/y.ts"), "export const y = 1;\n")
			backdate(t, filepath.Join(shared, "x.ts"), filepath.Join(shared, "old.ts"), filepath.Join(shared, "deep/y.ts"))
			set := newWatcherSet(slog.New(slog.DiscardHandler))
			mode.setup(set)
			sub := set.subscribe(root)
			defer func() { sub.close(); set.wait() }()

			// The server read x.ts; it changes before the registration
			// reaches the watcher. deep/y.ts changes too, below the
			// directory the registration covers alone.
			write(t, filepath.Join(shared, "x.ts"), "export const x = 2;\n")
			write(t, filepath.Join(shared, "deep/y.ts"), "export const y = 2;\n")
			if skipped := sub.w.watchOutside(sub, []outsideDir{{shared, false}}); len(skipped) != 0 {
				t.Fatalf("skipped %v", skipped)
			}
			expectChanges(t, sub, tmp, "shared/x.ts changed")

			// Heard of already: nothing to catch up; a change is an event.
			sub.w.watchOutside(sub, []outsideDir{{shared, false}})
			expectChanges(t, sub, tmp)
			write(t, filepath.Join(shared, "old.ts"), "export const o = 2;\n")
			sub.w.watchOutside(sub, []outsideDir{{shared, false}})
			expectChanges(t, sub, tmp, "shared/old.ts changed")
		})
	}
}

func TestWatcherOutsideCap(t *testing.T) {
	tmp := canonicalTemp(t)
	root, big := filepath.Join(tmp, "ws"), filepath.Join(tmp, "big")
	write(t, filepath.Join(root, "a.go"), "package a\n")
	for i := range maxOutsideDirs {
		if err := os.MkdirAll(filepath.Join(big, fmt.Sprint(i/50), fmt.Sprint(i%50)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	set := newWatcherSet(slog.New(slog.DiscardHandler))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	skipped := sub.w.watchOutside(sub, []outsideDir{{big, true}})
	if len(skipped) != 1 || skipped[0].dir != big {
		t.Fatalf("skipped = %v, want %s", skipped, big)
	}
	notice := outsideNotice("gopls", skipped)
	for _, want := range []string{big, "may not reflect", "restart", fmt.Sprint(maxOutsideDirs)} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q: %s", want, notice)
		}
	}
	if len(sub.w.tree) > 2 { // the workspace and nothing of big
		t.Fatalf("%d directories indexed", len(sub.w.tree))
	}
}

func TestGoLocalTargets(t *testing.T) {
	dir := t.TempDir()
	mod := `module example.com/app // the app

go 1.21

replace example.com/lib => ../lib
replace example.com/v v1.0.0 => ./vendored/v // local
replace example.com/remote => example.com/fork v1.2.3
replace (
	example.com/a => /abs/a
	example.com/b v1 => "../b"
	example.com/c => example.com/c2 v0.1.0
)
use ./not-in-go-mod-grammar-but-harmless
`
	work := "go 1.21\n\nuse (\n\t.\n\t../other\n)\nuse ../one\n"
	write(t, filepath.Join(dir, "go.mod"), mod)
	write(t, filepath.Join(dir, "go.work"), work)
	got := goLocalTargets(filepath.Join(dir, "go.mod"))
	want := []string{"../lib", "./vendored/v", "/abs/a", "../b", "./not-in-go-mod-grammar-but-harmless"}
	if !slices.Equal(got, want) {
		t.Errorf("go.mod: %q, want %q", got, want)
	}
	if got, want := goLocalTargets(filepath.Join(dir, "go.work")), []string{".", "../other", "../one"}; !slices.Equal(got, want) {
		t.Errorf("go.work: %q, want %q", got, want)
	}
}

func TestRegisteredOutsideDir(t *testing.T) {
	for _, c := range []struct {
		w    lspseam.FileWatcher
		want string // "dir recursive|alone", "" none
	}{
		{lspseam.FileWatcher{Pattern: "x.ts", BaseURI: "file:///s/shared"}, "/s/shared alone"},
		{lspseam.FileWatcher{Pattern: "**/*", BaseURI: "file:///s/nm"}, "/s/nm recursive"},
		{lspseam.FileWatcher{Pattern: "**/*.{mod,work}"}, ""},
		{lspseam.FileWatcher{Pattern: "/s/lib/**/*.go"}, "/s/lib recursive"},
		{lspseam.FileWatcher{Pattern: "/s/lib/go.mod"}, "/s/lib alone"},
		{lspseam.FileWatcher{Pattern: "/*.go"}, "/ alone"},
	} {
		got := ""
		if d, ok := registeredOutsideDir(c.w); ok {
			got = d.path + map[bool]string{true: " recursive", false: " alone"}[d.recursive]
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}

func TestUsableOutside(t *testing.T) {
	tmp := canonicalTemp(t)
	ws, lib, install := filepath.Join(tmp, "ws"), filepath.Join(tmp, "lib"), filepath.Join(tmp, "tools/node_modules")
	for _, d := range []string{ws + "/inner", lib, install + "/typescript/lib"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(lib, filepath.Join(tmp, "liblink")); err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	got := usableOutside(ws, install, []outsideDir{
		{lib, false}, {filepath.Join(tmp, "liblink"), true}, // one directory, recursive wins
		{ws + "/inner", true},                 // inside
		{filepath.Join(tmp, "missing"), true}, // not there
		{"/", false}, {home, true},            // never
		{install, true}, {install + "/typescript", false}, {tmp + "/tools", true}, // the server's installation
	})
	if want := []outsideDir{{lib, true}}; !slices.Equal(got, want) {
		t.Errorf("usableOutside = %v, want %v", got, want)
	}
}

func TestLinkedPackageDirs(t *testing.T) {
	tmp := canonicalTemp(t)
	ws := filepath.Join(tmp, "ws")
	write(t, filepath.Join(tmp, "linked/index.d.ts"), "")
	write(t, filepath.Join(tmp, "scoped/index.d.ts"), "")
	write(t, filepath.Join(ws, "node_modules/plain/index.d.ts"), "")
	if err := os.MkdirAll(filepath.Join(ws, "node_modules/@org"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"node_modules/linked": "../../linked", "node_modules/@org/s": "../../../scoped"} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := linkedPackageDirs([]string{ws})
	slices.SortFunc(got, func(a, b outsideDir) int { return strings.Compare(a.path, b.path) })
	if want := []outsideDir{{filepath.Join(tmp, "linked"), true}, {filepath.Join(tmp, "scoped"), true}}; !slices.Equal(got, want) {
		t.Errorf("linkedPackageDirs = %v, want %v", got, want)
	}
}
