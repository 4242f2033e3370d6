package writeset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixture is a workspace with files and a Store, and the set the tests
// apply: a.txt and b.txt modified, c.txt created, d.txt deleted.
type fixture struct {
	t     *testing.T
	ws    string
	root  *os.Root
	store *Store
	set   []string // the files the set changes
}

var (
	oldFiles = map[string]string{"a.txt": "old a\n", "sub/b.txt": "old b\n", "d.txt": "old d\n"}
	newFiles = map[string]string{"a.txt": "new a\n", "sub/b.txt": "new b\n", "c.txt": "new c\n"}
)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ws := t.TempDir()
	for name, text := range oldFiles {
		p := filepath.Join(ws, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	store, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t, ws, root, store, []string{"a.txt", "sub/b.txt", "c.txt", "d.txt"}}
}

// newSingleFixture is a fixture whose set changes one file: name, one of
// the four.
func newSingleFixture(t *testing.T, name string) *fixture {
	f := newFixture(t)
	f.set = []string{name}
	return f
}

// applied is the workspace's files once the set is made: the old files
// with the set's changes.
func (f *fixture) applied() map[string]string {
	want := map[string]string{}
	for k, v := range oldFiles {
		want[k] = v
	}
	for _, name := range f.set {
		delete(want, name)
		if text, ok := newFiles[name]; ok {
			want[name] = text
		}
	}
	return want
}

func (f *fixture) changes() []Change {
	var cs []Change
	for _, name := range f.set {
		c := Change{Path: name}
		if text, ok := oldFiles[name]; ok {
			c.Before = HashString(text)
		}
		if text, ok := newFiles[name]; ok {
			c.After = HashString(text)
		}
		cs = append(cs, c)
	}
	return cs
}

// begin starts the set and writes its temporaries.
func (f *fixture) begin() *Txn {
	f.t.Helper()
	tx, err := f.store.Begin(f.ws, f.root, f.changes())
	if err != nil {
		f.t.Fatal(err)
	}
	for i, c := range f.changes() {
		if c.After == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(f.ws, filepath.FromSlash(tx.Temp(i))), []byte(newFiles[c.Path]), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	return tx
}

// state is the workspace's files by name (side files included).
func (f *fixture) state() map[string]string {
	got := map[string]string{}
	filepath.WalkDir(f.ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(f.ws, p)
			got[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return got
}

func (f *fixture) journals() []string {
	entries, _ := os.ReadDir(filepath.Join(f.store.Dir(), journalSubdir))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func sameFiles(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func TestApplyMakesTheWholeSet(t *testing.T) {
	f := newFixture(t)
	if err := f.begin().Apply(); err != nil {
		t.Fatal(err)
	}
	if got := f.state(); !sameFiles(got, newFiles) {
		t.Fatalf("after Apply: %v, want %v", got, newFiles)
	}
	if j := f.journals(); len(j) != 0 {
		t.Errorf("journals left: %v", j)
	}
}

func TestApplyRollsBackAFailedStep(t *testing.T) {
	for step := 0; step < 4; step++ {
		t.Run(fmt.Sprint("step", step), func(t *testing.T) {
			newFixture(t).failRename(step)
		})
	}
}

// failRename applies the set with its rename step failing: the set is
// rolled back, with nothing uncertain and nothing left.
func (f *fixture) failRename(step int) {
	t := f.t
	t.Helper()
	Hook = func(s string, i int) error {
		if s == "rename" && i == step {
			return errors.New("injected")
		}
		return nil
	}
	defer func() { Hook = nil }()
	err := f.begin().Apply()
	var aerr *ApplyError
	if !errors.As(err, &aerr) || len(aerr.Uncertain) != 0 {
		t.Fatalf("Apply = %v, want an ApplyError with nothing uncertain", err)
	}
	if got := f.state(); !sameFiles(got, oldFiles) {
		t.Fatalf("after a failed step %d: %v, want %v", step, got, oldFiles)
	}
	if j := f.journals(); len(j) != 0 {
		t.Errorf("journals left: %v", j)
	}
}

// crash stands for a process killed at a step: the Txn is abandoned and
// its journal's lock released, as the kernel does for a dead process.
type crash struct{}

// TestRecoverAfterACrashAtEveryStep kills the set at each step, then
// recovers: the files are all old or all new, byte for byte, and nothing
// of the set is left.
func TestRecoverAfterACrashAtEveryStep(t *testing.T) {
	steps := []struct {
		step string
		i    int
		want map[string]string
		out  string
	}{
		{"prepared", 0, oldFiles, OutcomeDiscarded},
		{"committed", 0, newFiles, OutcomeForward},
		{"rename", 0, newFiles, OutcomeForward},
		{"rename", 1, newFiles, OutcomeForward},
		{"rename", 2, newFiles, OutcomeForward},
		{"rename", 3, newFiles, OutcomeForward},
		{"renamed", 0, newFiles, OutcomeForward},
	}
	for _, tc := range steps {
		t.Run(fmt.Sprint(tc.step, tc.i), func(t *testing.T) {
			f := newFixture(t)
			f.crashAt(tc.step, tc.i)
			reports, err := f.store.Recover(context.Background(), f.ws)
			if err != nil {
				t.Fatal(err)
			}
			if len(reports) != 1 || reports[0].Outcome != tc.out || len(reports[0].Conflicts) != 0 {
				t.Fatalf("reports %+v, want one %q without conflicts", reports, tc.out)
			}
			if got := f.state(); !sameFiles(got, tc.want) {
				t.Fatalf("after recovery: %v, want %v", got, tc.want)
			}
			if j := f.journals(); len(j) != 0 {
				t.Errorf("journals left: %v", j)
			}
			if !strings.Contains(reports[0].String(), tc.out) {
				t.Errorf("report text %q", reports[0].String())
			}
		})
	}
}

// crashAt applies the set and abandons it at a step ("prepared": while
// its temporaries are being written, one of them written).
func (f *fixture) crashAt(step string, i int) (tx *Txn) {
	f.t.Helper()
	var err error
	tx, err = f.store.Begin(f.ws, f.root, f.changes())
	if err != nil {
		f.t.Fatal(err)
	}
	for n, c := range f.changes() {
		if c.After != "" {
			os.WriteFile(filepath.Join(f.ws, filepath.FromSlash(tx.Temp(n))), []byte(newFiles[c.Path]), 0o644)
			if step == "prepared" {
				break
			}
		}
	}
	if step == "prepared" {
		tx.journal.Close()
		return tx
	}
	Hook = func(s string, n int) error {
		if s == step && n == i {
			panic(crash{})
		}
		return nil
	}
	defer func() {
		Hook = nil
		if v := recover(); v != (crash{}) {
			f.t.Fatalf("the set did not reach step %s %d (%v)", step, i, v)
		}
		tx.journal.Close()
	}()
	tx.Apply()
	return tx
}

// TestRecoverLeavesOthersChanges: a file someone changed after the crash
// keeps their content and is reported; the rest of the set goes forward.
func TestRecoverLeavesOthersChanges(t *testing.T) {
	f := newFixture(t)
	f.crashAt("rename", 1) // a.txt renamed, sub/b.txt not yet
	theirs := "someone else's b\n"
	os.WriteFile(filepath.Join(f.ws, "sub", "b.txt"), []byte(theirs), 0o644)
	reports, err := f.store.Recover(context.Background(), f.ws)
	if err != nil || len(reports) != 1 {
		t.Fatal(reports, err)
	}
	if !slices.Equal(reports[0].Conflicts, []string{"sub/b.txt"}) || reports[0].Outcome != OutcomeForward {
		t.Fatalf("report %+v, want sub/b.txt in conflict, rolled forward", reports[0])
	}
	want := map[string]string{"a.txt": "new a\n", "sub/b.txt": theirs, "c.txt": "new c\n"}
	if got := f.state(); !sameFiles(got, want) {
		t.Fatalf("after recovery: %v, want %v", got, want)
	}
}

// TestRecoverRollsBackWhenATemporaryIsGone: a committed set that cannot be
// finished is undone, from the old-content links.
func TestRecoverRollsBackWhenATemporaryIsGone(t *testing.T) {
	f := newFixture(t)
	tx := f.crashAt("rename", 1)
	os.Remove(filepath.Join(f.ws, filepath.FromSlash(tx.changes[1].Temp))) // sub/b.txt's
	reports, err := f.store.Recover(context.Background(), f.ws)
	if err != nil || len(reports) != 1 || reports[0].Outcome != OutcomeBack || len(reports[0].Conflicts) != 0 {
		t.Fatalf("%+v %v, want one rollback without conflicts", reports, err)
	}
	if got := f.state(); !sameFiles(got, oldFiles) {
		t.Fatalf("after recovery: %v, want %v", got, oldFiles)
	}
}

// TestRecoverLeavesALiveSetAlone: a journal whose owner holds its lock is
// not touched.
func TestRecoverLeavesALiveSetAlone(t *testing.T) {
	f := newFixture(t)
	tx := f.begin()
	reports, err := f.store.Recover(context.Background(), f.ws)
	if err != nil || len(reports) != 0 {
		t.Fatalf("recovered a live set: %+v %v", reports, err)
	}
	if err := tx.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := f.state(); !sameFiles(got, newFiles) {
		t.Fatalf("%v", got)
	}
}

// TestLockExcludes: a second Lock of an overlapping set waits for the
// first, and gives up when its context ends.
func TestLockExcludes(t *testing.T) {
	store, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := store.Lock(ctx, []string{"/w/a", "/w/b"})
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := store.Lock(short, []string{"/w/b", "/w/c"}); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an overlapping Lock = %v while the first is held, want it to wait and give up", err)
	}
	got := make(chan error, 1)
	go func() {
		l, err := store.Lock(ctx, []string{"/w/c", "/w/b"})
		l.Unlock()
		got <- err
	}()
	first.Unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// TestRecoverRemovesADeadWritersNewJournal: a journal being written by a
// live process is left alone, a dead one's removed at once.
func TestRecoverRemovesADeadWritersNewJournal(t *testing.T) {
	f := newFixture(t)
	dir := filepath.Join(f.store.Dir(), journalSubdir)
	live := filepath.Join(dir, workspaceKey(f.ws)+"-aaaa-"+fmt.Sprint(os.Getpid())+".new")
	dead := filepath.Join(dir, workspaceKey(f.ws)+"-bbbb-999999999.new")
	for _, name := range []string{live, dead} {
		os.WriteFile(name, nil, 0o600)
	}
	if _, err := f.store.Recover(context.Background(), f.ws); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live writer's journal was removed: %v", err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("a dead writer's journal being written is still there")
	}
}

// The single-change sets: a file modified, created, deleted.
var singles = []string{"a.txt", "c.txt", "d.txt"}

// TestSingleChangeApplyAndRollback: a set of one change, made without the
// ordering syncs and the old-content link, is made whole, and a failed
// rename leaves the file as it was.
func TestSingleChangeApplyAndRollback(t *testing.T) {
	for _, name := range singles {
		t.Run(name, func(t *testing.T) {
			f := newSingleFixture(t, name)
			tx := f.begin()
			if tx.ordered || tx.changes[0].Old != "" {
				t.Fatalf("a one-change set is ordered (%v) or keeps an old-content link (%q)", tx.ordered, tx.changes[0].Old)
			}
			if err := tx.Apply(); err != nil {
				t.Fatal(err)
			}
			if got, want := f.state(), f.applied(); !sameFiles(got, want) {
				t.Fatalf("after Apply: %v, want %v", got, want)
			}

			newSingleFixture(t, name).failRename(0)
		})
	}
}

// TestSingleChangeRecoverAfterACrashAtEveryStep: a one-change set killed
// at each step is recovered to the old or the new file, byte for byte,
// with nothing of the set left, as a set of many is.
func TestSingleChangeRecoverAfterACrashAtEveryStep(t *testing.T) {
	for _, name := range singles {
		for _, tc := range []struct {
			step string
			out  string
			made bool
		}{
			{"prepared", OutcomeDiscarded, false},
			{"committed", OutcomeForward, true},
			{"rename", OutcomeForward, true},
			{"renamed", OutcomeForward, true},
		} {
			t.Run(name+"/"+tc.step, func(t *testing.T) {
				f := newSingleFixture(t, name)
				f.crashAt(tc.step, 0)
				reports, err := f.store.Recover(context.Background(), f.ws)
				if err != nil {
					t.Fatal(err)
				}
				if len(reports) != 1 || reports[0].Outcome != tc.out || len(reports[0].Conflicts) != 0 {
					t.Fatalf("reports %+v, want one %q without conflicts", reports, tc.out)
				}
				want := oldFiles
				if tc.made {
					want = f.applied()
				}
				if got := f.state(); !sameFiles(got, want) {
					t.Fatalf("after recovery: %v, want %v", got, want)
				}
				if j := f.journals(); len(j) != 0 {
					t.Errorf("journals left: %v", j)
				}
			})
		}
	}
}

// TestSingleChangeRecoverRollsBackWhenItsTemporaryIsGone: a committed
// one-change set whose temporary someone removed changes nothing, and
// needs no old-content link to say so.
func TestSingleChangeRecoverRollsBackWhenItsTemporaryIsGone(t *testing.T) {
	f := newSingleFixture(t, "a.txt")
	tx := f.crashAt("rename", 0)
	os.Remove(filepath.Join(f.ws, filepath.FromSlash(tx.changes[0].Temp)))
	reports, err := f.store.Recover(context.Background(), f.ws)
	if err != nil || len(reports) != 1 || reports[0].Outcome != OutcomeBack || len(reports[0].Conflicts) != 0 {
		t.Fatalf("%+v %v, want one rollback without conflicts", reports, err)
	}
	if got := f.state(); !sameFiles(got, oldFiles) {
		t.Fatalf("after recovery: %v, want %v", got, oldFiles)
	}
}
