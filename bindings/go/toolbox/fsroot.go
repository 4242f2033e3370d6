package toolbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/writeset"
)

// The filesystem tools' file access (read, write, edit): every path is
// opened beneath the workspace through os.Root, which refuses `..` and
// symlinks that lead out of it at every step, so a model's path cannot
// reach outside the workspace however it is spelled or whatever links the
// workspace holds. A symbolic link whose target is inside the workspace
// is read and written through: the file changed is its target, and the
// link stays a link. Only regular UTF-8 text files up to maxFSFileBytes
// are read or written. Writes are fswrite.go's.

// maxFSFileBytes bounds a file the fs tools read or write.
const maxFSFileBytes = 4_000_000

// wsFile is a workspace file as the fs tools see it.
type wsFile struct {
	rel     string      // slash path relative to the workspace, as asked: what answers show
	real    string      // rel with the workspace's links resolved: the file read and written
	exists  bool        //
	text    string      // its content (exists)
	mode    fs.FileMode // its permission, setuid, setgid and sticky bits (exists)
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
	real string // dir with symlinks resolved: the key of its locks and journals
	// sets serializes and journals writes (fswrite.go); nil when the
	// state directory is unusable, and then setsErr says why.
	sets    *writeset.Store
	setsErr error
}

func openFSRoot(workspaceRoot string) (*fsRoot, error) {
	dir, err := filepath.Abs(workspaceRoot)
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q: %v", workspaceRoot, err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "the workspace root %s cannot be resolved: %v", dir, err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "the workspace root %s cannot be opened: %v", dir, err)
	}
	return &fsRoot{root: r, dir: dir, real: real}, nil
}

func (r *fsRoot) Close() error { return r.root.Close() }

// rel turns a model's path (relative to the workspace, or absolute inside
// it) into a clean path relative to the workspace.
func (r *fsRoot) rel(path string) (string, error) {
	if strings.ContainsRune(path, 0) {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "the path contains a NUL character")
	}
	p := path
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(r.dir, filepath.Clean(p))
		if err != nil || escapes(rel) {
			return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is outside the workspace %s; give a path inside it (relative paths are relative to it)", path, r.dir)
		}
		p = rel
	}
	p = filepath.Clean(p)
	if p == "." {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is the workspace directory itself, not a file", path)
	}
	if escapes(p) {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is outside the workspace %s", path, r.dir)
	}
	return filepath.ToSlash(p), nil
}

// escapes reports whether a clean relative path climbs out of its
// directory, in this OS's separators (..\x on Windows).
func escapes(rel string) bool {
	s := filepath.ToSlash(rel)
	return s == ".." || strings.HasPrefix(s, "../")
}

// reservedElement is the first element of the workspace-relative path rel
// (/-separated) that Windows cannot create as the file it names (a device
// name such as NUL or COM1, or a name ending in a dot or a space:
// core.ReservedWindowsName), under Windows rules; "" when there is none
// or the rules are not Windows'.
func reservedElement(rules core.PathRules, rel string) string {
	if !rules.Windows {
		return ""
	}
	for _, elem := range strings.Split(rel, "/") {
		if core.ReservedWindowsName(elem) {
			return elem
		}
	}
	return ""
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
	return r.readAt(path, rel, r.resolve(rel))
}

// readAt is read of rel (path as asked, for errors) at real, its resolved
// path as the caller resolved it: a writer reads the file at the path
// whose lock it holds, not at a path a link swapped since would give.
func (r *fsRoot) readAt(path, rel, real string) (wsFile, error) {
	f := wsFile{rel: rel, real: real}
	// O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
	// checked on the opened file, so a swap after a stat cannot fool it.
	file, err := r.root.OpenFile(filepath.FromSlash(f.real), os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is not a regular file (%s); the fs tools read and write text files only", rel, fileKind(info.Mode()))
	}
	if info.Size() > maxFSFileBytes {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is %d bytes, over the %d-byte limit of the fs tools", rel, info.Size(), maxFSFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(file, maxFSFileBytes+1))
	if err != nil {
		return f, r.rejected(path, err)
	}
	if len(data) > maxFSFileBytes {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s grew over the %d-byte limit of the fs tools while it was read", rel, maxFSFileBytes)
	}
	if !utf8.Valid(data) {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is not UTF-8 text; the fs tools read and write UTF-8 text files only", rel)
	}
	f.exists, f.text, f.mode, f.version = true, string(data), info.Mode()&keptModeBits, contentVersion(string(data))
	return f, nil
}

// keptModeBits are the mode bits a write keeps.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// resolve is rel with the workspace's symbolic links resolved, when they
// lead to a path inside the workspace (a file that does not exist yet
// resolves through its directory); otherwise rel itself, which os.Root
// then refuses to follow out. A link swapped after this cannot lead the
// write out either: every access still goes through os.Root.
func (r *fsRoot) resolve(rel string) string {
	abs := r.abs(rel)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		dir, derr := filepath.EvalSymlinks(filepath.Dir(abs))
		if derr != nil {
			return rel
		}
		real = filepath.Join(dir, filepath.Base(abs))
		if _, lerr := os.Lstat(real); lerr == nil {
			return rel // a dangling link: it stays what it is, and is refused
		}
	}
	out, err := filepath.Rel(r.real, real)
	if err != nil || out == "." || out == ".." || strings.HasPrefix(out, ".."+string(filepath.Separator)) {
		return rel
	}
	return filepath.ToSlash(out)
}

// rejected explains an os.Root failure: an escape, a missing directory,
// a permission.
func (r *fsRoot) rejected(path string, err error) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if strings.Contains(err.Error(), "escapes") || strings.Contains(msg, "path escapes from parent") {
		return lspseam.Errorf(lspseam.CodeFSRejected, "%s leads outside the workspace %s (through `..` or a symbolic link); only files inside it can be read or written", path, r.dir)
	}
	return lspseam.Errorf(lspseam.CodeFSRejected, "%s: %s", path, msg)
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
