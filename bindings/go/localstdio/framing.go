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

	echoed "github.com/lspseam/lspseam/internal/echo"
	"github.com/lspseam/lspseam/internal/jsonbound"
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
		body = unmarkID(body)
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
		return readClientMessage(body, v)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return c.failed(&FramingError{fmt.Sprintf("the server sent a message body that is not JSON-RPC: %v", err)})
	}
	return nil
}

// RefusedMethod is the method of the request a client codec reads in
// place of a message it refused (see NewClientCodec). Its params are
// {"message": why}; its id is the refused request's, when one could be
// found in the message.
const RefusedMethod = "$/lspseam/refused"

// NewClientCodec is the framing for the client of `lspseam serve`: LSP
// base-protocol framing with a bound on every message (maxRequestBytes),
// on its nesting (jsonbound.MaxDepth) and on header size. A message over
// the size bound is not buffered: its body streams through a
// jsonbound.Scanner, which keeps only its id, and a RefusedMethod request
// (with the refused request's id) is delivered instead, as it is for a
// message nested too deep or whose body is not a JSON-RPC request, so the
// server can answer with an error and the session goes on. Broken framing
// (no Content-Length, an endless header) ends the session.
//
// Ids are echoed as sent (JSON-RPC 2.0): any string, and any integer
// written in digits, negative or beyond 2^64 included, though jsonrpc2
// reads only strings and numbers that fit an int64 (see markID).
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

// refuseOversized discards an over-limit body as it is read, following it
// to find the request's id wherever it is.
func (c *frameCodec) refuseOversized(r *bufio.Reader, length int64, v any) error {
	var s jsonbound.Scanner
	if _, err := io.CopyN(&s, r, length); err != nil {
		return c.failed(&FramingError{fmt.Sprintf("the client's input ended inside a %d-byte message body", length)})
	}
	why := fmt.Sprintf("the message of %d bytes is over maxRequestBytes %d and was not read; send smaller requests or raise maxRequestBytes in the config", length, c.maxMessageBytes)
	return refusedMessage(&s, why, v)
}

// readClientMessage decodes a client's message body into v, or a
// RefusedMethod request when the body is nested too deep (checked before
// any parser sees it) or is not a request jsonrpc2 can take.
func readClientMessage(body []byte, v any) error {
	var s jsonbound.Scanner
	s.Write(body)
	if s.TooDeep() {
		return refusedMessage(&s, fmt.Sprintf("the message nests deeper than %d levels and was not read; requests are at most a few levels deep", jsonbound.MaxDepth), v)
	}
	if why := invalidRequest(body); why != "" {
		return refusedMessage(&s, why, v)
	}
	if err := json.Unmarshal(markID(body, &s), v); err != nil {
		return refusedMessage(&s, fmt.Sprintf("the message body is not JSON-RPC: %s", clip(err.Error(), 200)), v)
	}
	return nil
}

// refusedMessage decodes a RefusedMethod request into v, with the id the
// scanner found in the refused message when it is a usable one, else
// null (JSON-RPC's id for an answer it cannot attribute).
func refusedMessage(s *jsonbound.Scanner, why string, v any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": RefusedMethod, "params": map[string]string{"message": why}}
	id, ok := s.ID()
	if !ok || !usableID(id) {
		id = []byte("null")
	}
	msg["id"] = idMarker + string(id)
	data, _ := json.Marshal(msg)
	return json.Unmarshal(data, v)
}

// idMarker starts the string id that stands in for an id jsonrpc2 cannot
// hold or would not write back byte for byte (a negative integer, one of
// 2^63 or more, a string it would escape differently, null for a refused
// message): the marker is the prefix and the id's raw bytes, and
// WriteObject writes those bytes back in its place. A client's own string
// id that starts with the prefix is marked too, so it is written back as
// sent.
const idMarker = "\x00lspseam-id:"

// markID returns body with its id replaced by a marker when jsonrpc2
// would not read and write it back as sent (see idMarker).
func markID(body []byte, s *jsonbound.Scanner) []byte {
	start, end, ok := s.IDSpan()
	if !ok || start < 0 || end > len(body) {
		return body
	}
	raw := body[start:end]
	if reproduced(raw) {
		return body
	}
	marker, _ := json.Marshal(idMarker + string(raw))
	out := make([]byte, 0, len(body)+len(marker))
	out = append(out, body[:start]...)
	out = append(out, marker...)
	return append(out, body[end:]...)
}

// reproduced reports an id jsonrpc2 reads and writes back byte for byte:
// a non-negative integer below 2^63 in its shortest form, or a string that
// json.Marshal writes as it came and that is not a marker.
func reproduced(raw []byte) bool {
	if len(raw) > 0 && raw[0] == '"' {
		var str string
		if json.Unmarshal(raw, &str) != nil || strings.HasPrefix(str, idMarker) {
			return false
		}
		again, err := json.Marshal(str)
		return err == nil && bytes.Equal(again, raw)
	}
	// jsonrpc2 reads a request's number id as an int64.
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= 0 && strconv.FormatInt(n, 10) == string(raw)
}

// unmarkID restores a marked id in an outgoing message: jsonrpc2 writes a
// response's id first, so a marked one is at the start of the body.
func unmarkID(body []byte) []byte {
	prefix := []byte(`{"id":"\u0000lspseam-id:`)
	if !bytes.HasPrefix(body, prefix) {
		return body
	}
	// The marker is a JSON string from `{"id":` on; its end is the first
	// quote not escaped.
	i := len(`{"id":"`)
	for i < len(body) && body[i] != '"' {
		if body[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(body) {
		return body
	}
	var marker string
	if json.Unmarshal(body[len(`{"id":`):i+1], &marker) != nil {
		return body
	}
	raw := strings.TrimPrefix(marker, idMarker)
	out := make([]byte, 0, len(body))
	out = append(out, `{"id":`...)
	out = append(out, raw...)
	return append(out, body[i+1:]...)
}

// ClientID is the jsonrpc2 ID a request with this raw id was read with
// (a marker for an id jsonrpc2 cannot hold), so a $/cancelRequest naming
// the id finds the request; false for an id that is not usable.
func ClientID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if !usableID(raw) {
		return jsonrpc2.ID{}, false
	}
	if !reproduced(raw) {
		return jsonrpc2.ID{Str: idMarker + string(raw), IsString: true}, true
	}
	var id jsonrpc2.ID
	return id, json.Unmarshal(raw, &id) == nil
}

// ShowID is an id as the client wrote it, for messages: a marker's raw
// bytes, clipped.
func ShowID(id jsonrpc2.ID) string {
	if id.IsString && strings.HasPrefix(id.Str, idMarker) {
		return echoed.Clip(strings.TrimPrefix(id.Str, idMarker))
	}
	return echoed.Clip(id.String())
}

// usableID reports an id JSON-RPC 2.0 allows and serve answers as sent: a
// string, or an integer written in digits (negative included, of any
// size). Fractional and exponent forms, objects, arrays and null are not.
func usableID(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return json.Valid(raw)
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	for _, d := range digits {
		if d < '0' || d > '9' {
			return false
		}
	}
	return true
}

// invalidRequest says why a client message, though JSON, is not one
// jsonrpc2 can take as it is: a batch (not supported), a request with an
// id that is not a string or an integer (fractional, null, an object, an
// array), or no method and no id. "" when it is fine.
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
	case id.Exists() && !usableID([]byte(id.Raw)):
		return fmt.Sprintf("the id %s is not usable: ids must be strings or integers", echoed.Clip(id.Raw))
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
