package localstdio

import (
	"errors"
	"golang.org/x/sys/unix"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

func codeOf(err error) lspseam.Code {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) {
		return lerr.Code
	}
	return ""
}

// workspaceFixture makes a workspace with a few files and an outside
// directory next to it.
func workspaceFixture(t *testing.T) (ws Workspace, outside string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root, filepath.Join(root, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(root, "src", "a.go"):  "package a\n\nvar 🚀 = 1\n",
		filepath.Join(outside, "secret.go"): "package secret\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := CanonicalWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return ws, outside
}

func TestReadSourceAccepts(t *testing.T) {
	ws, _ := workspaceFixture(t)
	for _, path := range []string{"src/a.go", "./src/a.go", "src/../src/a.go", filepath.Join(ws.Path, "src/a.go")} {
		src, err := ReadSource(ws, path, 1000)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if src.Path != filepath.Join(ws.Path, "src/a.go") || !strings.Contains(src.Text, "🚀") || src.URI != FileURI(src.Path) {
			t.Errorf("%s: %+v", path, src)
		}
	}
	// A symlink inside the workspace to a file inside it is fine, and reads
	// the target.
	if err := os.Symlink("src/a.go", filepath.Join(ws.Path, "link.go")); err != nil {
		t.Fatal(err)
	}
	src, err := ReadSource(ws, "link.go", 1000)
	if err != nil || src.Path != filepath.Join(ws.Path, "src/a.go") {
		t.Fatalf("symlink inside: %+v, %v", src, err)
	}
}

func TestReadSourceRejects(t *testing.T) {
	ws, outside := workspaceFixture(t)
	mustSymlink := func(target, link string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(ws.Path, link)); err != nil {
			t.Fatal(err)
		}
	}
	mustSymlink(filepath.Join(outside, "secret.go"), "escape.go")
	mustSymlink(outside, "outdir")
	if err := os.WriteFile(filepath.Join(ws.Path, "latin1.go"), []byte("package a // caf\xe9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Path, "big.go"), []byte(strings.Repeat("x", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws.Path, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mknod(filepath.Join(ws.Path, "null.go"), syscall.S_IFCHR|0o666, int(unixMkdev(1, 3))); err != nil {
		t.Logf("mknod (needs root): %v; using /dev/null through a bind is not possible, device case checked on the FIFO path only", err)
	}
	cases := []struct {
		path, why string
	}{
		{"missing.go", "is missing"},
		{"src/missing.go", "is missing"},
		{"../outside/secret.go", "outside the workspace"},
		{"src/../../outside/secret.go", "outside the workspace"},
		{filepath.Join(outside, "secret.go"), "outside the workspace"},
		{"escape.go", "outside the workspace"},
		{"outdir/secret.go", "outside the workspace"},
		{"src", "not a regular file (it is a directory)"},
		{"pipe.go", "not a regular file (it is a FIFO)"},
		{"latin1.go", "not UTF-8"},
		{"big.go", "too large"},
		{"", "not a usable path"},
	}
	if _, err := os.Stat(filepath.Join(ws.Path, "null.go")); err == nil {
		cases = append(cases, struct{ path, why string }{"null.go", "not a regular file (it is a device)"})
	}
	for _, c := range cases {
		// A rejection must not block (a FIFO without a writer would block
		// a plain open forever): the watchdog only turns a hang into a
		// failure, it measures nothing.
		result := make(chan error, 1)
		go func() {
			_, err := ReadSource(ws, c.path, 1000)
			result <- err
		}()
		var err error
		select {
		case err = <-result:
		case <-time.After(30 * time.Second):
			t.Fatalf("%q: ReadSource blocked", c.path)
		}
		if codeOf(err) != lspseam.CodeSourceRejected || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: got %v, want LSP_SOURCE_REJECTED saying %q", c.path, err, c.why)
		}
	}
}

func unixMkdev(major, minor uint32) uint64 {
	return uint64(major)<<8 | uint64(minor)
}

func TestCanonicalWorkspace(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "alias")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	os.WriteFile(file, []byte("x"), 0o644)

	a, err := CanonicalWorkspace(filepath.Join(base, "alias"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := CanonicalWorkspace(real + "/")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("symlink alias and real path differ: %+v vs %+v", a, b)
	}
	if !strings.HasPrefix(a.URI, "file:///") {
		t.Errorf("URI %q", a.URI)
	}
	for root, code := range map[string]lspseam.Code{
		"":                        lspseam.CodeWorkspaceRequired,
		file:                      lspseam.CodeWorkspaceInvalid,
		filepath.Join(base, "no"): lspseam.CodeWorkspaceInvalid,
	} {
		if _, err := CanonicalWorkspace(root); codeOf(err) != code {
			t.Errorf("%q: %v, want %s", root, err, code)
		}
	}
}

func TestFileURI(t *testing.T) {
	for path, want := range map[string]string{
		"/a/b.go":        "file:///a/b.go",
		"/my proj/é.ts":  "file:///my%20proj/%C3%A9.ts",
		"/a#b?c%d":       "file:///a%23b%3Fc%25d",
		"/":              "file:///",
		"/x/~user-._1.c": "file:///x/~user-._1.c",
	} {
		if got := FileURI(path); got != want {
			t.Errorf("FileURI(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestResolveExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "srv")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "noexec"), []byte("x"), 0o644)
	env := []string{"PATH=relative:" + dir}
	if p, problem := ResolveExecutable("srv", env); p != exe || problem != "" {
		t.Errorf("srv: %q %q", p, problem)
	}
	if p, problem := ResolveExecutable(exe, nil); p != exe || problem != "" {
		t.Errorf("absolute: %q %q", p, problem)
	}
	for _, cmd := range []string{"noexec", "missing", filepath.Join(dir, "noexec"), dir} {
		if _, problem := ResolveExecutable(cmd, env); problem == "" {
			t.Errorf("%s resolved", cmd)
		}
	}
}

// TestReadSourceSwapRace: a directory inside the workspace and a symlink to
// a directory outside are swapped atomically (renameat2 RENAME_EXCHANGE),
// over and over, while the same source path is read. A read must give the
// inside file or a rejection, never the outside file's bytes.
func TestReadSourceSwapRace(t *testing.T) {
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
		src, err := ReadSource(w, "d/x.go", 1<<20)
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

// TestReadSourceClipsEchoedPath: a huge file_path is not echoed back whole.
func TestReadSourceClipsEchoedPath(t *testing.T) {
	w, err := CanonicalWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{strings.Repeat("a/", 2<<20) + "x.go", "/" + strings.Repeat("é", 1<<20)} {
		_, err := ReadSource(w, p, 1<<20)
		if err == nil {
			t.Fatal("a missing file was read")
		}
		if msg := err.Error(); len(msg) > 1000 || !strings.Contains(msg, "bytes)") {
			t.Fatalf("error of %d bytes for a %d-byte path: %.300s", len(msg), len(p), msg)
		}
	}
}
