package main

import "os"

// killSelf ends this process at once, as SIGKILL does on Unix
// (TerminateProcess on Windows): no deferred call, no flush.
func killSelf() {
	p, _ := os.FindProcess(os.Getpid())
	p.Kill()
}

// killPid ends process pid at once (SIGKILL; TerminateProcess on Windows).
func killPid(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
