//go:build linux || darwin

package main

import (
	"io/fs"
	"syscall"
)

// daemonSupported: the daemon runs on Linux and macOS, where a Unix
// socket tells the listener its peer's user (peerUID, one file per
// system).
const daemonSupported = true

// fileOwner is the user owning fi's file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
