package lspseam

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/writeset"
)

// openTestRoot opens ws for a test's writes, with its own write state.
func openTestRoot(t *testing.T, ws string) *fsRoot {
	t.Helper()
	r, err := openFSRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if r.sets, err = writeset.Open(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return r
}

// failStep makes the n-th rename or removal of the next sets fail.
func failStep(t *testing.T, n int, err error) {
	writeset.Hook = func(step string, i int) error {
		if step == "rename" && i == n {
			return err
		}
		return nil
	}
	t.Cleanup(func() { writeset.Hook = nil })
}

// writeAll: a set of files changes together or not at all.

func TestWriteAllRollsBackWhenARenameFails(t *testing.T) {
	ws := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		writeFile(t, filepath.Join(ws, name), "old "+name+"\n")
	}
	r := openTestRoot(t, ws)
	var files []plannedFile
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		f, err := r.read(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, plannedFile{rel: f.rel, before: f.text, after: "new " + name + "\n", version: f.version})
	}
	// The third rename fails: the first two are restored.
	failStep(t, 2, errors.New("disk full"))
	err := r.writeAll(context.Background(), files)
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeConflict || !strings.Contains(lerr.Message, "restored") {
		t.Fatalf("want LSP_CONFLICT saying the files were restored, got %v", err)
	}
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if got := readFile(t, filepath.Join(ws, name)); got != "old "+name+"\n" {
			t.Errorf("%s = %q after the rollback", name, got)
		}
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 3 {
		t.Errorf("temporaries left behind: %v", entries)
	}

	// A file changed after planning: nothing is written.
	writeFile(t, filepath.Join(ws, "b.txt"), "changed elsewhere\n")
	writeset.Hook = nil
	err = r.writeAll(context.Background(), files)
	if !errors.As(err, &lerr) || lerr.Code != CodeConflict || readFile(t, filepath.Join(ws, "a.txt")) != "old a.txt\n" {
		t.Fatalf("a stale set: %v", err)
	}
	// All current: all written.
	files[1].before, files[1].version = "changed elsewhere\n", contentVersion("changed elsewhere\n")
	if err := r.writeAll(context.Background(), files); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if got := readFile(t, filepath.Join(ws, name)); got != "new "+name+"\n" {
			t.Errorf("%s = %q", name, got)
		}
	}
}

// TestPreviewsApplyOnce: a preview is taken once (expiry and the bound on
// their number: internal/expiring's tests), and its key is the call
// without previewId.
func TestPreviewsApplyOnce(t *testing.T) {
	p := newPreviewStore()
	call := CodeCall{Tool: "code_rename", Path: "a.go", NewName: "B"}
	pv := newPreview(call, change{})
	p.Put(pv.id, pv)
	if got, ok := p.Take(pv.id, nil); !ok || got != pv {
		t.Fatal("a fresh preview was not found")
	}
	if _, ok := p.Take(pv.id, nil); ok {
		t.Fatal("a preview applied twice")
	}
	withID := call
	withID.PreviewID = "p-1"
	if callKey(withID) != callKey(call) {
		t.Error("the previewId is part of the call's key")
	}
	other := call
	other.NewName = "C"
	if callKey(other) == callKey(call) {
		t.Error("two different renames have the same key")
	}
}

// TestWriteAllRollsBackResourceOperations: a set that creates, modifies
// and deletes files, failing at its last deletion, leaves the workspace as
// it was: the created file gone, the modified one restored, the deleted
// one written back with its content and mode.
func TestWriteAllRollsBackResourceOperations(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "a.txt"), "old a\n")
	writeFile(t, filepath.Join(ws, "gone.txt"), "gone\n")
	if err := os.Chmod(filepath.Join(ws, "gone.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws, "also-gone.txt"), "also gone\n")
	r := openTestRoot(t, ws)
	read := func(rel string) wsFile {
		f, err := r.read(rel)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, gone, alsoGone := read("a.txt"), read("gone.txt"), read("also-gone.txt")
	files := []plannedFile{
		{rel: "new.txt", after: "created\n", created: true},
		{rel: "a.txt", before: a.text, after: "new a\n", version: a.version},
		{rel: "gone.txt", before: gone.text, version: gone.version, deleted: true},
		{rel: "also-gone.txt", before: alsoGone.text, version: alsoGone.version, deleted: true},
	}
	failStep(t, 3, errors.New("read-only file system")) // the last: deletions go last
	err := r.writeAll(context.Background(), files)
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeConflict || !strings.Contains(lerr.Message, "restored") {
		t.Fatalf("want LSP_CONFLICT saying the files were restored, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("the created file is still there after the rollback (%v)", err)
	}
	for name, want := range map[string]string{"a.txt": "old a\n", "gone.txt": "gone\n", "also-gone.txt": "also gone\n"} {
		if got := readFile(t, filepath.Join(ws, name)); got != want {
			t.Errorf("%s = %q after the rollback, want %q", name, got, want)
		}
	}
	if info, err := os.Stat(filepath.Join(ws, "gone.txt")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the deleted file came back with mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 3 {
		t.Errorf("left behind: %v", entries)
	}
}
