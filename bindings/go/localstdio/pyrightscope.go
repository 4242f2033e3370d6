package localstdio

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// What pyright does not look at when it is created or deleted.
//
// pyright (1.1.414's _shouldHandleSourceFileWatchChanges) acts on a file
// or directory created or deleted on disk only when it is one of its
// source files: under its configuration's include and not excluded —
// by the configuration's exclude, or, when it sets none, by pyright's own:
// **/node_modules, **/__pycache__, **/.* and **/__editable__.*, and every
// virtual environment (a directory holding pyvenv.cfg). For any other
// path it logs no "Found N source files", which the catch-up waited 5 s
// for (after every scratch file an agent wrote outside the include, and
// after every `pip install` into a .venv in the workspace), and it keeps
// resolving imports as before: an included file importing a module
// created outside the include kept "Import could not be resolved", and
// kept a deleted module's types, however long one waited. Told to read
// its settings again (catchUp), it enumerates and resolves anew and logs
// the signal.

// pyrightScope is what one pyright looks at, read once per catch-up.
type pyrightScope struct {
	root        string
	include     []string        // absolute; nil: the whole root (or an include with wildcards, not second-guessed)
	autoExclude bool            // the configuration sets no exclude: pyright's own apply
	venvs       map[string]bool // directory → holds pyvenv.cfg, as looked up
}

// pyrightScopeOf is the scope of in's server, nil when it is not a
// pyright.
func (in *instance) pyrightScopeOf() *pyrightScope {
	if in.neg.Readiness.ProjectInclude != core.ProjectIncludePyright {
		return nil
	}
	cfg := readPyrightConfig(in.root.Path, in.server.ID)
	return &pyrightScope{
		root:        in.root.Path,
		include:     cfg.includeDirs(in.root.Path),
		autoExclude: !cfg.excludeSet,
		venvs:       map[string]bool{},
	}
}

// ignores reports whether pyright does not look at path (absolute, under
// the root) when it is created or deleted. A configured exclude is not
// read: paths it names are waited for, as before.
func (sc *pyrightScope) ignores(path string) bool {
	if sc.include != nil && !coveredBy(sc.include, path) {
		return true
	}
	if !sc.autoExclude {
		return false
	}
	rel, err := filepath.Rel(sc.root, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	dir := sc.root
	for _, name := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__" || strings.HasPrefix(name, "__editable__.") {
			return true
		}
		if dir != sc.root && sc.isVenv(dir) {
			return true
		}
		dir = filepath.Join(dir, name)
	}
	return false
}

// isVenv reports whether dir is a virtual environment (holds pyvenv.cfg).
func (sc *pyrightScope) isVenv(dir string) bool {
	is, seen := sc.venvs[dir]
	if !seen {
		_, err := os.Lstat(filepath.Join(dir, "pyvenv.cfg"))
		is = err == nil
		sc.venvs[dir] = is
	}
	return is
}
