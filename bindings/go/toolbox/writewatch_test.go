package toolbox

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// recordedWrites is a WriteWatch that keeps what it heard.
// With refuse set, it refuses every write.
type recordedWrites struct {
	events []string
	refuse error
}

func (r *recordedWrites) Writing(files []string) error {
	if r.refuse != nil {
		r.events = append(r.events, "refused "+filepath.Join(files...))
		return r.refuse
	}
	r.events = append(r.events, "writing "+filepath.Join(files...))
	return nil
}

func (r *recordedWrites) Wrote(files []string, err error) {
	outcome := "applied"
	if err != nil {
		outcome = "failed"
	}
	r.events = append(r.events, outcome+" "+filepath.Join(files...))
}

// A write tells the call's WriteWatch when it begins and how it ended;
// one refused before any file changed says so too.
func TestWriteWatchHearsEachWrite(t *testing.T) {
	_, ws := newFSToolbox(t)
	r := openTestRoot(t, ws)
	writeFile(t, filepath.Join(ws, "a.txt"), "a\n")
	writeFile(t, filepath.Join(ws, "b.txt"), "b\n")
	a, _ := r.Read("a.txt")
	b, _ := r.Read("b.txt")
	var heard recordedWrites
	ctx := WithWriteWatch(context.Background(), &heard)
	if err := writeAll(ctx, r, []plannedFile{{rel: "a.txt", before: a.Text, after: "A\n", version: a.Version}, {rel: "b.txt", before: b.Text, after: "B\n", version: b.Version}}); err != nil {
		t.Fatal(err)
	}
	a, _ = r.Read("a.txt")
	huge := string(bytes.Repeat([]byte("y"), workspacefs.MaxFileBytes+1))
	if err := writeAll(ctx, r, []plannedFile{{rel: "a.txt", before: a.Text, after: huge, version: a.Version}}); err == nil {
		t.Fatal("an oversized write was not refused")
	}
	want := []string{"writing a.txt/b.txt", "applied a.txt/b.txt", "writing a.txt", "failed a.txt"}
	if !slices.Equal(heard.events, want) {
		t.Errorf("heard %q, want %q", heard.events, want)
	}
	// Without a watch, a write goes on as before.
	if err := writeAll(context.Background(), r, []plannedFile{{rel: "b.txt", before: "B\n", after: "b\n", version: workspacefs.ContentVersion("B\n")}}); err != nil {
		t.Fatal(err)
	}
}
