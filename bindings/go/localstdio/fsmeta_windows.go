package localstdio

import (
	"io/fs"
	"os"
)

// Windows file metadata: what the Unix checks use has no equivalent the
// portable API exposes; each function says what that weakens.

// fileOwner is unknown on Windows (ACLs, not a uid): the search-directory
// ownership check (config.go unsafeDir) relies on the write-permission
// check alone there.
func fileOwner(info fs.FileInfo) (uid uint32, ok bool) { return 0, false }

// fileID is unknown (0): the watcher tells changes by size, time and,
// for recent files, content.
func fileID(info fs.FileInfo) uint64 { return 0 }

// writableDir reports whether dir is a writable directory, by its mode.
func writableDir(dir string) bool {
	info, err := os.Stat(dir)
	return err == nil && info.IsDir() && info.Mode().Perm()&0o200 != 0
}
