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

// LineChunks gives what cutting SplitLines' lines at the spans gives.
func TestLineChunks(t *testing.T) {
	texts := []string{"", "a", "a\n", "a\nb\nc", "a\r\nb\r\n", "a\rb\r", "a\r\n\rb\n\r\nc", "\n\n", "l0\nl1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9"}
	spanSets := [][]LineSpan{
		nil,
		{{0, 0}},
		{{2, 4}, {0, 1}},
		{{3, 3}, {1, 6}, {5, 5}},
		{{8, 20}},
		{{30, 40}, {0, 0}},
		{{0, 1<<32 - 1}},
		{{1<<32 - 1, 1<<32 - 1}},
	}
	for _, text := range texts {
		lines := SplitLines(text)
		for _, spans := range spanSets {
			want := []LineChunk{}
			for _, s := range spans {
				if int64(s.Start) < int64(len(lines)) {
					want = append(want, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int64(s.End)+1, int64(len(lines)))]})
				}
			}
			got := LineChunks(text, spans)
			if len(got) != len(want) {
				t.Fatalf("LineChunks(%q, %v) = %+v, want %+v", text, spans, got, want)
			}
			for i := range got {
				if got[i].Start != want[i].Start || !slices.Equal(got[i].Lines, want[i].Lines) {
					t.Fatalf("LineChunks(%q, %v) = %+v, want %+v", text, spans, got, want)
				}
			}
		}
	}
}
