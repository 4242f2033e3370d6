package toolbox

import "testing"

func TestLineAt(t *testing.T) {
	text := "a\nb\n\nd"
	for n, want := range []string{"a", "b", "", "d", ""} {
		if got := lineAt(text, n); got != want {
			t.Errorf("lineAt(%d) = %q, want %q", n, got, want)
		}
	}
}
