package jsonbound

import (
	"strings"
	"testing"
)

// The scanner finds the top-level id wherever it is, whatever comes
// before it, in one write or byte by byte, and reports nesting.
func TestScanner(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	tests := []struct {
		name    string
		msg     string
		id      string // "": none usable
		depth   int
		tooDeep bool
		method  string
	}{
		{"number first", `{"id":7,"method":"x"}`, "7", 1, false, `"x"`},
		{"method last", `{"id":7,"params":{"method":"y"},"method":"tools/call"}`, "7", 2, false, `"tools/call"`},
		{"id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":9,"s":"a\"}"}},"id":-12}`, "-12", 3, false, ""},
		{"string id", `{"id":"a\"b\\","method":"x"}`, `"a\"b\\"`, 1, false, ""},
		{"spaces", "{ \"id\" : 2.5 , \"x\":1}", "2.5", 1, false, ""},
		{"big number", `{"id":18446744073709551616}`, "18446744073709551616", 1, false, ""},
		{"null id", `{"id":null}`, "null", 1, false, ""},
		{"object id", `{"id":{"a":1},"method":"x"}`, "", 2, false, ""},
		{"array id", `{"id":[1],"method":"x"}`, "", 2, false, ""},
		{"nested id only", `{"params":{"id":3}}`, "", 2, false, ""},
		{"id in a string", `{"params":"\"id\":3"}`, "", 1, false, ""},
		{"key with an id prefix", `{"idx":3,"id":4}`, "4", 1, false, ""},
		{"first id counts", `{"id":1,"id":2}`, "1", 1, false, ""},
		{"too long", `{"id":"` + strings.Repeat("x", maxIDBytes) + `"}`, "", 1, false, ""},
		{"deep", `{"params":` + deep + `,"id":5,"method":"tools/call"}`, "5", 100_001, true, `"tools/call"`},
		{"at the limit", strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), "", MaxDepth, false, ""},
		{"one over", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "", MaxDepth + 1, true, ""},
		{"truncated", `{"jsonrpc":"2.0","id":42`, "42", 1, false, ""},
		{"not JSON", `]]}}garbage{"id":1}`, "1", 1, false, ""},
	}
	for _, tt := range tests {
		for _, chunk := range []int{len(tt.msg), 1, 7} {
			var s Scanner
			s.Reset()
			for i := 0; i < len(tt.msg); i += chunk {
				s.Write([]byte(tt.msg[i:min(i+chunk, len(tt.msg))]))
			}
			id, ok := s.ID()
			if got := string(id); (ok && got != tt.id) || (!ok && tt.id != "") {
				t.Errorf("%s (chunks of %d): id %q %v, want %q", tt.name, chunk, got, ok, tt.id)
			}
			if start, end, ok := s.IDSpan(); ok && tt.msg[start:end] != string(id) {
				t.Errorf("%s (chunks of %d): id span %d-%d is %q, want %q", tt.name, chunk, start, end, tt.msg[start:end], id)
			}
			if m, ok := s.Method(); tt.method != "" && (!ok || string(m) != tt.method) {
				t.Errorf("%s (chunks of %d): method %q %v, want %q", tt.name, chunk, m, ok, tt.method)
			}
			if s.Depth() != tt.depth || s.TooDeep() != tt.tooDeep {
				t.Errorf("%s (chunks of %d): depth %d (too deep %v), want %d (%v)", tt.name, chunk, s.Depth(), s.TooDeep(), tt.depth, tt.tooDeep)
			}
		}
	}
}

// A string of 100 MB is skipped at memory speed, holding nothing.
func BenchmarkScannerString(b *testing.B) {
	msg := []byte(`{"params":{"s":"` + strings.Repeat("a", 1<<20) + `"},"id":1}`)
	b.SetBytes(int64(len(msg)))
	var s Scanner
	for b.Loop() {
		s.Reset()
		s.Write(msg)
	}
}
