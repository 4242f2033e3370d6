package main

import (
	"errors"
	"fmt"
	"io"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// When a long-lived subcommand (mcp, serve) cannot start — a bad flag, an
// invalid --config, a --workspace that cannot be the workspace — exiting
// would leave its client with nothing to read: an MCP client shows only
// "Connection closed", a harness sees a dead pipe, and neither user
// usually sees stderr. So the problem is written to stderr at once, and
// the session is served anyway: every call (and, over MCP, the
// handshake's instructions) answers with it as a structured error, and
// the exit status says so when the client leaves. --help still prints the
// usage and exits 0.

// startProblem is why a long-lived subcommand could not start.
type startProblem struct {
	err  *lspseam.Error // what every call answers
	exit int            // the exit status when the session ends: exitUsage for a bad command line, else exitError
}

// newStartProblem turns a start failure into the error every call
// answers, and says so on stderr. A bad command line (a usageError) is
// LSP_CONFIG_INVALID, since the command line is the server's
// configuration in its client's settings; its message names the fix.
func newStartProblem(command string, err error, stderr io.Writer) *startProblem {
	p := &startProblem{err: lspError(err), exit: exitError}
	var u usageError
	if errors.As(err, &u) {
		p.err = lspseam.Errorf(lspseam.CodeConfigInvalid, "the command line of lspseam %s is invalid: %v; fix the arguments where the server is configured (`lspseam %s --help` lists them) and restart it", command, u.err, command)
		p.exit = exitUsage
	}
	fmt.Fprintf(stderr, "lspseam %s: %s: %s\n", command, p.err.Code, p.err.Message)
	fmt.Fprintf(stderr, "lspseam %s: serving the session anyway; every call answers with this error until the server is restarted with a fix\n", command)
	return p
}
