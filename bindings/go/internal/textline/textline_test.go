package textline

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitAndNth(t *testing.T) {
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
			if got := Split(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Split(%q) = %q, want %q", tc.text, got, tc.want)
			}
			for n := range len(tc.want) + 1 {
				got, ok := Nth(tc.text, uint32(n))
				if n < len(tc.want) && (!ok || got != tc.want[n]) || n == len(tc.want) && ok {
					t.Errorf("Nth(%q, %d) = %q, %v; want %q (the lines: %q)", tc.text, n, got, ok, Split(tc.text), tc.want)
				}
			}
		})
	}
}

func BenchmarkNth(b *testing.B) {
	text := strings.Repeat("\tif c.HasParent() && c.Parent().helpCommand == c {\n", 2000)
	for b.Loop() {
		if _, ok := Nth(text, 1263); !ok {
			b.Fatal("line 1263 missing")
		}
	}
}
