package workspacefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Source opens through os.Root: the route outside Linux, and on Linux the
// one tests run beside openat2's (sourceOpener).
//
// os.Root opens a path relative to a directory handle one component at a
// time and refuses any step — "..", an absolute or escaping symlink — that
// would leave it, so no swap of a component for a symlink can make the
// open reach outside the workspace: the same guarantee as openat2's
// RESOLVE_BENEATH, kept by the Go runtime rather than the kernel. What
// os.Root does not give is the opened file's canonical path, which names
// the document to the server; it is resolved before the open and checked
// after it: the open file must be the file the resolved path names then
// (os.SameFile), else the path changed in between and the caller is told
// to try again, as on Linux.

// openSourceRoot opens p beneath ws through os.Root.
func openSourceRoot(ws Workspace, p, filePath string) (*os.File, string, error) {
	real, err := resolveSource(ws, p, filePath)
	if err != nil {
		return nil, "", err
	}
	rel, err := filepath.Rel(ws.Path, real)
	if err != nil {
		return nil, "", rejected("%s cannot be resolved: %v", shownPath(filePath), cause(err))
	}
	root, err := os.OpenRoot(ws.Path)
	if err != nil {
		return nil, "", rejected("%s cannot be opened: the workspace %s cannot be: %v", shownPath(filePath), ws.Path, cause(err))
	}
	defer root.Close()
	f, err := root.OpenFile(rel, os.O_RDONLY|OpenNoFollow, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", rejected("%s is missing: no such file", shownPath(filePath))
		}
		if now, rerr := filepath.EvalSymlinks(p); rerr != nil || now != real {
			return nil, "", changedWhileOpening(filePath)
		}
		return nil, "", rejected("%s cannot be opened: %v", shownPath(filePath), cause(err))
	}
	opened, err := f.Stat()
	named, lerr := os.Lstat(real)
	if err != nil || lerr != nil || !os.SameFile(opened, named) {
		f.Close()
		return nil, "", changedWhileOpening(filePath)
	}
	return f, real, nil
}
