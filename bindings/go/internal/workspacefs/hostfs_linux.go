package workspacefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Source opens on Linux: openat2 with RESOLVE_BENEATH (see ReadSource).

// sourceOpener is openat2's route; tests read through os.Root's too
// (readSource).
var sourceOpener sourceRoute = openSourceOpenat2

// openSourceOpenat2 opens p beneath ws with openat2: the kernel refuses any
// resolution that leaves the workspace. A path that needs an absolute
// symlink (which RESOLVE_BENEATH refuses even when it points inside) is
// resolved first, checked, and its resolved form opened beneath the
// workspace with no symlinks allowed at all, so a swap in between fails
// instead of escaping. Kernels without openat2 (before 5.6) get the
// resolve-check-open route with O_NOFOLLOW on the last component only.
func openSourceOpenat2(ws Workspace, p, filePath string) (*os.File, string, error) {
	if Inside(ws.Path, p) {
		// Most paths have no symlink: opened with none allowed, the file's
		// canonical path is p itself (ws.Path is canonical), and the
		// kernel need not be asked for it (openBeneath's readlink).
		if fd, err := openAt(ws, p, unix.RESOLVE_BENEATH|unix.RESOLVE_NO_SYMLINKS); err == nil {
			return os.NewFile(uintptr(fd), p), p, nil
		}
		f, real, err := openBeneath(ws, p, unix.RESOLVE_BENEATH|unix.RESOLVE_NO_MAGICLINKS)
		if err == nil {
			return f, real, nil
		}
	}
	real, err := resolveSource(ws, p, filePath)
	if err != nil {
		return nil, "", err
	}
	f, _, err := openBeneath(ws, real, unix.RESOLVE_BENEATH|unix.RESOLVE_NO_SYMLINKS)
	if errors.Is(err, unix.ENOSYS) {
		f, err = os.OpenFile(real, os.O_RDONLY|OpenNoFollow, 0)
	}
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EXDEV) {
			return nil, "", changedWhileOpening(filePath)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", rejected("%s is missing: no such file", shownPath(filePath))
		}
		return nil, "", rejected("%s cannot be opened: %v", shownPath(filePath), cause(err))
	}
	return f, real, nil
}

// openAt opens path, which is inside ws, with openat2 relative to the
// workspace directory under the given resolve flags, and returns the
// descriptor (non-blocking: a FIFO must not hang the open).
func openAt(ws Workspace, path string, resolve uint64) (int, error) {
	rel, err := filepath.Rel(ws.Path, path)
	if err != nil {
		return -1, err
	}
	dir, err := unix.Open(ws.Path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dir)
	return unix.Openat2(dir, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY,
		Resolve: resolve,
	})
}

// openBeneath opens path, which is inside ws, with openat2 relative to the
// workspace directory under the given resolve flags, and returns the file
// and its canonical path as the kernel names the open file.
func openBeneath(ws Workspace, path string, resolve uint64) (*os.File, string, error) {
	fd, err := openAt(ws, path, resolve)
	if err != nil {
		return nil, "", err
	}
	f := os.NewFile(uintptr(fd), path)
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil || !Inside(ws.Path, real) {
		f.Close()
		if err == nil {
			err = unix.EXDEV
		}
		return nil, "", err
	}
	return f, real, nil
}
