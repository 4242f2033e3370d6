package workspacefs

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
// link stays a link. Only regular UTF-8 text files up to MaxFileBytes
// are read or written. Writes are fswrite.go's.

// MaxFileBytes bounds a file the fs tools read or write.
const MaxFileBytes = 4_000_000

// File is a workspace file as the fs tools see it.
type File struct {
	Rel     string      // slash path relative to the workspace, as asked: what answers show
	Real    string      // rel with the workspace's links resolved: the file read and written
	Exists  bool        //
	Text    string      // its content (exists)
	Mode    fs.FileMode // its permission, setuid, setgid and sticky bits (exists)
	Version string      // ContentVersion(text) (exists)
}

// ContentVersion names a file's content: the observation policy compares
// it, and answers show it.
func ContentVersion(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:8])
}

// Root is the workspace opened for the fs tools of one call.
type Root struct {
	root *os.Root
	Dir  string // the workspace's absolute path
	Real string // dir with symlinks resolved: the key of its locks and journals
	// sets serializes and journals writes (fswrite.go); nil when the
	// state directory is unusable, and then setsErr says why.
	sets    *writeset.Store
	setsErr error
}

func Open(workspaceRoot string) (*Root, error) {
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
	return &Root{root: r, Dir: dir, Real: real}, nil
}

// UseWriteSets sets the cross-process store every write goes through
// (fswrite.go); err says why there is none (the state directory is
// unusable), and a write then fails with it.
func (r *Root) UseWriteSets(store *writeset.Store, err error) { r.sets, r.setsErr = store, err }

func (r *Root) Close() error { return r.root.Close() }

// Rel turns a model's path (relative to the workspace, or absolute inside
// it) into a clean path relative to the workspace: the one form every
// check of a path (the links to a file, the files a build excludes, the
// observations) compares, so an absolute path, ./x and x/../x are the
// same file as x. An absolute path is inside when it is below the
// workspace as given (Dir), as resolved (Real, the form servers' URIs
// take), or below another path that resolves to it (a symbolic link to
// the workspace); the part below the workspace keeps its own links.
func (r *Root) Rel(path string) (string, error) {
	if strings.ContainsRune(path, 0) {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "the path contains a NUL character")
	}
	p := path
	if filepath.IsAbs(p) {
		rel, ok := r.below(filepath.Clean(p))
		if !ok {
			return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is outside the workspace %s; give a path inside it (relative paths are relative to it)", path, r.Dir)
		}
		p = rel
	}
	p = filepath.Clean(p)
	if p == "." {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is the workspace directory itself, not a file", path)
	}
	if Escapes(p) {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s is outside the workspace %s", path, r.Dir)
	}
	return filepath.ToSlash(p), nil
}

// fileRel is Rel of a path that must name a file: one ending with a path
// separator names a directory (Rel's cleaning drops it, so "a.go/" read
// a.go, and a write of "new/" would have created a file named new).
func (r *Root) fileRel(path string) (string, error) {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return "", lspseam.Errorf(lspseam.CodeFSRejected, "%s ends with a path separator, so it names a directory, not a file; give the file's path without it", path)
	}
	return r.Rel(path)
}

// below is the clean absolute path p relative to the workspace, and
// whether it is inside: below Dir or Real as written, else below the
// nearest directory above it that resolves to Real (a system call per
// directory, only for a path neither names).
func (r *Root) below(p string) (string, bool) {
	for _, dir := range []string{r.Dir, r.Real} {
		if rel, err := filepath.Rel(dir, p); err == nil && !Escapes(rel) {
			return rel, true
		}
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil && real == r.Real {
			rel, err := filepath.Rel(d, p)
			return rel, err == nil
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// Escapes reports whether a clean relative path climbs out of its
// directory, in this OS's separators (..\x on Windows).
func Escapes(rel string) bool {
	s := filepath.ToSlash(rel)
	return s == ".." || strings.HasPrefix(s, "../")
}

// ReservedElement is the first element of the workspace-relative path rel
// (/-separated) that Windows cannot create as the file it names (a device
// name such as NUL or COM1, or a name ending in a dot or a space:
// core.ReservedWindowsName), under Windows rules; "" when there is none
// or the rules are not Windows'.
func ReservedElement(rules core.PathRules, rel string) string {
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
// Lstat is the file at rel (slash, workspace-relative) without following
// a final symbolic link.
func (r *Root) Lstat(rel string) (fs.FileInfo, error) { return r.root.Lstat(filepath.FromSlash(rel)) }

func (r *Root) Abs(rel string) string { return filepath.Join(r.Dir, filepath.FromSlash(rel)) }

// Read reads a file under the rules; a missing file is exists == false
// (not an error: write creates it).
func (r *Root) Read(path string) (File, error) {
	rel, err := r.fileRel(path)
	if err != nil {
		return File{}, err
	}
	return r.ReadAt(path, rel, r.Resolve(rel))
}

// ReadAt is read of rel (path as asked, for errors) at real, its resolved
// path as the caller resolved it: a writer reads the file at the path
// whose lock it holds, not at a path a link swapped since would give.
func (r *Root) ReadAt(path, rel, real string) (File, error) {
	f := File{Rel: rel, Real: real}
	// O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
	// checked on the opened file, so a swap after a stat cannot fool it.
	file, err := r.root.OpenFile(filepath.FromSlash(f.Real), os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is not a regular file (%s); the fs tools read and write text files only", rel, describeMode(info.Mode()))
	}
	if info.Size() > MaxFileBytes {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is %d bytes, over the %d-byte limit of the fs tools", rel, info.Size(), MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(file, MaxFileBytes+1))
	if err != nil {
		return f, r.rejected(path, err)
	}
	if len(data) > MaxFileBytes {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s grew over the %d-byte limit of the fs tools while it was read", rel, MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return f, lspseam.Errorf(lspseam.CodeFSRejected, "%s is not UTF-8 text; the fs tools read and write UTF-8 text files only", rel)
	}
	f.Exists, f.Text, f.Mode, f.Version = true, string(data), info.Mode()&KeptModeBits, ContentVersion(string(data))
	return f, nil
}

// KeptModeBits are the mode bits a write keeps.
const KeptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Resolve is rel with the workspace's symbolic links resolved, when they
// lead to a path inside the workspace (a file that does not exist yet
// resolves through its directory); otherwise rel itself, which os.Root
// then refuses to follow out. A link swapped after this cannot lead the
// write out either: every access still goes through os.Root.
func (r *Root) Resolve(rel string) string {
	abs := r.Abs(rel)
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
	out, err := filepath.Rel(r.Real, real)
	if err != nil || out == "." || out == ".." || strings.HasPrefix(out, ".."+string(filepath.Separator)) {
		return rel
	}
	return filepath.ToSlash(out)
}

// rejected explains an os.Root failure: an escape, a missing directory,
// a permission.
func (r *Root) rejected(path string, err error) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if strings.Contains(err.Error(), "escapes") || strings.Contains(msg, "path escapes from parent") {
		return lspseam.Errorf(lspseam.CodeFSRejected, "%s leads outside the workspace %s (through `..` or a symbolic link); only files inside it can be read or written", path, r.Dir)
	}
	return lspseam.Errorf(lspseam.CodeFSRejected, "%s: %s", path, msg)
}
