package localstdio

import "github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

// The host filesystem boundary — the canonical workspace and the one
// source file each query may read — is workspacefs's, which also owns the
// fs tools' and the applier's reads and writes: one owner of what a
// workspace path may reach. These are its forms for this package's users.

// Workspace is a workspace directory with symlinks resolved. Its Path is
// the servers' working directory and its URI their rootUri, so symlink
// aliases of one directory share a server.
type Workspace = workspacefs.Workspace

// Source is a validated source file read for one query.
type Source = workspacefs.Source

// CanonicalWorkspace resolves a workspace root, which must be an existing
// directory, and neither / nor the home directory.
func CanonicalWorkspace(root string) (Workspace, error) { return workspacefs.CanonicalWorkspace(root) }

// ReadSource reads filePath (absolute, or relative to the workspace) for a
// query: a regular UTF-8 file of at most maxBytes inside the workspace,
// symlinks resolved and checked (workspacefs.ReadSource).
func ReadSource(ws Workspace, filePath string, maxBytes int64) (Source, error) {
	return workspacefs.ReadSource(ws, filePath, maxBytes)
}

// CheckSource checks, without reading it, that ReadSource would accept
// filePath.
func CheckSource(ws Workspace, filePath string, maxBytes int64) error {
	return workspacefs.CheckSource(ws, filePath, maxBytes)
}

// FileURI is path's file: URI on this host.
func FileURI(path string) string { return workspacefs.FileURI(path) }
