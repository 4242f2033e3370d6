//go:build unix

package workspacefs

import (
	"path/filepath"
	"syscall"
	"testing"
)

// specialFiles makes files in dir that are not regular — a FIFO (whose
// plain open would block without a writer) and, where the test may,
// a character device — and returns each name with the rejection it must
// get.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	files["pipe.go"] = "not a regular file (it is a FIFO)"
	if err := syscall.Mknod(filepath.Join(dir, "null.go"), syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Logf("mknod (needs root): %v; the device case is not checked", err)
	} else {
		files["null.go"] = "not a regular file (it is a device)"
	}
	return files
}
