package localstdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// LSP base-protocol framing for github.com/sourcegraph/jsonrpc2, with the
// limits its built-in VSCodeObjectCodec lacks: a bound on every incoming
// message (maxMessageBytes), a bound on header size, and a record of why
// the stream failed so the error a caller sees says what the server did.

// maxHeaderBytes bounds the header block of one message. Real headers are
// under 100 bytes; a longer block is garbage on stdout.
const maxHeaderBytes = 8 << 10

// frameCodec implements jsonrpc2.ObjectCodec.
type frameCodec struct {
	maxMessageBytes int64
	// refuse: an over-limit or non-JSON message whose framing is intact
	// is skipped (its body discarded unbuffered) and read as a
	// RefusedMethod request instead, so the session survives; used for
	// clients, which get an error answer. Servers' bad messages end the
	// connection.
	refuse bool

	mu   sync.Mutex
	fail error // first framing failure, for error messages
}

// FramingError is a server breaking the base protocol on its stdout.
type FramingError struct{ Detail string }

func (e *FramingError) Error() string { return e.Detail }

func (c *frameCodec) failed(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail == nil {
		c.fail = err
	}
	return err
}

// Failure returns the first framing failure, or nil.
func (c *frameCodec) Failure() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fail
}

// WriteObject writes one message with a Content-Length header, in a single
// write so a concurrent writer can never interleave inside it.
func (c *frameCodec) WriteObject(w io.Writer, obj any) error {
	body, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if c.refuse {
		body = bytes.Replace(body, []byte(`"id":"\u0000lspseam-null-id"`), []byte(`"id":null`), 1)
	}
	msg := make([]byte, 0, len(body)+32)
	msg = append(msg, "Content-Length: "...)
	msg = strconv.AppendInt(msg, int64(len(body)), 10)
	msg = append(msg, "\r\n\r\n"...)
	msg = append(msg, body...)
	_, err = w.Write(msg)
	return err
}

// ReadObject reads one message into v.
func (c *frameCodec) ReadObject(r *bufio.Reader, v any) error {
	length := int64(-1)
	headerBytes := 0
	for {
		line, err := readHeaderLine(r, maxHeaderBytes-headerBytes)
		headerBytes += len(line)
		if err == errHeaderTooLong {
			return c.failed(&FramingError{fmt.Sprintf("the server wrote a message header over %d bytes; its stdout is not LSP framing (does it log to stdout?)", maxHeaderBytes)})
		}
		if err != nil {
			if err == io.EOF && headerBytes == 0 {
				return io.EOF // clean end of stream between messages
			}
			if err == io.EOF {
				return c.failed(&FramingError{"the server's output ended inside a message header"})
			}
			return err
		}
		if !strings.HasSuffix(line, "\r\n") {
			return c.failed(&FramingError{fmt.Sprintf("the server wrote a header line without \\r\\n: %q; its stdout is not LSP framing (does it log to stdout?)", clip(line, 80))})
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return c.failed(&FramingError{fmt.Sprintf("the server wrote a malformed header line %q; its stdout is not LSP framing (does it log to stdout?)", clip(line, 80))})
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return c.failed(&FramingError{fmt.Sprintf("the server wrote an invalid Content-Length %q", clip(value, 40))})
			}
			length = n
		}
	}
	if length < 0 {
		return c.failed(&FramingError{"the server wrote a message without a Content-Length header"})
	}
	if length > c.maxMessageBytes {
		if c.refuse {
			return c.refuseOversized(r, length, v)
		}
		return c.failed(&FramingError{fmt.Sprintf("the server sent a message of %d bytes, over maxMessageBytes %d; raise maxMessageBytes in the server's config if the answer is legitimate", length, c.maxMessageBytes)})
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return c.failed(&FramingError{fmt.Sprintf("the server's output ended inside a %d-byte message body", length)})
	}
	if c.refuse {
		if why := invalidRequest(body); why != "" {
			return refusedMessage(body, why, v)
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		if c.refuse {
			return refusedMessage(body, fmt.Sprintf("the message body is not JSON-RPC: %s", clip(err.Error(), 200)), v)
		}
		return c.failed(&FramingError{fmt.Sprintf("the server sent a message body that is not JSON-RPC: %v", err)})
	}
	return nil
}

// RefusedMethod is the method of the request a client codec reads in
// place of a message it refused (see NewClientCodec). Its params are
// {"message": why}; its id is the refused request's, when one could be
// read from the message's first bytes.
const RefusedMethod = "$/lspseam/refused"

// NewClientCodec is the framing for the client of `lspseam serve`: LSP
// base-protocol framing with a bound on every message (maxRequestBytes)
// and on header size. A message over the bound is not buffered: its body
// is discarded as it is read, and a RefusedMethod request (with the
// refused request's id, when it can be found in the first bytes) is
// delivered instead, as is a message whose body is not JSON, so the
// server can answer with an error and the session goes on. Broken framing
// (no Content-Length, an endless header) ends the session.
func NewClientCodec(maxRequestBytes int64) ClientCodec {
	return &frameCodec{maxMessageBytes: maxRequestBytes, refuse: true}
}

// ClientCodec is the framing NewClientCodec returns. Failure reports why
// the client's framing broke (nil while it is intact, or after a clean end
// of input), so the caller can say so and exit with an error.
type ClientCodec interface {
	jsonrpc2.ObjectCodec
	Failure() error
}

// refuseOversized discards an over-limit body, keeping its first bytes to
// find the request's id.
func (c *frameCodec) refuseOversized(r *bufio.Reader, length int64, v any) error {
	head := make([]byte, min(length, refusedHeadBytes))
	_, err := io.ReadFull(r, head)
	if err == nil {
		_, err = io.CopyN(io.Discard, r, length-int64(len(head)))
	}
	if err != nil {
		return c.failed(&FramingError{fmt.Sprintf("the client's input ended inside a %d-byte message body", length)})
	}
	why := fmt.Sprintf("the message of %d bytes is over maxRequestBytes %d and was not read; send smaller requests or raise maxRequestBytes in the config", length, c.maxMessageBytes)
	return refusedMessage(head, why, v)
}

// refusedHeadBytes is how much of a refused message is kept to find its id.
const refusedHeadBytes = 4096

// refusedMessage decodes a RefusedMethod request into v, with the id found
// in body (which may be a truncated or malformed message), if any.
func refusedMessage(body []byte, why string, v any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": RefusedMethod, "params": map[string]string{"message": why}}
	if id := gjson.GetBytes(body, "id"); usableID(id) {
		msg["id"] = json.RawMessage(id.Raw)
	} else {
		// JSON-RPC answers what it cannot attribute with "id": null;
		// jsonrpc2 has no null id, so a marker id stands in for it and
		// WriteObject writes null.
		msg["id"] = nullIDMarker
	}
	data, _ := json.Marshal(msg)
	return json.Unmarshal(data, v)
}

// nullIDMarker is the id of a refused message whose own id is unusable;
// WriteObject turns it back into null.
const nullIDMarker = "\x00lspseam-null-id"

// usableID reports an id jsonrpc2 reads back exactly: a string or an
// unsigned integer below 2^64 written in digits.
func usableID(id gjson.Result) bool {
	return id.Type == gjson.String || (id.Type == gjson.Number && id.Raw != "" && strings.Trim(id.Raw, "0123456789") == "" && len(id.Raw) < 20)
}

// invalidRequest says why a client message, though JSON, is not one
// jsonrpc2 can take as it is: a batch (not supported), a request with an
// id that is not a string or an unsigned integer (negative, fractional,
// null, an object), or no method and no id. "" when it is fine.
func invalidRequest(body []byte) string {
	v := gjson.ParseBytes(body)
	switch {
	case !gjson.ValidBytes(body):
		return "" // json.Unmarshal reports it
	case v.IsArray():
		return "batch requests are not supported; send one request per message"
	case !v.IsObject():
		return "a message must be a JSON-RPC object"
	}
	id, method := v.Get("id"), v.Get("method")
	switch {
	case id.Exists() && !usableID(id):
		return fmt.Sprintf("the id %s is not usable: ids must be strings or non-negative integers", clip(id.Raw, 40))
	case !method.Exists() && !id.Exists():
		return "a message must have a method (or be a response with an id)"
	}
	return ""
}

var errHeaderTooLong = errors.New("header too long")

// readHeaderLine reads up to and including '\n', failing with
// errHeaderTooLong as soon as more than budget bytes arrive without one:
// a peer writing megabytes without a newline is refused at once, not
// buffered until it stops.
func readHeaderLine(r *bufio.Reader, budget int) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > budget {
			return "", errHeaderTooLong
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(line), err
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
