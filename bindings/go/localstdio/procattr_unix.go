//go:build unix && !linux

package localstdio

import "syscall"

// serverProcAttr starts a server as the leader of its own process group
// (proctree_unix.go). There is no parent-death signal outside Linux (nor a
// supervisor, see supervisor.Supported): a shim that is killed with
// SIGKILL leaves its servers running until they notice their stdin closed,
// which every LSP server does by exiting (docs/platforms.md).
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
