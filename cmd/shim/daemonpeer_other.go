//go:build !linux && !darwin

package main

import (
	"errors"
	"io/fs"
	"net"
)

// daemonSupported: no daemon here (Windows): `lspseam mcp` serves in its
// own process, and --daemon require says why it cannot.
const daemonSupported = false

func peerUID(*net.UnixConn) (int, error) {
	return 0, errors.New("the daemon's peer check needs Linux or macOS")
}

func fileOwner(fs.FileInfo) (int, bool) { return 0, false }
