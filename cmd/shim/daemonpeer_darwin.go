package main

import (
	"io/fs"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// daemonSupported: the daemon runs on Linux and macOS, where a Unix
// socket tells the listener its peer's user.
const daemonSupported = true

// peerUID is the user of the process at the other end of c
// (LOCAL_PEERCRED: the credentials the kernel recorded at connect).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if credErr != nil {
		return 0, credErr
	}
	return int(cred.Uid), nil
}

// fileOwner is the user owning fi's file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
