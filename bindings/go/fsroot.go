package lspseam

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// The filesystem tools' file access (read, write, edit): every path is
// opened beneath the workspace through os.Root, which refuses `..` and
// symlinks that lead out of it at every step, so a model's path cannot
// reach outside the workspace however it is spelled or whatever links the
// workspace holds. Only regular UTF-8 text files up to maxFSFileBytes are
// read or written; a write goes to a temporary file in the same directory
// that is renamed over the target (atomic: a crash leaves the old file),
// keeping the target's permission bits.

// maxFSFileBytes bounds a file the fs tools read or write.
const maxFSFileBytes = 4_000_000

// wsFile is a workspace file as the fs tools see it.
type wsFile struct {
	rel     string      // slash path relative to the workspace: what answers show
	exists  bool        //
	text    string      // its content (exists)
	mode    fs.FileMode // its permission bits (exists)
	version string      // contentVersion(text) (exists)
}

// contentVersion names a file's content: the observation policy compares
// it, and answers show it.
func contentVersion(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// fsRoot is the workspace opened for the fs tools of one call.
type fsRoot struct {
	root *os.Root
	dir  string // the workspace's absolute path
}

func openFSRoot(workspaceRoot string) (*fsRoot, error) {
	dir, err := filepath.Abs(workspaceRoot)
	if err != nil {
		return nil, Errorf(CodeWorkspaceInvalid, "workspace root %q: %v", workspaceRoot, err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, Errorf(CodeWorkspaceInvalid, "the workspace root %s cannot be opened: %v", dir, err)
	}
	return &fsRoot{root: r, dir: dir}, nil
}

func (r *fsRoot) Close() error { return r.root.Close() }

// rel turns a model's path (relative to the workspace, or absolute inside
// it) into a clean path relative to the workspace.
func (r *fsRoot) rel(path string) (string, error) {
	if strings.ContainsRune(path, 0) {
		return "", Errorf(CodeFSRejected, "the path contains a NUL character")
	}
	p := path
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(r.dir, filepath.Clean(p))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", Errorf(CodeFSRejected, "%s is outside the workspace %s; give a path inside it (relative paths are relative to it)", path, r.dir)
		}
		p = rel
	}
	p = filepath.Clean(p)
	if p == "." {
		return "", Errorf(CodeFSRejected, "%s is the workspace directory itself, not a file", path)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", Errorf(CodeFSRejected, "%s is outside the workspace %s", path, r.dir)
	}
	return filepath.ToSlash(p), nil
}

// abs is the absolute path of a workspace-relative path.
func (r *fsRoot) abs(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// read reads a file under the rules; a missing file is exists == false
// (not an error: write creates it).
func (r *fsRoot) read(path string) (wsFile, error) {
	rel, err := r.rel(path)
	if err != nil {
		return wsFile{}, err
	}
	f := wsFile{rel: rel}
	// O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
	// checked on the opened file, so a swap after a stat cannot fool it.
	file, err := r.root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return f, nil
		}
		return f, r.rejected(path, err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return f, r.rejected(path, err)
	}
	if !info.Mode().IsRegular() {
		return f, Errorf(CodeFSRejected, "%s is not a regular file (%s); the fs tools read and write text files only", rel, fileKind(info.Mode()))
	}
	if info.Size() > maxFSFileBytes {
		return f, Errorf(CodeFSRejected, "%s is %d bytes, over the %d-byte limit of the fs tools", rel, info.Size(), maxFSFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(file, maxFSFileBytes+1))
	if err != nil {
		return f, r.rejected(path, err)
	}
	if len(data) > maxFSFileBytes {
		return f, Errorf(CodeFSRejected, "%s grew over the %d-byte limit of the fs tools while it was read", rel, maxFSFileBytes)
	}
	if !utf8.Valid(data) {
		return f, Errorf(CodeFSRejected, "%s is not UTF-8 text; the fs tools read and write UTF-8 text files only", rel)
	}
	f.exists, f.text, f.mode, f.version = true, string(data), info.Mode().Perm(), contentVersion(string(data))
	return f, nil
}

// beforeRename is a test hook run between writing the temporary file and
// renaming it over the target; beforeRemove one run before writeAll
// deletes a file.
var (
	beforeRename = func(tmpAbs string) error { return nil }
	beforeRemove = func(rel string) error { return nil }
)

// write replaces (or creates) a file atomically: a temporary file in the
// same directory, synced, given the old file's permission bits (0644 for
// a new file, less the umask), then renamed over the target. A write
// through a symlink is refused: renaming would replace the link, not the
// file it names.
func (r *fsRoot) write(f wsFile, text string) error {
	if len(text) > maxFSFileBytes {
		return Errorf(CodeFSInvalidArgument, "the content is %d bytes, over the %d-byte limit of the fs tools", len(text), maxFSFileBytes)
	}
	if !utf8.ValidString(text) {
		return Errorf(CodeFSInvalidArgument, "the content is not valid UTF-8")
	}
	if info, err := r.root.Lstat(f.rel); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		target, _ := r.root.Readlink(f.rel)
		return Errorf(CodeFSRejected, "%s is a symbolic link (to %s); write the file it points to instead", f.rel, target)
	}
	dir := filepath.Dir(filepath.FromSlash(f.rel))
	if dir != "." {
		if err := r.root.MkdirAll(dir, 0o755); err != nil {
			return r.rejected(f.rel, err)
		}
	}
	tmp, err := r.writeTemp(f, text)
	if err == nil {
		err = beforeRename(r.abs(tmp))
		if err == nil {
			err = r.root.Rename(tmp, f.rel)
		}
		if err != nil {
			r.root.Remove(tmp)
		}
	}
	if err != nil {
		return Errorf(CodeFSRejected, "writing %s failed (the file is unchanged): %v", f.rel, err)
	}
	return nil
}

// writeTemp writes text to a new temporary file beside f, synced, with
// f's permission bits (0644 for a new file, less the umask), and returns
// its workspace-relative name; nothing is left behind on failure.
func (r *fsRoot) writeTemp(f wsFile, text string) (string, error) {
	dir := filepath.Dir(filepath.FromSlash(f.rel))
	mode := fs.FileMode(0o644)
	if f.exists {
		mode = f.mode
	}
	tmp, file, err := r.createTemp(dir, filepath.Base(f.rel), mode)
	if err != nil {
		return "", err
	}
	if _, err = io.WriteString(file, text); err == nil {
		err = file.Sync()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil && f.exists {
		err = r.root.Chmod(tmp, mode) // the umask may have narrowed it
	}
	if err != nil {
		r.root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// createTemp creates a new hidden temporary file beside name.
func (r *fsRoot) createTemp(dir, name string, mode fs.FileMode) (string, *os.File, error) {
	for i := 0; ; i++ {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.lspseam-%d-%d.tmp", name, os.Getpid(), i))
		file, err := r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err == nil {
			return tmp, file, nil
		}
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return "", nil, err
		}
	}
}

// rejected explains an os.Root failure: an escape, a missing directory,
// a permission.
func (r *fsRoot) rejected(path string, err error) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if strings.Contains(err.Error(), "escapes") || strings.Contains(msg, "path escapes from parent") {
		return Errorf(CodeFSRejected, "%s leads outside the workspace %s (through `..` or a symbolic link); only files inside it can be read or written", path, r.dir)
	}
	return Errorf(CodeFSRejected, "%s: %s", path, msg)
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
