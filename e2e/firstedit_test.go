package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The first edit of a session, on a cold server: the edited file was clean
// and the edit breaks it through its use of another file's function (an
// argument of the wrong type), so only a server that has loaded the
// project and checked the new text can report it. Servers publish
// diagnostics for the text they held before, or a syntax-only pass, before
// that check (typescript-language-server sends no version with them): such
// a report must never be taken for the check of the edited text. The
// answer lists the error as introduced, or names the file stale — never
// fresh with nothing introduced.

// firstEdit is one language's case: the edit of report.* (the call of
// total area with one shape instead of all of them) and the problem's code.
type firstEdit struct {
	workspace string
	file      string
	edit      verifyEdit
	code      string // the introduced error's code
	how       string // how the server's diagnostics are had: pull or push
	// fresh: the server reports on the edited text within the shim's
	// wait, so a stale answer is a failure too (over-marking).
	fresh bool
}

var firstEdits = []firstEdit{
	{"go", "report.go", verifyEdit{"TotalArea(all))", "TotalArea(all[0]))"}, "IncompatibleAssign", "pull", true},
	// typescript-language-server's pushed reports cannot be told to be on
	// the edited text (on zod the previous text's came first in 1 of 4
	// runs): tsserver is asked.
	{"ts", "src/report.ts", verifyEdit{"totalArea(shapes)", "totalArea(shapes[0])"}, "2345", "pull", true},
	{"py", "shapes/report.py", verifyEdit{"total_area(shapes)", "total_area(shapes[0])"}, "reportArgumentType", "push", true},
	{"c", "report.c", verifyEdit{"total_area(all, n)", "total_area(all[0], n)"}, "typecheck_convert_incompatible", "push", true},
}

// TestFirstEditDiagnostics: on a fresh serve session per language, read
// report.*, then the first edit: its delta lists the error as introduced,
// fresh.
func TestFirstEditDiagnostics(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, l := range firstEdits {
		t.Run(l.workspace, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, l.workspace)
			if l.workspace == "c" {
				freshC.prepare(t, dir)
			}
			srv := catalogServe(t)
			a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": l.file}), dir)
			if a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			a = srv.toolCall(t, "edit", editArgs(l.file, l.edit, false), dir)
			t.Logf("first edit:\n%s", a.Content[0].Text)
			var r editResult
			if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || !r.OK {
				t.Fatalf("edit: isError %v (%v): %s", a.IsError, err, a.StructuredContent)
			}
			if r.Diagnostics == nil || len(r.Diagnostics.Files) != 1 {
				t.Fatalf("edit: no delta of one file (diagnosticsError %q): %s", r.DiagnosticsError, a.StructuredContent)
			}
			f := r.Diagnostics.Files[0]
			var codes []string
			for _, p := range f.Introduced {
				codes = append(codes, p.Code)
			}
			introduced := strings.Contains(","+strings.Join(codes, ",")+",", ","+l.code+",")
			switch {
			case f.Fresh && !introduced:
				t.Errorf("the delta is fresh but does not list %s as introduced (introduced %v): the report was not on the edited text", l.code, codes)
			case !f.Fresh && (len(r.Diagnostics.Stale) != 1 || filepath.ToSlash(r.Diagnostics.Stale[0]) != l.file):
				t.Errorf("the delta is not fresh and names stale %v, want [%s]", r.Diagnostics.Stale, l.file)
			case !f.Fresh && l.fresh:
				t.Errorf("the delta is stale (introduced %v); %s reports on the edited text within the wait", codes, l.workspace)
			}
			if f.How != l.how {
				t.Errorf("diagnostics had by %s, want %s", f.How, l.how)
			}
			srv.shutdown(t)
		})
	}
}
