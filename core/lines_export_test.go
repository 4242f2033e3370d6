package core

import (
	"slices"
	"strconv"
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

// lineChunksBySplit is LineChunks as SplitLines defines it.
func lineChunksBySplit(text string, spans []LineSpan) []LineChunk {
	lines := SplitLines(text)
	want := []LineChunk{}
	for _, s := range spans {
		if int64(s.Start) < int64(len(lines)) {
			want = append(want, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int64(s.End)+1, int64(len(lines)))]})
		}
	}
	return want
}

func sameChunks(a, b []LineChunk) bool {
	return slices.EqualFunc(a, b, func(x, y LineChunk) bool { return x.Start == y.Start && slices.Equal(x.Lines, y.Lines) })
}

// TestLineChunksLongText: spans deep in texts of many blocks, where whole
// blocks of lines are skipped at once, read the lines SplitLines gives:
// with "\r\n" and "\r" inside, lines longer than a block, a block that
// ends in a "\r\n", and a text without a final line break.
func TestLineChunksLongText(t *testing.T) {
	long := strings.Repeat("x", 3*skipBlock)
	var b strings.Builder
	for i := range 5000 {
		switch {
		case i == 1200:
			b.WriteString(long + "\n")
		case i > 2000 && i < 2100:
			b.WriteString("crlf " + strconv.Itoa(i) + "\r\n")
		case i == 3000:
			b.WriteString("lone cr\r")
		default:
			b.WriteString("line " + strconv.Itoa(i) + "\n")
		}
	}
	text := b.String()
	// A block that ends between "\r" and "\n".
	cut := strings.Repeat("a\n", skipBlock/2-1) + "b\r\nc\nd"
	for _, tc := range []struct {
		text  string
		spans []LineSpan
	}{
		{text, []LineSpan{{4990, 5010}, {0, 0}, {1199, 1201}, {2050, 2050}, {2999, 3001}, {4000, 4000}}},
		{text, []LineSpan{{1201, 1201}, {3001, 3001}, {5000, 5000}, {4999, 1<<32 - 1}}},
		{text + "tail", []LineSpan{{5000, 5000}, {4500, 4502}, {4501, 4501}}},
		{cut, []LineSpan{{skipBlock/2 - 1, skipBlock/2 + 1}, {skipBlock / 2, skipBlock / 2}}},
		{strings.Repeat("\n", 3*skipBlock), []LineSpan{{2 * skipBlock, 2*skipBlock + 1}, {3*skipBlock - 1, 3 * skipBlock}}},
	} {
		if got, want := LineChunks(tc.text, tc.spans), lineChunksBySplit(tc.text, tc.spans); !sameChunks(got, want) {
			t.Errorf("LineChunks(%d bytes, %v) = %v, want %v", len(tc.text), tc.spans, clipChunks(got), clipChunks(want))
		}
	}
}

func clipChunks(cs []LineChunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, strconv.Itoa(int(c.Start))+":"+clip(strings.Join(c.Lines, "|"), 80))
	}
	return out
}

// FuzzLineChunks holds LineChunks to SplitLines on any text and spans.
func FuzzLineChunks(f *testing.F) {
	f.Add("a\nb\r\nc\rd\n", uint32(1), uint32(2), uint32(0), uint32(0))
	f.Add(strings.Repeat("ab\n", 3000)+"\r\n\r", uint32(2999), uint32(3001), uint32(1400), uint32(1400))
	f.Fuzz(func(t *testing.T, text string, s1, e1, s2, e2 uint32) {
		spans := []LineSpan{{s1 % 10000, max(s1%10000, e1)}, {s2 % 10000, max(s2%10000, e2%20000)}}
		if got, want := LineChunks(text, spans), lineChunksBySplit(text, spans); !sameChunks(got, want) {
			t.Fatalf("LineChunks(%q, %v) = %v, want %v", clip(text, 200), spans, clipChunks(got), clipChunks(want))
		}
	})
}
