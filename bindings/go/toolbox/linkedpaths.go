package toolbox

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// A file the workspace also reaches through a symbolic link (pkg/link.py
// → other/real.py, or a linked directory holding it) is two files to a
// language server: pyright and tsserver answer the references of a
// declaration opened at its real path without the uses that import it
// through the link, and with no sign that any are missing. lspseam opens
// a file at its real path (workspacefs.Root.Resolve), so an answer that
// must not miss a use (code_delete's "nothing uses it") first looks for
// such links.

// linksTo is the workspace's symbolic links (slash paths relative to it)
// that lead to the file real (a path relative to the workspace with its
// links resolved) or to a directory holding it. One walk that does not
// follow links, with the census's bounds: hidden and dependency
// directories are skipped (a package manager's links into node_modules
// are resolved by the servers themselves), and at most maxWalkEntries
// entries are looked at.
func linksTo(ctx context.Context, r *workspacefs.Root, real string) []string {
	var links []string
	seen := 0
	filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		seen++
		if seen > maxWalkEntries || ctx.Err() != nil {
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != r.Dir && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, err := filepath.Rel(r.Dir, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if to := r.Resolve(rel); to != rel && (to == real || strings.HasPrefix(real, to+"/")) {
			links = append(links, rel)
		}
		return nil
	})
	return links
}
