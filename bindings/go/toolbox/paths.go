package toolbox

import (
	"path/filepath"
	"strings"

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
