package toolbox

import (
	"context"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Uses through symbolic links, which a server does not list
// (workspacefs/links.go says why).

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

// linksToFile is the workspace's links that lead to the file rel (relative
// to it) or a directory holding it: from known when it is complete (no
// walk), else by walking.
func linksToFile(ctx context.Context, known knownLinks, r *workspacefs.Root, rel string) []string {
	return r.LinksTo(ctx, rel, known.abs, known.complete)
}

// linkedUsesNotice is what an answer listing the uses of a declaration in
// the file rel says when the workspace also reaches that file through
// symbolic links ("" when it does not).
func linkedUsesNotice(ctx context.Context, known knownLinks, r *workspacefs.Root, rel string) string {
	return workspacefs.LinkedUsesNotice(rel, linksToFile(ctx, known, r, rel))
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
