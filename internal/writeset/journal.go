package writeset

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The intent journal. A set is applied in these steps, each durable
// before the next:
//
//  1. Begin: the journal — the workspace, each file's path, the hashes of
//     its content before and after, the names of its temporary and of its
//     old-content link — is written as KEY-ID.new, synced, locked and
//     renamed to KEY-ID.prepared (the directory synced). Nothing in the
//     workspace has changed yet.
//  2. The caller writes each new content to its temporary and syncs it.
//  3. Apply: each existing file gets a hard link under its old-content
//     name (the old inode, metadata and all, stays reachable), the
//     directories are synced, and the journal is renamed to
//     KEY-ID.committed: from here the set goes forward.
//  4. The temporaries are renamed over their files (new contents first,
//     then the deletions), and the directories synced.
//  5. The old-content links are removed, then the journal.
//
// A process that dies at any point leaves a journal whose lock is free;
// recover.go finishes or undoes the set from it. The state is in the
// journal's name, changed by rename, so the lock (held on the open
// journal, whose inode a rename keeps) stays with the owner throughout.
//
// A set of one change takes the same steps without the syncs that order
// them on disk and without an old-content link: its one rename is the
// whole change, so nothing can be half made, and the file never holds
// its new content while the set could still go back (a rollback happens
// only when that rename failed). A killed process's journal is in the
// page cache, which survives it, and is recovered like any other. What a
// power loss can cost is only a leftover: a journal that did not reach
// the disk leaves its synced temporary behind (hidden, named for the
// set). The new content is synced before the rename and the rename before
// Apply returns, as for every set. One file's write is what an edit
// waits for: 2 syncs instead of 6 (RATIONALE.md, "One file's write
// needs no journal syncs").

// Change is one file of a set.
type Change struct {
	Path   string `json:"path"`   // slash path relative to the workspace, not through a link
	Before Hash   `json:"before"` // "": the file does not exist before
	After  Hash   `json:"after"`  // "": the set deletes it
	Temp   string `json:"temp,omitempty"`
	Old    string `json:"old,omitempty"`
}

// record is a journal's content.
type record struct {
	Format    int       `json:"format"`
	Workspace string    `json:"workspace"`
	PID       int       `json:"pid"`
	Started   time.Time `json:"started"`
	Changes   []Change  `json:"changes"`
}

const journalFormat = 1

// Journal states, the journal's name suffix.
const (
	stateNew       = "new"
	statePrepared  = "prepared"
	stateCommitted = "committed"
	stateRollback  = "rollback"
)

// Hook, when set (by tests only), is called at each step of a set:
// "prepared", "committed", "rename" before each rename or removal (i: its
// index in that order), "renamed", "done". Crash tests kill the process
// there; an error it returns at "rename" is that step's failure.
var Hook func(step string, i int) error

func hook(step string, i int) error {
	if Hook != nil {
		return Hook(step, i)
	}
	return nil
}

// Txn is one set being applied. It is used by one goroutine.
type Txn struct {
	store   *Store
	root    *os.Root
	ws      string
	id      string
	journal *os.File // open and locked for the Txn's life
	name    string   // the journal's current path
	changes []Change
	// ordered: the steps are synced one before the next (a set of more
	// than one change; see above).
	ordered bool
}

// Begin writes the prepared journal of changes to the workspace ws (its
// canonical absolute path, opened as root) and returns the Txn, whose
// Temp names the caller writes the new contents to. The caller holds the
// files' locks (Lock) from before it read them until the Txn ends.
func (s *Store) Begin(ws string, root *os.Root, changes []Change) (*Txn, error) {
	var b [8]byte
	rand.Read(b[:])
	t := &Txn{store: s, root: root, ws: ws, id: hex.EncodeToString(b[:]), changes: append([]Change(nil), changes...), ordered: len(changes) > 1}
	for i := range t.changes {
		c := &t.changes[i]
		if c.After != "" {
			c.Temp = sideName(c.Path, t.id, "tmp")
		}
		if c.Before != "" && t.ordered {
			c.Old = sideName(c.Path, t.id, "old")
		}
	}
	data, err := json.Marshal(record{Format: journalFormat, Workspace: ws, PID: os.Getpid(), Started: time.Now().UTC(), Changes: t.changes})
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(s.dir, journalSubdir)
	// The writer's pid is in the name: a journal being written is locked
	// only just after it is created, so until then its pid is what says
	// whether its writer lives.
	base := filepath.Join(dir, workspaceKey(ws)+"-"+t.id+"-"+strconv.Itoa(os.Getpid())+".")
	f, err := os.OpenFile(base+stateNew, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("writing the change's journal: %w", err)
	}
	t.journal, t.name = f, base+stateNew
	fail := func(err error) (*Txn, error) {
		f.Close()
		os.Remove(t.name)
		return nil, fmt.Errorf("writing the change's journal: %w", err)
	}
	if ok, err := tryLock(f); err != nil || !ok {
		if err == nil {
			err = errors.New("a new journal is locked by another process")
		}
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := t.sync(f); err != nil {
		return fail(err)
	}
	if err := t.rename(statePrepared); err != nil {
		return fail(err)
	}
	hook("prepared", 0)
	return t, nil
}

// Temp is the temporary that holds change i's new content ("" for a
// deletion): a workspace-relative slash path in the file's directory.
func (t *Txn) Temp(i int) string { return t.changes[i].Temp }

// rename moves the journal to a state and syncs its directory.
func (t *Txn) rename(state string) error {
	to := t.name[:strings.LastIndexByte(t.name, '.')+1] + state
	if err := os.Rename(t.name, to); err != nil {
		return err
	}
	t.name = to
	if !t.ordered {
		return nil
	}
	return syncDir(filepath.Dir(to))
}

// sync syncs the journal's content, for a set whose steps are ordered.
func (t *Txn) sync(f *os.File) error {
	if !t.ordered {
		return nil
	}
	return f.Sync()
}

// Abort ends a Txn whose temporaries could not all be written: the ones
// written are removed, then the journal. The workspace is as before.
func (t *Txn) Abort() {
	t.removeSide()
	t.end()
}

// removeSide removes the set's temporaries and old-content links that
// exist. Always before the journal goes: a crash in between leaves a
// journal that names what is left, never a file nobody knows of.
func (t *Txn) removeSide() {
	for _, c := range t.changes {
		for _, name := range []string{c.Temp, c.Old} {
			if name != "" {
				t.root.Remove(filepath.FromSlash(name))
			}
		}
	}
}

// end removes the journal and releases its lock.
func (t *Txn) end() {
	os.Remove(t.name)
	t.journal.Close()
}

// ApplyError is a set that failed part way and was rolled back; Uncertain
// names the files whose old content could not be put back.
type ApplyError struct {
	Path      string // the file whose step failed
	Err       error
	Uncertain []string
}

func (e *ApplyError) Error() string {
	msg := "applying the change failed at " + e.Path + " (" + e.Err.Error() + ")"
	if len(e.Uncertain) > 0 {
		return msg + ", and restoring " + strings.Join(e.Uncertain, ", ") + " failed: check those files"
	}
	return msg + "; the files already changed were restored, nothing is changed"
}

func (e *ApplyError) Unwrap() error { return e.Err }

// Apply makes the set's changes, all or none: it links the old contents,
// commits the journal, renames the temporaries over their files and
// removes the deleted ones, then removes the journal. A step that fails
// rolls the set back (an *ApplyError); a crash at any point is finished
// or undone by the next Recover. The Txn is over when Apply returns.
func (t *Txn) Apply() error {
	for _, c := range t.changes {
		if c.Old == "" {
			continue
		}
		if err := t.keepOld(c); err != nil {
			t.Abort()
			return &ApplyError{Path: c.Path, Err: fmt.Errorf("keeping its old content: %w", err)}
		}
	}
	dirs := t.dirs()
	if t.ordered {
		for _, d := range dirs {
			if err := syncRootDir(t.root, d); err != nil {
				t.Abort()
				return &ApplyError{Path: d, Err: err}
			}
		}
	}
	if err := t.rename(stateCommitted); err != nil {
		t.Abort()
		return &ApplyError{Path: "the journal", Err: err}
	}
	hook("committed", 0)
	order := t.order()
	for n, i := range order {
		c := t.changes[i]
		err := hook("rename", n)
		switch {
		case err != nil:
		case c.After != "":
			err = t.root.Rename(filepath.FromSlash(c.Temp), filepath.FromSlash(c.Path))
		default:
			err = t.root.Remove(filepath.FromSlash(c.Path))
		}
		if err != nil {
			return t.rollback(order[:n], c.Path, err)
		}
	}
	for _, d := range dirs {
		syncRootDir(t.root, d) // best effort: the change is made either way
	}
	hook("renamed", 0)
	t.removeSide()
	t.end()
	hook("done", 0)
	return nil
}

// order is the steps' order: new contents first, then deletions, so a
// file a rename moves exists under its new name before the old one goes.
func (t *Txn) order() []int {
	var order []int
	for i, c := range t.changes {
		if c.After != "" {
			order = append(order, i)
		}
	}
	for i, c := range t.changes {
		if c.After == "" {
			order = append(order, i)
		}
	}
	return order
}

// rollback undoes the steps done after step failed: the journal says
// so first, so a crash meanwhile is rolled back too.
func (t *Txn) rollback(done []int, failed string, cause error) error {
	t.rename(stateRollback)
	var uncertain []string
	for _, i := range done {
		c := t.changes[i]
		var err error
		if c.Before == "" {
			err = t.root.Remove(filepath.FromSlash(c.Path))
		} else {
			err = t.root.Rename(filepath.FromSlash(c.Old), filepath.FromSlash(c.Path))
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			uncertain = append(uncertain, c.Path)
		}
	}
	for _, d := range t.dirs() {
		syncRootDir(t.root, d)
	}
	if len(uncertain) == 0 {
		t.Abort()
	} else {
		// Leave the journal and the links: the next Recover retries.
		t.journal.Close()
	}
	return &ApplyError{Path: failed, Err: cause, Uncertain: uncertain}
}

// keepOld makes c's old-content name refer to its current content: a hard
// link, or a copy where the file system has none.
func (t *Txn) keepOld(c Change) error {
	err := t.root.Link(filepath.FromSlash(c.Path), filepath.FromSlash(c.Old))
	if err == nil {
		return nil
	}
	src, err := t.root.Open(filepath.FromSlash(c.Path))
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := t.root.OpenFile(filepath.FromSlash(c.Old), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.root.Remove(filepath.FromSlash(c.Old))
	}
	return err
}

// dirs are the workspace directories the set's files are in.
func (t *Txn) dirs() []string { return changeDirs(t.changes) }

func changeDirs(changes []Change) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, c := range changes {
		d := path.Dir(c.Path)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// sideName is the name of a set's temporary or old-content link of file
// p: hidden, beside it, naming the set; the file's own name is clipped so
// the whole stays within a file system's name limit.
func sideName(p, id, kind string) string {
	dir, base := path.Split(p)
	if len(base) > 150 {
		cut := 150
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	return dir + "." + base + ".lspseam-" + id + "." + kind
}

// syncDir syncs a directory, so the names created, renamed or removed in
// it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func syncRootDir(root *os.Root, dir string) error {
	d, err := root.Open(filepath.FromSlash(dir))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
