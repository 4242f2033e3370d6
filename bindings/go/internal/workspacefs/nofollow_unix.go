//go:build unix

package workspacefs

import "syscall"

// OpenNoFollow are the flags that open the last path component only if it
// is not a symlink, without blocking on a FIFO, and not inherited by
// servers.
const OpenNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
