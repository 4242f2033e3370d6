package main

import (
	"sync"

	"github.com/lspseam/lspseam/internal/jsonbound"
)

// answerLedger follows the tools/call requests of one newline-delimited
// MCP session (stdio, or a daemon's session) from when the SDK reads them
// to when their answer is written, for the drain (drain.go): the SDK
// writes a call's answer after its handler returns, and writes nothing
// once its session is closing, so a stop that closed the session as soon
// as the handlers returned could still lose an answer.
//
// mcpInput tells it of each message it passes on (read), the session's
// lockedWriter of each message written (wrote): an answer is a message
// with the id of a pending call and no method (a request of the server's
// own, such as ping, has a method).
type answerLedger struct {
	d *drain

	mu      sync.Mutex
	pending map[string]bool // normalID of the calls not yet answered
	scan    jsonbound.Scanner
	closed  bool
}

func newAnswerLedger(d *drain) *answerLedger {
	return &answerLedger{d: d, pending: map[string]bool{}}
}

// read notes a client message, by its top-level id and method as the
// input's scanner kept them.
func (l *answerLedger) read(id []byte, hasID bool, method []byte) {
	if l == nil || !hasID || string(method) != `"tools/call"` {
		return
	}
	key := normalID(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.pending[key] {
		return // a duplicate id: the SDK refuses it, and the first one's answer counts
	}
	l.pending[key] = true
	l.d.asked()
}

// wrote notes a message written to the client: one whole message (the
// SDK and mcpInput write one per call).
func (l *answerLedger) wrote(msg []byte) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) == 0 {
		return // nothing to look for: no message is scanned
	}
	l.scan.Reset()
	l.scan.Write(msg)
	id, hasID := l.scan.ID()
	if _, isRequest := l.scan.Method(); !hasID || isRequest {
		return
	}
	if key := normalID(id); l.pending[key] {
		delete(l.pending, key)
		l.d.answered(1)
	}
}

// close ends the ledger with its session: the answers still pending will
// never be written.
func (l *answerLedger) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.pending); n > 0 {
		l.d.answered(n)
	}
	l.pending, l.closed = map[string]bool{}, true
}
