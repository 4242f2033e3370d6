package echo

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"short", "short"},
		{strings.Repeat("a", Max), strings.Repeat("a", Max)},
		{strings.Repeat("a", Max+1), strings.Repeat("a", Max) + "… (201 bytes)"},
		{strings.Repeat("a", Max-1) + "é", strings.Repeat("a", Max-1) + "… (201 bytes)"}, // not inside é
		{strings.Repeat("a", 1<<20), strings.Repeat("a", Max) + "… (1048576 bytes)"},
	}
	for _, tt := range tests {
		got := Clip(tt.in)
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%d bytes) = %q, want %q", len(tt.in), got, tt.want)
		}
	}
}
