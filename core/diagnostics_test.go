package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestDiagnosticReadProblem(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // severity code source message, one-based start–end
	}{
		{"numeric code", `{"range":{"start":{"line":2,"character":6},"end":{"line":2,"character":7}},"severity":1,"code":2322,"source":"typescript","message":"Type 'string' is not assignable to type 'number'."}`,
			"error|2322|typescript|Type 'string' is not assignable to type 'number'.|3:7-3:8"},
		{"no severity is an error, nulls ignored", `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":null,"code":null,"source":null,"message":"  x  \n"}`,
			"error|||x|1:1-1:2"},
		{"integral float code, hint", `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"severity":4,"code":6133.0,"message":"m"}`,
			"hint|6133||m|1:1-1:1"},
		{"end before start is clamped", `{"range":{"start":{"line":5,"character":3},"end":{"line":1,"character":0}},"message":"m"}`,
			"error|||m|6:4-6:4"},
		{"first duplicate key wins", `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"a","message":"b"}`,
			"error|||a|1:1-1:2"},
	}
	for _, tt := range tests {
		p, problem := readProblem(gjson.Parse(tt.in), at{"d", 0}, "a.go")
		if problem != "" {
			t.Errorf("%s: %s", tt.name, problem)
			continue
		}
		got := severityNames[p.Severity] + "|" + p.Code + "|" + p.Source + "|" + p.Message + "|" + diagPos1(p.Range.Start) + "-" + diagPos1(p.Range.End)
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func diagPos1(p Position) string {
	return strconv.FormatUint(toOneBased(p.Line), 10) + ":" + strconv.FormatUint(toOneBased(p.Character), 10)
}

func TestDiagnosticReadProblemMalformed(t *testing.T) {
	r := `"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}`
	tests := []struct{ in, want string }{
		{`3`, "d[0] must be a Diagnostic object, got 3"},
		{`{"message":"m"}`, "d[0].range must be a Range object, got missing"},
		{`{` + r + `}`, "d[0].message must be a string, got missing"},
		{`{` + r + `,"message":{"kind":"markdown","value":"m"}}`, "d[0].message must be a string, got an object"},
		{`{` + r + `,"message":"m","severity":0}`, "d[0].severity must be a DiagnosticSeverity"},
		{`{` + r + `,"message":"m","severity":"error"}`, "d[0].severity must be a DiagnosticSeverity"},
		{`{` + r + `,"message":"m","code":1.5}`, "d[0].code must be an integer or a string, got 1.5"},
		{`{` + r + `,"message":"m","code":true}`, "d[0].code must be an integer or a string, got true"},
		{`{` + r + `,"message":"m","source":7}`, "d[0].source must be a string, got 7"},
	}
	for _, tt := range tests {
		_, problem := readProblem(gjson.Parse(tt.in), at{"d", 0}, "a.go")
		if !strings.Contains(problem, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.in, problem, tt.want)
		}
	}
}

func TestDiagnosticsArgumentErrors(t *testing.T) {
	ws := `"workspaceUri":"file:///w"`
	f := `{"uri":"file:///w/a.go","diagnostics":[],"how":"push","fresh":true}`
	tests := []struct {
		name, in string
		code     Code
		want     string
	}{
		{"no workspace", `{"scope":"file","files":[` + f + `]}`, CodeInvalidArgument, "workspaceUri must be the file: URI"},
		{"no scope", `{` + ws + `,"files":[` + f + `]}`, CodeInvalidArgument, "scope must be"},
		{"files not an array", `{` + ws + `,"scope":"workspace","files":{}}`, CodeInvalidArgument, "files must be an array"},
		{"file not an object", `{` + ws + `,"scope":"workspace","files":[1]}`, CodeInvalidArgument, "files[0] must be an object"},
		{"no uri", `{` + ws + `,"scope":"workspace","files":[{"diagnostics":[],"how":"push","fresh":true}]}`, CodeInvalidArgument, "files[0].uri must be the file's URI"},
		{"same file twice", `{` + ws + `,"scope":"workspace","files":[` + f + `,{"uri":"file:///w/%61.go","diagnostics":[],"how":"pull","fresh":true}]}`, CodeInvalidArgument, "files[1].uri names the file of files[0].uri (a.go)"},
		{"bad how", `{` + ws + `,"scope":"file","files":[{"uri":"file:///w/a.go","diagnostics":[],"how":"poll","fresh":true}]}`, CodeInvalidArgument, "files[0].how must be \"pull\""},
		{"fresh missing", `{` + ws + `,"scope":"file","files":[{"uri":"file:///w/a.go","diagnostics":[],"how":"pull"}]}`, CodeInvalidArgument, "files[0].fresh must be a boolean"},
		{"diagnostics missing", `{` + ws + `,"scope":"file","files":[{"uri":"file:///w/a.go","how":"pull","fresh":true}]}`, CodeInvalidArgument, "files[0].diagnostics must be the server's Diagnostic[]"},
		{"version not an integer", `{` + ws + `,"scope":"file","files":[{"uri":"file:///w/a.go","diagnostics":[],"version":"3","how":"pull","fresh":true}]}`, CodeInvalidArgument, "files[0].version must be the document version"},
		{"limit too high", `{` + ws + `,"scope":"file","limit":501,"files":[` + f + `]}`, CodeInvalidArgument, "limit must be an integer from 1 to 500"},
		{"severity unknown", `{` + ws + `,"scope":"file","severity":"fatal","files":[` + f + `]}`, CodeInvalidArgument, "severity must be the lowest severity"},
		{"partial not a string", `{` + ws + `,"scope":"workspace","partial":true,"files":[]}`, CodeInvalidArgument, "partial must be a string"},
		{"subject not a string", `{` + ws + `,"scope":"workspace","subject":1,"files":[]}`, CodeInvalidArgument, "subject must be a string"},
		{"file scope without a file", `{` + ws + `,"scope":"file","files":[]}`, CodeInvalidArgument, "takes exactly one file in files, got 0"},
		{"diagnostics null is none", `{` + ws + `,"scope":"file","files":[{"uri":"file:///w/a.go","diagnostics":null,"how":"push","fresh":true}]}`, "", ""},
	}
	for _, tt := range tests {
		_, err := diagnosticsCall(gjson.Parse(tt.in))
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.code != "" && (err == nil || err.Code != tt.code || !strings.Contains(err.Message, tt.want)):
			t.Errorf("%s: got %v, want %s %q", tt.name, err, tt.code, tt.want)
		}
	}
}

// An uncovered or stale file is never reported as clean.
func TestDiagnosticsNeverClaimsCleanWithoutAServer(t *testing.T) {
	for _, in := range []string{
		`{"workspaceUri":"file:///w","scope":"file","files":[{"uri":"file:///w/a.md","how":"none","diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"ignored"}]}]}`,
		`{"workspaceUri":"file:///w","scope":"workspace","files":[{"uri":"file:///w/a.md","how":"none"},{"uri":"file:///w/b.md","how":"none"}]}`,
	} {
		ok := gjson.GetBytes(Call("diagnostics", []byte(in)), "ok")
		text := ok.Get("rendered.text").Str
		if ok.Get("status").Str != "partial" || ok.Get("totalFound").Int() != 0 || strings.HasPrefix(strings.ToLower(text), "no problems") || !strings.Contains(text, "not checked by any language server") {
			t.Errorf("%s: %s", in, ok.Raw)
		}
	}
	in := `{"workspaceUri":"file:///w","scope":"workspace","files":[{"uri":"file:///w/a.go","diagnostics":[],"how":"push","fresh":true},{"uri":"file:///w/b.go","diagnostics":[],"how":"push","fresh":false}]}`
	ok := gjson.GetBytes(Call("diagnostics", []byte(in)), "ok")
	if ok.Get("status").Str != "stale" || !strings.Contains(ok.Get("notice").Str, "the diagnostics of b.go are stale") {
		t.Errorf("stale: %s", ok.Raw)
	}
}

func TestDiagnosticsOrderAndLimit(t *testing.T) {
	d := func(line, sev int, msg string) string {
		return `{"range":{"start":{"line":` + strconv.Itoa(line) + `,"character":0},"end":{"line":` + strconv.Itoa(line) + `,"character":1}},"severity":` + strconv.Itoa(sev) + `,"message":"` + msg + `"}`
	}
	in := `{"workspaceUri":"file:///w","scope":"workspace","limit":3,"files":[` +
		`{"uri":"file:///w/b.go","diagnostics":[` + d(1, 2, "bw") + `,` + d(0, 1, "be") + `],"how":"push","fresh":true},` +
		`{"uri":"file:///w/a.go","diagnostics":[` + d(9, 4, "ah") + `,` + d(5, 1, "ae") + `,` + d(2, 1, "ae0") + `],"how":"pull","fresh":true}]}`
	ok := gjson.GetBytes(Call("diagnostics", []byte(in)), "ok")
	var got []string
	for _, p := range ok.Get("problems").Array() {
		got = append(got, p.Get("message").Str)
	}
	if strings.Join(got, ",") != "ae0,ae,be" || ok.Get("totalFound").Int() != 5 || !ok.Get("truncated").Bool() {
		t.Fatalf("got %v: %s", got, ok.Raw)
	}
	if !strings.HasPrefix(ok.Get("rendered.text").Str, "3 errors, 1 warning, 1 hint in 2 files (fresh):\na.go\n  3:1 error: ae0\n  6:1 error: ae\nb.go\n  1:1 error: be\n… 2 more problems not shown") {
		t.Fatalf("text: %s", ok.Get("rendered.text").Str)
	}
}

func TestDiagnosticProblemLine(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{Severity: 1, Code: "2322", Source: "typescript", Message: "m"}, "1:1 error TS2322: m"},
		{Problem{Severity: 1, Code: "2322", Source: "eslint", Message: "m"}, "1:1 error 2322: m"},
		{Problem{Severity: 2, Code: "ts-x", Source: "ts", Message: "m"}, "1:1 warning ts-x: m"},
		{Problem{Severity: 3, Message: "first\r\nsecond"}, "1:1 information: first; second"},
		{Problem{Severity: 1, Code: "WrongArgCount", Message: "not enough arguments in call to Total\n\thave ([]Shape)\n\twant ([]Shape, float64)"}, "1:1 error WrongArgCount: not enough arguments in call to Total; have ([]Shape); want ([]Shape, float64)"},
		{Problem{Severity: 1, Message: "No overload matches this call.\n  Overload 1 of 2 gave the following error:\n\n    Argument of type 'number' is not assignable."}, "1:1 error: No overload matches this call. Overload 1 of 2 gave the following error: Argument of type 'number' is not assignable."},
		{Problem{Severity: 4, Message: ""}, "1:1 hint: (no message)"},
		{Problem{Severity: 1, Code: "a\nb", Message: strings.Repeat("x", 400)}, "1:1 error a b: " + strings.Repeat("x", maxRenderedMessageRunes-1) + "…"},
	}
	for _, tt := range tests {
		if got := problemLine(tt.p); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
