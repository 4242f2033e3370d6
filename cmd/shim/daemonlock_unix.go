//go:build linux || darwin

package main

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// tryLockFile takes the exclusive lock of the file at path (creating it),
// held until the returned file is closed, or reports errLockHeld when
// another process holds it. The kernel lets go of the lock when the
// process dies, however it dies, so a daemon killed with SIGKILL leaves
// nothing that keeps the next from starting.
func tryLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errLockHeld
		}
		return nil, err
	}
	return f, nil
}

// daemonProcAttr makes a started daemon its own session leader, away from
// the client's terminal and process group.
func daemonProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
