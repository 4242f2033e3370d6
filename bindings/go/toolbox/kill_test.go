package toolbox

import "os"

// killSelf ends this process at once, as SIGKILL does on Unix
// (TerminateProcess on Windows): no deferred call, no flush.
func killSelf() {
	p, _ := os.FindProcess(os.Getpid())
	p.Kill()
}
