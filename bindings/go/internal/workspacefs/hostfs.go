package workspacefs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// The host filesystem boundary: the canonical workspace and the one source
// file each query may read.

// Workspace is a workspace directory with symlinks resolved. Its Path is
// the servers' working directory and its URI their rootUri, so symlink
// aliases of one directory share a server.
type Workspace struct {
	Path string // absolute, symlinks resolved
	URI  string // file: URI of Path
}

// canonicalRoots remembers workspace roots given in canonical form: every
// query names its workspace, and resolving it again costs a system call
// per path component. A remembered root is re-checked with one lstat (still
// a directory, not a symlink); a root given through a symlink is always
// resolved again.
var canonicalRoots sync.Map // string → Workspace

// CanonicalWorkspace resolves a workspace root, which must be an existing
// directory, and neither / nor the home directory (workspacescope.go).
func CanonicalWorkspace(root string) (Workspace, error) {
	if v, ok := canonicalRoots.Load(root); ok {
		if info, err := os.Lstat(root); err == nil && info.IsDir() {
			return v.(Workspace), nil
		}
		canonicalRoots.Delete(root)
	}
	ws, err := resolveWorkspace(root)
	if err == nil && ws.Path == root {
		canonicalRoots.Store(root, ws)
	}
	return ws, err
}

func resolveWorkspace(root string) (Workspace, error) {
	if strings.TrimSpace(root) == "" {
		return Workspace{}, lspseam.Errorf(lspseam.CodeWorkspaceRequired, "lsp needs the session's workspace root (the harness's working directory); none was given")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return Workspace{}, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q cannot be resolved: %v", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Workspace{}, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q does not exist or cannot be resolved; start the session in an existing project directory", root)
	}
	info, err := os.Stat(real)
	if err != nil || !info.IsDir() {
		return Workspace{}, lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q is not a directory; the workspace must be the project directory", root)
	}
	if err := refuseBroadWorkspace(root, real); err != nil {
		return Workspace{}, err
	}
	return Workspace{Path: real, URI: FileURI(real)}, nil
}

// Source is a validated source file read for one query.
type Source struct {
	Path string // canonical absolute path
	URI  string // file: URI of Path
	Text string
}

func rejected(format string, args ...any) error {
	return lspseam.Errorf(lspseam.CodeSourceRejected, format, args...)
}

// ReadSource resolves filePath (relative to the workspace, or absolute),
// checks that its canonical path is inside the workspace, and reads it.
//
// No path component can be swapped for an escaping symlink between the
// check and the open: the file is opened with openat2 relative to the
// workspace directory with RESOLVE_BENEATH, so the kernel itself refuses
// any resolution that leaves the workspace, and the canonical path is read
// back from the open handle. A path that needs an absolute symlink (which
// RESOLVE_BENEATH refuses even when it points inside) is resolved first,
// checked, and its resolved form opened beneath the workspace with no
// symlinks allowed at all, so a swap in between fails instead of escaping.
// The file is opened with O_NONBLOCK (a FIFO without a writer cannot block
// the open) and the regular-file, size and UTF-8 checks apply to exactly
// the bytes that are read. Kernels without openat2 (before 5.6) get the
// resolve-check-open route with O_NOFOLLOW on the last component only.
func ReadSource(ws Workspace, filePath string, maxBytes int64) (Source, error) {
	return readSource(sourceOpener, ws, filePath, maxBytes)
}

// sourceRoute opens the cleaned absolute path p of filePath beneath ws
// (openSourceOpenat2, openSourceRoot).
type sourceRoute func(ws Workspace, p, filePath string) (*os.File, string, error)

// readSource is ReadSource through one route: tests read through each
// route this platform has.
func readSource(route sourceRoute, ws Workspace, filePath string, maxBytes int64) (Source, error) {
	f, real, err := openSource(route, ws, filePath)
	if err != nil {
		return Source{}, err
	}
	defer f.Close()
	return readOpenSource(f, filePath, real, maxBytes)
}

// CheckSource applies the source rules that need no read — a usable path,
// inside the workspace after resolving symlinks, an existing regular file
// within maxBytes — with the same errors as ReadSource. Providers call it
// when a query arrives, so a query bound to be refused is refused before
// it joins a queue (and before a harness reports progress for it); the
// source is still read, and every rule applied again, at the query's turn.
func CheckSource(ws Workspace, filePath string, maxBytes int64) error {
	f, _, err := openSource(sourceOpener, ws, filePath)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = statSource(f, shownPath(filePath), maxBytes)
	return err
}

// openSource opens filePath for reading under the source rules (see
// ReadSource), returning the file and its canonical path.
func openSource(route sourceRoute, ws Workspace, filePath string) (*os.File, string, error) {
	if strings.IndexByte(filePath, 0) >= 0 || strings.TrimSpace(filePath) == "" {
		return nil, "", rejected("file_path %q is not a usable path", shownPath(filePath))
	}
	p := filePath
	if !filepath.IsAbs(p) {
		p = filepath.Join(ws.Path, p)
	}
	p = filepath.Clean(p)
	return route(ws, p, filePath)
}

// sourceOpener (hostfs_linux.go, hostfs_other.go) opens the cleaned
// absolute path p of filePath (as the caller wrote it, for errors)
// beneath ws: openat2 on Linux, os.Root (hostfs_root.go) elsewhere. Tests
// on Linux run the os.Root route too, by setting it.

// resolveSource resolves p's symlinks and checks that the result is inside
// the workspace: the check both routes make before opening a resolved
// path.
func resolveSource(ws Workspace, p, filePath string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", rejected("%s is missing: no such file (paths are relative to the workspace root %s, or absolute)", shownPath(filePath), ws.Path)
		}
		return "", rejected("%s cannot be resolved: %v", shownPath(filePath), cause(err))
	}
	if !Inside(ws.Path, real) {
		return "", rejected("%s is outside the workspace %s (after resolving symlinks it is %s); lsp only opens files inside the workspace", shownPath(filePath), ws.Path, shownPath(real))
	}
	return real, nil
}

// changedWhileOpening is the error for a path whose resolution changed
// between the check and the open.
func changedWhileOpening(filePath string) error {
	return rejected("%s changed (a directory became a symlink) while it was being opened; try again", shownPath(filePath))
}

// readOpenSource applies the source rules to an open file and reads it.
func readOpenSource(f *os.File, filePath, real string, maxBytes int64) (Source, error) {
	filePath = shownPath(filePath)
	info, err := statSource(f, filePath, maxBytes)
	if err != nil {
		return Source{}, err
	}
	data, err := readAllSized(io.LimitReader(f, maxBytes+1), info.Size())
	if err != nil {
		return Source{}, rejected("%s cannot be read: %v", filePath, cause(err))
	}
	if int64(len(data)) > maxBytes {
		return Source{}, rejected("%s is too large: over maxDocumentBytes %d; use a text search (grep) and read for it", filePath, maxBytes)
	}
	if !utf8.Valid(data) {
		return Source{}, rejected("%s is not UTF-8 text; language servers read UTF-8 source", filePath)
	}
	// data is this function's alone and never written again: the text
	// shares its bytes instead of copying them (a 2,000-line file is read
	// before every query on it).
	return Source{Path: real, URI: FileURI(real), Text: unsafe.String(unsafe.SliceData(data), len(data))}, nil
}

// readAllSized is io.ReadAll into a buffer of the size the file had when
// opened, plus one byte, so a file that did not change is read without
// growing and copying the buffer; one that grew meanwhile is still read
// whole.
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, max(size, 0)+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// statSource applies the rules an open file's metadata decides: a regular
// file within maxBytes. filePath is as errors show it.
func statSource(f *os.File, filePath string, maxBytes int64) (fs.FileInfo, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, rejected("%s cannot be inspected: %v", filePath, cause(err))
	}
	if !info.Mode().IsRegular() {
		return nil, rejected("%s is not a regular file (it is %s); lsp queries source files", filePath, describeMode(info.Mode()))
	}
	if info.Size() > maxBytes {
		return nil, rejected("%s is too large: %d bytes, over maxDocumentBytes %d; use a text search (grep) and read for it", filePath, info.Size(), maxBytes)
	}
	return info, nil
}

// maxEcho bounds how much of a caller's path an error message repeats: a
// 4 MB file_path must not come back as an 8 MB error.
const maxEcho = 200

// shownPath is a path as error messages show it: whole when short, else its
// first maxEcho bytes (on a character boundary) and its length.
func shownPath(p string) string {
	if len(p) <= maxEcho {
		return p
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return p[:cut] + "… (" + strconv.Itoa(len(p)) + " bytes)"
}

// cause is an error without the path it carries (a *PathError repeats
// it), so the message stays bounded.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Inside reports whether path is dir or below it (both canonical).
func Inside(dir, path string) bool {
	if path == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

// describeMode names what a file that is not a regular one is, for the
// refusals of source reads and of the fs tools.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}

// FileURI returns the file: URI of an absolute path of this OS,
// percent-encoding every byte outside RFC 3986's unreserved set and "/".
// It is the core's rule for this OS (core.PathRulesFor(runtime.GOOS):
// core.FileURI, or on Windows core.WindowsFileURI, file:///C:/x), so the
// URIs the host sends and the ones the core builds are the same strings.
func FileURI(path string) string { return HostPaths.FileURI(path) }
