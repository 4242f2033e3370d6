package core

import (
	"strings"
	"testing"
)

// Positions are checked against the document before any request is sent,
// and every answer names what it is for (issue 10, items 4 and 5).
func TestCheckPosition(t *testing.T) {
	const goSrc = "package main\n\nfunc main() {\n\tfmt.Println(s.Get())\n}\n"
	tests := []struct {
		name      string
		text      string
		line, col uint32 // one-based, as the model sends them
		subject   string // the subject line, or "" for an error
		errHas    []string
	}{
		{"identifier start", goSrc, 1, 1, "`package` at line 1, column 1:", nil},
		{"identifier middle", goSrc, 3, 7, "`main` at line 3, column 7:", nil},
		{"just after an identifier, on a dot", goSrc, 4, 15, "`s` just before line 4, column 15 (on `.`):", nil},
		{"identifier after a dot", goSrc, 4, 16, "`Get` at line 4, column 16:", nil},
		{"end of line after an identifier", "x := foo\n", 1, 9, "`foo` just before line 1, column 9 (at the end of the line):", nil},
		{"no identifier", goSrc, 3, 13, "No identifier at line 3, column 13: `func main() {`", nil},
		{"no identifier on a tab", goSrc, 4, 1, "No identifier at line 4, column 1: `\tfmt.Println(s.Get())`", nil},
		{"empty line", goSrc, 2, 1, "No identifier at line 2, column 1: (an empty line)", nil},
		{"number is not an identifier", "x = 123\n", 1, 6, "No identifier at line 1, column 6: `x = 123`", nil},
		{"dollar and underscore", "let $a_b = 1\n", 1, 6, "`$a_b` at line 1, column 6:", nil},
		{"after emoji (UTF-16 columns)", "s := \"🚀🚀\" + TotalArea\n", 1, 15, "`TotalArea` at line 1, column 15:", nil},
		{"non-ASCII identifier", "été := 1\n", 1, 2, "`été` at line 1, column 2:", nil},
		{"backtick in the line", "x := `raw`;\n", 1, 11, "No identifier at line 1, column 11: `` x := `raw`; ``", nil},
		{"CRLF lines", "a\r\nbb\r\ncc", 3, 2, "`cc` at line 3, column 2:", nil},
		{"CR lines", "a\rbb\rcc", 2, 3, "`bb` just before line 2, column 3 (at the end of the line):", nil},
		{"last line without newline", "a\nlast", 2, 4, "`last` at line 2, column 4:", nil},

		{"line past the end", goSrc, 99, 1, "", []string{"line 99 is past the end of the file, which has 5 lines; its last line, 5, is `}`", "one-based"}},
		{"line after the final newline", goSrc, 6, 1, "", []string{"line 6 is past the end of the file, which has 5 lines"}},
		{"empty file", "", 1, 1, "", []string{"line 1 is past the end of the file, which is empty"}},
		{"column past the end", goSrc, 3, 200, "", []string{"character 200 is past the end of line 3, which has 13 characters (the last column is 13, and 14 is just after it): `func main() {`", "UTF-16"}},
		{"column just past end-of-line + 1", goSrc, 3, 15, "", []string{"character 15 is past the end of line 3"}},
		{"column counts UTF-16 units", "🚀\n", 1, 4, "", []string{"which has 2 characters"}},
		{"CRLF terminator is not a column", "ab\r\ncd\r\n", 1, 4, "", []string{"character 4 is past the end of line 1, which has 2 characters"}},
		{"empty line has only column 1", goSrc, 2, 2, "", []string{"character 2 is past the end of line 2, which is empty: column 1 is its only column"}},
		{"long line clipped", strings.Repeat("x", 500) + "\n", 1, 600, "", []string{"which has 500 characters", strings.Repeat("x", 160) + "…`"}},
	}
	for _, tt := range tests {
		got, err := CheckPosition(tt.text, Position{Line: tt.line - 1, Character: tt.col - 1}, OneBasedTerms)
		if tt.subject != "" {
			if err != nil {
				t.Errorf("%s: unexpected error %v", tt.name, err)
			} else if got != tt.subject {
				t.Errorf("%s: subject = %q, want %q", tt.name, got, tt.subject)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: got subject %q, want LSP_INVALID_ARGUMENT", tt.name, got)
			continue
		}
		if err.Code != CodeInvalidArgument {
			t.Errorf("%s: code %s, want LSP_INVALID_ARGUMENT", tt.name, err.Code)
		}
		for _, frag := range tt.errHas {
			if !strings.Contains(err.Message, frag) {
				t.Errorf("%s: message lacks %q: %q", tt.name, frag, err.Message)
			}
		}
	}
}

// A seam caller (serve's lsp/query, ShimClient.query, Service.Query, the
// npm core's request) sends zero-based positions: its position errors
// quote the numbers it sent and say zero-based, with the valid range, so
// that following the error does not shift every position by one.
func TestCheckPositionZeroBased(t *testing.T) {
	const goSrc = "package main\n\nfunc main() {\n\tfmt.Println(s.Get())\n}\n"
	tests := []struct {
		name       string
		text       string
		line, char uint32 // zero-based, as sent
		errHas     []string
	}{
		{"line just past the end", goSrc, 5, 0, []string{"line 5 is past the end of the file, which has 5 lines, so valid lines are 0 to 4; its last line, 4, is `}`", "Line and character are zero-based, as sent"}},
		{"line far past the end", goSrc, 98, 0, []string{"line 98 is past the end"}},
		{"empty file", "", 0, 0, []string{"line 0 is past the end of the file, which is empty", "zero-based"}},
		{"column past the end", goSrc, 2, 40, []string{"character 40 is past the end of line 2, which has 13 characters, so valid characters are 0 to 13 (13 is just after the last one): `func main() {`", "zero-based", "UTF-16"}},
		{"column just after the end-of-line position", goSrc, 2, 14, []string{"character 14 is past the end of line 2"}},
		{"empty line has only character 0", goSrc, 1, 1, []string{"character 1 is past the end of line 1, which is empty: character 0 is its only position"}},
	}
	for _, tt := range tests {
		for _, terms := range []PositionTerms{ZeroBasedTerms, ""} {
			got, err := CheckPosition(tt.text, Position{Line: tt.line, Character: tt.char}, terms)
			if err == nil {
				t.Errorf("%s (%q): got subject %q, want LSP_INVALID_ARGUMENT", tt.name, terms, got)
				continue
			}
			if err.Code != CodeInvalidArgument {
				t.Errorf("%s: code %s, want LSP_INVALID_ARGUMENT", tt.name, err.Code)
			}
			if strings.Contains(err.Message, "one-based") {
				t.Errorf("%s: a zero-based caller is told one-based: %q", tt.name, err.Message)
			}
			for _, frag := range tt.errHas {
				if !strings.Contains(err.Message, frag) {
					t.Errorf("%s: message lacks %q: %q", tt.name, frag, err.Message)
				}
			}
		}
	}
	// The subject is the rendered answer's first line: one-based either way.
	if got, err := CheckPosition(goSrc, Position{Line: 2, Character: 6}, ZeroBasedTerms); err != nil || got != "`main` at line 3, column 7:" {
		t.Errorf("subject = %q, %v", got, err)
	}
}

// RequestInText refuses a position outside the text before building
// anything, and carries the subject in the request.
func TestRequestInText(t *testing.T) {
	r, err := RequestInText(OpHover, "file:///w/a.go", Position{Line: 0, Character: 0}, ZeroBasedTerms, "package a\n")
	if err != nil || r.Subject != "`package` at line 1, column 1:" {
		t.Fatalf("got %+v, %v", r, err)
	}
	if _, err := RequestInText(OpHover, "file:///w/a.go", Position{Line: 1, Character: 499}, ZeroBasedTerms, "package a\nvar x = 1\n"); err == nil || err.Code != CodeInvalidArgument {
		t.Fatalf("column past the end: got %v, want LSP_INVALID_ARGUMENT", err)
	}
}

// The subject is the first line of the rendered text, inside
// maxResultChars.
func TestRenderSubjectFirst(t *testing.T) {
	const subject = "`Area` at line 15, column 6:"
	for _, r := range []Result{
		{Kind: KindLocations, Locations: []Location{{URI: "file:///w/a.go", Range: Range{Start: Position{Line: 14, Character: 5}}}}, Subject: subject},
		{Kind: KindLocations, Subject: subject},
		{Kind: KindHover, Hover: &Hover{Contents: "func Area()"}, Subject: subject, Incomplete: "still loading"},
		{Kind: KindHover, Subject: subject},
	} {
		out, err := Render(r, "file:///w", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(out.Text, "\n"); first != subject {
			t.Errorf("%s: first line %q, want %q (text %q)", r.Kind, first, subject, out.Text)
		}
		if r.Incomplete != "" && !strings.HasSuffix(out.Text, "(possibly incomplete: still loading)") {
			t.Errorf("incomplete line missing: %q", out.Text)
		}
	}
	// A budget too small for the subject beside a body leaves it out.
	out, _ := Render(Result{Kind: KindHover, Hover: &Hover{Contents: "x"}, Subject: subject}, "file:///w", Limits{MaxResultChars: 10})
	if strings.Contains(out.Text, "Area") {
		t.Errorf("subject kept in a 10-character budget: %q", out.Text)
	}
}

// What is at a position is named by the language's identifiers: in CSS
// and its dialects a name joins words with '-', so the subject inside
// --main-color is the whole custom property (it was `main`); elsewhere
// '-' still ends a name.
func TestSubjectFollowsTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		uri, line string
		col       uint32 // one-based
		want      string
	}{
		{"file:///w/site.css", "  color: var(--main-color);", 18, "`--main-color` at line 1, column 18:"},
		{"file:///w/site.css", ":root { --main-color: red; }", 10, "`--main-color` at line 1, column 10:"},
		{"file:///w/a.SCSS", ".nav-item { font-size: 2px }", 4, "`nav-item` at line 1, column 4:"},
		{"file:///w/a.less", "@base-width: 10px;", 3, "`base-width` at line 1, column 3:"},
		{"file:///w/a.css", "a { margin: -- ; }", 13, "No identifier at line 1, column 13: `a { margin: -- ; }`"},
		{"file:///w/a.go", "x := a-main", 8, "`main` at line 1, column 8:"},
		{"file:///w/a.ts", "const v = --main;", 14, "`main` at line 1, column 14:"},
		// A private name is #x in JavaScript and TypeScript, on its '#'
		// or inside it; elsewhere '#' is not part of a name.
		{"file:///w/Ky.ts", "\tasync #calculateRetryDelay(error: unknown) {", 8, "`#calculateRetryDelay` at line 1, column 8:"},
		{"file:///w/Ky.ts", "\tasync #calculateRetryDelay(error: unknown) {", 12, "`#calculateRetryDelay` at line 1, column 12:"},
		{"file:///w/a.js", "return this.#options.retry;", 14, "`#options` at line 1, column 14:"},
		{"file:///w/a.ts", "const n = x #1;", 13, "No identifier at line 1, column 13: `const n = x #1;`"},
		{"file:///w/a.py", "x = 1  #comment", 10, "`comment` at line 1, column 10:"},
	} {
		r, err := requestIn(OpHover, tc.uri, Position{Line: 0, Character: tc.col - 1}, OneBasedTerms, lineSource{s: tc.line})
		if err != nil || r.Subject != tc.want {
			t.Errorf("%s %q col %d: subject %q, %v; want %q", tc.uri, tc.line, tc.col, r.Subject, err, tc.want)
		}
	}
}
