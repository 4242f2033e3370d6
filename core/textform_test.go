package core

import "testing"

// textFormCases: edits keep a text's byte order mark and line breaks
// (textform.go); verbatim is what the same edits give as sent, to show
// each row changes something.
var textFormCases = []struct {
	name           string
	text           string
	edits          []TextEdit
	want, verbatim string
}{
	{name: "insert at 0:0 goes after the mark", text: "\uFEFFpackage a\n", edits: []TextEdit{te(0, 0, 0, 0, "// x\n")},
		want: "\uFEFF// x\npackage a\n", verbatim: "// x\n\uFEFFpackage a\n"},
	{name: "a rewrite of line 0 without the mark keeps it", text: "\uFEFFpackage  a\n", edits: []TextEdit{te(0, 0, 1, 0, "package a\n")},
		want: "\uFEFFpackage a\n", verbatim: "package a\n"},
	{name: "deleting the mark alone changes nothing", text: "\uFEFFa\n", edits: []TextEdit{te(0, 0, 0, 1, "")},
		want: "\uFEFFa\n", verbatim: "a\n"},
	{name: "a whole-text rewrite with the mark has it once", text: "\uFEFFa\r\n", edits: []TextEdit{te(0, 0, 1, 0, "\uFEFFb\r\n")},
		want: "\uFEFFb\r\n", verbatim: "\uFEFFb\r\n"},
	{name: "an edit adds no mark", text: "a\n", edits: []TextEdit{te(0, 0, 0, 0, "\uFEFF")},
		want: "a\n", verbatim: "\uFEFFa\n"},
	{name: "a mark later in the new text is text", text: "a\n", edits: []TextEdit{te(1, 0, 1, 0, "\uFEFF")},
		want: "a\n\uFEFF", verbatim: "a\n\uFEFF"},
	{name: "lf new text in a crlf file", text: "a\r\nb\r\n", edits: []TextEdit{te(1, 0, 1, 0, "x\ny\n")},
		want: "a\r\nx\r\ny\r\nb\r\n", verbatim: "a\r\nx\ny\nb\r\n"},
	{name: "crlf new text in an lf file", text: "a\nb\n", edits: []TextEdit{te(1, 0, 1, 0, "x\r\n")},
		want: "a\nx\nb\n", verbatim: "a\nx\r\nb\n"},
	{name: "a formatter's lf breaks in a crlf file with a mark", text: "\uFEFFpackage a\r\nfunc f( ) {}\r\n",
		edits: []TextEdit{te(0, 0, 2, 0, "package a\n\nfunc f() {}\n")},
		want:  "\uFEFFpackage a\r\n\r\nfunc f() {}\r\n", verbatim: "package a\n\nfunc f() {}\n"},
	{name: "a break replaced by an lf one stays crlf", text: "a\r\nb\r\n", edits: []TextEdit{te(0, 1, 1, 0, "\n")},
		want: "a\r\nb\r\n", verbatim: "a\nb\r\n"},
	{name: "new text's cr and the file's lf are one break", text: "a\r\nb\nc\r\nd\r\n", edits: []TextEdit{te(1, 0, 1, 1, "B\r")},
		want: "a\r\nB\r\nc\r\nd\r\n", verbatim: "a\r\nB\r\nc\r\nd\r\n"},
	{name: "new text's lf after the file's cr is one break", text: "a\rb\r\nc\r\n", edits: []TextEdit{te(1, 0, 1, 1, "\nB")},
		want: "a\r\nB\r\nc\r\n", verbatim: "a\r\nB\r\nc\r\n"},
	{name: "a mixed file's other lines keep their breaks", text: "a\nb\r\nc\r\nd\r\n", edits: []TextEdit{te(2, 0, 2, 1, "C\nC2")},
		want: "a\nb\r\nC\r\nC2\r\nd\r\n", verbatim: "a\nb\r\nC\nC2\r\nd\r\n"},
	{name: "no dominant style: as sent", text: "a\nb\r\n", edits: []TextEdit{te(2, 0, 2, 0, "x\r\ny\n")},
		want: "a\nb\r\nx\r\ny\n", verbatim: "a\nb\r\nx\r\ny\n"},
	{name: "no breaks: as sent", text: "a", edits: []TextEdit{te(0, 1, 0, 1, "\r\nb")},
		want: "a\r\nb", verbatim: "a\r\nb"},
	{name: "lone cr file", text: "a\rb\r", edits: []TextEdit{te(1, 0, 1, 0, "x\n")},
		want: "a\rx\rb\r", verbatim: "a\rx\nb\r"},
	{name: "adjacent edits forming one break", text: "a\r\nb\r\nc\r\n", edits: []TextEdit{te(1, 0, 1, 1, "B\r"), te(1, 1, 2, 0, "\n")},
		want: "a\r\nB\r\nc\r\n", verbatim: "a\r\nB\r\nc\r\n"},
	{name: "inserts at 0:0 and 0:1 of a marked text keep their order", text: "\uFEFFab\n", edits: []TextEdit{te(0, 1, 0, 1, "2"), te(0, 0, 0, 0, "1")},
		want: "\uFEFF12ab\n", verbatim: "1\uFEFF2ab\n"},
}

func TestApplyTextEditsKeepsForm(t *testing.T) {
	for _, c := range textFormCases {
		t.Run(c.name, func(t *testing.T) {
			for _, keep := range []bool{true, false} {
				want := c.verbatim
				if keep {
					want = c.want
				}
				got, err := ApplyTextEdits("file:///w/f.txt", c.text, c.edits, "/w", 3, keep)
				if err != nil || got.Text != want {
					t.Fatalf("keepForm=%v: got %q (%v), want %q", keep, got.Text, err, want)
				}
				back, _, _, derr := applyUnifiedDiff(c.text, got.Diff)
				if derr != nil || back != want {
					t.Fatalf("keepForm=%v: diff %q: %v %q", keep, got.Diff, derr, back)
				}
			}
		})
	}
}

// TestApplyTextEditsFormOverlap: moving an edit off the mark does not make
// edits that overlap as sent acceptable.
func TestApplyTextEditsFormOverlap(t *testing.T) {
	_, err := ApplyTextEdits("file:///w/f.txt", "\uFEFFabc\n", []TextEdit{te(0, 0, 0, 2, "x"), te(0, 1, 0, 1, "y")}, "/w", 3, true)
	if err == nil || err.Code != CodeMalformedResponse {
		t.Fatalf("got %v, want LSP_MALFORMED_RESPONSE", err)
	}
}
