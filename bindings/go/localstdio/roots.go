package localstdio

import (
	"os"
	"path/filepath"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Project roots: in a monorepo, a server started at the workspace root may
// not see the projects below it (two Go modules without a go.work, two
// TypeScript projects with their own tsconfig.json). A server entry's
// rootMarkers name the files that mark a project; a file's server runs in
// the nearest ancestor directory of the file, inside the workspace, that
// holds any marker — the workspace itself when none does. One process runs
// per (server, workspace, root).

// projectRoot returns the root for filePath in ws. It only inspects
// directory entries; the file itself is read later under the source rules,
// which reject it if it is outside the workspace (the root is then the
// workspace, and nothing starts).
func projectRoot(ws Workspace, filePath string, markers []string) Workspace {
	if len(markers) == 0 {
		return ws
	}
	p := filePath
	if !filepath.IsAbs(p) {
		p = filepath.Join(ws.Path, p)
	}
	dir := filepath.Dir(filepath.Clean(p))
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if !workspacefs.Inside(ws.Path, dir) {
		return ws
	}
	for {
		for _, m := range markers {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				if dir == ws.Path {
					return ws
				}
				return Workspace{Path: dir, URI: FileURI(dir)}
			}
		}
		if dir == ws.Path {
			return ws
		}
		dir = filepath.Dir(dir)
	}
}
