// Package supervisor is the process that keeps a shim's language servers
// from outliving it (see localstdio's supervise.go for the shim's side).
//
// It is the shim's own binary re-executed with Env set: this package's
// init function then runs the supervisor instead of the program and never
// returns (the re-exec pattern). The package imports only the standard
// library, so Go initializes it before the shim's heavier dependencies
// (packages are initialized in import-path order once their imports are),
// and the supervisor never runs their init functions: it stays a few MB.
//
// One supervisor serves every server of a shim. The shim and it share a
// SOCK_SEQPACKET socket pair (the supervisor's end is file descriptor
// LinkFD); each packet is one message, a list of NUL-terminated fields:
//
//	shim → supervisor
//	  start ID PATH DIR NARGS ARG… ENV…   (with the server's stdin, stdout
//	                                       and stderr as SCM_RIGHTS)
//	  signal ID SIGNO                     (to the server's process group)
//	supervisor → shim
//	  started ID PID | failed ID REASON
//	  exited ID WAITSTATUS                (the group already killed)
//
// When the shim's end closes — the shim exited, was killed, or has no
// server left — the supervisor sends SIGKILL to every server's process
// group and exits. A socket end closing is the one event a SIGKILLed
// process still produces; no timer or polling is involved.
package supervisor

import (
	"errors"
	"strings"
)

// Env marks a re-executed binary as a supervisor; it never reaches a
// server.
const Env = "LSPSEAM_SUPERVISOR"

// LinkFD is the supervisor's end of the socket pair (the first of
// exec.Cmd.ExtraFiles).
const LinkFD = 3

// MaxMessage bounds one message (a start carries the server's arguments
// and environment).
const MaxMessage = 1 << 20

// Encode joins fields into one message.
func Encode(fields ...string) []byte {
	n := 0
	for _, f := range fields {
		n += len(f) + 1
	}
	b := make([]byte, 0, n)
	for _, f := range fields {
		b = append(b, f...)
		b = append(b, 0)
	}
	return b
}

// Decode splits a message into its fields.
func Decode(b []byte) ([]string, error) {
	if len(b) == 0 || b[len(b)-1] != 0 {
		return nil, errors.New("supervisor: malformed message")
	}
	return strings.Split(string(b[:len(b)-1]), "\x00"), nil
}
