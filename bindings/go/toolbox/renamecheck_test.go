package toolbox

import "testing"

func TestCountWord(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{`LOG_LEVEL=${LOG_LEVEL:-info}`, 2},
		{`APP_LOG_LEVEL=${LOG_LEVEL:-info}`, 1},
		{`LOG_LEVELS=1 xLOG_LEVEL=2`, 0},
		{``, 0},
		{`$LOG_LEVEL`, 1},
	} {
		if got := countWord(c.line, "LOG_LEVEL"); got != c.want {
			t.Errorf("countWord(%q) = %d, want %d", c.line, got, c.want)
		}
	}
}

func TestLineAt(t *testing.T) {
	text := "a\nb\n\nd"
	for n, want := range []string{"a", "b", "", "d", ""} {
		if got := lineAt(text, n); got != want {
			t.Errorf("lineAt(%d) = %q, want %q", n, got, want)
		}
	}
}
