//go:build unix

package localstdio

import "syscall"

// A server's process tree on Unix is its process group: the server is
// started as the leader of a new group (serverProcAttr), so a signal to
// the group reaches the helpers it starts (typescript-language-server's
// tsserver, for one), and the group outlives no one who signals it.

// procTree is what the shim holds to end a server's whole tree. A group
// needs no handle: the server's pid names it.
type procTree struct{}

// newProcTree prepares to start one server.
func newProcTree() (*procTree, error) { return &procTree{}, nil }

// attach binds the started server to the tree. On Unix it joined its own
// group at start (Setpgid).
func (*procTree) attach(pid int) error { return nil }

// signal sends sig to the server's group. An error (the group is gone) is
// the goal state of every caller: no process left.
func (*procTree) signal(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) }

// close releases the tree's handle (none on Unix).
func (*procTree) close() {}
