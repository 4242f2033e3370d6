package e2e

import "os"

// killPid ends process pid at once (SIGKILL; TerminateProcess on Windows).
func killPid(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
