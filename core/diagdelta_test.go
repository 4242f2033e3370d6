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
}

func TestDiagnosticsDeltaLineMap(t *testing.T) {
	tests := []struct {
		before, after string
		to            []int32 // per before line
	}{
		{"a\nb\nc", "a\nb\nc", []int32{0, 1, 2}},
		{"a\nb\nc", "x\ny\na\nb\nc", []int32{2, 3, 4}},
		{"a\nb\nc", "a\nB\nc", []int32{0, -1, 2}},
		// two edits far apart: the lines between map, unlike a region
		// from the first changed line to the last
		{"a\nb\nc\nd\ne", "A\nb\nc\nd\nE", []int32{-1, 1, 2, 3, -1}},
		{"a\nb\nc\nd", "a\nx\nb\nc", []int32{0, 2, 3, -1}},
		// hunks that add and remove lines: each line between them moves
		// by what the hunks above it added
		{"a\nb\nc\nd\ne\nf", "a\nB1\nB2\nc\nd\nf", []int32{0, -1, 3, 4, -1, 5}},
		{"a\nb\nc", "X\na\nb\nY\nZ\nc\nW", []int32{1, 2, 5}},
	}
	for _, tt := range tests {
		lm := changeOf(tt.before, tt.after)
		for l, want := range tt.to {
			got, ok := lm.mapLine(uint32(l))
			if (want < 0) == ok || (ok && int32(got) != want) {
				t.Errorf("%q → %q: line %d maps to %d, %v; want %d", tt.before, tt.after, l, got, ok, want)
			}
		}
	}
	// A line past the end moves by the difference in line counts.
	lm := changeOf("a\nb", "x\na\nb")
	if got, ok := lm.mapLine(5); !ok || got != 6 {
		t.Errorf("past the end: %d, %v; want 6", got, ok)
	}
	if _, ok := changeOf("", "a").mapLine(^uint32(0)); ok {
		t.Error("a line shifted past uint32 must not map")
	}
	// A hunk that grew: a changed line's counterparts are as far from the
	// hunk's start and as far from its end.
	lm = changeOf("a\nb\nc", "a\nb1\nb2\nb3\nc")
	if l1, l2, ok := lm.counterparts(1); !ok || l1 != 1 || l2 != 3 {
		t.Errorf("counterparts(1) = %d, %d, %v; want 1, 3", l1, l2, ok)
	}
	if _, _, ok := lm.counterparts(0); ok {
		t.Error("an unchanged line has no counterparts")
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
		// An edit on the line of an error leaves the error (findings: a
		// comment edit answered "1 error introduced, 1 resolved" with the
		// same TS2322 in both lists).
		{"an edit after the error on its line", "// header\nexport const n: number = 'oops'; // note A\nexport const m = 1;\n", "// header\nexport const n: number = 'oops'; // note B\nexport const m = 1;\n",
			[]Problem{diagAt(1, 13, "m")}, []Problem{diagAt(1, 13, "m")}, 0, 0, 1},
		{"an edit before the error on its line moves it along the line", "x := f(a)\n", "x := longer(a)\n",
			[]Problem{diagAt(0, 7, "m")}, []Problem{diagAt(0, 12, "m")}, 0, 0, 1},
		{"one of two equal errors on the edited line is new", "x := f(a)\n", "x := f(a) + f(a)\n",
			[]Problem{diagAt(0, 5, "m")}, []Problem{diagAt(0, 5, "m"), diagAt(0, 12, "m")}, 0, 1, 1},
		{"another message on the edited line is not the same problem", "x := f(a)\n", "x := g(a)\n",
			[]Problem{diagAt(0, 5, "m")}, []Problem{diagAt(0, 5, "n")}, 1, 1, 0},
		// A rename's two edits far apart (pyright: the import and the call
		// of helpers_y.py; the error stayed at 3:10, listed both ways).
		{"a rename's edits on the error's line and above it", "from .x import used\n\nz: str = used(1)\n", "from .x import better\n\nz: str = better(1)\n",
			[]Problem{diagAt(2, 9, "m")}, []Problem{diagAt(2, 9, "m")}, 0, 0, 1},
		{"a line split in two: the error on the second half", "a\nf(x, y)\nb\n", "a\nf(x,\n  y)\nb\n",
			[]Problem{diagAt(1, 5, "m")}, []Problem{diagAt(2, 2, "m")}, 0, 0, 1},
		{"the same position on a changed line, whatever the hunks", "a\nq\nb\n", "a\nX\nY\nq\nB\n",
			[]Problem{diagAt(2, 0, "m")}, []Problem{diagAt(2, 0, "m")}, 0, 0, 1},
		// The line moved down and its problem went; an equal one came on
		// the inserted line at the old place: one entry, not one each way.
		{"the same position after the line moved", "a\nb\n", "a\nX\nb\n",
			[]Problem{diagAt(1, 0, "m")}, []Problem{diagAt(1, 0, "m")}, 0, 0, 1},
		// Only the lines a change touched are compared by their text: an
		// untouched line that has a problem it did not have is new, even
		// when a changed line of the same text had that problem.
		{"an untouched line's new problem, the same text as a fixed line", "a\nT\nb\nT\n", "a\nU\nb\nT\n",
			[]Problem{diagAt(1, 0, "m")}, []Problem{diagAt(3, 0, "m")}, 1, 1, 0},
		// Touched means changed: a line between two hunks is not, though
		// it lies between the first changed line and the last.
		{"a new problem between two hunks, the same text as a fixed line", "x\nT\ny\nT\n", "X\nT\ny\nU\n",
			[]Problem{diagAt(3, 0, "m")}, []Problem{diagAt(1, 0, "m")}, 1, 1, 0},
		{"a union printed in another order", "a\n", "a\n",
			[]Problem{diagAt(0, 0, "Property 'url' does not exist on type 'URL | RequestInfo'.")}, []Problem{diagAt(0, 0, "Property 'url' does not exist on type 'RequestInfo | URL'.")}, 0, 0, 1},
	}
	for _, tt := range tests {
		r, i, p := matchProblems(tt.before, tt.after, changeOf(tt.beforeText, tt.afterText))
		if len(r) != tt.resolved || len(i) != tt.introduced || p != tt.persisting {
			t.Errorf("%s: resolved %d, introduced %d, persisting %d; want %d, %d, %d", tt.name, len(r), len(i), p, tt.resolved, tt.introduced, tt.persisting)
		}
		if len(r)+p != len(tt.before) || len(i)+p != len(tt.after) {
			t.Errorf("%s: counts do not add up", tt.name)
		}
	}
}

func TestDiagnosticsDeltaComparableMessage(t *testing.T) {
	same := [][2]string{
		{"on type 'URL | RequestInfo'.", "on type 'RequestInfo | URL'."},
		{`Type "int | str" is not assignable`, `Type "str | int" is not assignable`},
		{"type 'A & B'", "type 'B & A'"},
		{"type 'Array<B | A> | null'", "type 'null | Array<A | B>'"},
		{"type '(b: string) => void | A'", "type 'A | (b: string) => void'"},
		{"type '{ a: B | A; } | C'", "type 'C | { a: A | B; }'"},
		{"type 'A & B | C'", "type 'C | B & A'"},
		{"'X | Y' and 'Y | Z'", "'Y | X' and 'Z | Y'"},
		// clangd's appended notes (no relatedInformation): the note moved
		// from the prototype to the definition, the problem did not.
		{"Too few arguments to function call, expected 2, have 1\n\n/w/tests/../a.h:206:23:\nnote: 'f' declared here",
			"Too few arguments to function call, expected 2, have 1\n\na.c:2516:23: note: 'f' declared here"},
		{"Too few arguments\n\n/w/a.h:1:5:\nnote: 'f' declared here", "Too few arguments"},
		{"'f' declared here\n\na.c:2:22: error: too few arguments", "'f' declared here\n\nb.c:9:1: error: too few arguments"},
		{"x\n\nC:\\w\\a.h:1:5:\nnote: y", "x"},
	}
	for _, p := range same {
		if a, b := comparableMessage(p[0]), comparableMessage(p[1]); a != b {
			t.Errorf("%q and %q compare as %q and %q; want equal", p[0], p[1], a, b)
		}
	}
	differ := [][2]string{
		{"type 'A | B'", "type 'A | C'"},
		{"type 'A | B' and 'C'", "type 'C | B' and 'A'"},           // members do not cross quotes
		{"type 'Array<A> | B'", "type 'Array<B> | A'"},             // nor brackets
		{"a | b outside quotes", "b | a outside quotes"},           // only quoted types
		{"type 'A | (B' and 'C | D'", "type '(B | A' and 'D | C'"}, // unbalanced: as written
		{"type 'A | B", "type 'B | A"},                             // unclosed quote: as written
		// Only a compiler-style note paragraph is left out.
		{"Too few arguments\n\nsee the docs", "Too few arguments"},
		{"Too few arguments\n\na.h:x:5: note: y", "Too few arguments"},
		{"Too few arguments\n\na.h:1:5: hint: y", "Too few arguments"},
		{"first\n\na.h:1:5: note: y", "second\n\na.h:1:5: note: y"},
	}
	for _, p := range differ {
		if a, b := comparableMessage(p[0]), comparableMessage(p[1]); a == b {
			t.Errorf("%q and %q both compare as %q; want them told apart", p[0], p[1], a)
		}
	}
	if got := comparableMessage("no union here"); got != "no union here" {
		t.Errorf("unchanged message: %q", got)
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
		{"none found", `,"dependents":{}`, `"checked":0,`, []string{"Other files: none refer to what changed (asked before the change)."}, []string{"checked"}},
		{"none found, some unasked: not checked, never none refer", `,"dependents":{"unasked":3}`, `"unasked":3`,
			[]string{"Other files: not checked — the references of at least 3 changed declarations were not asked (over the bound or out of time), so other files that use them may be affected unseen; ask code_navigate kind references on them, or code_diagnostics of their users."}, []string{"none refer to what changed", "was not asked"}},
		// A cold server's first references out of time (findings s28 F4):
		// the declaration whose name line changed is named.
		{"none found, the changed declaration unasked by name", `,"dependents":{"unasked":1,"unaskedNames":["ContentLayout"],"unaskedWhy":"time"}`, `"unasked":1,"unaskedNames":["ContentLayout"],"unaskedWhy":"time"`,
			[]string{"Other files: not checked — the references of `ContentLayout` were not asked (out of time), so other files that use it may be affected unseen; ask code_navigate kind references on it, or code_diagnostics of its users."}, []string{"none refer to what changed", "Not asked:"}},
		{"none found, named and counted unasked, some asked", `,"dependents":{"unasked":4,"unaskedNames":["A","B"],"unaskedWhy":"timeAndLimit","asked":2}`, `"unasked":4,"unaskedNames":["A","B"]`,
			[]string{"Other files: not checked — the references of `A`, `B` and of at least 2 more changed declarations were not asked (over the bound of declarations asked per change, and out of time), so other files that use them may be affected unseen; ask code_navigate kind references on them, or code_diagnostics of their users. None refer to the 2 other changed declarations whose references were asked (asked before the change)."}, []string{"none refer to what changed"}},
		{"names more than counted: each name counts", `,"dependents":{"unaskedNames":["A","B"],"unaskedWhy":"limit"}`, `"unasked":2,"unaskedNames":["A","B"],"unaskedWhy":"limit"`,
			[]string{"the references of `A` and `B` were not asked (over the bound of declarations asked per change)"}, nil},
		{"found and checked, one unasked: its own line", `,"dependents":{"files":[` + dep("b.go", "", "", true) + `],"unasked":1,"unaskedNames":["Team"],"unaskedWhy":"time"}`, `"unasked":1`,
			[]string{"1 other file checked, no new problems.\nNot asked: the references of `Team` were not asked (out of time)"}, []string{"Other files: not checked"}},
		{"one broken of two", `,"dependents":{"files":[` + dep("b.go", "", d(1, "m"), true) + `,` + dep("c.go", d(0, "k"), d(0, "k"), true) + `]}`,
			`"withIntroduced":["b.go"],"withResolved":[],"counts":{"introduced":1,"resolved":0,"persisting":1,"introducedErrors":1}`,
			[]string{"2 other files checked, 1 with new problems (1 error introduced, 0 resolved):\n  b.go:2:1 error: m"}, []string{"Resolved in other files"}},
		{"resolved and introduced", `,"dependents":{"files":[` + dep("b.go", d(0, "old"), d(1, "new"), true) + `]}`, `"withIntroduced":["b.go"],"withResolved":["b.go"]`,
			[]string{"1 other file checked, 1 with new problems (1 error introduced, 1 resolved):\n  b.go:2:1 error: new\nResolved in other files:\n  b.go:1:1 error: old"}, nil},
		{"moved line is not persisting: the text is unchanged", `,"dependents":{"files":[` + dep("b.go", d(0, "m"), d(1, "m"), true) + `]}`, `"counts":{"introduced":1,"resolved":1,"persisting":0`, nil, nil},
		{"stale", `,"dependents":{"files":[` + dep("b.go", "", "", false) + `]}`, `"stale":["b.go"]`, []string{"1 other file checked: none compared — the server sent no report on it after the change within the wait (stale, below).\nStale (other files): b.go"}, []string{"no new problems"}},
		{"some stale", `,"dependents":{"files":[` + dep("b.go", "", "", false) + `,` + dep("c.go", "", "", true) + `,` + dep("d.go", "", "", false) + `]}`, `"stale":["b.go","d.go"]`,
			[]string{"3 other files checked, no new problems in the 1 report made after the change; 2 stale (below).\nStale (other files): b.go, d.go"}, nil},
		{"inside bodies only: not checked", `,"dependents":{"insideBodies":1}`, `"insideBodies":1`,
			[]string{"Other files: not checked — the change stays inside function bodies"}, []string{"none refer to what changed"}},
		{"a declaration asked, another inside a body: none use it", `,"dependents":{"asked":1,"insideBodies":1}`, `"insideBodies":1`,
			[]string{"Other files: none refer to what changed (asked before the change).", "Not followed into other files: the changes inside 1 function body"}, []string{"not checked — the change stays inside"}},
		{"none found by a partial search: said so, with why", `,"dependents":{"asked":1,"partial":"3 files are outside tsconfig.json's project"}`, `"partial":"3 files are outside tsconfig.json's project"`,
			[]string{"Other files: none refer to what changed (asked before the change, as far as the server searched, which may not be everywhere).", "The references asked may have missed files: 3 files are outside tsconfig.json's project."}, []string{"(asked before the change)."}},
		{"only not checked", `,"dependents":{"notChecked":[{"uri":"file:///w/z.go","reason":"time"}]}`, `"notChecked":[{"path":"z.go","reason":"time"}]`,
			[]string{"0 other files checked.\nNot checked: z.go (out of time)"}, nil},
		// A generated file's 1,100 constants, a minified file's 3,000
		// variables: counts over a thousand are a change's, not garbage.
		{"declarations unasked by the thousand", `,"dependents":{"unasked":1092,"asked":8,"insideBodies":1500}`, `"unasked":1092,"insideBodies":1500`,
			[]string{"the references of at least 1092 changed declarations were not asked", "None refer to the 8 other changed declarations whose references were asked", "the changes inside 1500 function bodies"}, nil},
		{"a count at the bound: at least", `,"dependents":{"unasked":1000000,"insideBodies":1000000}`, `"unasked":1000000`,
			[]string{"at least 1000000 changed declarations", "the changes inside at least 1000000 function bodies"}, nil},
		{"files over those listed: counted", `,"dependents":{"notChecked":[{"uri":"file:///w/z.go","reason":"limit"},{"uri":"file:///w/y.go","reason":"time"}],"notCheckedMore":2500}`,
			`"notCheckedMore":2500`, []string{"Not checked: z.go and 2500 more (over the number of files checked); y.go (out of time)"}, nil},
		{"only files over those listed", `,"dependents":{"notCheckedMore":3}`, `"notCheckedMore":3`,
			[]string{"0 other files checked.\nNot checked: 3 files (over the number of files checked)"}, []string{"none refer"}},
	}
	// A rename's uses are changed files themselves, listed above the
	// line: it must not read as if no file used what changed.
	renamed := `"files":[{"uri":"file:///w/a.go","beforeText":"x\n","afterText":"y\n","before":[],"after":[],"how":"pull","fresh":true},` +
		`{"uri":"file:///w/b.go","beforeText":"x\n","afterText":"y\n","before":[],"after":[` + d(0, "undefined: y") + `],"how":"pull","fresh":true}]`
	ok := gjson.GetBytes(Call("diagnosticsDelta", []byte(`{"workspaceUri":"file:///w",`+renamed+`,"dependents":{"asked":1}}`)), "ok")
	checkText(t, "uses only in changed files", ok.Get("rendered.text").Str,
		[]string{"  b.go:1:1 error: undefined: y\nOther files: none besides the 2 changed files refer to what changed (asked before the change)."}, []string{"none use"})
	for _, tt := range tests {
		ok := gjson.GetBytes(Call("diagnosticsDelta", []byte(`{"workspaceUri":"file:///w",`+changed+tt.dependents+`}`)), "ok")
		if !ok.Exists() {
			t.Errorf("%s: not ok", tt.name)
			continue
		}
		if got := ok.Get("others"); (tt.others == "") != !got.Exists() || !strings.Contains(got.Raw, tt.others) {
			t.Errorf("%s: others %s, want %s", tt.name, got.Raw, tt.others)
		}
		checkText(t, tt.name, ok.Get("rendered.text").Str, tt.text, tt.not)
	}
}

// TestDiagnosticsDeltaDependentCounts: a count of dependents is an
// integer from 0 to MaxImpactCount, or the delta is refused naming it.
func TestDiagnosticsDeltaDependentCounts(t *testing.T) {
	changed := `"files":[{"uri":"file:///w/a.go","beforeText":"x\n","afterText":"y\n","before":[],"after":[],"how":"pull","fresh":true}]`
	for _, name := range []string{"unasked", "asked", "insideBodies", "notCheckedMore"} {
		for _, v := range []string{"-1", "1.5", `"3"`, "1000001", "1e300"} {
			out := Call("diagnosticsDelta", []byte(`{"workspaceUri":"file:///w",`+changed+`,"dependents":{"`+name+`":`+v+`}}`))
			if msg := gjson.GetBytes(out, "error.message").Str; !strings.Contains(msg, "dependents."+name+" must be an integer from 0 to 1000000") {
				t.Errorf("%s %s: %s", name, v, out)
			}
		}
	}
}

// checkText fails the test named name when text lacks one of want or has
// one of not.
func checkText(t *testing.T, name, text string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: text lacks %q:\n%s", name, w, text)
		}
	}
	for _, w := range not {
		if strings.Contains(text, w) {
			t.Errorf("%s: text has %q:\n%s", name, w, text)
		}
	}
}

// comparableMessage stays linear: a deeply nested or huge quoted type is
// compared as written.
func TestDiagnosticsDeltaComparableMessageBounds(t *testing.T) {
	deep := "'" + strings.Repeat("(", 4000) + "B | A" + strings.Repeat(")", 4000) + "'"
	if got := comparableMessage(deep); got != deep {
		t.Error("a type nested past the bound was rewritten")
	}
	huge := "'" + strings.Repeat("X | ", 5000) + "A'"
	if got := comparableMessage(huge); got != huge {
		t.Error("a type past the byte bound was rewritten")
	}
	if a, b := comparableMessage("'"+strings.Repeat("(", 10)+"B | A"+strings.Repeat(")", 10)+"'"), comparableMessage("'"+strings.Repeat("(", 10)+"A | B"+strings.Repeat(")", 10)+"'"); a != b {
		t.Error("a type nested within the bound was not sorted")
	}
}

// changeOf is the hunks of a change from before to after, as a host sends
// them and the delta reads them.
func changeOf(before, after string) changeLines { return placed(LinesChanged(before, after)) }
