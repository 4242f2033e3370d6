package workspacefs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"unicode/utf8"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/writeset"
)

// Every write lspseam makes to a workspace — the fs tools' write and
// edit, a refactor's set of files, a server command's applyEdit — goes
// through here, so all of them keep the same promises (docs/design.md,
// "Edits"):
//
//   - Serialized across processes: the files' cross-process locks are
//     taken (internal/writeset, one global order) before the files are
//     read for the last time, and held until the new contents are in
//     place, so the check that a file is still what the change was made
//     from and the write itself are one step for every lspseam process.
//   - All or nothing, across a crash: the set is journaled before its
//     first rename and finished or undone by the next process if this one
//     dies (writeset's Recover, run at the start of each call).
//   - What a write does not mean to change stays: a replaced file's owner,
//     group, permission bits (setuid, setgid and sticky included) and
//     extended attributes are copied to the new content's file, or the
//     write is refused; a read-only file is refused; no write makes a file
//     larger than the fs tools read (MaxFileBytes).

// SetItem is one file of a write: the file as read under the lock, and
// its new content (nil: the set deletes it).
type SetItem struct {
	Current File
	After   *string
	Mode    fs.FileMode // a created file's mode (0: 0644 less the umask)
}

// Lock takes the cross-process locks of the files at these
// workspace-relative (resolved) paths.
func (r *Root) Lock(ctx context.Context, reals []string) (*writeset.Locks, error) {
	if r.sets == nil {
		err := r.setsErr
		if err == nil {
			err = errors.New("no write state directory was set up")
		}
		return nil, lspseam.Errorf(lspseam.CodeFSRejected, "lspseam cannot write: its lock and journal directory is unusable (%v); set LSPSEAM_STATE_DIR to a writable directory", err)
	}
	paths := make([]string, len(reals))
	for i, rel := range reals {
		paths[i] = filepath.Join(r.Real, filepath.FromSlash(rel))
	}
	l, err := r.sets.Lock(ctx, paths)
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeCancelled, "%v; nothing was written", err)
	}
	return l, nil
}

// Update is a one-file write: under the file's lock, the file is read and
// change makes its new content from it (change refuses a stale file), and
// the new content is written. It returns the file as it was and its new
// content.
func (r *Root) Update(ctx context.Context, path string, change func(File) (string, error)) (File, string, error) {
	rel, err := r.fileRel(path)
	if err != nil {
		return File{}, "", err
	}
	real := r.Resolve(rel)
	locks, err := r.Lock(ctx, []string{real})
	if err != nil {
		return File{}, "", err
	}
	defer locks.Unlock()
	f, err := r.ReadAt(path, rel, real)
	if err != nil {
		return f, "", err
	}
	text, err := change(f)
	if err != nil {
		return f, "", err
	}
	if err := r.WriteSet([]SetItem{{Current: f, After: &text}}); err != nil {
		return f, "", err
	}
	return f, text, nil
}

// WriteSet writes the items as one set; the caller holds their locks and
// read them under it. A created file's directories are made first.
func (r *Root) WriteSet(items []SetItem) error {
	changes := make([]writeset.Change, len(items))
	for i, it := range items {
		f := it.Current
		if f.Exists && f.Mode&0o222 == 0 {
			return lspseam.Errorf(lspseam.CodeFSRejected, "%s is read-only (mode %04o): lspseam does not change read-only files; make it writable (chmod u+w %s) if it is meant to change; nothing was changed", f.Rel, f.Mode.Perm(), f.Rel)
		}
		if it.After != nil {
			if elem := ReservedElement(HostPaths, f.Rel); elem != "" && !f.Exists {
				return lspseam.Errorf(lspseam.CodeFSRejected, "%s cannot be created: %q is a name Windows reserves for a device or strips (CON, NUL, COM1, a trailing dot or space…); choose another name; nothing was changed", f.Rel, elem)
			}
			if n := len(*it.After); n > MaxFileBytes {
				return lspseam.Errorf(lspseam.CodeFSRejected, "the change would make %s %d bytes, over the %d-byte limit the fs tools read; nothing was changed", f.Rel, n, MaxFileBytes)
			}
			if !utf8.ValidString(*it.After) {
				return lspseam.Errorf(lspseam.CodeFSInvalidArgument, "the new content of %s is not valid UTF-8; nothing was changed", f.Rel)
			}
		}
		if info, err := r.root.Lstat(filepath.FromSlash(f.Real)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			target, _ := r.root.Readlink(filepath.FromSlash(f.Real))
			return lspseam.Errorf(lspseam.CodeFSRejected, "%s is a symbolic link to %s, outside the workspace (or to a missing file); write a file inside the workspace instead; nothing was changed", f.Rel, target)
		}
		c := writeset.Change{Path: f.Real}
		if f.Exists {
			c.Before = writeset.HashString(f.Text)
		}
		if it.After != nil {
			c.After = writeset.HashString(*it.After)
		}
		changes[i] = c
	}
	for _, it := range items {
		if it.Current.Exists || it.After == nil {
			continue
		}
		if dir := filepath.Dir(filepath.FromSlash(it.Current.Real)); dir != "." {
			if err := r.root.MkdirAll(dir, 0o755); err != nil {
				return r.rejected(it.Current.Rel, err)
			}
		}
	}
	tx, err := r.sets.Begin(r.Real, r.root, changes)
	if err != nil {
		return lspseam.Errorf(lspseam.CodeFSRejected, "%v; nothing was changed (set LSPSEAM_STATE_DIR to a writable directory if this persists)", err)
	}
	if err := r.stageAll(tx, items); err != nil {
		tx.Abort()
		return err
	}
	if err := tx.Apply(); err != nil { // rolled back, or the files it could not restore named
		var aerr *writeset.ApplyError
		if len(items) == 1 && errors.As(err, &aerr) && len(aerr.Uncertain) == 0 {
			return lspseam.Errorf(lspseam.CodeFSRejected, "writing %s failed (the file is unchanged): %v", items[0].Current.Rel, aerr.Err)
		}
		return lspseam.Errorf(lspseam.CodeConflict, "%v", err)
	}
	return nil
}

// maxConcurrentStages bounds the temporaries written (and synced) at
// once. Each stage ends in an fsync that waits for the disk: one after
// another, a 59-file rename spent 140–250 ms there; at once, the device
// takes the syncs together.
const maxConcurrentStages = 8

// stageAll writes every item's temporary (stage), several at once. The
// first failure, by the items' order, is the answer; the temporaries
// written are the caller's to remove (Txn.Abort), once all are done.
func (r *Root) stageAll(tx *writeset.Txn, items []SetItem) error {
	errs := make([]error, len(items))
	slots := make(chan struct{}, maxConcurrentStages)
	var wg sync.WaitGroup
	for i, it := range items {
		if it.After == nil {
			continue
		}
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			errs[i] = r.stage(tx.Temp(i), it, *it.After)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// stage writes an item's new content to its temporary, synced, with the
// metadata of the file it replaces (a created file: it.mode, or 0644 less
// the umask).
func (r *Root) stage(tmp string, it SetItem, text string) error {
	f := it.Current
	mode := fs.FileMode(0o644)
	switch {
	case f.Exists:
		mode = f.Mode
	case it.Mode != 0:
		mode = it.Mode
	}
	file, err := r.root.OpenFile(filepath.FromSlash(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return lspseam.Errorf(lspseam.CodeFSRejected, "staging %s failed (nothing was changed): %v", f.Rel, err)
	}
	if _, err = io.WriteString(file, text); err == nil && f.Exists {
		err = r.keepMetadata(file, f)
	}
	if err == nil && (f.Exists || it.Mode != 0) {
		err = file.Chmod(mode) // the umask may have narrowed it; chown cleared setuid and setgid
	}
	if err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.root.Remove(filepath.FromSlash(tmp))
		var merr *metadataError
		if errors.As(err, &merr) {
			return lspseam.Errorf(lspseam.CodeFSRejected, "%s: %v; nothing was changed", f.Rel, merr)
		}
		return lspseam.Errorf(lspseam.CodeFSRejected, "staging %s failed (nothing was changed): %v", f.Rel, err)
	}
	return nil
}

// keepMetadata gives tmp the owner, group and extended attributes of the
// file f it replaces.
func (r *Root) keepMetadata(tmp *os.File, f File) error {
	old, err := r.root.Open(filepath.FromSlash(f.Real))
	if err != nil {
		return err
	}
	defer old.Close()
	return copyMetadata(tmp, old)
}

// metadataError is metadata of a file that a write cannot keep.
type metadataError struct {
	what string
	err  error
}

func (e *metadataError) Error() string {
	return "its " + e.what + " cannot be kept by a process of user " + strconv.Itoa(os.Getuid()) + " (" + e.err.Error() + "); lspseam does not write a file whose metadata it would change"
}

func (e *metadataError) Unwrap() error { return e.err }
