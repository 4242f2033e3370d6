//go:build !linux

package supervisor

import "os"

// Supported is false outside Linux: the supervisor relies on a
// parent-death signal, SOCK_SEQPACKET and waitid(WNOWAIT), which Linux has
// together; other platforms start servers from the shim itself.
const Supported = false

func init() {
	if os.Getenv(Env) == "" {
		return
	}
	// A binary re-executed as a supervisor where there is none: nothing
	// to supervise, and the program itself must not run in its place.
	os.Exit(2)
}
