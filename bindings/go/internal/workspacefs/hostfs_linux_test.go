package workspacefs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadSourceSwapRace: a directory inside the workspace and a symlink to
// a directory outside are swapped atomically (renameat2 RENAME_EXCHANGE),
// over and over, while the same source path is read. A read must give the
// inside file or a rejection, never the outside file's bytes: through
// openat2 and through os.Root (the route of the other platforms).
func TestReadSourceSwapRace(t *testing.T) {
	for name, route := range sourceRoutes() {
		t.Run(name, func(t *testing.T) { testReadSourceSwapRace(t, route) })
	}
}

func testReadSourceSwapRace(t *testing.T, route sourceRoute) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "d"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(ws, "d", "x.go"), []byte("package inside\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "x.go"), []byte("package SECRET\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(ws, "e")); err != nil {
		t.Fatal(err)
	}
	w, err := CanonicalWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, filepath.Join(ws, "d"), unix.AT_FDCWD, filepath.Join(ws, "e"), unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
		}
	}()
	read, rejectedN := 0, 0
	for range 3000 {
		src, err := readSource(route, w, "d/x.go", 1<<20)
		if err != nil {
			rejectedN++
			continue
		}
		read++
		if strings.Contains(src.Text, "SECRET") {
			close(stop)
			<-done
			t.Fatalf("read the file outside the workspace through a swapped directory (as %s)", src.Path)
		}
	}
	close(stop)
	<-done
	t.Logf("%d reads of the inside file, %d rejections", read, rejectedN)
	if read == 0 {
		t.Fatal("no read succeeded: the test did not exercise the race")
	}
}
