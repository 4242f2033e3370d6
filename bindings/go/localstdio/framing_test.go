package localstdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func TestFrameCodecRead(t *testing.T) {
	tests := []struct {
		name, input, want, fail string
	}{
		{"message", "Content-Length: 7\r\n\r\n{\"a\":1}", `{"a":1}`, ""},
		{"content type header", "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", `{}`, ""},
		{"header case", "content-length: 2\r\n\r\n{}", `{}`, ""},
		{"clean eof", "", "", "EOF"},
		{"no length", "X: 1\r\n\r\n{}", "", "without a Content-Length"},
		{"bad length", "Content-Length: abc\r\n\r\n{}", "", "invalid Content-Length"},
		{"negative length", "Content-Length: -1\r\n\r\n{}", "", "invalid Content-Length"},
		{"bare newline", "Content-Length: 2\n\n{}", "", "without \\r\\n"},
		{"log line on stdout", "Starting server...\r\n\r\n", "", "malformed header line"},
		{"over limit", "Content-Length: 101\r\n\r\n", "", "over maxMessageBytes 100"},
		{"truncated body", "Content-Length: 50\r\n\r\n{\"a\":", "", "ended inside a 50-byte message body"},
		{"truncated header", "Content-Len", "", "ended inside a message header"},
		{"not json", "Content-Length: 3\r\n\r\n{{{", "", "not JSON-RPC"},
		{"endless header", strings.Repeat("X-Pad: yyyyyyyy\r\n", 1000), "", "header over"},
	}
	for _, tt := range tests {
		c := &frameCodec{maxMessageBytes: 100}
		var v json.RawMessage
		err := c.ReadObject(bufio.NewReader(strings.NewReader(tt.input)), &v)
		switch {
		case tt.fail == "" && (err != nil || string(v) != tt.want):
			t.Errorf("%s: %s, %v", tt.name, v, err)
		case tt.fail != "" && (err == nil || !strings.Contains(err.Error(), tt.fail)):
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.fail)
		case tt.fail != "" && tt.fail != "EOF" && c.Failure() == nil:
			t.Errorf("%s: failure not recorded", tt.name)
		case tt.fail == "EOF" && err != io.EOF:
			t.Errorf("%s: %v, want io.EOF", tt.name, err)
		}
	}
}

// endless yields 'x' forever and counts what was read.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestFrameCodecHeaderWithoutNewline: a peer writing without ever sending
// '\n' is refused once the header bound is passed, after reading little
// more than the bound, instead of being buffered until it stops.
func TestFrameCodecHeaderWithoutNewline(t *testing.T) {
	src := &endless{}
	c := &frameCodec{maxMessageBytes: 100}
	var v json.RawMessage
	err := c.ReadObject(bufio.NewReader(src), &v)
	if err == nil || !strings.Contains(err.Error(), "header over") {
		t.Fatalf("err %v, want the header bound", err)
	}
	if src.read > maxHeaderBytes+2*4096 {
		t.Fatalf("read %d bytes before refusing, want about %d", src.read, maxHeaderBytes)
	}
}

func TestFrameCodecWrite(t *testing.T) {
	var b bytes.Buffer
	c := &frameCodec{maxMessageBytes: 100}
	if err := c.WriteObject(&b, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "Content-Length: 7\r\n\r\n{\"a\":1}" {
		t.Errorf("%q", b.String())
	}
	var v json.RawMessage
	if err := c.ReadObject(bufio.NewReader(&b), &v); err != nil || string(v) != `{"a":1}` {
		t.Errorf("round trip: %s %v", v, err)
	}
}

func TestTailBuffer(t *testing.T) {
	tb := newTailBuffer(10)
	tb.Write([]byte("0123456789abc"))
	if tb.String() != "3456789abc" {
		t.Errorf("%q", tb.String())
	}
	tb.Write([]byte("XY"))
	if tb.String() != "56789abcXY" {
		t.Errorf("%q", tb.String())
	}
	for i := 0; i < 1000; i++ {
		tb.Write([]byte("z"))
	}
	if tb.Len() != 10 || tb.String() != "zzzzzzzzzz" {
		t.Errorf("%q", tb.String())
	}
}
