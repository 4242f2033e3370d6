//go:build unix

package toolbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// needRoot: giving a file another owner takes root. CI runs as root; a
// developer's run without it says what it did not check.
func needRoot(t *testing.T) {
	if os.Getuid() == 0 {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("this test needs root (it gives files another owner), and CI runs as root")
	}
	t.Skip("needs root to give files another owner")
}

// oddFile makes a file owned by nobody:nogroup (65534), mode 2755 (setgid)
// with an extended attribute.
func oddFile(t *testing.T, path, text string) {
	t.Helper()
	writeFile(t, path, text)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(path, "user.lspseam-test", []byte("kept"), 0); err != nil {
		t.Fatalf("the test's file system has no user extended attributes: %v", err)
	}
}

func checkOddFile(t *testing.T, path, want string) {
	t.Helper()
	if got := readFile(t, path); got != want {
		t.Fatalf("%s = %q, want %q", path, got, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("owner %d:%d, want 65534:65534", st.Uid, st.Gid)
	}
	if info.Mode()&workspacefs.KeptModeBits != 0o755|os.ModeSetgid {
		t.Errorf("mode %v, want setgid 0755", info.Mode())
	}
	buf := make([]byte, 64)
	n, err := unix.Getxattr(path, "user.lspseam-test", buf)
	if err != nil || !bytes.Equal(buf[:n], []byte("kept")) {
		t.Errorf("extended attribute: %q, %v", buf[:max(n, 0)], err)
	}
}

func TestWritesKeepOwnerModeAndXattrs(t *testing.T) {
	needRoot(t)
	tb, ws := newFSToolbox(t)
	file := filepath.Join(ws, "a.txt")
	oddFile(t, file, "one\n")
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt"})
	if res, _ := fsCall(t, tb, ws, "edit", map[string]any{"file_path": "a.txt", "old_string": "one", "new_string": "two"}); res.IsError {
		t.Fatal(res.Text)
	}
	checkOddFile(t, file, "two\n")
	if res, _ := fsCall(t, tb, ws, "write", map[string]any{"file_path": "a.txt", "content": "three\n"}); res.IsError {
		t.Fatal(res.Text)
	}
	checkOddFile(t, file, "three\n")

	// A refactor's set: the applier's path.
	r := openTestRoot(t, ws)
	f, err := r.Read("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := writeAll(context.Background(), r, []plannedFile{{rel: "a.txt", before: f.Text, after: "four\n", version: f.Version}}); err != nil {
		t.Fatal(err)
	}
	checkOddFile(t, file, "four\n")
}
