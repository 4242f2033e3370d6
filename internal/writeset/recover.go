package writeset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Recovery. A journal whose lock is free belongs to a process that died
// mid-set. The set is finished or undone from what the journal names and
// what the files hold now, file by file by content hash:
//
//   - prepared (died before any file changed): its temporaries and links
//     are removed; every file is as before.
//   - committed: rolled forward — each file still at its old content gets
//     its temporary (or is removed, for a deletion) — when every file can
//     be; if one cannot (its temporary is gone), the set is rolled back
//     instead, each file at its new content getting its old-content link
//     back (or removed, for a file the set created).
//   - rollback (died undoing a failed set): rolled back.
//
// A file at neither its old nor its new content was changed by someone
// else since the crash: it is left as it is and reported, whichever way
// the set goes. Then every temporary and link of the set is removed, and
// the journal last.

// staleNewJournal is the age past which a journal still being written
// (KEY-ID.new) belongs to a dead process.
const staleNewJournal = 10 * time.Minute

// Report says what Recover did with one journal.
type Report struct {
	Journal   string    `json:"journal"`
	Workspace string    `json:"workspace"`
	PID       int       `json:"pid"`     // the process that died
	Started   time.Time `json:"started"` // when its set began
	Outcome   string    `json:"outcome"` // OutcomeForward, OutcomeBack or OutcomeDiscarded
	Files     []string  `json:"files"`
	// Conflicts are files left as they were found: someone changed them
	// since, or their content could not be put in place.
	Conflicts []string `json:"conflicts,omitempty"`
	Removed   int      `json:"removed"` // temporaries and links removed
}

// Outcomes.
const (
	OutcomeForward   = "rolled forward"
	OutcomeBack      = "rolled back"
	OutcomeDiscarded = "discarded (it had changed nothing)"
)

// String is the report as a log line or an answer's notice says it.
func (r Report) String() string {
	s := "an unfinished change of " + strconv.Itoa(len(r.Files)) + " file"
	if len(r.Files) != 1 {
		s += "s"
	}
	s += " (" + clipList(r.Files, 8) + ") by process " + strconv.Itoa(r.PID) + ", which died, was " + r.Outcome
	if len(r.Conflicts) > 0 {
		s += "; left as found, since changed by someone else: " + clipList(r.Conflicts, 8)
	}
	if r.Removed > 0 {
		s += "; " + strconv.Itoa(r.Removed) + " temporary file"
		if r.Removed != 1 {
			s += "s"
		}
		s += " removed"
	}
	return s
}

func clipList(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + " and " + strconv.Itoa(len(list)-n) + " more"
}

// Recover finishes or undoes the sets of the workspace ws (its canonical
// absolute path) whose owners died. Journals of live processes are left
// alone. It costs one directory read when there is nothing to do.
func (s *Store) Recover(ctx context.Context, ws string) ([]Report, error) {
	return s.recover(ctx, workspaceKey(ws)+"-")
}

// RecoverAll is Recover for every workspace.
func (s *Store) RecoverAll(ctx context.Context) ([]Report, error) {
	return s.recover(ctx, "")
}

func (s *Store) recover(ctx context.Context, prefix string) ([]Report, error) {
	dir := filepath.Join(s.dir, journalSubdir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var reports []Report
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || journalState(name) == "" {
			continue
		}
		rep, ok, err := s.recoverJournal(ctx, filepath.Join(dir, name))
		if err != nil {
			errs = append(errs, fmt.Errorf("recovering %s: %w", name, err))
		}
		if ok {
			reports = append(reports, rep)
		}
	}
	return reports, errors.Join(errs...)
}

// journalPID is the writer's pid in a journal's name (KEY-ID-PID.STATE),
// or 0.
func journalPID(name string) int {
	base := filepath.Base(name)
	base = base[:strings.LastIndexByte(base, '.')]
	pid, _ := strconv.Atoi(base[strings.LastIndexByte(base, '-')+1:])
	return pid
}

func journalState(name string) string {
	switch st := name[strings.LastIndexByte(name, '.')+1:]; st {
	case stateNew, statePrepared, stateCommitted, stateRollback:
		return st
	}
	return ""
}

// recoverJournal recovers one journal if its owner is gone (ok: it did).
func (s *Store) recoverJournal(ctx context.Context, name string) (Report, bool, error) {
	if journalState(name) == stateNew {
		// Being written: its writer locks it only just after creating it,
		// so a free lock says nothing yet; its writer's pid does. Nothing
		// in any workspace refers to it, so a dead writer's is removed.
		// A live pid that is not the writer's (reused) keeps it until it
		// is stale.
		info, err := os.Stat(name)
		if err == nil && (!processAlive(journalPID(name)) || time.Since(info.ModTime()) > staleNewJournal) {
			os.Remove(name)
		}
		return Report{}, false, nil
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return Report{}, false, nil // finished meanwhile
	}
	defer f.Close()
	if locked, err := tryLock(f); err != nil || !locked {
		return Report{}, false, err // its owner is alive
	}
	// The owner may have finished (and removed it) or renamed it between
	// the directory read and the lock.
	if a, err := os.Stat(name); err != nil {
		return Report{}, false, nil
	} else if b, err := f.Stat(); err != nil || !os.SameFile(a, b) {
		return Report{}, false, nil
	}
	state := journalState(name)
	data, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		return Report{}, false, err
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil || rec.Format != journalFormat || !filepath.IsAbs(rec.Workspace) {
		return Report{}, false, fmt.Errorf("the journal cannot be read (%v); it is left in place", err)
	}
	root, err := os.OpenRoot(rec.Workspace)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			os.Remove(name) // the workspace is gone, and its files with it
			return Report{}, false, nil
		}
		return Report{}, false, err
	}
	defer root.Close()
	paths := make([]string, len(rec.Changes))
	for i, c := range rec.Changes {
		paths[i] = filepath.Join(rec.Workspace, filepath.FromSlash(c.Path))
	}
	locks, err := s.Lock(ctx, paths)
	if err != nil {
		return Report{}, false, err
	}
	defer locks.Unlock()

	rep := Report{Journal: strings.TrimSuffix(filepath.Base(name), "."+state), Workspace: rec.Workspace, PID: rec.PID, Started: rec.Started}
	for _, c := range rec.Changes {
		rep.Files = append(rep.Files, c.Path)
	}
	switch state {
	case statePrepared:
		rep.Outcome = OutcomeDiscarded
	case stateCommitted:
		rep.Outcome = OutcomeForward
		if !forward(root, rec.Changes, &rep) {
			rep.Conflicts = nil
			rep.Outcome = OutcomeBack
			back(root, rec.Changes, &rep)
		}
	case stateRollback:
		rep.Outcome = OutcomeBack
		back(root, rec.Changes, &rep)
	}
	for _, d := range changeDirs(rec.Changes) {
		syncRootDir(root, d)
	}
	for _, c := range rec.Changes {
		for _, side := range []string{c.Temp, c.Old} {
			if side != "" && root.Remove(filepath.FromSlash(side)) == nil {
				rep.Removed++
			}
		}
	}
	os.Remove(name)
	return rep, true, nil
}

// forward rolls a committed set forward; false, having changed nothing,
// when some file cannot get its new content (its temporary is gone).
func forward(root *os.Root, changes []Change, rep *Report) bool {
	type step struct {
		c   Change
		now Hash
	}
	var todo []step
	for _, c := range changes {
		now, err := hashFile(root, c.Path)
		switch {
		case err != nil:
			rep.Conflicts = append(rep.Conflicts, c.Path)
		case now == c.After:
			// done before the crash
		case now == c.Before:
			if c.After != "" {
				if t, err := hashFile(root, c.Temp); err != nil || t != c.After {
					return false
				}
			}
			todo = append(todo, step{c, now})
		default:
			rep.Conflicts = append(rep.Conflicts, c.Path)
		}
	}
	// New contents first, then deletions, as Apply does.
	for _, deletions := range []bool{false, true} {
		for _, s := range todo {
			if (s.c.After == "") != deletions {
				continue
			}
			var err error
			if s.c.After != "" {
				err = root.Rename(filepath.FromSlash(s.c.Temp), filepath.FromSlash(s.c.Path))
			} else {
				err = root.Remove(filepath.FromSlash(s.c.Path))
			}
			if err != nil {
				rep.Conflicts = append(rep.Conflicts, s.c.Path)
			}
		}
	}
	return true
}

// back rolls a set back: each file at its new content gets its old one.
func back(root *os.Root, changes []Change, rep *Report) {
	for _, c := range changes {
		now, err := hashFile(root, c.Path)
		switch {
		case err != nil:
			rep.Conflicts = append(rep.Conflicts, c.Path)
		case now == c.Before:
			// as before
		case now == c.After && c.Before == "":
			if root.Remove(filepath.FromSlash(c.Path)) != nil {
				rep.Conflicts = append(rep.Conflicts, c.Path)
			}
		case now == c.After:
			if o, err := hashFile(root, c.Old); err != nil || o != c.Before ||
				root.Rename(filepath.FromSlash(c.Old), filepath.FromSlash(c.Path)) != nil {
				rep.Conflicts = append(rep.Conflicts, c.Path)
			}
		default:
			rep.Conflicts = append(rep.Conflicts, c.Path)
		}
	}
}

// hashFile is the Hash of a workspace file's content ("" when it does
// not exist).
func hashFile(root *os.Root, rel string) (Hash, error) {
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return "", err
	}
	return HashOf(data), nil
}
