package core

import (
	"strings"
	"testing"
)

func TestReadText(t *testing.T) {
	long := strings.Repeat("é", 10)
	for _, c := range []struct {
		name                         string
		text                         string
		offset, limit, max           int
		want, footer                 string
		start, returned, total, next int
		partial                      bool
		code                         Code
		phrase                       string
	}{
		{name: "whole", text: "a\nb\n", offset: 1, limit: 2000, max: 2000, want: "     1\ta\n     2\tb", footer: "(end of file, 2 lines)", start: 1, returned: 2, total: 2},
		{name: "no final newline", text: "a\nb", offset: 1, limit: 2000, max: 2000, want: "     1\ta\n     2\tb", footer: "(end of file, 2 lines)", start: 1, returned: 2, total: 2},
		{name: "one line", text: "x", offset: 1, limit: 1, max: 2000, want: "     1\tx", footer: "(end of file, 1 line)", start: 1, returned: 1, total: 1},
		{name: "empty", text: "", offset: 1, limit: 2000, max: 2000, want: "", footer: "(empty file)", start: 1},
		{name: "bom only", text: "\uFEFF", offset: 1, limit: 2000, max: 2000, want: "", footer: "(empty file)", start: 1},
		{name: "blank lines", text: "\n\n", offset: 1, limit: 2000, max: 2000, want: "     1\t\n     2\t", footer: "(end of file, 2 lines)", start: 1, returned: 2, total: 2},
		{name: "crlf and bom", text: "\uFEFFa\r\nb\r\n", offset: 1, limit: 2000, max: 2000, want: "     1\ta\n     2\tb", footer: "(end of file, 2 lines)\n" + bomColumnsNote, start: 1, returned: 2, total: 2},
		{name: "first page", text: "a\nb\nc\nd\n", offset: 1, limit: 2, max: 2000, want: "     1\ta\n     2\tb", footer: "(lines 1–2 of 4; call read with offset 3 to continue)", start: 1, returned: 2, total: 4, next: 3, partial: true},
		{name: "middle", text: "a\nb\nc\nd\n", offset: 2, limit: 2, max: 2000, want: "     2\tb\n     3\tc", footer: "(lines 2–3 of 4; call read with offset 4 to continue)", start: 2, returned: 2, total: 4, next: 4, partial: true},
		{name: "last page", text: "a\nb\nc\nd\n", offset: 3, limit: 2000, max: 2000, want: "     3\tc\n     4\td", footer: "(lines 3–4 of 4; end of file)", start: 3, returned: 2, total: 4, partial: true},
		{name: "last line", text: "a\nb", offset: 2, limit: 5, max: 2000, want: "     2\tb", footer: "(line 2 of 2; end of file)", start: 2, returned: 1, total: 2, partial: true},
		{name: "wide numbers", text: strings.Repeat("x\n", 1000001), offset: 1000000, limit: 2, max: 2000, want: "1000000\tx\n1000001\tx", footer: "(lines 1000000–1000001 of 1000001; end of file)", start: 1000000, returned: 2, total: 1000001, partial: true},
		{name: "long line", text: long + "\nok", offset: 1, limit: 10, max: 4, want: "     1\téééé… [line truncated: 6 more characters]\n     2\tok", footer: "(end of file, 2 lines)", start: 1, returned: 2, total: 2},
		{name: "exactly max", text: "abcd", offset: 1, limit: 10, max: 4, want: "     1\tabcd", footer: "(end of file, 1 line)", start: 1, returned: 1, total: 1},
		{name: "emoji cut at code point", text: "😀😀😀", offset: 1, limit: 10, max: 1, want: "     1\t😀… [line truncated: 2 more characters]", footer: "(end of file, 1 line)", start: 1, returned: 1, total: 1},
		{name: "one more character", text: "abcde", offset: 1, limit: 10, max: 4, want: "     1\tabcd… [line truncated: 1 more character]", footer: "(end of file, 1 line)", start: 1, returned: 1, total: 1},
		{name: "lone cr", text: "a\rb", offset: 1, limit: 10, max: 10, want: "     1\ta\n     2\tb", footer: "(end of file, 2 lines)", start: 1, returned: 2, total: 2},
		{name: "past the end", text: "a\nb\n", offset: 3, limit: 10, max: 10, code: CodeFSInvalidArgument, phrase: "offset 3 is past the end of f.txt, which has 2 lines; call read with an offset from 1 to 2"},
		{name: "far past the end", text: "a", offset: 99, limit: 10, max: 10, code: CodeFSInvalidArgument, phrase: "which has 1 line;"},
		{name: "past the end of empty", text: "", offset: 2, limit: 10, max: 10, code: CodeFSInvalidArgument, phrase: "which is empty"},
	} {
		got, err := ReadText(c.text, "f.txt", c.offset, c.limit, c.max)
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
		if got.Text != c.want || got.Footer != c.footer || got.StartLine != c.start || got.ReturnedLines != c.returned ||
			got.TotalLines != c.total || got.NextOffset != c.next || got.Partial != c.partial || got.Path != "f.txt" {
			t.Errorf("%s: got %+v\nwant text %q footer %q start %d returned %d total %d next %d partial %v", c.name, got, c.want, c.footer, c.start, c.returned, c.total, c.next, c.partial)
		}
	}
}

func TestReadViewEnvelope(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"text":"a","path":"p"}`, `{"ok":{"path":"p","text":"     1\ta","startLine":1,"returnedLines":1,"totalLines":1,"partial":false,"footer":"(end of file, 1 line)"}}`},
		{`{"text":"a","path":"p","offset":null,"limit":null,"maxLineChars":null}`, `"ok"`},
		{`{"text":"a","path":"p","offset":1.0,"limit":1e1}`, `"ok"`},
		{`{"path":"p"}`, `"LSP_INVALID_ARGUMENT","message":"text must be`},
		{`{"text":"a"}`, `"LSP_INVALID_ARGUMENT","message":"path must be`},
		{`{"text":"a","path":"p","offset":0}`, `"FS_INVALID_ARGUMENT","message":"offset must be an integer from 1 to 2147483647 (the one-based first line), got 0"`},
		{`{"text":"a","path":"p","limit":10001}`, `"FS_INVALID_ARGUMENT","message":"limit must be an integer from 1 to 10000`},
		{`{"text":"a","path":"p","maxLineChars":0}`, `"LSP_INVALID_ARGUMENT","message":"maxLineChars must be`},
	} {
		if env := string(Call("readView", []byte(c.in))); !strings.Contains(env, c.want) {
			t.Errorf("%s: got %s, want %s", c.in, env, c.want)
		}
	}
}
