package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/internal/echo"
	"github.com/lspseam/lspseam/internal/jsonbound"
)

// Bounded MCP input (issue 21). The MCP SDK's stdio transport ends the
// session on a message it cannot decode (one deeper than encoding/json's
// 10,000 levels) or one over its line limit, so the agent loses every tool
// for the rest of its session; and it buffers a message whole before
// anyone can look at it. So stdin reaches the SDK through mcpInput, which
// reads one newline-delimited message at a time (MCP's stdio framing: a
// message has no embedded newline) and passes on only a message within
// jsonbound.MaxMessageBytes and jsonbound.MaxDepth. A message over either
// is not buffered (an oversized one streams through a jsonbound.Scanner,
// which keeps only its id and method) and is answered here, on the
// SDK's stdout through the same lockedWriter, and the session goes on.
//
// The answer to a refused tools/call is a tool result with isError and
// the structured error, as toolError and codeResult answer every argument
// error: the model sent the arguments, so it is the model that must read
// why and call again with smaller ones. Any other refused request gets a
// JSON-RPC error (-32600, data {code, message}), since its method's result
// has no place for an error; a refused notification is only logged.

// mcpInput is the io.Reader the SDK's transport reads.
type mcpInput struct {
	r        *bufio.Reader
	w        *lockedWriter
	log      *slog.Logger
	maxBytes int
	ledger   *answerLedger // told of each message passed on (nil: none)

	buf  []byte // the message being read
	next []byte // the unread rest of an accepted message
	err  error  // the input's end, returned once next is read
	scan jsonbound.Scanner
}

func newMCPInput(r io.Reader, w *lockedWriter, log *slog.Logger) *mcpInput {
	return &mcpInput{r: bufio.NewReaderSize(r, 64<<10), w: w, log: log, maxBytes: jsonbound.MaxMessageBytes}
}

func (in *mcpInput) Read(p []byte) (int, error) {
	for len(in.next) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		in.readMessage()
	}
	n := copy(p, in.next)
	in.next = in.next[n:]
	return n, nil
}

// readMessage reads one line: into next when it is within the limits,
// otherwise to the end without keeping it, and answers it.
func (in *mcpInput) readMessage() {
	if cap(in.buf) > 1<<20 {
		in.buf = nil // one big write's buffer is not kept for the session
	}
	in.buf = in.buf[:0]
	in.scan.Reset()
	size, over := 0, false
	for {
		chunk, err := in.r.ReadSlice('\n')
		size += len(chunk)
		in.scan.Write(chunk)
		if !over && (size > in.maxBytes || in.scan.TooDeep()) {
			over, in.buf = true, nil
		}
		if !over {
			in.buf = append(in.buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			in.err = err
		}
		break
	}
	if !over {
		in.next = in.buf
		id, hasID := in.scan.ID()
		method, _ := in.scan.Method()
		in.ledger.read(id, hasID, method)
		return
	}
	var why string
	if size > in.maxBytes {
		why = fmt.Sprintf("the message of %d bytes is over lspseam's limit of %d bytes per message and was not read; send smaller arguments (write's content is at most %d bytes; split a large change into edits)", size, in.maxBytes, 4_000_000)
	} else {
		why = fmt.Sprintf("the message nests deeper than lspseam's limit of %d levels and was not read; tool arguments are at most a few levels deep", jsonbound.MaxDepth)
	}
	in.refuse(why)
}

// refuse answers the message the scanner has followed (see the comment at
// the top of this file).
func (in *mcpInput) refuse(why string) {
	id, hasID := in.scan.ID()
	method, _ := in.scan.Method()
	in.log.Warn("refused a client message", "reason", why, "method", echo.Clip(string(method)), "id", echo.Clip(string(id)))
	if !hasID {
		return // a notification, or no id could be found: nothing to answer
	}
	if !validMCPID(id) {
		id = []byte("null")
	}
	lerr := lspseam.Errorf(lspseam.CodeInvalidArgument, "%s", why)
	var body any
	if string(method) == `"tools/call"` {
		res := toolbox.ErrorResult(lerr)
		body = struct {
			Content           []map[string]string `json:"content"`
			StructuredContent json.RawMessage     `json:"structuredContent,omitempty"`
			IsError           bool                `json:"isError"`
		}{[]map[string]string{{"type": "text", "text": res.Text}}, res.Structured, true}
		in.w.writeMessage(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "result": body})
		return
	}
	in.w.writeMessage(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{
		"code": -32600, "message": string(lerr.Code) + ": " + lerr.Message, "data": lerr,
	}})
}

// validMCPID reports an id the SDK's client can match to its request: a
// JSON string or number.
func validMCPID(raw []byte) bool {
	if len(raw) == 0 || !json.Valid(raw) {
		return false
	}
	c := raw[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

// lockedWriter serializes the SDK's messages and mcpInput's answers on
// stdout: each Write is one whole message and its newline (the SDK writes
// a message in one call), so none interleaves inside another.
type lockedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	ledger *answerLedger // told of each message written (nil: none)
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if err == nil {
		l.ledger.wrote(p)
	}
	return n, err
}

func (l *lockedWriter) Close() error { return nil }

// writeMessage writes v as one newline-delimited message.
func (l *lockedWriter) writeMessage(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	l.Write(append(b, '\n'))
}
