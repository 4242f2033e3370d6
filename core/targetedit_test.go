package core

import (
	"strings"
	"testing"
)

// applyOne applies a TargetEdit to text (zero-based LSP positions, ASCII
// and BOM-free text in these tests).
func applyOne(t *testing.T, text string, e TextEditValue) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	offset := func(p Position) int {
		n := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	return text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
}

// rangeOfLines is a symbol's range from the start of line first to the
// end of line last (zero-based).
func rangeOfLines(text string, first, last uint32) *Range {
	lines := SplitLines(text)
	return &Range{Start: Position{Line: first}, End: Position{Line: last, Character: uint32(len(lines[last]))}}
}

// TestDeleteKeepsTheFileSeparation: deleting a declaration between two
// others leaves the separation the file has (PEP 8's two blank lines
// between top-level definitions, one in Go), not a run of three.
func TestDeleteKeepsTheFileSeparation(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		first, last uint32
		want        string
	}{
		{"python, two blank lines", "def a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 4, 5,
			"def a():\n    pass\n\n\ndef c():\n    pass\n"},
		{"go, one blank line", "func a() {\n}\n\nfunc b() {\n}\n\nfunc c() {\n}\n", 3, 4,
			"func a() {\n}\n\nfunc c() {\n}\n"},
		{"a wider gap below is kept", "def a():\n    pass\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 3, 4,
			"def a():\n    pass\n\n\ndef c():\n    pass\n"},
		{"first in the file: no gap left above", "def b():\n    pass\n\n\ndef c():\n    pass\n", 0, 1,
			"def c():\n    pass\n"},
		{"code right above: the gap below stays", "x = 1\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 1, 2,
			"x = 1\n\n\ndef c():\n    pass\n"},
	} {
		e, err := TargetEdit(TargetEditInput{Text: c.text, Line: c.first, Range: rangeOfLines(c.text, c.first, c.last), Where: "delete"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := applyOne(t, c.text, e); got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
