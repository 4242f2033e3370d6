package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/writeset"
)

// TestDoctorFinishesAKilledChange: a process killed in the middle of a
// two-file change leaves it half made; `lspseam doctor` finishes it and
// says so, and a second run finds nothing.
func TestDoctorFinishesAKilledChange(t *testing.T) {
	if ws := os.Getenv("LSPSEAM_DOCTOR_WS"); ws != "" {
		killedMidChange(t, ws)
		return
	}
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	for _, name := range []string{"a.txt", "b.txt"} {
		os.WriteFile(filepath.Join(ws, name), []byte("old "+name), 0o644)
	}
	t.Setenv("LSPSEAM_STATE_DIR", t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run=^TestDoctorFinishesAKilledChange$")
	cmd.Env = append(os.Environ(), "LSPSEAM_DOCTOR_WS="+ws)
	if err := cmd.Run(); err == nil {
		t.Fatal("the writer was not killed")
	}
	if a, b := readFileString(t, filepath.Join(ws, "a.txt")), readFileString(t, filepath.Join(ws, "b.txt")); a != "new a.txt" || b != "old b.txt" {
		t.Fatalf("the crash did not leave the change half made (a %q, b %q): the test tests nothing", a, b)
	}
	var out, errOut strings.Builder
	if code := run([]string{"doctor", "--workspace", ws}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("doctor exited %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "rolled forward") || !strings.Contains(out.String(), "a.txt, b.txt") {
		t.Errorf("doctor said:\n%s", out.String())
	}
	if a, b := readFileString(t, filepath.Join(ws, "a.txt")), readFileString(t, filepath.Join(ws, "b.txt")); a != "new a.txt" || b != "new b.txt" {
		t.Errorf("after doctor: a %q, b %q", a, b)
	}
	if entries, _ := os.ReadDir(ws); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
	out.Reset()
	t.Chdir(ws) // doctor's census is of the current directory: no source files, nothing to serve
	if code := run([]string{"doctor"}, nil, &out, &errOut); code != exitOK || !strings.Contains(out.String(), "no unfinished change") {
		t.Errorf("a second doctor (%d): %s", code, out.String())
	}
}

// killedMidChange starts a change of a.txt and b.txt in ws and kills its
// own process after a.txt is replaced.
func killedMidChange(t *testing.T, ws string) {
	store, err := writeset.Open(writeset.DefaultDir())
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	var changes []writeset.Change
	for _, name := range []string{"a.txt", "b.txt"} {
		changes = append(changes, writeset.Change{Path: name, Before: writeset.HashString("old " + name), After: writeset.HashString("new " + name)})
	}
	tx, err := store.Begin(ws, root, changes)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a.txt", "b.txt"} {
		os.WriteFile(filepath.Join(ws, tx.Temp(i)), []byte("new "+name), 0o644)
	}
	writeset.Hook = func(step string, i int) error {
		if step == "rename" && i == 1 {
			killSelf()
			select {}
		}
		return nil
	}
	tx.Apply()
}
