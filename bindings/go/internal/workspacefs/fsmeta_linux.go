package workspacefs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// copyMetadata gives dst the owner, group and extended attributes of src
// (both open). The owner first: changing it clears setuid and setgid,
// which the caller sets after. An attribute dst cannot be given is an
// error, unless dst already has it with the same value (a security label
// the kernel set alike).
func copyMetadata(dst, src *os.File) error {
	var sst, dstst unix.Stat_t
	if err := unix.Fstat(int(src.Fd()), &sst); err != nil {
		return err
	}
	if err := unix.Fstat(int(dst.Fd()), &dstst); err != nil {
		return err
	}
	if sst.Uid != dstst.Uid || sst.Gid != dstst.Gid {
		if err := dst.Chown(int(sst.Uid), int(sst.Gid)); err != nil {
			return &metadataError{fmt.Sprintf("owner %d:%d", sst.Uid, sst.Gid), errors.Unwrap(err)}
		}
	}
	names, err := listXattrs(src)
	if err != nil {
		if errors.Is(err, unix.ENOTSUP) {
			return nil
		}
		return err
	}
	for _, name := range names {
		val, err := getXattr(src, name)
		if err != nil {
			return err
		}
		if err := unix.Fsetxattr(int(dst.Fd()), name, val, 0); err != nil {
			if have, gerr := getXattr(dst, name); gerr == nil && bytes.Equal(have, val) {
				continue
			}
			return &metadataError{"extended attribute " + name, err}
		}
	}
	return nil
}

func listXattrs(f *os.File) ([]string, error) {
	for size := 256; ; size *= 4 {
		buf := make([]byte, size)
		n, err := unix.Flistxattr(int(f.Fd()), buf)
		if errors.Is(err, syscall.ERANGE) && size < 1<<20 {
			continue
		}
		if err != nil {
			return nil, err
		}
		var names []string
		for _, name := range strings.Split(string(buf[:n]), "\x00") {
			if name != "" {
				names = append(names, name)
			}
		}
		return names, nil
	}
}

func getXattr(f *os.File, name string) ([]byte, error) {
	for size := 256; ; size *= 4 {
		buf := make([]byte, size)
		n, err := unix.Fgetxattr(int(f.Fd()), name, buf)
		if errors.Is(err, syscall.ERANGE) && size < 1<<20 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}
