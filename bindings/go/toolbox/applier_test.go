package toolbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/internal/writeset"
)

// openTestRoot opens ws for a test's writes, with its own write state.
func openTestRoot(t *testing.T, ws string) *workspacefs.Root {
	t.Helper()
	r, err := workspacefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	store, err := writeset.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r.UseWriteSets(store, nil)
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
		f, err := r.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, plannedFile{rel: f.Rel, before: f.Text, after: "new " + name + "\n", version: f.Version})
	}
	// The third rename fails: the first two are restored.
	failStep(t, 2, errors.New("disk full"))
	err := writeAll(context.Background(), r, files)
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConflict || !strings.Contains(lerr.Message, "restored") {
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
	err = writeAll(context.Background(), r, files)
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConflict || readFile(t, filepath.Join(ws, "a.txt")) != "old a.txt\n" {
		t.Fatalf("a stale set: %v", err)
	}
	// All current: all written.
	files[1].before, files[1].version = "changed elsewhere\n", workspacefs.ContentVersion("changed elsewhere\n")
	if err := writeAll(context.Background(), r, files); err != nil {
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
	call := lspseam.CodeCall{Tool: "code_rename", Path: "a.go", NewName: "B"}
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

// TestPreviewBelongsToItsCall: a previewId presented with other
// arguments is refused and stays valid for its own call; an unknown id is
// refused as unknown. (Applying needs a session: the localstdio Toolbox
// tests apply a refused id with its own call.)
func TestPreviewBelongsToItsCall(t *testing.T) {
	tb := &Toolbox{previews: newPreviewStore()}
	call := lspseam.CodeCall{Tool: "code_rename", Path: "a.go", NewName: "B"}
	pv := newPreview(call, change{what: "Rename"})
	tb.previews.Put(pv.id, pv)
	other := call
	other.NewName = "C"
	for _, tc := range []struct {
		name string
		call lspseam.CodeCall
		want string // in the error's message
	}{
		{"another call's arguments", withPreviewID(other, pv.id), "belongs to another call (it stays valid for that call)"},
		{"another call's arguments again", withPreviewID(other, pv.id), "belongs to another call"},
		{"another tool", withPreviewID(lspseam.CodeCall{Tool: "code_format", Path: "a.go"}, pv.id), "belongs to another call"},
		{"an unknown id", withPreviewID(call, "p-0000000000000000"), "is unknown or expired"},
	} {
		_, stale, err := tb.applyPreview(context.Background(), tc.call, "", nil, nil)
		var lerr *lspseam.Error
		if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeInvalidArgument || !strings.Contains(lerr.Message, tc.want) || stale {
			t.Errorf("%s: want LSP_INVALID_ARGUMENT saying %q, got %v (stale %v)", tc.name, tc.want, err, stale)
		}
	}
	key := callKey(call)
	if got, ok := tb.previews.Take(pv.id, func(p *preview) bool { return p.call == key }); !ok || got != pv {
		t.Error("the preview was used up by calls it does not belong to")
	}
}

// TestPreviewsBoundedInBytes: 200 previews of a 3.84 MB file (each holding
// the text before and after: 7.7 MB) keep at most maxPreviewBytes, by the
// store's account and by the heap after a collection; the oldest are
// dropped, answer "unknown or expired", and the newest still applies.
// Bounded by count alone, 64 of them held 490 MB.
func TestPreviewsBoundedInBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 1.5 GB over the run")
	}
	const fileBytes = 3_840_000
	line := "\tx := compute(a, b, c) // a line of a large generated Go file\n"
	tb := &Toolbox{previews: newPreviewStore()}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapAlloc
	var ids []string
	var calls []lspseam.CodeCall
	for i := 0; i < 200; i++ {
		// Fresh texts each time, as planning reads and edits the file anew.
		before := strings.Repeat(line, fileBytes/len(line))
		after := "// edited\n" + before
		call := lspseam.CodeCall{Tool: "code_rename", Path: "big.go", NewName: "Name" + strconv.Itoa(i)}
		ch := change{what: "Rename", files: []plannedFile{{rel: "big.go", uri: "file:///ws/big.go", before: before, after: after, edits: 1,
			diff: "--- a/big.go\n+++ b/big.go\n@@ -1 +1,2 @@\n+// edited\n " + line, version: "v"}}}
		a := tb.preview(call, ch)
		id, _ := fieldValue(a, "previewId").(string)
		if id == "" {
			t.Fatalf("preview %d has no previewId: %s", i, a.text)
		}
		ids, calls = append(ids, id), append(calls, call)
		if n := tb.previews.Bytes(); n > maxPreviewBytes {
			t.Fatalf("after %d previews the store holds %d bytes, over %d", i+1, n, maxPreviewBytes)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	held := int64(ms.HeapAlloc) - int64(heapBefore)
	t.Logf("200 previews of a %d-byte file: %d held (%d bytes by the store's account), heap after GC grew %.1f MiB",
		fileBytes, tb.previews.Len(), tb.previews.Bytes(), float64(held)/(1<<20))
	if limit := int64(maxPreviewBytes + 16<<20); held > limit {
		t.Errorf("the heap after GC grew %d bytes holding the previews, over %d", held, limit)
	}
	if _, _, err := tb.applyPreview(context.Background(), withPreviewID(calls[0], ids[0]), "", nil, nil); err == nil || !strings.Contains(err.Error(), "unknown or expired") {
		t.Errorf("the oldest preview: want unknown or expired, got %v", err)
	}
	key := callKey(calls[199])
	if _, ok := tb.previews.Take(ids[199], func(p *preview) bool { return p.call == key }); !ok {
		t.Error("the newest preview was dropped")
	}
	runtime.KeepAlive(tb)
}

func withPreviewID(c lspseam.CodeCall, id string) lspseam.CodeCall {
	c.PreviewID = id
	return c
}

// fieldValue is the value of an answer's structured field name.
func fieldValue(a answer, name string) any {
	for _, f := range a.fields {
		if f.name == name {
			return f.value
		}
	}
	return nil
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
	read := func(rel string) workspacefs.File {
		f, err := r.Read(rel)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, gone, alsoGone := read("a.txt"), read("gone.txt"), read("also-gone.txt")
	files := []plannedFile{
		{rel: "new.txt", after: "created\n", created: true},
		{rel: "a.txt", before: a.Text, after: "new a\n", version: a.Version},
		{rel: "gone.txt", before: gone.Text, version: gone.Version, deleted: true},
		{rel: "also-gone.txt", before: alsoGone.Text, version: alsoGone.Version, deleted: true},
	}
	failStep(t, 3, errors.New("read-only file system")) // the last: deletions go last
	err := writeAll(context.Background(), r, files)
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeConflict || !strings.Contains(lerr.Message, "restored") {
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
