//go:build unix

package localstdio

import (
	"io/fs"
	"syscall"
)

// Unix file metadata the portable API does not give.

// fileOwner is the owning user of info's file.
func fileOwner(info fs.FileInfo) (uid uint32, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}

// fileID is info's inode number (0: unknown), which tells a replaced file
// from one edited in place.
func fileID(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// writableDir reports whether this process may create files in dir.
func writableDir(dir string) bool { return syscall.Access(dir, 2 /* W_OK */) == nil }
