package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// gopls's two kinds of diagnostics, as it sends them: a type error
// (source "compiler") and an analyzer's finding (code "default", the
// analyzer as the source).
func goplsTypeError(line int) string {
	return `{"range":{"start":{"line":` + itoaDiag(line) + `,"character":1},"end":{"line":` + itoaDiag(line) + `,"character":4}},"severity":1,"code":"WrongArgCount","source":"compiler","message":"not enough arguments in call to Total"}`
}

func goplsUnusedFunc(line int) string {
	return `{"range":{"start":{"line":` + itoaDiag(line) + `,"character":5},"end":{"line":` + itoaDiag(line) + `,"character":17}},"severity":3,"code":"default","source":"unusedfunc","message":"function \"unusedHelper\" is unused"}`
}

func TestDiagnosticsDeltaAnalyzersPausedByErrors(t *testing.T) {
	text := `"l0\nl1\nl2\nl3\nl4\nl5\n"`
	changed := func(name, before, after string) string {
		return `{"uri":"file:///w/` + name + `","how":"pull","fresh":true,"before":[` + before + `],"after":[` + after + `],"beforeText":` + text + `,"afterText":` + text + `}`
	}
	dep := func(name, before, after string) string {
		return `{"uri":"file:///w/` + name + `","how":"pull","fresh":true,"before":[` + before + `],"after":[` + after + `],"text":` + text + `}`
	}
	tests := []struct {
		name                 string
		files, dependents    string
		counts, othersCounts string // parts of the JSON counts
		text                 []string
		not                  []string
	}{
		{"a type error comes: the unused function is withheld, not resolved",
			changed("shapes.go", goplsUnusedFunc(4), goplsTypeError(1)), ``,
			`"introduced":1,"resolved":0,"persisting":0,"introducedErrors":1,"withheld":1}`, ``,
			[]string{"1 error introduced, 0 resolved, 0 persisting.", "Not reported while the package has errors (not resolved: gopls runs its analyzers only on code that type-checks):\n  shapes.go:5:6 information unusedfunc: function \"unusedHelper\" is unused"},
			[]string{"Resolved:", "default"}},
		{"the type error goes: the unused function reappears, not introduced",
			changed("shapes.go", goplsTypeError(1), goplsUnusedFunc(4)), ``,
			`"introduced":0,"resolved":1,"persisting":0,"introducedErrors":0,"reappeared":1}`, ``,
			[]string{"0 introduced, 1 resolved, 0 persisting.", "Reported again now that the package type-checks (gopls did not run its analyzers while it had errors, so whether the change made these is not known):\n  shapes.go:5:6 information unusedfunc:"},
			[]string{"Introduced:"}},
		{"the error is in another file of the package (a dependent)",
			changed("shapes.go", goplsUnusedFunc(4), ``), `,"dependents":{"files":[` + dep("report.go", ``, goplsTypeError(2)) + `,` + dep("sub/c.go", goplsUnusedFunc(0), ``) + `]}`,
			`"introduced":0,"resolved":0,"persisting":0,"introducedErrors":0,"withheld":1}`, `"introduced":1,"resolved":1,"persisting":0,"introducedErrors":1}`,
			// sub/ is another package, without errors: its finding is resolved
			[]string{"1 error introduced, 1 resolved):\n  report.go:3:2 error WrongArgCount", "Resolved in other files:\n  sub/c.go:1:6 information unusedfunc", "Not reported while the package has errors (not resolved: gopls runs its analyzers only on code that type-checks):\n  shapes.go:5:6 information unusedfunc"},
			nil},
		{"an analyzer's finding withheld in another file",
			changed("shapes.go", ``, goplsTypeError(1)), `,"dependents":{"files":[` + dep("report.go", goplsUnusedFunc(0), ``) + `]}`,
			`"introduced":1,"resolved":0,"persisting":0,"introducedErrors":1}`, `"introduced":0,"resolved":0,"persisting":0,"introducedErrors":0,"withheld":1}`,
			[]string{"1 other file checked, no new problems.", "Not reported while the package has errors (not resolved: gopls runs its analyzers only on code that type-checks):\n  report.go:1:6 information unusedfunc"},
			nil},
		{"no error after: a finding that vanished is resolved",
			changed("shapes.go", goplsUnusedFunc(4), ``), ``,
			`"introduced":0,"resolved":1,"persisting":0,"introducedErrors":0}`, ``,
			[]string{"Resolved:\n  shapes.go:5:6 information unusedfunc"}, []string{"Not reported"}},
		{"errors before and after: a finding that came is introduced",
			changed("shapes.go", goplsTypeError(1), goplsTypeError(1)+`,`+goplsUnusedFunc(4)), ``,
			`"introduced":1,"resolved":0,"persisting":1,"introducedErrors":0}`, ``,
			[]string{"Introduced:\n  shapes.go:5:6 information unusedfunc"}, []string{"Reported again"}},
		{"another language's server has no such rule",
			changed("shapes.ts", goplsUnusedFunc(4), goplsTypeError(1)), ``,
			`"introduced":1,"resolved":1,"persisting":0,"introducedErrors":1}`, ``,
			[]string{"Resolved:\n  shapes.ts:5:6 information unusedfunc"}, []string{"Not reported"}},
	}
	for _, tt := range tests {
		in := `{"workspaceUri":"file:///w","files":[` + tt.files + `]` + tt.dependents + `}`
		out := gjson.ParseBytes(Call("diagnosticsDelta", []byte(in)))
		ok := out.Get("ok")
		if !ok.Exists() {
			t.Fatalf("%s: %s", tt.name, out.Raw)
		}
		if !strings.Contains(ok.Get("counts").Raw, tt.counts) {
			t.Errorf("%s: counts %s, want %s", tt.name, ok.Get("counts").Raw, tt.counts)
		}
		if tt.othersCounts != "" && !strings.Contains(ok.Get("others.counts").Raw, tt.othersCounts) {
			t.Errorf("%s: others' counts %s, want %s", tt.name, ok.Get("others.counts").Raw, tt.othersCounts)
		}
		checkText(t, tt.name, ok.Get("rendered.text").Str, tt.text, tt.not)
	}
}

func TestDiagnosticsDeltaAnalyzerFindingFields(t *testing.T) {
	in := `{"workspaceUri":"file:///w","files":[{"uri":"file:///w/a.go","how":"pull","fresh":true,"before":[` + goplsUnusedFunc(1) + `],"after":[` + goplsTypeError(0) + `],"beforeText":"a\nb\n","afterText":"a\nb\n"}]}`
	f := gjson.GetBytes(Call("diagnosticsDelta", []byte(in)), "ok.files.0")
	if f.Get("resolvedTotal").Int() != 0 || f.Get("withheld.#").Int() != 1 || f.Get("withheld.0.source").Str != "unusedfunc" || f.Get("reappeared").Exists() {
		t.Fatalf("%s", f.Raw)
	}
	// Many withheld findings: the counts keep them all, the lists and the
	// text the first limit.
	in = `{"workspaceUri":"file:///w","limit":1,"files":[{"uri":"file:///w/a.go","how":"pull","fresh":true,"before":[` + goplsUnusedFunc(1) + `,` + goplsUnusedFunc(2) + `],"after":[` + goplsTypeError(0) + `],"beforeText":"a\nb\nc\n","afterText":"a\nb\nc\n"}]}`
	ok := gjson.GetBytes(Call("diagnosticsDelta", []byte(in)), "ok")
	if ok.Get("counts.withheld").Int() != 2 || ok.Get("files.0.withheld.#").Int() != 1 || ok.Get("files.0.withheldTotal").Int() != 2 || ok.Get("files.0.withheld.0.line").Int() != 2 || ok.Get("truncated").Bool() ||
		!strings.Contains(ok.Get("rendered.text").Str, "a.go:2:6 information unusedfunc: function \"unusedHelper\" is unused\n  … 1 more not shown; raise limit") {
		t.Fatalf("%s", ok.Raw)
	}
}
