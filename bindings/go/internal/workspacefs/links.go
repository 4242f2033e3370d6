package workspacefs

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// Symbolic links that lead to a file.
//
// A file the workspace also reaches through a symbolic link (pkg/link.py
// → other/real.py, or a linked directory holding it) is two files to a
// language server: pyright and tsserver answer the references of a
// declaration opened at its real path without the uses that import it
// through the link, and with no sign that any are missing. lspseam opens
// a file at its real path (Root.Resolve), so an answer that must not miss
// a use (code_delete's "nothing uses it") first looks for such links, and
// an answer that lists uses (references, callers, a rename's edits, a
// change's dependents) says they are not all there.

// maxLinkWalkEntries bounds LinksTo's walk, as a census is bounded.
const maxLinkWalkEntries = 50_000

// SkippedDir reports whether a walk of the workspace's own source leaves
// a directory out: hidden ones (.git, .venv, .cache), and those that hold
// dependencies or generated files rather than the workspace's own source
// (node_modules, vendor, __pycache__, virtual environments). A package
// manager's links there are resolved by the servers themselves.
func SkippedDir(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch name {
	case "node_modules", "bower_components", "jspm_packages", "vendor", "__pycache__", "venv", "site-packages":
		return true
	}
	return false
}

// LinksTo returns the workspace's symbolic links (slash paths relative to
// it) that lead to the file rel (a path relative to the workspace) or to
// a directory holding it, outside the directories SkippedDir leaves out.
// known, when complete, is every link of the workspace (absolute paths,
// as a file watcher keeps them): nothing is walked. Otherwise one walk
// that does not follow links looks at most maxLinkWalkEntries entries.
func (r *Root) LinksTo(ctx context.Context, rel string, known []string, complete bool) []string {
	if complete && len(known) == 0 {
		return nil
	}
	real := r.Resolve(rel)
	var links []string
	leadsThere := func(link string) {
		if to := r.Resolve(link); to != link && (to == real || strings.HasPrefix(real, to+"/")) {
			links = append(links, link)
		}
	}
	if complete {
		for _, abs := range known {
			if link, err := r.Rel(abs); err == nil && !inSkippedDir(link) {
				leadsThere(link)
			}
		}
		return links
	}
	seen := 0
	filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		seen++
		if seen > maxLinkWalkEntries || ctx.Err() != nil {
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != r.Dir && SkippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if link, err := filepath.Rel(r.Dir, p); err == nil {
			leadsThere(filepath.ToSlash(link))
		}
		return nil
	})
	return links
}

// inSkippedDir reports whether a slash path relative to the workspace is
// below a directory SkippedDir leaves out.
func inSkippedDir(rel string) bool {
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if SkippedDir(d) {
			return true
		}
	}
	return false
}

// LinkedUsesNotice is what an answer listing the uses of a declaration in
// the file rel says of links, the links to it LinksTo found ("" none).
func LinkedUsesNotice(rel string, links []string) string {
	if len(links) == 0 {
		return ""
	}
	one := len(links) == 1
	return "the workspace also reaches " + rel + " through the symbolic " + pick(one, "link", "links") + " " + core.Listed(links, 8) + ", and a server takes a file under each of its paths as another file: uses through " + pick(one, "that link", "those links") + " are not listed"
}

func pick(one bool, singular, plural string) string {
	if one {
		return singular
	}
	return plural
}
