package core

import "testing"

// splitUnparsed by the file's own reports: which problems a parse error
// hid, or showed again, and which it leaves alone.
func TestSplitUnparsed(t *testing.T) {
	typeErr := Problem{Path: "a.go", Severity: 1, Code: "IncompatibleAssign", Source: "compiler", Message: "cannot use"}
	syntax := Problem{Path: "a.go", Severity: 1, Source: "syntax", Message: "expected operand"}
	syntaxWarning := syntax
	syntaxWarning.Severity = 2
	listErr := Problem{Path: "a.go", Severity: 1, Source: "go list", Message: "no module"}
	unused := Problem{Path: "a.go", Severity: 3, Code: "default", Source: "unusedfunc", Message: "unused"}
	p := func(list ...Problem) []Problem { return list }
	tests := []struct {
		name                   string
		file                   string
		before, after          []Problem
		resolved, introduced   []Problem
		res, intro, unc, rechk int
	}{
		{"a syntax error comes: the type error is unchecked", "a.go", p(typeErr), p(syntax), p(typeErr), p(syntax), 0, 1, 1, 0},
		{"it goes: the type error is rechecked", "a.go", p(syntax), p(typeErr), p(syntax), p(typeErr), 1, 0, 0, 1},
		{"syntax errors before and after: a type error that came is introduced", "a.go", p(syntax), p(syntax, typeErr), nil, p(typeErr), 0, 1, 0, 0},
		{"syntax errors before and after: one that went is unchecked", "a.go", p(syntax, typeErr), p(syntax), p(typeErr), nil, 0, 0, 1, 0},
		{"other sources are not hidden by a parse error", "a.go", p(listErr, unused), p(syntax), p(listErr, unused), p(syntax), 2, 1, 0, 0},
		{"a syntax warning is no parse error", "a.go", p(typeErr), p(syntaxWarning), p(typeErr), p(syntaxWarning), 1, 1, 0, 0},
		{"no parse error: compared as any other", "a.go", p(typeErr), nil, p(typeErr), nil, 1, 0, 0, 0},
		{"a server without the rule (pyright keeps checking)", "a.py", p(typeErr), p(syntax), p(typeErr), p(syntax), 1, 1, 0, 0},
	}
	for _, tt := range tests {
		res, intro, unc, rechk := splitUnparsed(tt.file, tt.before, tt.after, tt.resolved, tt.introduced)
		if len(res) != tt.res || len(intro) != tt.intro || len(unc) != tt.unc || len(rechk) != tt.rechk {
			t.Errorf("%s: resolved %d, introduced %d, unchecked %d, rechecked %d; want %d, %d, %d, %d", tt.name, len(res), len(intro), len(unc), len(rechk), tt.res, tt.intro, tt.unc, tt.rechk)
		}
	}
}
