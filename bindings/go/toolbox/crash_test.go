package toolbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/internal/writeset"
)

// A 60-file change killed with SIGKILL — at every step of its protocol,
// and at random moments — is all old or all new after the next call, byte
// for byte, with no temporary left, and that call says what it did.
//
// The change: 40 files edited, 10 created, 10 deleted (the shape of a
// rename with moved files). The writer is this test binary run again
// (TestCrashWriter), killed by its own hook or by the test.

const crashFiles = 60

// crashState is the workspace in state "A" (old) or "B" (new): name →
// content.
func crashState(which string) map[string]string {
	files := map[string]string{}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("pkg%d/f%02d.go", i%4, i)] = fmt.Sprintf("package p\n\n// %s %d\nfunc F%02d() {}\n", which, i, i)
	}
	for i := 40; i < 50; i++ {
		name := fmt.Sprintf("d%02d.go", i) // A's
		if which == "B" {
			name = fmt.Sprintf("moved/c%02d.go", i)
		}
		files[name] = fmt.Sprintf("package p // %d\n", i)
	}
	return files
}

func writeCrashState(t *testing.T, ws, which string) {
	for name, text := range crashState(which) {
		p := filepath.Join(ws, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The one-file change: pkg0/f00.go flipped between its A and B contents,
// the rest of the workspace at A (LSPSEAM_CRASH_ONE). A set of one change
// is made without the journal's ordering syncs and old-content link
// (internal/writeset, journal.go), so it has its own kill test.
const crashOneFile = "pkg0/f00.go"

func oneFileState(which string) map[string]string {
	files := crashState("A")
	files[crashOneFile] = crashState(which)[crashOneFile]
	return files
}

// workspaceState names the state the workspace is in ("A", "B"), or
// describes how it is neither.
func workspaceState(t *testing.T, ws string) string {
	return workspaceStateOf(t, ws, crashState)
}

// workspaceStateOf is workspaceState with the states' contents given.
func workspaceStateOf(t *testing.T, ws string, crashState func(which string) map[string]string) string {
	t.Helper()
	got := map[string]string{}
	var stray []string
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(ws, p)
		data, _ := os.ReadFile(p)
		got[filepath.ToSlash(rel)] = string(data)
		if strings.Contains(d.Name(), ".lspseam-") {
			stray = append(stray, rel)
		}
		return nil
	})
	if len(stray) > 0 {
		return fmt.Sprintf("temporaries left: %v", stray)
	}
	for _, which := range []string{"A", "B"} {
		want := crashState(which)
		same := len(got) == len(want)
		for k, v := range want {
			same = same && got[k] == v
		}
		if same {
			return which
		}
	}
	a, b := 0, 0
	for k, v := range got {
		if crashState("A")[k] == v {
			a++
		}
		if crashState("B")[k] == v {
			b++
		}
	}
	return fmt.Sprintf("a mixed set: %d files as before, %d as after, of %d", a, b, len(got))
}

// TestCrashWriter flips the workspace between A and B with one set at a
// time, LSPSEAM_CRASH_ROUNDS times (it does nothing when run on its own),
// killing itself at LSPSEAM_CRASH_STEP ("rename:7") if one is given.
func TestCrashWriter(t *testing.T) {
	ws := os.Getenv("LSPSEAM_CRASH_WS")
	if ws == "" {
		return
	}
	if step, n, ok := strings.Cut(os.Getenv("LSPSEAM_CRASH_STEP"), ":"); ok {
		at, _ := strconv.Atoi(n)
		writeset.Hook = func(s string, i int) error {
			if s == step && i == at {
				killSelf()
				select {}
			}
			return nil
		}
	}
	r, err := workspacefs.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	store, err := writeset.Open(writeset.DefaultDir())
	if err != nil {
		t.Fatal(err)
	}
	r.UseWriteSets(store, nil)
	rounds, _ := strconv.Atoi(os.Getenv("LSPSEAM_CRASH_ROUNDS"))
	one := os.Getenv("LSPSEAM_CRASH_ONE") != ""
	for round := 0; round < rounds; round++ {
		from, to := "A", "B"
		if _, err := os.Stat(filepath.Join(ws, "moved", "c40.go")); err == nil {
			from, to = "B", "A"
		}
		old, next := crashState(from), crashState(to)
		names, size := union(old, next), crashFiles
		if one {
			if text, _ := os.ReadFile(filepath.Join(ws, filepath.FromSlash(crashOneFile))); string(text) == crashState("B")[crashOneFile] {
				from, to = "B", "A"
			}
			old, next = oneFileState(from), oneFileState(to)
			names, size = map[string]bool{crashOneFile: true}, 1
		}
		var files []plannedFile
		for name := range names {
			cur, err := r.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			pf := plannedFile{rel: name, before: cur.Text, version: cur.Version, created: !cur.Exists}
			if text, ok := next[name]; ok {
				pf.after = text
			} else {
				pf.deleted = true
			}
			files = append(files, pf)
		}
		if len(files) != size {
			t.Fatalf("%d files in the set", len(files))
		}
		if err := writeAll(context.Background(), r, files); err != nil {
			t.Fatal(err)
		}
	}
}

func union(a, b map[string]string) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// runCrashWriter runs the writer and waits for it, killing it after
// killAfter (0: never); it reports whether the writer was killed.
func runCrashWriter(t *testing.T, ws, step string, rounds int, killAfter time.Duration, env ...string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashWriter$")
	cmd.Env = append(os.Environ(), "LSPSEAM_CRASH_WS="+ws, "LSPSEAM_CRASH_STEP="+step, "LSPSEAM_CRASH_ROUNDS="+strconv.Itoa(rounds))
	cmd.Env = append(cmd.Env, env...)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if killAfter > 0 {
		timer := time.AfterFunc(killAfter, func() { cmd.Process.Signal(syscall.SIGKILL) })
		defer timer.Stop()
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
		return true
	}
	if err != nil {
		t.Fatalf("the writer failed: %v\n%s", err, out)
	}
	return false
}

// recoverByNextCall is the next process's first call in the workspace:
// it answers, and says whether it recovered a change.
func recoverByNextCall(t *testing.T, ws string) bool {
	t.Helper()
	tb, _ := newFSToolbox(t)
	res, s := fsCall(t, tb, ws, "read", map[string]any{"file_path": "pkg0/f00.go"})
	if res.IsError {
		t.Fatalf("the next call: %s", res.Text)
	}
	recovered := strings.HasPrefix(res.Text, "Recovered: ")
	if recovered != (s["recovered"] != nil) {
		t.Errorf("the text and the structured answer disagree on the recovery: %s", res.Text)
	}
	return recovered
}

func noJournals(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(writeset.DefaultDir(), "journal"))
	if len(entries) > 0 {
		t.Errorf("journals left after recovery: %d", len(entries))
	}
}

func TestSetKilledAtEveryStep(t *testing.T) {
	steps := []string{"prepared:0", "committed:0"}
	for i := 0; i < crashFiles; i++ {
		steps = append(steps, "rename:"+strconv.Itoa(i))
	}
	steps = append(steps, "renamed:0", "done:0")
	for _, step := range steps {
		ws := t.TempDir()
		writeCrashState(t, ws, "A")
		if !runCrashWriter(t, ws, step, 1, 0) {
			t.Fatalf("%s: the writer was not killed", step)
		}
		// Killed after its journal went, the set is complete; before, it
		// must be recovered.
		wantRecovery := step != "done:0"
		if got := recoverByNextCall(t, ws); got != wantRecovery {
			t.Errorf("%s: the next call said it recovered: %v, want %v", step, got, wantRecovery)
		}
		want := "B" // committed: rolled forward
		if step == "prepared:0" {
			want = "A"
		}
		if got := workspaceState(t, ws); got != want {
			t.Errorf("%s: after recovery the workspace is %s, want %s", step, got, want)
		}
		noJournals(t)
	}
}

// TestOneFileKilledAtEveryStep: a one-file change killed at each step of
// its set is the old or the new file after the next call, with no
// temporary or journal left, as a set of many is.
func TestOneFileKilledAtEveryStep(t *testing.T) {
	for _, step := range []string{"prepared:0", "committed:0", "rename:0", "renamed:0", "done:0"} {
		ws := t.TempDir()
		writeCrashState(t, ws, "A")
		if !runCrashWriter(t, ws, step, 1, 0, "LSPSEAM_CRASH_ONE=1") {
			t.Fatalf("%s: the writer was not killed", step)
		}
		if got, want := recoverByNextCall(t, ws), step != "done:0"; got != want {
			t.Errorf("%s: the next call said it recovered: %v, want %v", step, got, want)
		}
		want := "B"
		if step == "prepared:0" {
			want = "A"
		}
		if got := workspaceStateOf(t, ws, oneFileState); got != want {
			t.Errorf("%s: after recovery the workspace is %s, want %s", step, got, want)
		}
		noJournals(t)
	}
}

func TestSetKilledAtRandomMoments(t *testing.T) {
	// How long one set takes here: kills are spread over a few of them.
	ws := t.TempDir()
	writeCrashState(t, ws, "A")
	start := time.Now()
	runCrashWriter(t, ws, "", 4, 0)
	per := time.Since(start) / 4
	iterations := 30
	if testing.Short() {
		iterations = 8
	}
	recovered := 0
	for i := 0; i < iterations; i++ {
		killed := runCrashWriter(t, ws, "", 1000, time.Duration(rand.Int64N(int64(3*per)))+per/2)
		if !killed {
			t.Fatal("the writer finished 1000 sets before it was killed: the kill came too late to test anything")
		}
		if recoverByNextCall(t, ws) {
			recovered++
		}
		if got := workspaceState(t, ws); got != "A" && got != "B" {
			t.Fatalf("iteration %d: after recovery the workspace is %s", i, got)
		}
		noJournals(t)
	}
	t.Logf("%d kills, %d of them mid-set (recovered), one set ≈ %v", iterations, recovered, per)
	if recovered == 0 {
		t.Error("no kill landed inside a set: the test tested nothing")
	}
}
