//go:build !unix

package serverinstall

import "os/exec"

// Without Unix process groups and flock: the client alone is stopped,
// and concurrent installs are not serialized.
func setProcessGroup(cmd *exec.Cmd) {}

func lockDir(path string) (unlock func(), err error) { return func() {}, nil }

func isRoot() bool { return false }
