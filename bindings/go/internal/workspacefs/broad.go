package workspacefs

import (
	"fmt"
	"os"
	"path/filepath"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// refuseBroadWorkspace returns LSP_WORKSPACE_INVALID when the canonical
// directory real is / or the home directory ($HOME, symlinks resolved).
// root is the workspace as it was given.
func refuseBroadWorkspace(root, real string) error {
	what := ""
	if real == string(filepath.Separator) {
		what = "the root of the file system"
	} else if home := homeDir(); home != "" && real == home {
		what = "the home directory " + home
	}
	if what == "" {
		return nil
	}
	if root != real {
		what = fmt.Sprintf("%s (%s)", real, what)
	}
	return lspseam.Errorf(lspseam.CodeWorkspaceInvalid, "workspace root %q is %s; lspseam watches every directory of its workspace and starts language servers on all of it, so the workspace must be a project directory: start lspseam with --workspace DIR naming the project (or from the project's directory; a harness passes the project as its workspace root)", root, what)
}

// homeDir is $HOME with symlinks resolved, or "" when it is unset,
// relative or cannot be resolved.
func homeDir() string {
	home := os.Getenv("HOME")
	if !filepath.IsAbs(home) {
		return ""
	}
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return ""
	}
	return real
}
