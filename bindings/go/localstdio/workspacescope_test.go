package localstdio

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// / and exactly the home directory are refused, however they are named
// (a relative path, a symlink); a directory below home is a workspace.
func TestCanonicalWorkspaceRefusesRootAndHome(t *testing.T) {
	home := canonicalTemp(t)
	t.Setenv("HOME", home)
	project := filepath.Join(home, "src", "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(canonicalTemp(t), "home-link")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(home)
	for root, what := range map[string]string{
		"/":                                      "the root of the file system",
		home:                                     "the home directory " + home,
		home + "/src/..":                         "the home directory " + home,
		link:                                     "the home directory " + home,
		".":                                      "the home directory " + home,
		filepath.Join(project, "..", "..", ".."): "", // HOME's parent: a directory like any other
	} {
		_, err := CanonicalWorkspace(root)
		if what == "" {
			if err != nil {
				t.Errorf("%s: %v", root, err)
			}
			continue
		}
		var lerr *lspseam.Error
		if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeWorkspaceInvalid || !strings.Contains(lerr.Message, what) || !strings.Contains(lerr.Message, "--workspace DIR") {
			t.Errorf("%s: %v, want LSP_WORKSPACE_INVALID saying %q and naming --workspace DIR", root, err, what)
		}
	}
	if ws, err := CanonicalWorkspace(project); err != nil || ws.Path != project {
		t.Errorf("a project below home: %+v %v", ws, err)
	}
}

// makeDirs creates n directories below root (in groups of 100, as a tree
// has them) and a .git directory with more, which the watcher skips and
// WatchWarning does not count.
func makeDirs(t *testing.T, root string, n int) {
	t.Helper()
	for i := range n {
		if err := os.MkdirAll(filepath.Join(root, fmt.Sprintf("g%d", i/100), fmt.Sprintf("d%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 {
		if err := os.MkdirAll(filepath.Join(root, ".git", "objects", fmt.Sprint(i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// WatchWarning warns exactly above largeWorkspaceDirs directories (the
// workspace itself counted), before anything is watched, and says what
// lspseam does then and how to name a smaller workspace.
func TestWatchWarningBound(t *testing.T) {
	root := canonicalTemp(t)
	// The groups g0… are directories too: n leaves in n/100 groups, plus
	// the root.
	leaves := largeWorkspaceDirs - 1 - largeWorkspaceDirs/100
	makeDirs(t, root, leaves)
	ws := Workspace{Path: root, URI: FileURI(root)}
	if w := WatchWarning(ws); w != "" {
		t.Fatalf("%d directories: warned %q", largeWorkspaceDirs, w)
	}
	if err := os.Mkdir(filepath.Join(root, "one-more"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := WatchWarning(ws)
	for _, want := range []string{root, "more than 5000 directories", "inotify watch", "--workspace DIR", "rescans the workspace at every query"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q does not say %q", w, want)
		}
	}
}

// The watcher logs the same warning, once, when it indexes a large
// workspace, and watches it anyway.
func TestWatcherWarnsOnLargeWorkspace(t *testing.T) {
	root := canonicalTemp(t)
	makeDirs(t, root, largeWorkspaceDirs)
	var logged lockedBuffer
	set := newWatcherSet(slog.New(slog.NewTextHandler(&logged, nil)))
	sub := set.subscribe(root)
	defer func() { sub.close(); set.wait() }()
	if n := strings.Count(logged.String(), "more than 5000 directories"); n != 1 {
		t.Fatalf("the large-workspace warning was logged %d times:\n%s", n, logged.String())
	}
	write(t, filepath.Join(root, "g49", "d4999", "x.go"), "package x\n")
	expectChanges(t, sub, root, "g49/d4999/x.go created")
	sub.w.mu.Lock()
	polling := sub.w.polling
	sub.w.mu.Unlock()
	if polling {
		t.Error("the watcher is polling a workspace it could watch")
	}

	small := canonicalTemp(t)
	makeDirs(t, small, 10)
	logged.Reset()
	other := set.subscribe(small)
	defer other.close()
	if strings.Contains(logged.String(), "more than") {
		t.Errorf("a small workspace was warned about:\n%s", logged.String())
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedBuffer) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Reset()
}
