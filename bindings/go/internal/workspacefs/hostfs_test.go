package workspacefs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
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

// sourceRoutes are the routes ReadSource can take on this platform, each
// tested alike: openat2 (Linux) and os.Root (everywhere).
func sourceRoutes() map[string]sourceRoute {
	routes := map[string]sourceRoute{"os.Root": openSourceRoot}
	if sourceOpener != nil {
		routes["platform"] = sourceOpener
	}
	return routes
}

func TestReadSourceAccepts(t *testing.T) {
	for name, route := range sourceRoutes() {
		t.Run(name, func(t *testing.T) { testReadSourceAccepts(t, route) })
	}
}

func testReadSourceAccepts(t *testing.T, route sourceRoute) {
	ws, _ := workspaceFixture(t)
	for _, path := range []string{"src/a.go", "./src/a.go", "src/../src/a.go", filepath.Join(ws.Path, "src/a.go")} {
		src, err := readSource(route, ws, path, 1000)
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
	src, err := readSource(route, ws, "link.go", 1000)
	if err != nil || src.Path != filepath.Join(ws.Path, "src/a.go") {
		t.Fatalf("symlink inside: %+v, %v", src, err)
	}
}

func TestReadSourceRejects(t *testing.T) {
	for name, route := range sourceRoutes() {
		t.Run(name, func(t *testing.T) { testReadSourceRejects(t, route) })
	}
}

func testReadSourceRejects(t *testing.T, route sourceRoute) {
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
		{"latin1.go", "not UTF-8"},
		{"big.go", "too large"},
		{"", "not a usable path"},
	}
	for path, why := range specialFiles(t, ws.Path) {
		cases = append(cases, struct{ path, why string }{path, why})
	}
	for _, c := range cases {
		// A rejection must not block (a FIFO without a writer would block
		// a plain open forever): the watchdog only turns a hang into a
		// failure, it measures nothing.
		result := make(chan error, 1)
		go func() {
			_, err := readSource(route, ws, c.path, 1000)
			result <- err
		}()
		var err error
		select {
		case err = <-result:
		case <-time.After(testenv.StepBudget(t)):
			t.Fatalf("%q: ReadSource blocked", c.path)
		}
		if codeOf(err) != lspseam.CodeSourceRejected || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%q: got %v, want LSP_SOURCE_REJECTED saying %q", c.path, err, c.why)
		}
	}
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

// readAllSized reads everything whatever the size the file had when it
// was opened: unchanged, grown since (the buffer grows), shrunk, empty.
func TestReadAllSized(t *testing.T) {
	text := strings.Repeat("0123456789", 1000)
	for _, size := range []int64{int64(len(text)), 0, 1, 10, int64(len(text)) - 1, int64(len(text)) * 3, -1} {
		got, err := readAllSized(iotest.HalfReader(strings.NewReader(text)), size)
		if err != nil || string(got) != text {
			t.Errorf("size %d: read %d bytes (%v), want %d", size, len(got), err, len(text))
		}
	}
	if got, err := readAllSized(strings.NewReader(""), 0); err != nil || len(got) != 0 {
		t.Errorf("empty: %q, %v", got, err)
	}
	if _, err := readAllSized(iotest.ErrReader(io.ErrUnexpectedEOF), 10); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing read: %v, want its error", err)
	}
}
