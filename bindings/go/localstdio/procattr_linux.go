package localstdio

import "syscall"

// serverProcAttr starts a server as the leader of its own process group
// (proctree_unix.go), with a parent-death signal: a server started without
// the supervisor dies with the thread that started it. (Started through the
// supervisor, the supervisor sets the same.)
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
