package toolbox

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// What a write does not mean to change stays: owner, group, setuid,
// setgid and sticky bits, extended attributes — through the fs tools and
// a refactor's set alike — and a read-only file is refused.

func TestWritesRefuseReadOnlyAndOversizedFiles(t *testing.T) {
	tb, ws := newFSToolbox(t)
	file := filepath.Join(ws, "ro.txt")
	writeFile(t, file, "fixed\n")
	os.Chmod(file, 0o444)
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "ro.txt"})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"file_path": "ro.txt", "old_string": "fixed", "new_string": "changed"}},
		{"write", map[string]any{"file_path": "ro.txt", "content": "changed\n"}},
	} {
		res, s := fsCall(t, tb, ws, c.tool, c.args)
		if fsCode(s) != "FS_REJECTED" || !bytes.Contains([]byte(res.Text), []byte("read-only")) {
			t.Errorf("%s of a 0444 file: %s", c.tool, res.Text)
		}
	}
	if got := readFile(t, file); got != "fixed\n" {
		t.Errorf("the read-only file changed: %q", got)
	}

	// A change that would take a file past what the fs tools read.
	r := openTestRoot(t, ws)
	writeFile(t, filepath.Join(ws, "big.txt"), "x\n")
	f, _ := r.Read("big.txt")
	huge := string(bytes.Repeat([]byte("y"), workspacefs.MaxFileBytes+1))
	err := writeAll(context.Background(), r, []plannedFile{{rel: "big.txt", before: f.Text, after: huge, version: f.Version}})
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeFSRejected || readFile(t, filepath.Join(ws, "big.txt")) != "x\n" {
		t.Errorf("an oversized change: %v", err)
	}
}
