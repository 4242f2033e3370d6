package core

import (
	"strings"
	"testing"
)

// editCases is editText's table: an ok case gives want (the new text) and
// the changed lines; an error case gives the code and a phrase of its
// message.
var editCases = []struct {
	name           string
	text, old, new string
	all            bool
	want           string
	code           Code
	phrase         string
	ending         string
	first, last, n int
	before, after  int
}{
	{name: "unique", text: "a\nb\nc\n", old: "b", new: "B", want: "a\nB\nc\n", ending: "lf", first: 2, last: 2, n: 1, before: 3, after: 3},
	{name: "no final newline", text: "a\nb", old: "b", new: "x\ny", want: "a\nx\ny", ending: "lf", first: 2, last: 3, n: 1, before: 2, after: 3},
	{name: "single line", text: "abc", old: "b", new: "", want: "ac", ending: "none", first: 1, last: 1, n: 1, before: 1, after: 1},
	{name: "replace all", text: "x = 1\ny = x\nz = x\n", old: "x", new: "w", all: true, want: "w = 1\ny = w\nz = w\n", ending: "lf", first: 1, last: 3, n: 3, before: 3, after: 3},
	{name: "replace all once", text: "a\nb\n", old: "b", new: "c", all: true, want: "a\nc\n", ending: "lf", first: 2, last: 2, n: 1, before: 2, after: 2},
	{name: "non-overlapping", text: "aaa", old: "aa", new: "b", all: true, want: "ba", ending: "none", first: 1, last: 1, n: 1, before: 1, after: 1},
	{name: "crlf file, lf strings", text: "a\r\nb\r\nc\r\n", old: "a\nb\n", new: "x\ny\nz\n", want: "x\r\ny\r\nz\r\nc\r\n", ending: "crlf", first: 1, last: 3, n: 1, before: 3, after: 4},
	{name: "crlf file, single-line old, multi-line new", text: "a\r\nb\r\n", old: "b", new: "b1\nb2", want: "a\r\nb1\r\nb2\r\n", ending: "crlf", first: 2, last: 3, n: 1, before: 2, after: 3},
	{name: "crlf strings kept", text: "a\r\nb\r\n", old: "a\r\n", new: "x\r\n", want: "x\r\nb\r\n", ending: "crlf", first: 1, last: 1, n: 1, before: 2, after: 2},
	{name: "lf file matched literally", text: "a\nb\n", old: "a\r\nb", new: "x", code: CodeFSNoMatch, phrase: "ignoring whitespace at lines 1–2"},
	{name: "mixed, literal first", text: "a\nb\r\nc\r\nd\n", old: "a\nb", new: "x\ny", want: "x\ny\r\nc\r\nd\n", ending: "mixed", first: 1, last: 2, n: 1, before: 4, after: 4},
	{name: "mixed, mostly crlf writes crlf", text: "a\nb\r\nc\r\nd\r\n", old: "a\nb", new: "x\ny", want: "x\r\ny\r\nc\r\nd\r\n", ending: "mixed", first: 1, last: 2, n: 1, before: 4, after: 4},
	{name: "mixed, crlf conversion when literal fails", text: "a\nb\nc\r\nd\n", old: "c\nd", new: "e\nf", want: "a\nb\ne\r\nf\n", ending: "mixed", first: 3, last: 4, n: 1, before: 4, after: 4},
	{name: "bom kept", text: "\uFEFFa\nb\n", old: "a", new: "A", want: "\uFEFFA\nb\n", ending: "lf", first: 1, last: 1, n: 1, before: 2, after: 2},
	{name: "bom not matchable", text: "\uFEFFab", old: "\uFEFFa", new: "x", code: CodeFSNoMatch, phrase: "not found"},
	{name: "emoji", text: "😀 hi\n👍🏽 ok\n", old: "👍🏽", new: "🎉", want: "😀 hi\n🎉 ok\n", ending: "lf", first: 2, last: 2, n: 1, before: 2, after: 2},
	{name: "combining", text: "cafe\u0301\ncafé\n", old: "café", new: "tea", want: "cafe\u0301\ntea\n", ending: "lf", first: 2, last: 2, n: 1, before: 2, after: 2},
	{name: "delete a line", text: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n", ending: "lf", first: 2, last: 2, n: 1, before: 3, after: 2},
	{name: "delete the last line", text: "a\nb\n", old: "b\n", new: "", want: "a\n", ending: "lf", first: 1, last: 1, n: 1, before: 2, after: 1},
	{name: "delete everything", text: "abc\n", old: "abc\n", new: "", want: "", ending: "lf", first: 1, last: 1, n: 1, before: 1, after: 0},
	{name: "lone cr lines", text: "a\rb\rc", old: "b", new: "B", want: "a\rB\rc", ending: "mixed", first: 2, last: 2, n: 1, before: 3, after: 3},
	{name: "lone cr file, lf strings", text: "a\rb\rc\r", old: "a\nb\n", new: "x\ny\nz\n", want: "x\ry\rz\rc\r", ending: "mixed", first: 1, last: 3, n: 1, before: 3, after: 4},
	{name: "mostly lone cr, one-line old, multi-line new", text: "a\rb\rc\n", old: "b", new: "b1\nb2", want: "a\rb1\rb2\rc\n", ending: "mixed", first: 2, last: 3, n: 1, before: 3, after: 4},
	{name: "lf file: \n is not read as \r", text: "a\nb\r", old: "b\r", new: "x", want: "a\nx", ending: "mixed", first: 2, last: 2, n: 1, before: 2, after: 2},
	{name: "empty old", text: "abc", old: "", new: "x", code: CodeFSInvalidArgument, phrase: "use write"},
	{name: "same strings", text: "abc", old: "b", new: "b", code: CodeFSInvalidArgument, phrase: "nothing would change"},
	{name: "ambiguous", text: "x\ny\nx\nx\n", old: "x", new: "z", code: CodeFSAmbiguousMatch, phrase: "occurs 3 times in f.go (on lines 1, 3, 4)"},
	{name: "ambiguous on one line", text: "x x\n", old: "x", new: "z", code: CodeFSAmbiguousMatch, phrase: "(on line 1)"},
	{name: "ambiguous, many lines", text: strings.Repeat("k\n", 9), old: "k", new: "z", code: CodeFSAmbiguousMatch, phrase: "on lines 1, 2, 3, 4, 5, …"},
	{name: "ambiguous crlf", text: "a\r\nb\r\na\r\nb\r\n", old: "a\nb", new: "z", code: CodeFSAmbiguousMatch, phrase: "on lines 1, 3"},
	{name: "no match, case", text: "Hello World\n", old: "hello world", new: "x", code: CodeFSNoMatch, phrase: "ignoring case at line 1, where the file has \"Hello World\""},
	{name: "no match, whitespace", text: "if x {\n\treturn\n}\n", old: "if x {\n    return", new: "x", code: CodeFSNoMatch, phrase: `ignoring whitespace at lines 1–2, where the file has "if x {\n\treturn"`},
	{name: "no match, line numbers", text: "alpha\nbeta\n", old: "     1\talpha\n     2\tbeta", new: "x", code: CodeFSNoMatch, phrase: "line numbers read shows"},
	{name: "no match, read again", text: "alpha\n", old: "gamma", new: "x", code: CodeFSNoMatch, phrase: "Read the file again"},
	{name: "invalid utf-8 text", text: "a\xffb", old: "a", new: "x", code: CodeFSInvalidArgument, phrase: "not valid UTF-8"},
}

func TestEditText(t *testing.T) {
	for _, c := range editCases {
		got, err := EditText(c.text, c.old, c.new, c.all, "f.go")
		if c.code != "" {
			if err == nil || err.Code != c.code || !strings.Contains(err.Message, c.phrase) {
				t.Errorf("%s: want %s with %q, got %+v %+v", c.name, c.code, c.phrase, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %s: %s", c.name, err.Code, err.Message)
			continue
		}
		if got.Text != c.want || got.LineEnding != c.ending || got.Replacements != c.n || got.FirstChanged != c.first || got.LastChanged != c.last ||
			got.LinesBefore != c.before || got.LinesAfter != c.after || got.BOM != strings.HasPrefix(c.text, utf8BOM) || got.ReplaceAll != c.all {
			t.Errorf("%s: got %+v, want text %q ending %s n %d lines %d–%d before %d after %d", c.name, got, c.want, c.ending, c.n, c.first, c.last, c.before, c.after)
		}
		if n := countLines(strings.TrimPrefix(got.Text, utf8BOM)); n != len(SplitLines(strings.TrimPrefix(got.Text, utf8BOM))) {
			t.Errorf("%s: countLines %d disagrees with SplitLines", c.name, n)
		}
	}
}

func TestEditTextEnvelope(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"text":"a","oldString":"a","newString":"b"}`, `{"ok":{"text":"b","replacements":1,"replaceAll":false,"lineEnding":"none","bom":false,"changedLines":{"first":1,"last":1},"linesBefore":1,"linesAfter":1}}`},
		{`{"text":"a a","oldString":"a","newString":"b","replaceAll":null,"path":null}`, `FS_AMBIGUOUS_MATCH`},
		{`{"oldString":"a","newString":"b"}`, `"LSP_INVALID_ARGUMENT","message":"text must be`},
		{`{"text":"a","oldString":1,"newString":"b"}`, `"LSP_INVALID_ARGUMENT","message":"oldString must be a string`},
		{`{"text":"a","oldString":"a"}`, `newString must be a string, got missing`},
		{`{"text":"a","oldString":"a","newString":"b","replaceAll":"yes"}`, `replaceAll must be a boolean`},
		{`{"text":"a","oldString":"a","newString":"b","path":3}`, `path must be a string`},
	} {
		if env := string(Call("editText", []byte(c.in))); !strings.Contains(env, c.want) {
			t.Errorf("%s: got %s, want %s", c.in, env, c.want)
		}
	}
}

func TestLineHelpers(t *testing.T) {
	for _, c := range []struct {
		s     string
		lines int
	}{{"", 0}, {"a", 1}, {"a\n", 1}, {"a\nb", 2}, {"\n", 1}, {"\n\n", 2}, {"a\r\nb\r\n", 2}, {"a\rb", 2}, {"\r\n\r", 2}} {
		if got := countLines(c.s); got != c.lines || got != len(SplitLines(c.s)) {
			t.Errorf("countLines(%q) = %d, want %d (SplitLines %d)", c.s, got, c.lines, len(SplitLines(c.s)))
		}
	}
	if got := toCRLF("a\nb\r\nc\n"); got != "a\r\nb\r\nc\r\n" {
		t.Errorf("toCRLF: %q", got)
	}
	if got := lineOfOffset("a\r\nb\rc\nd", 7); got != 4 {
		t.Errorf("lineOfOffset: %d", got)
	}
}

// lineWalk answers as lineOfOffset and countLines do, offset by offset, in
// one walk.
func TestLineWalk(t *testing.T) {
	texts := []string{"", "a", "a\n", "a\r\nb", "a\rb\r", "\r\n\r\n", "x\n\ry\r\n", "é\n€\r\n😀"}
	for _, s := range texts {
		w := lineWalk{s: s, line: 1}
		for p := -1; p <= len(s)+1; p++ {
			if got, want := w.lineOf(p), lineOfOffset(s, p); got != want {
				t.Errorf("%q: lineOf(%d) = %d, lineOfOffset %d", s, p, got, want)
			}
		}
		if got, want := linesOf(s, w.lineOf(len(s))-1), countLines(s); got != want {
			t.Errorf("%q: %d lines from the walk, countLines %d", s, got, want)
		}
		if got, want := w.lineOf(0), lineOfOffset(s, 0); got != want { // out of order
			t.Errorf("%q: lineOf(0) after the end = %d, want %d", s, got, want)
		}
	}
}
