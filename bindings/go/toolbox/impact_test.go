package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

func entry(name string, kind int, start, end uint32) lspseam.OutlineEntry {
	r := lspseam.Range{Start: lspseam.Position{Line: start}, End: lspseam.Position{Line: end}}
	return lspseam.OutlineEntry{Name: name, Kind: kind, Range: r, SelectionRange: lspseam.Range{Start: r.Start, End: r.Start}}
}

func TestChangedDeclarations(t *testing.T) {
	// 0 package
	// 1 class C {        (5, lines 1–6)
	// 2   m() {          (6, lines 2–4)
	// 3     local        (13, line 3)
	// 4   }
	// 5   n() {}         (6, line 5)
	// 6 }
	// 7 func f() {}      (12, line 7)
	outline := []lspseam.OutlineEntry{entry("C", 5, 1, 6), entry("m", 6, 2, 4), entry("local", 13, 3, 3), entry("n", 6, 5, 5), entry("f", 12, 7, 7)}
	before := []string{"package", "class C {", "  m() {", "    local", "  }", "  n() {}", "}", "func f() {}"}
	with := func(i int, line string) []string {
		after := slices.Clone(before)
		after[i] = line
		return after
	}
	names := func(es []lspseam.OutlineEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		after []string
		want  []string
	}{
		{"a method's body: the method, then its class; not its local", with(3, "    local2"), []string{"m", "C"}},
		{"a signature", with(7, "func f(x int) {}"), []string{"f"}},
		{"outside every declaration", with(0, "package p"), nil},
		{"nothing changed", before, nil},
		{"a line inserted inside the class", slices.Insert(slices.Clone(before), 5, "  o() {}"), []string{"C"}},
		{"a declaration removed", slices.Delete(slices.Clone(before), 7, 8), []string{"f"}},
		{"across two declarations", append(with(5, "  n(x) {}")[:7], "func f(y) {}"), []string{"n", "f", "C"}},
		{"two edits far apart: not the declaration between them", append(with(2, "  m(x) {")[:7], "func f(y) {}"), []string{"f", "m", "C"}},
	} {
		if got := names(changedDeclarations(outline, before, tt.after)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDependentsInput(t *testing.T) {
	r := openTestRoot(t, t.TempDir())
	found := &dependents{paths: []string{"a.go", "b.go", "c.go", "d.go", "e.go"},
		notChecked: []map[string]any{{"uri": workspacefs.FileURI(r.Abs("z.go")), "reason": core.NotCheckedLimit}}, unasked: 1}
	report := func(items string, fresh bool) lspseam.DiagnosticReport {
		return lspseam.DiagnosticReport{Diagnostics: json.RawMessage(items), How: "push", Fresh: fresh}
	}
	file := func(rel, text string) lspseam.SourceFile {
		return lspseam.SourceFile{URI: workspacefs.FileURI(r.Abs(rel)), Text: text}
	}
	uncovered := lspseam.Errorf(lspseam.CodeUnavailable, "no server")
	before := []lspseam.FileCheck{
		{File: file("a.go", "x"), Report: report("[]", true)},
		{File: file("b.go", "x"), Report: report("[]", true)},
		{Err: uncovered},
		{File: file("d.go", "x"), Report: report("[]", true)},
		{File: file("e.go", "x"), Err: errors.New("boom")},
	}
	after := []lspseam.FileCheck{
		{File: file("a.go", "x"), Report: report(`[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"m"}]`, true)},
		{File: file("b.go", "y"), Report: report("[]", true)}, // changed meanwhile: not fresh
		{Err: uncovered},
		{}, // never checked (the session ended)
		{File: file("e.go", "x"), Report: report("[]", true)},
	}
	in := dependentsInput(context.Background(), r, found, before, after)
	files := in["files"].([]any)
	if len(files) != 2 || files[0].(map[string]any)["fresh"] != true || files[1].(map[string]any)["fresh"] != false {
		t.Fatalf("files %v", files)
	}
	var reasons []string
	for _, n := range in["notChecked"].([]map[string]any) {
		reasons = append(reasons, n["reason"].(string))
	}
	if want := []string{core.NotCheckedLimit, core.NotCheckedNoServer, core.NotCheckedTime, core.NotCheckedFailed}; !slices.Equal(reasons, want) || in["unasked"] != 1 {
		t.Fatalf("notChecked %v, unasked %v; want %v, 1", reasons, in["unasked"], want)
	}
	// The core takes it as the dependents of a delta.
	tb, _ := newFSToolbox(t)
	out, err := tb.coreJSON(context.Background(), "diagnosticsDelta", map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir), "files": []any{deltaFile(workspacefs.FileURI(r.Abs("s.go")), "a", "b", &lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), How: "pull", Fresh: true}, &lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), How: "pull", Fresh: true})}, "dependents": in})
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Others struct {
			Checked        int      `json:"checked"`
			WithIntroduced []string `json:"withIntroduced"`
			Stale          []string `json:"stale"`
		} `json:"others"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Others.Checked != 2 || !slices.Equal(v.Others.WithIntroduced, []string{"a.go"}) || !slices.Equal(v.Others.Stale, []string{"b.go"}) {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestDependentsInputUnsettledBefore: a dependent whose report before
// the change was not the server's settled word on it (pyright's empty
// first report on a file just opened, taken when the wait ended while it
// was still checking the file) is not compared when its report after the
// change differs: its problems may all have been there before, and were
// answered "introduced" (click: 20 errors of untouched tests/*.py, every
// one of them there before the rename). One whose report did not change
// is compared, stale: nothing is claimed of it.
func TestDependentsInputUnsettledBefore(t *testing.T) {
	r := openTestRoot(t, t.TempDir())
	problem := `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"there all along","severity":1}]`
	report := func(items string, fresh bool) lspseam.DiagnosticReport {
		return lspseam.DiagnosticReport{Diagnostics: json.RawMessage(items), How: "push", Fresh: fresh}
	}
	file := func(rel string) lspseam.SourceFile {
		return lspseam.SourceFile{URI: workspacefs.FileURI(r.Abs(rel)), Text: "x"}
	}
	for _, c := range []struct {
		name          string
		before, after lspseam.DiagnosticReport
		compared      bool
		fresh         bool
	}{
		{"unsettled before, problems after", report("[]", false), report(problem, true), false, false},
		{"unsettled before, problems gone after", report(problem, false), report("[]", true), false, false},
		{"unsettled before, the same after", report(problem, false), report(problem, true), true, false},
		{"unsettled before, no report before at all", lspseam.DiagnosticReport{How: "push"}, report(problem, true), false, false},
		{"settled before, problems after", report("[]", true), report(problem, true), true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := &dependents{paths: []string{"a.py"}}
			in := dependentsInput(context.Background(), r, found,
				[]lspseam.FileCheck{{File: file("a.py"), Report: c.before}},
				[]lspseam.FileCheck{{File: file("a.py"), Report: c.after}})
			files := in["files"].([]any)
			notChecked := in["notChecked"].([]map[string]any)
			if c.compared {
				if len(files) != 1 || len(notChecked) != 0 || files[0].(map[string]any)["fresh"] != c.fresh {
					t.Fatalf("files %v, not checked %v; want it compared, fresh %v", files, notChecked, c.fresh)
				}
				return
			}
			if len(files) != 0 || len(notChecked) != 1 || notChecked[0]["reason"] != core.NotCheckedTime {
				t.Fatalf("files %v, not checked %v; want it not checked (%s)", files, notChecked, core.NotCheckedTime)
			}
		})
	}
}

// TestDependentsInputOverTheCoreBounds: a change overlapping more
// declarations than the core's old bound (1,100 constants of a generated
// file rewritten: unasked 1,092) lost its whole delta to
// "dependents.unasked must be an integer from 0 to 1000"; so would
// changed function bodies by the thousand, and dependents found in more
// files than the core lists. The delta is answered, saying how many.
func TestDependentsInputOverTheCoreBounds(t *testing.T) {
	r := openTestRoot(t, t.TempDir())
	tb, _ := newFSToolbox(t)
	delta := func(t *testing.T, found *dependents) string {
		t.Helper()
		in := dependentsInput(context.Background(), r, found, nil, nil)
		report := &lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), How: "pull", Fresh: true}
		out, err := tb.coreJSON(context.Background(), "diagnosticsDelta", map[string]any{"workspaceUri": workspacefs.FileURI(r.Dir),
			"files": []any{deltaFile(workspacefs.FileURI(r.Abs("gen.go")), "a", "b", report, report)}, "dependents": in})
		if err != nil {
			t.Fatalf("the delta is lost: %v", err)
		}
		var v struct{ Rendered struct{ Text string } }
		json.Unmarshal(out, &v)
		return v.Rendered.Text
	}
	var limited []map[string]any // as many as findDependents lists
	for i := range maxListedNotChecked {
		limited = append(limited, map[string]any{"uri": workspacefs.FileURI(r.Abs(fmt.Sprintf("f%d.go", i))), "reason": core.NotCheckedLimit})
	}
	for _, c := range []struct {
		name  string
		found dependents
		want  []string
	}{
		{"declarations not asked", dependents{unasked: 1092, asked: 8}, []string{"at least 1092 changed declarations were not asked"}},
		{"function bodies", dependents{insideBodies: 1500, asked: 8}, []string{"the changes inside 1500 function bodies"}},
		{"a count past any bound, clamped", dependents{unasked: 5_000_000_000}, []string{"at least 1000000 changed declarations"}},
		{"files found over those listed", dependents{notChecked: limited, notCheckedMore: 3000},
			[]string{"Not checked: f0.go, f1.go,", " and 3970 more (over the number of files checked)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := delta(t, &c.found)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the delta does not say %q:\n%s", w, text)
				}
			}
		})
	}
}
