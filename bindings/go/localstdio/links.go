package localstdio

import (
	"context"
	"sort"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The workspace's symbolic links, from the watcher's index.
//
// A file the workspace also reaches through a symbolic link is two files
// to a language server (workspacefs/links.go): an answer about uses of a
// declaration in it must say that uses through the link are not listed.
// Finding the links takes a walk of the workspace, tens of milliseconds
// on a large one, for every such answer; the watcher has walked it
// already and sees every entry created or removed since, so it keeps the
// links as it goes and a session lists them as of its freshness barrier.

// noteLink records whether the entry at path (absolute, just read) is a
// symbolic link, with w.mu held.
func (w *workspaceWatcher) noteLink(path string, isLink bool) {
	if isLink && workspacefs.Inside(w.root, path) { // an outside tree's links are not the workspace's
		w.links[path] = struct{}{}
	} else {
		delete(w.links, path)
	}
}

// symbolicLinks returns the absolute paths of the symbolic links in the
// workspace, sorted, and whether that is all of them: not while polling
// (a rescan keeps no entry types) or when the index was cut at
// maxTreeEntries.
func (w *workspaceWatcher) symbolicLinks() ([]string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.polling || w.truncated {
		return nil, false
	}
	out := make([]string, 0, len(w.links))
	for p := range w.links {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, true
}

// SymbolicLinks implements lspseam.SymbolicLinkLister: the workspace's
// links as of the turn's freshness barrier.
func (ss *session) SymbolicLinks() ([]string, bool) {
	sub := ss.inst().sub
	if sub == nil || sub.w == nil {
		return nil, false
	}
	return sub.w.symbolicLinks()
}

// linkedUsesNotice is the lsp tool's incomplete notice for a references
// or implementation answer about path when symbolic links in the
// workspace lead to it ("" none; workspacefs.LinksTo). Nothing is opened
// or walked while the watcher lists no link.
func (in *instance) linkedUsesNotice(ctx context.Context, path string) string {
	var known []string
	complete := false
	if in.sub != nil && in.sub.w != nil {
		known, complete = in.sub.w.symbolicLinks()
	}
	if complete && len(known) == 0 {
		return ""
	}
	r, err := workspacefs.Open(in.ws.Path)
	if err != nil {
		return ""
	}
	defer r.Close()
	rel, err := r.Rel(path)
	if err != nil {
		return ""
	}
	return workspacefs.LinkedUsesNotice(rel, r.LinksTo(ctx, rel, known, complete))
}
