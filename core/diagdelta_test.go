package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestDiagnosticsDeltaChangedLines(t *testing.T) {
	tests := []struct {
		before, after string
		want          lineChange
	}{
		{"a\nb\nc\n", "a\nb\nc\n", lineChange{3, 3, 3}},
		{"a\nb\nc\n", "x\ny\na\nb\nc\n", lineChange{0, 0, 2}},
		{"a\nb\nc\n", "a\nb\nc\nd\n", lineChange{3, 3, 4}},
		{"a\nb\nc\n", "a\nc\n", lineChange{1, 2, 1}},
		{"a\nb\nc\n", "a\nB\nc\n", lineChange{1, 2, 2}},
		{"a\r\nb\r\n", "a\nb", lineChange{2, 2, 2}},
		{"a\na\na\n", "a\na\n", lineChange{2, 3, 2}}, // prefix and suffix do not overlap
		{"", "a\n", lineChange{0, 0, 1}},
	}
	for _, tt := range tests {
		if got := changedLines(SplitLines(tt.before), SplitLines(tt.after)); got != tt.want {
			t.Errorf("%q → %q: got %+v, want %+v", tt.before, tt.after, got, tt.want)
		}
	}
	c := lineChange{start: 2, beforeEnd: 4, afterEnd: 7}
	for _, m := range []struct {
		in, out uint32
		ok      bool
	}{{0, 0, true}, {1, 1, true}, {2, 0, false}, {3, 0, false}, {4, 7, true}, {10, 13, true}} {
		if out, ok := c.mapLine(m.in); out != m.out || ok != m.ok {
			t.Errorf("mapLine(%d) = %d, %v; want %d, %v", m.in, out, ok, m.out, m.ok)
		}
	}
	if _, ok := (lineChange{start: 0, beforeEnd: 0, afterEnd: 0}).mapLine(^uint32(0)); !ok {
		t.Error("an unshifted line past every change must map")
	}
	if _, ok := (lineChange{start: 0, beforeEnd: 0, afterEnd: 1}).mapLine(^uint32(0)); ok {
		t.Error("a line shifted past uint32 must not map")
	}
}

func diagAt(line, char uint32, msg string) Problem {
	return Problem{Path: "a", Severity: 1, Message: msg, Range: Range{Start: Position{line, char}, End: Position{line, char + 1}}}
}

func TestDiagnosticsDeltaMatch(t *testing.T) {
	tests := []struct {
		name                             string
		beforeText, afterText            string
		before, after                    []Problem
		resolved, introduced, persisting int
	}{
		{"moved down by an insertion above", "a\nb\nc\n", "x\na\nb\nc\n",
			[]Problem{diagAt(2, 1, "m")}, []Problem{diagAt(3, 1, "m")}, 0, 0, 1},
		{"same line, another column outside the change", "a\nb\n", "a\nb\nz\n",
			[]Problem{diagAt(1, 0, "m")}, []Problem{diagAt(1, 1, "m")}, 1, 1, 0},
		{"fixed", "a\nb\n", "a\nB\n", []Problem{diagAt(1, 0, "m")}, nil, 1, 0, 0},
		{"new", "a\n", "a\nb\n", nil, []Problem{diagAt(1, 0, "m")}, 0, 1, 0},
		{"another message at the same place", "a\n", "a\n", []Problem{diagAt(0, 0, "m")}, []Problem{diagAt(0, 0, "n")}, 1, 1, 0},
		{"inside the change, re-indented line keeps it", "f(\n  x\n)\n", "g(\n    x\n)\n",
			[]Problem{diagAt(1, 2, "m")}, []Problem{diagAt(1, 4, "m")}, 0, 0, 1},
		{"inside the change, the line moved within the region", "a\nq\nw\nx\n", "a\nw2\nq2\nw\nx\n",
			[]Problem{diagAt(2, 0, "m")}, []Problem{diagAt(3, 0, "m")}, 0, 0, 1},
		{"multiset: three before, two after", "a\n", "a\n",
			[]Problem{diagAt(0, 0, "m"), diagAt(0, 0, "m"), diagAt(0, 0, "m")}, []Problem{diagAt(0, 0, "m"), diagAt(0, 0, "m")}, 1, 0, 2},
		{"exact matches first, then text", "k\n  k\nz\n", "k\nX\n   k\nz\n",
			// by text alone, the re-indented line's problem could take line 0's
			[]Problem{diagAt(1, 2, "m"), diagAt(0, 0, "m")}, []Problem{diagAt(0, 0, "m"), diagAt(2, 3, "m")}, 0, 0, 2},
	}
	for _, tt := range tests {
		r, i, p := matchProblems(tt.before, tt.after, SplitLines(tt.beforeText), SplitLines(tt.afterText))
		if len(r) != tt.resolved || len(i) != tt.introduced || p != tt.persisting {
			t.Errorf("%s: resolved %d, introduced %d, persisting %d; want %d, %d, %d", tt.name, len(r), len(i), p, tt.resolved, tt.introduced, tt.persisting)
		}
		if len(r)+p != len(tt.before) || len(i)+p != len(tt.after) {
			t.Errorf("%s: counts do not add up", tt.name)
		}
	}
}

func TestDiagnosticsDeltaArgumentErrors(t *testing.T) {
	ws := `"workspaceUri":"file:///w"`
	tests := []struct {
		name, in string
		code     Code
		want     string
	}{
		{"no files", `{` + ws + `}`, CodeInvalidArgument, "files must be an array"},
		{"limit", `{` + ws + `,"limit":-1,"files":[]}`, CodeInvalidArgument, "limit must be an integer from 1 to 500"},
		{"subject", `{` + ws + `,"subject":[],"files":[]}`, CodeInvalidArgument, "subject must be a string"},
		{"beforeText", `{` + ws + `,"files":[{"uri":"file:///w/a","beforeText":1,"afterText":"","before":[],"after":[],"how":"push","fresh":true}]}`, CodeInvalidArgument, "files[0].beforeText must be the file's text before the edit, got 1"},
		{"before missing", `{` + ws + `,"files":[{"uri":"file:///w/a","beforeText":"","afterText":"","after":[],"how":"push","fresh":true}]}`, CodeInvalidArgument, "files[0].before must be the server's Diagnostic[]"},
		{"after malformed", `{` + ws + `,"files":[{"uri":"file:///w/a","beforeText":"","afterText":"","before":[],"after":"x","how":"push","fresh":true}]}`, CodeMalformedResponse, "files[0].after must be an array of Diagnostic"},
		{"twice", `{` + ws + `,"files":[{"uri":"file:///w/a","how":"none"},{"uri":"file:///w/a","how":"none"}]}`, CodeInvalidArgument, "files[1].uri names the file of files[0].uri"},
		{"partial", `{` + ws + `,"files":[],"dependents":{"partial":3}}`, CodeInvalidArgument, "dependents.partial must be a string"},
	}
	for _, tt := range tests {
		_, err := diagnosticsDeltaCall(gjson.Parse(tt.in))
		if err == nil || err.Code != tt.code || !strings.Contains(err.Message, tt.want) {
			t.Errorf("%s: got %v, want %s %q", tt.name, err, tt.code, tt.want)
		}
	}
}

func TestDiagnosticsDeltaListsErrorsFirstAcrossFiles(t *testing.T) {
	d := func(line, sev int, msg string) string {
		return `{"range":{"start":{"line":` + itoaDiag(line) + `,"character":0},"end":{"line":` + itoaDiag(line) + `,"character":1}},"severity":` + itoaDiag(sev) + `,"message":"` + msg + `"}`
	}
	in := `{"workspaceUri":"file:///w","limit":2,"files":[` +
		`{"uri":"file:///w/a.go","beforeText":"","afterText":"x\ny\n","before":[],"after":[` + d(0, 2, "aw") + `,` + d(1, 1, "ae") + `],"how":"push","fresh":true},` +
		`{"uri":"file:///w/b.go","beforeText":"","afterText":"x\n","before":[],"after":[` + d(0, 1, "be") + `],"how":"pull","fresh":true}]}`
	ok := gjson.GetBytes(Call("diagnosticsDelta", []byte(in)), "ok")
	if ok.Get("files.0.introduced.#").Int() != 1 || ok.Get("files.0.introduced.0.message").Str != "ae" || ok.Get("files.1.introduced.0.message").Str != "be" ||
		ok.Get("files.0.introducedTotal").Int() != 2 || ok.Get("counts.introducedErrors").Int() != 2 || !ok.Get("truncated").Bool() {
		t.Fatalf("%s", ok.Raw)
	}
	want := "Diagnostics after the edit: 2 errors, 1 warning introduced, 0 resolved, 0 persisting.\nIntroduced:\n  a.go:2:1 error: ae\n  b.go:1:1 error: be\n  … 1 more introduced problem not shown"
	if !strings.HasPrefix(ok.Get("rendered.text").Str, want) {
		t.Fatalf("text %q", ok.Get("rendered.text").Str)
	}
}

func itoaDiag(n int) string { return string(appendInt(nil, int64(n))) }

func TestDiagnosticsDeltaDependents(t *testing.T) {
	d := func(line int, msg string) string {
		return `{"range":{"start":{"line":` + itoaDiag(line) + `,"character":0},"end":{"line":` + itoaDiag(line) + `,"character":1}},"severity":1,"message":"` + msg + `"}`
	}
	changed := `"files":[{"uri":"file:///w/a.go","beforeText":"x\n","afterText":"y\n","before":[],"after":[],"how":"pull","fresh":true}]`
	dep := func(name, before, after string, fresh bool) string {
		return `{"uri":"file:///w/` + name + `","text":"l0\nl1\n","before":[` + before + `],"after":[` + after + `],"how":"pull","fresh":` + map[bool]string{true: "true", false: "false"}[fresh] + `}`
	}
	tests := []struct {
		name, dependents string
		others           string // a part of the others JSON; "" for none
		text             []string
		not              []string
	}{
		{"absent: no others, no line", ``, ``, []string{"0 persisting."}, []string{"other files", "Other files"}},
		{"none found", `,"dependents":{}`, `"checked":0,`, []string{"Other files: none use what changed."}, []string{"checked"}},
		{"none found, some unasked", `,"dependents":{"unasked":3}`, `"unasked":3`, []string{"none use what changed as far as was asked.", "The references of at least 3 more changed declarations were not asked"}, nil},
		{"one broken of two", `,"dependents":{"files":[` + dep("b.go", "", d(1, "m"), true) + `,` + dep("c.go", d(0, "k"), d(0, "k"), true) + `]}`,
			`"withIntroduced":["b.go"],"withResolved":[],"counts":{"introduced":1,"resolved":0,"persisting":1,"introducedErrors":1}`,
			[]string{"2 other files checked, 1 with new problems (1 error introduced, 0 resolved):\n  b.go:2:1 error: m"}, []string{"Resolved in other files"}},
		{"resolved and introduced", `,"dependents":{"files":[` + dep("b.go", d(0, "old"), d(1, "new"), true) + `]}`, `"withIntroduced":["b.go"],"withResolved":["b.go"]`,
			[]string{"1 other file checked, 1 with new problems (1 error introduced, 1 resolved):\n  b.go:2:1 error: new\nResolved in other files:\n  b.go:1:1 error: old"}, nil},
		{"moved line is not persisting: the text is unchanged", `,"dependents":{"files":[` + dep("b.go", d(0, "m"), d(1, "m"), true) + `]}`, `"counts":{"introduced":1,"resolved":1,"persisting":0`, nil, nil},
		{"stale", `,"dependents":{"files":[` + dep("b.go", "", "", false) + `]}`, `"stale":["b.go"]`, []string{"1 other file checked, no new problems.\nStale (other files): b.go"}, nil},
		{"inside bodies only: not checked", `,"dependents":{"insideBodies":1}`, `"insideBodies":1`,
			[]string{"Other files: not checked — the change stays inside function bodies"}, []string{"none use what changed"}},
		{"a declaration asked, another inside a body: none use it", `,"dependents":{"asked":1,"insideBodies":1}`, `"insideBodies":1`,
			[]string{"Other files: none use what changed.", "Not followed into other files: the changes inside 1 function body"}, []string{"not checked — the change stays inside"}},
		{"none found by a partial search: said so, with why", `,"dependents":{"asked":1,"partial":"3 files are outside tsconfig.json's project"}`, `"partial":"3 files are outside tsconfig.json's project"`,
			[]string{"Other files: none use what changed as far as the server searched, which may not be everywhere.", "The references asked may have missed files: 3 files are outside tsconfig.json's project."}, []string{"Other files: none use what changed."}},
		{"only not checked", `,"dependents":{"notChecked":[{"uri":"file:///w/z.go","reason":"time"}]}`, `"notChecked":[{"path":"z.go","reason":"time"}]`,
			[]string{"0 other files checked.\nNot checked: z.go (out of time)"}, nil},
	}
	for _, tt := range tests {
		ok := gjson.GetBytes(Call("diagnosticsDelta", []byte(`{"workspaceUri":"file:///w",`+changed+tt.dependents+`}`)), "ok")
		if !ok.Exists() {
			t.Errorf("%s: not ok", tt.name)
			continue
		}
		if got := ok.Get("others"); (tt.others == "") != !got.Exists() || !strings.Contains(got.Raw, tt.others) {
			t.Errorf("%s: others %s, want %s", tt.name, got.Raw, tt.others)
		}
		text := ok.Get("rendered.text").Str
		for _, w := range tt.text {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q:\n%s", tt.name, w, text)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: text has %q:\n%s", tt.name, w, text)
			}
		}
	}
}
