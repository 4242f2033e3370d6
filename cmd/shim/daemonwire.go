package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// What a client and the daemon say before MCP starts on the socket: one
// JSON line each. The client names what it wants (a session, the status,
// a stop) and, for a session, the options it was started with; the daemon
// answers ok, or the error that keeps it from serving the session. Then
// the connection carries the client's MCP session, newline-delimited
// JSON-RPC exactly as on a standalone process's stdio, until either side
// closes it.

// sessionEnd is what the daemon writes after a session it ended as the
// client asked (the client closed its input, or serve's exit): a NUL,
// which neither protocol's bytes can hold (JSON escapes it, headers are
// ASCII), so the relay finds it without parsing anything. A connection
// that closes without it was ended by the daemon stopping or dying, and
// the relay says so.
const sessionEnd = "\x00end\n"

// daemonProtocol is the version of this exchange; a daemon answers a
// client of another version with an error, and the client starts its own
// process instead (the socket's name includes lspseam's version, so this
// only happens with a hand-picked --socket).
const daemonProtocol = 1

// maxHelloBytes bounds the client's first line.
const maxHelloBytes = 64 << 10

// daemonHello is the client's first line.
type daemonHello struct {
	Protocol int    `json:"lspseam"`
	Op       string `json:"op"` // daemonOpMCP, daemonOpServe, daemonOpStatus, daemonOpStop
	// Key is the client's daemonKey: a session is refused by a daemon
	// whose own differs (one started by hand with --socket, another
	// environment or config), which would answer otherwise than the
	// client's own process.
	Key     string                `json:"key,omitempty"`
	Session *daemonSessionOptions `json:"session,omitempty"`
}

const (
	daemonOpMCP    = "mcp"
	daemonOpServe  = "serve"
	daemonOpStatus = "status"
	daemonOpStop   = "stop"
)

// daemonSessionOptions are a relaying client's options (`lspseam mcp`'s
// or serve's): its flags and its working directory.
type daemonSessionOptions struct {
	Workspace string   `json:"workspace,omitempty"`
	Tools     []string `json:"tools,omitempty"`
	Profile   string   `json:"profile,omitempty"`
	Approval  string   `json:"approval,omitempty"`
	TimeoutMs int64    `json:"timeoutMs,omitempty"`
	Cwd       string   `json:"cwd,omitempty"`
	ClientPID int      `json:"clientPid,omitempty"` // for the daemon's log
}

// daemonReply is the daemon's first line.
type daemonReply struct {
	OK     bool           `json:"ok"`
	Error  *lspseam.Error `json:"error,omitempty"`
	Status *daemonStatus  `json:"status,omitempty"`
}

// daemonStatus is what `lspseam daemon status` prints.
type daemonStatus struct {
	PID            int       `json:"pid"`
	Version        string    `json:"version"`
	Socket         string    `json:"socket"`
	Log            string    `json:"log"`
	Config         string    `json:"config,omitempty"`
	Started        time.Time `json:"started"`
	Sessions       int       `json:"sessions"`       // clients connected now
	SessionsServed int       `json:"sessionsServed"` // since the start
	IdleExit       string    `json:"idleExit"`       // how long it stays up with no client
	IdleSince      time.Time `json:"idleSince,omitzero"`
}

// readJSONLine reads one line of at most maxHelloBytes into v.
func readJSONLine(r *bufio.Reader, v any) error {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHelloBytes {
			return fmt.Errorf("the first line is longer than %d bytes", maxHelloBytes)
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) && len(line) > 0 {
			return fmt.Errorf("the connection closed in the middle of the first line")
		}
		return err
	}
	return json.Unmarshal(bytes.TrimSpace(line), v)
}

// writeJSONLine writes v as one line.
func writeJSONLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
