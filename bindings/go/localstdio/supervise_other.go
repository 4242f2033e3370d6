//go:build !linux

package localstdio

import (
	"errors"
	"os"
	"syscall"
)

// Outside Linux there is no supervisor (supervisor.Supported): servers are
// started by the shim itself, each in its own process tree
// (proctree_*.go). These stand-ins keep process.go one file.

// supervisorPath is "": start servers directly.
func supervisorPath() string { return "" }

// supervisedServer never exists outside Linux.
type supervisedServer struct {
	pid  int
	done chan struct{}
}

func startSupervised(exe, path string, args, env []string, dir string, stdio [3]*os.File) (*supervisedServer, error) {
	return nil, errors.New("no supervisor on this platform")
}

func (s *supervisedServer) signal(sig syscall.Signal) {}

func (s *supervisedServer) serverStatus() (syscall.WaitStatus, bool) {
	var ws syscall.WaitStatus
	return ws, false
}
