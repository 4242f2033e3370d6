package core

import (
	"strings"
	"testing"
)

// TestWriteText is the write tool's form rule (writeform.go), each case
// with what the answer says was kept or changed.
func TestWriteText(t *testing.T) {
	const bom = "\uFEFF"
	cases := []struct {
		name          string
		current       string
		exists        bool
		content       string
		want, ending  string
		kept, changed string // phrases of the clauses ("" : the clause is empty)
	}{
		{name: "new file as given", content: "a\nb\n", want: "a\nb\n", ending: "lf"},
		{name: "new file with crlf as given", content: "a\r\nb\r\n", want: "a\r\nb\r\n", ending: "crlf"},
		{name: "lf over lf", current: "x\ny\n", exists: true, content: "a\nb\n", want: "a\nb\n", ending: "lf"},
		{name: "lf over crlf keeps crlf", current: "x\r\ny\r\n", exists: true, content: "a\nb\n", want: "a\r\nb\r\n", ending: "crlf", kept: "its CRLF line breaks"},
		{name: "lf over bom keeps the mark", current: bom + "x\ny\n", exists: true, content: "a\nb\n", want: bom + "a\nb\n", ending: "lf", kept: "its byte order mark"},
		{name: "lf over bom and crlf keeps both", current: bom + "package enc\r\n\r\nfunc Both() {}\r\n", exists: true,
			content: "package enc\n\nfunc BothRenamed() {}\n", want: bom + "package enc\r\n\r\nfunc BothRenamed() {}\r\n", ending: "crlf",
			kept: `its CRLF line breaks (the content's \n written as \r\n) and its byte order mark`},
		{name: "content with its own mark and crlf as given", current: bom + "x\r\n", exists: true, content: bom + "a\r\n", want: bom + "a\r\n", ending: "crlf"},
		{name: "crlf content over lf as given, said", current: "x\ny\n", exists: true, content: "a\r\nb\r\n", want: "a\r\nb\r\n", ending: "crlf", changed: "its line breaks changed from LF to CRLF as the content has them"},
		{name: "crlf content with lf in it over crlf as given", current: "x\r\n", exists: true, content: "a\r\nb\n", want: "a\r\nb\n", ending: "mixed", changed: "from CRLF to mixed (1 CRLF, 1 LF)"},
		{name: "mixed file gets the content as given, said", current: "x\r\ny\r\nz\n", exists: true, content: "a\nb\n", want: "a\nb\n", ending: "lf", changed: "from mixed (2 CRLF, 1 LF) to LF"},
		{name: "lone cr file keeps cr", current: "x\ry\r", exists: true, content: "a\nb\n", want: "a\rb\r", ending: "cr", kept: "its CR line breaks"},
		{name: "one-line content over crlf: nothing to convert", current: "x\r\ny\r\n", exists: true, content: "a", want: "a", ending: "none"},
		{name: "one-line file over which lf content is written", current: "x", exists: true, content: "a\nb\n", want: "a\nb\n", ending: "lf"},
		{name: "mark added by the content, said", current: "x\n", exists: true, content: bom + "a\n", want: bom + "a\n", ending: "lf", changed: "byte order mark was added"},
		{name: "empty file", current: "", exists: true, content: "a\r\n", want: "a\r\n", ending: "crlf"},
		{name: "empty content over crlf and bom keeps the mark", current: bom + "x\r\n", exists: true, content: "", want: bom, ending: "none", kept: "byte order mark"},
	}
	for _, c := range cases {
		got := WriteText(c.current, c.exists, c.content)
		if got.Text != c.want || got.LineEnding != c.ending || got.BOM != strings.HasPrefix(c.want, bom) {
			t.Errorf("%s: got %q %s bom=%v, want %q %s", c.name, got.Text, got.LineEnding, got.BOM, c.want, c.ending)
		}
		for _, p := range []struct{ got, want, what string }{{got.Kept, c.kept, "kept"}, {got.Changed, c.changed, "changed"}} {
			if p.want == "" && p.got != "" || p.want != "" && !strings.Contains(p.got, p.want) {
				t.Errorf("%s: %s clause %q, want %q", c.name, p.what, p.got, p.want)
			}
		}
	}
}
