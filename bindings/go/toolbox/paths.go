package toolbox

import (
	"path/filepath"
	"slices"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Paths in answers: a host path as the workspace-relative path a model
// reads (a URI is workspacefs.FileURI's).

// relTo is p relative to dir, slash-separated, when inside it; else p.
func relTo(dir, p string) string {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

func relOf(r *workspacefs.Root, abs string) string {
	if rel, err := r.Rel(abs); err == nil {
		return rel
	}
	return abs
}

// workspaceRelative gives the call's paths in the one form every check
// of a tool compares (the links to a file, the files a build excludes,
// the observations of a file, the echoed target): relative to the
// workspace and clean (workspacefs.Root.Rel), so an absolute path inside
// the workspace, ./x and x/../x are x to every tool. A path Rel refuses
// (outside the workspace) stays as given, for the tool's own error.
func workspaceRelative(call lspseam.CodeCall, ws string) lspseam.CodeCall {
	if call.Path == "" && call.NewPath == "" && len(call.Edits) == 0 {
		return call
	}
	r, err := workspacefs.Open(ws)
	if err != nil {
		return call
	}
	defer r.Close()
	rel := func(p string) string {
		// A path ending with a separator names a directory: left as
		// written for the tool to refuse (cleaning would drop the
		// separator, and a write would create a file of that name).
		if p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)) {
			return p
		}
		if out, err := r.Rel(p); err == nil {
			return out
		}
		return p
	}
	call.Path, call.NewPath = rel(call.Path), rel(call.NewPath)
	if call.Target != nil {
		target := *call.Target
		target.Path = rel(target.Path)
		call.Target = &target
	}
	if len(call.Edits) > 0 {
		edits := slices.Clone(call.Edits)
		for i := range edits {
			edits[i].Target.Path = rel(edits[i].Target.Path)
		}
		call.Edits = edits
	}
	return call
}
