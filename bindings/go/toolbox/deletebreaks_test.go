package toolbox

import (
	"testing"

	"github.com/lspseam/lspseam/core"
)

func TestNamesIdentifier(t *testing.T) {
	for _, c := range []struct {
		message, id string
		want        bool
	}{
		{"myVal does not implement kinder (missing method Kind)", "Kind", true},
		{"undefined: helper", "helper", true},
		{"Cannot find name 'helper'.", "helper", true},
		{"undefined: helperFunc", "helper", false},
		{"undefined: my_helper", "helper", false},
		{`"fmt" imported and not used`, "Print", false},
		{"Kinds and Kind", "Kind", true}, // the second occurrence is a word
		{"anything", "", false},
	} {
		if got := namesIdentifier(c.message, c.id); got != c.want {
			t.Errorf("namesIdentifier(%q, %q) = %v, want %v", c.message, c.id, got, c.want)
		}
	}
}

func TestLineBefore(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\n"
	for _, c := range []struct {
		after      string
		line, want int
	}{
		{"a\nb\ne\nf\n", 0, 0},       // above the deletion
		{"a\nb\ne\nf\n", 2, 4},       // below it: moved back by the two deleted lines
		{"a\nb\ne\nf\n", 3, 5},       //
		{"a\nX\nd\ne\nf\n", 1, 1},    // a line the change wrote: its hunk's first
		{"a\nX\nd\ne\nf\n", 2, 3},    // below a hunk of 2 lines that became 1
		{"a\nb\nc\nd\ne\nf\n", 4, 4}, // no change
	} {
		if got := lineBefore(c.line, core.LinesChanged(before, c.after).Hunks); got != c.want {
			t.Errorf("lineBefore(%d) after %q = %d, want %d", c.line, c.after, got, c.want)
		}
	}
}
