package core

import (
	"strings"
	"testing"
)

func te(sl, sc, el, ec uint32, newText string) TextEdit {
	return TextEdit{Range: Range{Start: Position{Line: sl, Character: sc}, End: Position{Line: el, Character: ec}}, NewText: newText}
}

// textEditCases is applyTextEdits' table: an ok case gives the new text and
// changed lines; an error case a phrase of its message.
var textEditCases = []struct {
	name        string
	text        string
	edits       []TextEdit
	want        string
	first, last int
	phrase      string // an LSP_MALFORMED_RESPONSE message
}{
	{name: "none", text: "a\n", want: "a\n"},
	{name: "replace a word", text: "let x = 1\nx++\n", edits: []TextEdit{te(0, 4, 0, 5, "y"), te(1, 0, 1, 1, "y")}, want: "let y = 1\ny++\n", first: 1, last: 2},
	{name: "unsorted edits", text: "ab\n", edits: []TextEdit{te(0, 1, 0, 2, "B"), te(0, 0, 0, 1, "A")}, want: "AB\n", first: 1, last: 1},
	{name: "inserts at one position keep array order", text: "x", edits: []TextEdit{te(0, 0, 0, 0, "1"), te(0, 0, 0, 0, "2"), te(0, 0, 0, 0, "3")}, want: "123x", first: 1, last: 1},
	{name: "insert before a replacement at its start", text: "abc", edits: []TextEdit{te(0, 0, 0, 2, "X"), te(0, 0, 0, 0, "i")}, want: "iXc", first: 1, last: 1},
	{name: "insert at a replacement's end", text: "abc", edits: []TextEdit{te(0, 0, 0, 2, "X"), te(0, 2, 0, 2, "i")}, want: "Xic", first: 1, last: 1},
	{name: "emoji counts two", text: "😀a😀b\n", edits: []TextEdit{te(0, 2, 0, 3, "A"), te(0, 5, 0, 6, "B")}, want: "😀A😀B\n", first: 1, last: 1},
	{name: "bom counts one", text: "\uFEFFab\n", edits: []TextEdit{te(0, 1, 0, 2, "A")}, want: "\uFEFFAb\n", first: 1, last: 1},
	{name: "crlf lines", text: "a\r\nb\r\nc\r\n", edits: []TextEdit{te(1, 0, 2, 0, "B\r\n")}, want: "a\r\nB\r\nc\r\n", first: 2, last: 2},
	{name: "lone cr ends a line", text: "a\rb\rc", edits: []TextEdit{te(2, 0, 2, 1, "C")}, want: "a\rb\rC", first: 3, last: 3},
	{name: "insert at end of file", text: "a\n", edits: []TextEdit{te(1, 0, 1, 0, "b\n")}, want: "a\nb\n", first: 2, last: 2},
	{name: "insert at end, no final newline", text: "a", edits: []TextEdit{te(0, 1, 0, 1, "\nb")}, want: "a\nb", first: 1, last: 2},
	{name: "delete a line", text: "a\nb\nc\n", edits: []TextEdit{te(1, 0, 2, 0, "")}, want: "a\nc\n", first: 2, last: 2},
	{name: "delete the last line", text: "a\nb\n", edits: []TextEdit{te(1, 0, 2, 0, "")}, want: "a\n", first: 1, last: 1},
	{name: "no-op edit", text: "a\n", edits: []TextEdit{te(0, 0, 0, 1, "a")}, want: "a\n"},
	{name: "empty text", text: "", edits: []TextEdit{te(0, 0, 0, 0, "x\n")}, want: "x\n", first: 1, last: 1},
	{name: "past the line: its end", text: "ab\ncd\n", edits: []TextEdit{te(0, 0, 0, 3, "")}, want: "\ncd\n", first: 1, last: 1},
	{name: "crlf terminator not a character: the line's end", text: "ab\r\ncd\r\n", edits: []TextEdit{te(0, 3, 0, 3, "!")}, want: "ab!\r\ncd\r\n", first: 1, last: 1},
	{name: "past the file", text: "a\n", edits: []TextEdit{te(2, 0, 2, 0, "x")}, phrase: "edits[0].range.start is on line 2, past the end of the document (lines 0–1)"},
	{name: "end past the file: the document's end", text: "a\nb", edits: []TextEdit{te(0, 0, 2147483647, 2147483647, "A\nB\n")}, want: "A\nB\n", first: 1, last: 2},
	{name: "end on the line after the last: the document's end", text: "a\nb\n", edits: []TextEdit{te(0, 0, 3, 0, "a\nB\n")}, want: "a\nB\n", first: 2, last: 2},
	{name: "splits a surrogate pair", text: "😀", edits: []TextEdit{te(0, 1, 0, 2, "")}, phrase: "splits the UTF-16 surrogate pair"},
	{name: "overlap", text: "abcdef", edits: []TextEdit{te(0, 0, 0, 3, "x"), te(0, 4, 0, 5, "y"), te(0, 2, 0, 4, "z")}, phrase: "edits[0] (0:0–0:3) and edits[2] (0:2–0:4) overlap"},
	{name: "insert inside a replacement", text: "abcdef", edits: []TextEdit{te(0, 1, 0, 1, "x"), te(0, 0, 0, 3, "y")}, phrase: "edits[0] (0:1–0:1) and edits[1] (0:0–0:3) overlap"},
	{name: "same range twice", text: "abc", edits: []TextEdit{te(0, 0, 0, 1, "x"), te(0, 0, 0, 1, "y")}, phrase: "edits[0] (0:0–0:1) and edits[1] (0:0–0:1) overlap"},
}

func TestApplyTextEdits(t *testing.T) {
	for _, c := range textEditCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ApplyTextEdits("file:///w/f.txt", c.text, c.edits, "/w", 3, true)
			if c.phrase != "" {
				if err == nil || err.Code != CodeMalformedResponse || !strings.Contains(err.Message, c.phrase) {
					t.Fatalf("got %+v, %v; want LSP_MALFORMED_RESPONSE with %q", got, err, c.phrase)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != c.want || got.FirstChanged != c.first || got.LastChanged != c.last || got.Path != "f.txt" || got.Edits != len(c.edits) {
				t.Fatalf("got %+v, want %q lines %d–%d", got, c.want, c.first, c.last)
			}
			back, added, removed, derr := applyUnifiedDiff(c.text, got.Diff)
			if derr != nil || back != c.want || added != got.LinesAdded || removed != got.LinesRemoved {
				t.Fatalf("diff %q: %v %q %d %d", got.Diff, derr, back, added, removed)
			}
			if (c.text == c.want) != (got.Diff == "") {
				t.Fatalf("diff %q for %q → %q", got.Diff, c.text, c.want)
			}
		})
	}
}

func TestApplyTextEditsPaths(t *testing.T) {
	for _, c := range []struct{ uri, ws, path, header string }{
		{"file:///w/src/a.go", "/w", "src/a.go", "--- a/src/a.go\n+++ b/src/a.go\n"},
		{"file:///elsewhere/a.go", "/w", "/elsewhere/a.go", "--- /elsewhere/a.go\n+++ /elsewhere/a.go\n"},
		{"file:///w/a.go", "", "/w/a.go", "--- /w/a.go\n"},
		{"untitled:Untitled-1", "/w", "untitled:Untitled-1", "--- a/untitled:Untitled-1\n"},
	} {
		got, err := ApplyTextEdits(c.uri, "a\n", []TextEdit{te(0, 0, 0, 1, "b")}, c.ws, 3, true)
		if err != nil || got.Path != c.path || !strings.HasPrefix(got.Diff, c.header) {
			t.Errorf("%s in %q: %+v %v", c.uri, c.ws, got, err)
		}
	}
}

// TestApplyTextEditsLongLine: many edits along one long line convert in
// one pass (the cursor), with correct results.
func TestApplyTextEditsLongLine(t *testing.T) {
	line := strings.Repeat("ab😀", 20000)
	var edits []TextEdit
	for i := range 20000 {
		edits = append(edits, te(0, uint32(4*i), 0, uint32(4*i+1), "A"))
	}
	got, err := ApplyTextEdits("file:///w/f", line, edits, "/w", 3, true)
	if err != nil || got.Text != strings.Repeat("Ab😀", 20000) {
		t.Fatalf("%v", err)
	}
}
