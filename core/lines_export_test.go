package core

import (
	"slices"
	"strings"
	"testing"
)

// SplitLines and NthLine, which hosts use natively, number lines as the
// core does everywhere else (CheckPosition, readView).
func TestSplitLinesAndNthLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{}},
		{"no terminator", "a", []string{"a"}},
		{"final terminator ends the last line", "a\n", []string{"a"}},
		{"lf", "a\nb\nc", []string{"a", "b", "c"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"cr", "a\rb\r", []string{"a", "b"}},
		{"mixed", "a\r\n\rb\n\r\nc", []string{"a", "", "b", "", "c"}},
		{"blank lines", "\n\n", []string{"", ""}},
		{"cr before a later lf", "ab\rc\nd", []string{"ab", "c", "d"}},
		{"lone cr at the end", "a\r", []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SplitLines(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("SplitLines(%q) = %q, want %q", tc.text, got, tc.want)
			}
			for n := range len(tc.want) + 1 {
				got, ok := NthLine(tc.text, uint32(n))
				if n < len(tc.want) && (!ok || got != tc.want[n]) || n == len(tc.want) && ok {
					t.Errorf("NthLine(%q, %d) = %q, %v; want the lines %q", tc.text, n, got, ok, tc.want)
				}
			}
		})
	}
}

func BenchmarkNthLine(b *testing.B) {
	text := strings.Repeat("\tif c.HasParent() && c.Parent().helpCommand == c {\n", 2000)
	for b.Loop() {
		if _, ok := NthLine(text, 1263); !ok {
			b.Fatal("line 1263 missing")
		}
	}
}
