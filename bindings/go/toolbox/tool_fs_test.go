package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/writeset"
)

// The fs tools without a language server (no provider: the answers say
// no server checks the file): the observation policy, atomic writes and
// the path rules. With servers, e2e covers the diagnostics.

func newFSToolbox(t *testing.T) (*Toolbox, string) {
	t.Helper()
	c := newTestCore(t)
	tb, err := NewToolbox(context.Background(), c, lspseam.NewService(c), "fs")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	return tb, ws
}

func fsCall(t *testing.T, tb *Toolbox, ws, tool string, args map[string]any) (ToolResult, map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := tb.Call(context.Background(), tool, raw, ws)
	var s map[string]any
	if err := json.Unmarshal(res.Structured, &s); err != nil {
		t.Fatalf("%s: structured answer: %v: %s", tool, err, res.Structured)
	}
	return res, s
}

func fsCode(s map[string]any) string {
	e, _ := s["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFSObservationPolicy(t *testing.T) {
	tb, ws := newFSToolbox(t)
	file := filepath.Join(ws, "a.txt")
	writeFile(t, file, "one\ntwo\n")

	// Never observed: refused, untouched.
	res, s := fsCall(t, tb, ws, "write", map[string]any{"file_path": "a.txt", "content": "x"})
	if fsCode(s) != "FS_NOT_OBSERVED" || !strings.Contains(res.Text, "read it first") {
		t.Fatalf("write unread: %s", res.Text)
	}
	res, s = fsCall(t, tb, ws, "edit", map[string]any{"file_path": "a.txt", "old_string": "one", "new_string": "1"})
	if fsCode(s) != "FS_NOT_OBSERVED" || readFile(t, file) != "one\ntwo\n" {
		t.Fatalf("edit unread: %s", res.Text)
	}

	// A window counts as an observation.
	res, s = fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt", "offset": 2, "limit": 1})
	if res.IsError || s["totalLines"] != float64(2) || !strings.Contains(res.Text, "two") || strings.Contains(res.Text, "one") {
		t.Fatalf("read window: %s %s", res.Text, res.Structured)
	}
	res, s = fsCall(t, tb, ws, "edit", map[string]any{"file_path": "a.txt", "old_string": "one", "new_string": "1"})
	if res.IsError || readFile(t, file) != "1\ntwo\n" || s["replacements"] != float64(1) {
		t.Fatalf("edit after read: %s", res.Text)
	}
	if !strings.Contains(res.Text, "no language server checks") && !strings.Contains(strings.ToLower(res.Text), "not covered") && !strings.Contains(res.Text, "uncovered") {
		t.Logf("answer without a server: %s", res.Text)
	}

	// Its own edit counts too: a second edit needs no new read.
	if res, _ = fsCall(t, tb, ws, "edit", map[string]any{"file_path": "a.txt", "old_string": "two", "new_string": "2"}); res.IsError {
		t.Fatalf("edit after own edit: %s", res.Text)
	}

	// Another process changes the file: stale, untouched.
	writeFile(t, file, "changed elsewhere\n")
	res, s = fsCall(t, tb, ws, "edit", map[string]any{"file_path": "a.txt", "old_string": "changed", "new_string": "x"})
	if fsCode(s) != "FS_STALE" || readFile(t, file) != "changed elsewhere\n" {
		t.Fatalf("stale edit: %s", res.Text)
	}
	res, s = fsCall(t, tb, ws, "write", map[string]any{"file_path": "a.txt", "content": "x"})
	if fsCode(s) != "FS_STALE" || readFile(t, file) != "changed elsewhere\n" {
		t.Fatalf("stale write: %s", res.Text)
	}

	// Two sessions keep separate observations.
	other, _ := newFSToolbox(t)
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt"})
	if _, s = fsCall(t, other, ws, "write", map[string]any{"file_path": "a.txt", "content": "y"}); fsCode(s) != "FS_NOT_OBSERVED" {
		t.Fatalf("the other session: %v", s)
	}
	if res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "a.txt", "content": "z\n"}); res.IsError || readFile(t, file) != "z\n" {
		t.Fatalf("the reading session: %s", res.Text)
	}

	// Creating needs no observation, and keeps directories made.
	res, s = fsCall(t, other, ws, "write", map[string]any{"file_path": "new/dir/b.txt", "content": "b\n"})
	if res.IsError || s["operation"] != "create" || readFile(t, filepath.Join(ws, "new/dir/b.txt")) != "b\n" {
		t.Fatalf("create: %s", res.Text)
	}
}

func TestFSWriteKeepsModeAndIsAtomic(t *testing.T) {
	tb, ws := newFSToolbox(t)
	file := filepath.Join(ws, "run.sh")
	writeFile(t, file, "#!/bin/sh\n")
	os.Chmod(file, 0o750)
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "run.sh"})
	if res, _ := fsCall(t, tb, ws, "write", map[string]any{"file_path": "run.sh", "content": "#!/bin/sh\necho hi\n"}); res.IsError {
		t.Fatal(res.Text)
	}
	info, _ := os.Stat(file)
	if info.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750", info.Mode().Perm())
	}
	// A failure at the rename leaves the old file and no temporary.
	failStep(t, 0, os.ErrDeadlineExceeded)
	res, s := fsCall(t, tb, ws, "write", map[string]any{"file_path": "run.sh", "content": "broken"})
	if fsCode(s) != "FS_REJECTED" || readFile(t, file) != "#!/bin/sh\necho hi\n" {
		t.Fatalf("failed write: %s", res.Text)
	}
	entries, _ := os.ReadDir(ws)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestFSCrashBeforeRenameKeepsTheOldFile kills a process between writing
// the temporary file and renaming it: the old file is intact, and the
// next call removes the temporary and says so.
func TestFSCrashBeforeRenameKeepsTheOldFile(t *testing.T) {
	if ws := os.Getenv("LSPSEAM_FS_CRASH_WS"); ws != "" {
		tb, _ := newFSToolbox(t)
		fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt"})
		writeset.Hook = func(step string, _ int) error {
			if step == "rename" {
				killSelf()
				select {}
			}
			return nil
		}
		fsCall(t, tb, ws, "write", map[string]any{"file_path": "a.txt", "content": "new content"})
		t.Fatal("the write returned: the crash did not happen")
	}
	ws := t.TempDir()
	file := filepath.Join(ws, "a.txt")
	writeFile(t, file, "old content\n")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFSCrashBeforeRenameKeepsTheOldFile$")
	cmd.Env = append(os.Environ(), "LSPSEAM_FS_CRASH_WS="+ws)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the helper was not killed: %v", err)
	}
	if got := readFile(t, file); got != "old content\n" {
		t.Fatalf("after a crash before the rename the file is %q", got)
	}
	if entries, _ := os.ReadDir(ws); len(entries) < 2 {
		t.Fatalf("the crash left no temporary to clean up (%v): the test no longer tests recovery", entries)
	}
	// The next call in the workspace finishes the set (it was committed:
	// the new content was in place but for its rename) and says so.
	tb, _ := newFSToolbox(t)
	res, s := fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt"})
	if res.IsError || !strings.HasPrefix(res.Text, "Recovered: ") || s["recovered"] == nil {
		t.Fatalf("the next call did not report the recovery: %s", res.Text)
	}
	if got := readFile(t, file); got != "new content" {
		t.Errorf("after recovery a.txt is %q, want the committed new content", got)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 1 {
		t.Errorf("left behind after recovery: %v", entries)
	}
}

func TestFSPathRules(t *testing.T) {
	tb, ws := newFSToolbox(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret\n")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "link-out.txt"))
	os.Symlink(outside, filepath.Join(ws, "dir-out"))
	os.Mkdir(filepath.Join(ws, "sub"), 0o755)
	writeFile(t, filepath.Join(ws, "bin.dat"), "\xff\xfe\x00")
	os.Symlink("/dev/null", filepath.Join(ws, "devnull"))
	refused := []string{"link-out.txt", "dir-out/secret.txt", "../" + filepath.Base(outside) + "/secret.txt", filepath.Join(outside, "secret.txt"), "sub", "bin.dat", "devnull"}
	if mkfifo(filepath.Join(ws, "fifo")) == nil { // not on Windows
		refused = append(refused, "fifo")
	}
	for _, path := range refused {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"file_path": path}},
			{"write", map[string]any{"file_path": path, "content": "pwned"}},
			{"edit", map[string]any{"file_path": path, "old_string": "secret", "new_string": "pwned"}},
		} {
			res, s := fsCall(t, tb, ws, c.tool, c.args)
			if code := fsCode(s); code != "FS_REJECTED" && code != "FS_NOT_OBSERVED" {
				t.Errorf("%s %s: want FS_REJECTED, got %s", c.tool, path, res.Text)
			}
		}
	}
	if got := readFile(t, filepath.Join(outside, "secret.txt")); got != "secret\n" {
		t.Fatalf("a file outside the workspace was changed: %q", got)
	}
	// A path ending with a separator names a directory: not the file
	// without it (read of "plain.txt/" read plain.txt), and no file is
	// created for it.
	writeFile(t, filepath.Join(ws, "plain.txt"), "plain\n")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"file_path": "plain.txt/"}},
		{"write", map[string]any{"file_path": "fresh/", "content": "x"}},
	} {
		if res, s := fsCall(t, tb, ws, c.tool, c.args); fsCode(s) != "FS_REJECTED" || !strings.Contains(res.Text, "names a directory") {
			t.Errorf("%s %v: want FS_REJECTED naming a directory, got %s", c.tool, c.args["file_path"], res.Text)
		}
	}
	if _, err := os.Lstat(filepath.Join(ws, "fresh")); err == nil {
		t.Errorf(`write of "fresh/" created a file named fresh`)
	}
}

// TestFSEditsThroughAnInsideLink: write and edit of a link to a file
// inside the workspace change the file, and the link stays; reading
// either name observes the one file.
func TestFSEditsThroughAnInsideLink(t *testing.T) {
	tb, ws := newFSToolbox(t)
	writeFile(t, filepath.Join(ws, "a.txt"), "one\n")
	if err := os.Symlink("a.txt", filepath.Join(ws, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "a.txt"})
	if res, _ := fsCall(t, tb, ws, "edit", map[string]any{"file_path": "alias.txt", "old_string": "one", "new_string": "two"}); res.IsError {
		t.Fatal(res.Text)
	}
	if res, _ := fsCall(t, tb, ws, "write", map[string]any{"file_path": "alias.txt", "content": "three\n"}); res.IsError {
		t.Fatal(res.Text)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "three\n" {
		t.Errorf("a.txt = %q", got)
	}
	if info, err := os.Lstat(filepath.Join(ws, "alias.txt")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("alias.txt is no longer a link: %v %v", info, err)
	}
}

// A Windows host refuses to create a file whose name Windows reserves (it
// would be a device, or another file); other hosts create it. The route
// runs here by naming it.
func TestReservedElement(t *testing.T) {
	tests := []struct {
		goos, rel, want string
	}{
		{"windows", "src/a.go", ""},
		{"windows", "src/nul.go", "nul.go"},
		{"windows", "CON/a.go", "CON"},
		{"windows", "logs/x.", "x."},
		{"windows", "com1", "com1"},
		{"windows", "com10", ""},
		{"linux", "src/nul.go", ""},
		{"darwin", "CON/a.go", ""},
	}
	for _, tt := range tests {
		if got := workspacefs.ReservedElement(core.PathRulesFor(tt.goos), tt.rel); got != tt.want {
			t.Errorf("%s ReservedElement(%q) = %q, want %q", tt.goos, tt.rel, got, tt.want)
		}
	}
}

// A path outside the workspace is refused in either separator: on Windows
// filepath.Rel answers ..\x.
func TestEscapes(t *testing.T) {
	for rel, want := range map[string]bool{
		"..": true, "../x": true, "a": false, "..x": false, "...": false,
	} {
		if got := workspacefs.Escapes(rel); got != want {
			t.Errorf("escapes(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestFSDeletedSinceRead: a file this session read and that another agent
// then deleted (or moved) is not recreated from the stale read: the first
// write (or edit) is FS_STALE saying so, nothing is written, and a write
// after that creates it as asked. Another file, never seen, is created at
// once; a file seen absent is not refused.
func TestFSDeletedSinceRead(t *testing.T) {
	tb, ws := newFSToolbox(t)
	file := filepath.Join(ws, "gone.txt")
	writeFile(t, file, "one\n")
	if res, _ := fsCall(t, tb, ws, "read", map[string]any{"file_path": "gone.txt"}); res.IsError {
		t.Fatal(res.Text)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	res, s := fsCall(t, tb, ws, "edit", map[string]any{"file_path": "gone.txt", "old_string": "one", "new_string": "1"})
	if fsCode(s) != "FS_STALE" || !strings.Contains(res.Text, "deleted or moved since this session last read") {
		t.Fatalf("edit of a file deleted since it was read: %s", res.Text)
	}
	res, s = fsCall(t, tb, ws, "write", map[string]any{"file_path": "gone.txt", "content": "two\n"})
	if res.IsError || s["operation"] != "create" || readFile(t, file) != "two\n" {
		t.Fatalf("write after the refusal: %s", res.Text)
	}
	// Seen once more and deleted again: the write is refused once.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	res, s = fsCall(t, tb, ws, "write", map[string]any{"file_path": "gone.txt", "content": "three\n"})
	if fsCode(s) != "FS_STALE" {
		t.Fatalf("write of a file deleted since this session wrote it: %s", res.Text)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("a refused write created the file")
	}
	if res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "other.txt", "content": "x\n"}); res.IsError {
		t.Fatalf("a new file: %s", res.Text)
	}
	if res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "other2.txt", "content": "y\n"}); res.IsError {
		t.Fatalf("a second new file: %s", res.Text)
	}
}

// write keeps the byte order mark and CRLF line breaks of a file whose new
// content has neither (a model writes \n and never sees the mark), and
// says so; content with its own breaks is written as given, and the
// answer says the file's breaks changed (core/writeform.go). Before, a
// CRLF file with a mark came back LF without it, answered only "Replaced
// the content (55 bytes)".
func TestFSWriteKeepsTheFileForm(t *testing.T) {
	tb, ws := newFSToolbox(t)
	both := filepath.Join(ws, "both.txt")
	writeFile(t, both, "\uFEFFpackage enc\r\n\r\nfunc Both(a int) int {\r\n\treturn a\r\n}\r\n")
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "both.txt"})
	content := "package enc\n\nfunc BothRenamed(a int) int {\n\treturn a\n}\n"
	res, s := fsCall(t, tb, ws, "write", map[string]any{"file_path": "both.txt", "content": content})
	want := "\uFEFF" + strings.ReplaceAll(content, "\n", "\r\n")
	if got := readFile(t, both); got != want {
		t.Fatalf("write over a CRLF file with a mark wrote %q, want %q (answer: %s)", got, want, res.Text)
	}
	for _, phrase := range []string{"(" + strconv.Itoa(len(want)) + " bytes)", "keeping its CRLF line breaks", "and its byte order mark"} {
		if !strings.Contains(res.Text, phrase) {
			t.Errorf("write's answer does not say %q: %s", phrase, res.Text)
		}
	}
	if s["lineEnding"] != "crlf" || s["bom"] != true {
		t.Errorf("structured answer: lineEnding %v, bom %v, want crlf, true", s["lineEnding"], s["bom"])
	}
	// The session observed what was written: an edit goes on from it.
	res, s = fsCall(t, tb, ws, "edit", map[string]any{"file_path": "both.txt", "old_string": "return a\n", "new_string": "return a + 1\n"})
	if fsCode(s) != "" || readFile(t, both) != strings.Replace(want, "return a\r\n", "return a + 1\r\n", 1) {
		t.Fatalf("edit after write: %s: %q", res.Text, readFile(t, both))
	}

	// The content's own CRLF breaks over an LF file: as given, and said.
	lf := filepath.Join(ws, "lf.txt")
	writeFile(t, lf, "one\ntwo\n")
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "lf.txt"})
	res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "lf.txt", "content": "1\r\n2\r\n"})
	if readFile(t, lf) != "1\r\n2\r\n" || !strings.Contains(res.Text, "Its line breaks changed from LF to CRLF as the content has them.") {
		t.Fatalf("CRLF content over an LF file: %q: %s", readFile(t, lf), res.Text)
	}

	// A mixed file is written as given, and the answer names the change.
	mixed := filepath.Join(ws, "mixed.txt")
	writeFile(t, mixed, "a\r\nb\r\nc\n")
	fsCall(t, tb, ws, "read", map[string]any{"file_path": "mixed.txt"})
	res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "mixed.txt", "content": "x\ny\n"})
	if readFile(t, mixed) != "x\ny\n" || !strings.Contains(res.Text, "changed from mixed (2 CRLF, 1 LF) to LF") {
		t.Fatalf("LF content over a mixed file: %q: %s", readFile(t, mixed), res.Text)
	}

	// A new file is written as given, with nothing to say about its form.
	res, _ = fsCall(t, tb, ws, "write", map[string]any{"file_path": "new.txt", "content": "n\r\n"})
	if readFile(t, filepath.Join(ws, "new.txt")) != "n\r\n" || strings.Contains(res.Text, "keeping") || strings.Contains(res.Text, "changed") {
		t.Fatalf("new file: %s", res.Text)
	}
}
