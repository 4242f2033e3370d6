//go:build unix

package serverinstall

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts a client in its own process group, so a cancelled
// install stops it and everything it started (npm's node, pip's builds).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// lockDir takes an exclusive lock on path (created), so two installs do
// not write the same directories at once; unlock releases it.
func lockDir(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

func isRoot() bool { return os.Geteuid() == 0 }
