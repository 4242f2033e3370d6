package toolbox

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// A file the workspace also reaches through a symbolic link (pkg/link.py
// → other/real.py, or a linked directory holding it) is two files to a
// language server: pyright and tsserver answer the references of a
// declaration opened at its real path without the uses that import it
// through the link, and with no sign that any are missing. lspseam opens
// a file at its real path (workspacefs.Root.Resolve), so an answer that
// must not miss a use (code_delete's "nothing uses it") first looks for
// such links, and an answer that lists uses (references, callers, a
// rename's edits, a change's dependents) says they are not all there.

// knownLinks is the workspace's symbolic links as a session keeps them
// (lspseam.SymbolicLinkLister), taken while the session is held: a search
// for the links to a file may go on beside the session's requests.
type knownLinks struct {
	abs      []string
	complete bool // false: the session keeps none, or not all; walk
}

func linksOf(s lspseam.Session) knownLinks {
	lister, ok := s.(lspseam.SymbolicLinkLister)
	if !ok {
		return knownLinks{}
	}
	abs, complete := lister.SymbolicLinks()
	return knownLinks{abs, complete}
}

// linksToFile is linksTo for the file rel (relative to the workspace):
// from known when it is complete (no walk), else by walking.
func linksToFile(ctx context.Context, known knownLinks, r *workspacefs.Root, rel string) []string {
	real := r.Resolve(rel)
	if !known.complete {
		return linksTo(ctx, r, real)
	}
	var links []string
	for _, abs := range known.abs {
		link, err := r.Rel(abs)
		if err != nil || inSkippedDir(link) {
			continue
		}
		if to := r.Resolve(link); to != link && (to == real || strings.HasPrefix(real, to+"/")) {
			links = append(links, link)
		}
	}
	return links
}

// inSkippedDir reports whether a slash path relative to the workspace is
// below a directory the census (and linksTo's walk) leaves out.
func inSkippedDir(rel string) bool {
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if skippedDir(d) {
			return true
		}
	}
	return false
}

// linkedUsesNotice is what an answer listing the uses of a declaration in
// the file rel says when the workspace also reaches that file through
// symbolic links ("" when it does not).
func linkedUsesNotice(ctx context.Context, known knownLinks, r *workspacefs.Root, rel string) string {
	links := linksToFile(ctx, known, r, rel)
	if len(links) == 0 {
		return ""
	}
	return "the workspace also reaches " + rel + " through the symbolic " + plural(len(links), "link", "links") + " " + core.Listed(links, 8) + ", and a server takes a file under each of its paths as another file: uses through " + plural(len(links), "that link", "those links") + " are not listed"
}

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

// linkedUsesNoticeIn is linkedUsesNotice in the workspace ws, for an
// answer made in the session s.
func (t *Toolbox) linkedUsesNoticeIn(ctx context.Context, s lspseam.Session, ws, rel string) string {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return ""
	}
	defer r.Close()
	return linkedUsesNotice(ctx, linksOf(s), r, rel)
}
