package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestImpactOtherFiles: issue 26 item 1 on the four original servers. On a
// copy of each fixture, one `lspseam serve` session reads a file; an edit
// inside a function's body that other files call answers that they were
// checked and have no new problems; then an edit of a function's
// signature (a required parameter added) answers the problems it
// introduced in the two other files that call it, at their one-based lines (clangd also reports the definition's file, which
// includes the header); the edit undone answers them resolved.

// goExcludedFile calls Describe from a file this machine's build
// excludes: gopls's references never name it, and the delta must check
// it all the same (bindings/go/toolbox/gobuildtags.go).
const goExcludedFile = "windowsonly.go"

const goExcludedText = `//go:build windows

package shapes

// DescribeOnWindows is built on Windows alone: gopls's references on
// this machine do not name it.
func DescribeOnWindows(s Shape) string {
	return Describe(s)
}
`

// impactOthers is the other files' part of an edit's delta.
type impactOthers struct {
	Checked        int                             `json:"checked"`
	Files          []deltaFile                     `json:"files"`
	WithIntroduced []string                        `json:"withIntroduced"`
	WithResolved   []string                        `json:"withResolved"`
	Stale          []string                        `json:"stale"`
	NotChecked     []struct{ Path, Reason string } `json:"notChecked"`
	Unasked        int                             `json:"unasked"`
	InsideBodies   int                             `json:"insideBodies"`
	Counts         struct {
		Introduced int `json:"introduced"`
		Resolved   int `json:"resolved"`
	} `json:"counts"`
}

// othersOf is the delta of other files in answer a (an edit's or an
// applied change's); what names the call in the failure when a has none.
func othersOf(t testing.TB, what string, a toolCallAnswer) impactOthers {
	t.Helper()
	var r struct {
		Diagnostics *struct {
			Others *impactOthers `json:"others"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
		t.Fatalf("%s: no delta of other files (%v): %s", what, err, a.Content[0].Text)
	}
	return *r.Diagnostics.Others
}

// hasAll: every one of want is in list.
func hasAll(list, want []string) bool {
	return !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(list, w) })
}

// impactAt is where the signature change must introduce errors: a file,
// and the one-based line and column of the call.
type impactAt struct {
	path         string
	line, column int
}

func TestImpactOtherFiles(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws, file     string
		break_       verifyEdit
		broken       []impactAt // in other files
		neutral      verifyEdit // inside a body other files call
		neutralFiles []string   // other files the neutral edit must have checked
		insideBody   verifyEdit // Go: inside a body, not followed into other files
	}{
		{"go", "shape.go",
			verifyEdit{"func Describe(s Shape) string {", "func Describe(s Shape, verbose bool) string {"},
			[]impactAt{{"cmd/shapes/main.go", 23, 27}, {"report.go", 12, 27}, {goExcludedFile, 8, 19}},
			verifyEdit{"func Describe(s Shape) string {", "func Describe(s Shape) string { // one line"},
			[]string{"cmd/shapes/main.go", "report.go"},
			verifyEdit{"\treturn fmt.Sprintf(\"%T area=%.2f perimeter=%.2f\", s, s.Area(), s.Perimeter())\n", "\tline := fmt.Sprintf(\"%T area=%.2f perimeter=%.2f\", s, s.Area(), s.Perimeter())\n\treturn line\n"}},
		{"ts", "src/shape.ts",
			verifyEdit{"export function describe(shape: Shape): string {", "export function describe(shape: Shape, verbose: boolean): string {"},
			[]impactAt{{"src/main.ts", 11, 25}, {"src/report.ts", 5, 35}},
			verifyEdit{"  return shapes.reduce((sum, s) => sum + s.area(), 0);", "  return shapes.reduce((sum, s) => sum + s.area(), 0); // the sum"},
			[]string{"src/main.ts", "src/report.ts"}, verifyEdit{}},
		{"py", "shapes/base.py",
			verifyEdit{"def total_area(shapes: Iterable[Shape]) -> float:", "def total_area(shapes: Iterable[Shape], unit: str) -> float:"},
			[]impactAt{{"main.py", 17, 26}, {"shapes/report.py", 11, 32}},
			verifyEdit{"    return sum(s.area() for s in shapes)\n", "    return sum(s.area() for s in shapes)  # the sum\n"},
			[]string{"main.py", "shapes/report.py"}, verifyEdit{}},
		{"c", "shape.h",
			verifyEdit{"double total_area(const shape *all, size_t n);", "double total_area(const shape *all, size_t n, int unit);"},
			[]impactAt{{"main.c", 20, 51}, {"report.c", 11, 56}},
			verifyEdit{"int shape_describe(const shape *s, char *buf, size_t len);", "int shape_describe(const shape *s, char *buf, size_t len); /* one line */"},
			[]string{"report.c"}, verifyEdit{}},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, dir)
			}
			if c.ws == "go" {
				if err := os.WriteFile(filepath.Join(dir, goExcludedFile), []byte(goExcludedText), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			srv := catalogServe(t)
			defer srv.shutdown(t)
			if c.ws == "go" {
				// gopls checks a file its build excludes in a build of
				// its own, loaded when first asked: before the edits, so
				// that their reports on it come within the wait.
				if a := srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": goExcludedFile}), dir); a.IsError || !strings.Contains(a.Content[0].Text, "o problems in "+goExcludedFile+" (fresh") {
					t.Fatalf("code_diagnostics of %s: %s", goExcludedFile, a.Content[0].Text)
				}
			}
			if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			edit := func(what string, e verifyEdit, back bool) (impactOthers, string) {
				t.Helper()
				start := time.Now()
				a := srv.toolCall(t, "edit", editArgs(c.file, e, back), dir)
				t.Logf("%s (%v):\n%s", what, time.Since(start).Round(time.Millisecond), a.Content[0].Text)
				var r struct {
					editResult
					Diagnostics *struct {
						Others *impactOthers `json:"others"`
					} `json:"diagnostics"`
				}
				if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
					t.Fatalf("%s: no delta of other files (%v): %s", what, err, a.StructuredContent)
				}
				return *r.Diagnostics.Others, a.Content[0].Text
			}
			var paths []string
			for _, b := range c.broken {
				paths = append(paths, b.path)
			}

			// An edit that changes nothing elsewhere: the files that call
			// the function it is in were checked; no new problems.
			o, text := edit("neutral", c.neutral, false)
			var checked []string
			for _, f := range o.Files {
				checked = append(checked, f.Path)
			}
			for _, p := range c.neutralFiles {
				if !slices.Contains(checked, p) {
					t.Errorf("neutral: %s not checked (checked %v)", p, checked)
				}
			}
			// A report still from before the change (clangd's, when it
			// publishes nothing new) is no clean bill: the headline says so.
			clean := "other files checked, no new problems."
			if strings.Contains(text, "\nStale (other files): ") {
				clean = " stale (below)." // some fresh: "no new problems in the N reports made after the change; M stale (below)."
				if len(o.Stale) == len(o.Files) {
					clean = ": none compared — the server sent no report on "
				}
			}
			if o.Counts.Introduced != 0 || o.Counts.Resolved != 0 || !strings.Contains(text, clean) {
				t.Errorf("neutral: %d introduced, %d resolved in other files; want none, and %q in:\n%s", o.Counts.Introduced, o.Counts.Resolved, clean, text)
			}
			if got := readFile(t, filepath.Join(dir, c.file)); !strings.Contains(string(got), c.neutral.NewString) {
				t.Errorf("neutral: the edit is not on disk")
			}

			// Go: an edit inside Describe's body is not followed into the
			// files that call it (no other file's compile errors depend
			// on a body), and the answer says they were not checked.
			if c.insideBody.OldString != "" {
				o, text := edit("inside a body", c.insideBody, false)
				if o.InsideBodies != 1 || len(o.Files) != 0 || !strings.Contains(text, "Other files: not checked — the change stays inside function bodies") {
					t.Errorf("inside a body: %d bodies, %d files checked; want 1 and none, said:\n%s", o.InsideBodies, len(o.Files), text)
				}
				edit("inside a body, undone", c.insideBody, true)
			}

			// The signature change: each caller's file has a new error on
			// the call's line.
			o, text = edit("break", c.break_, false)
			slices.Sort(o.WithIntroduced)
			if !hasAll(o.WithIntroduced, paths) || slices.ContainsFunc(paths, func(p string) bool { return slices.Contains(o.Stale, p) }) {
				t.Errorf("break: other files with new problems %v, stale %v; want %v among them, not stale", o.WithIntroduced, o.Stale, paths)
			}
			for _, b := range c.broken {
				var at []string
				for _, f := range o.Files {
					if f.Path != b.path {
						continue
					}
					for _, p := range f.Introduced {
						if p.Severity == "error" {
							at = append(at, fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Column))
							if !strings.Contains(text, fmt.Sprintf("%s:%d:%d error", p.Path, p.Line, p.Column)) {
								t.Errorf("break: the text does not name %s", at[len(at)-1])
							}
						}
					}
				}
				want := fmt.Sprintf("%s:%d:%d", b.path, b.line, b.column)
				if len(at) == 0 || slices.ContainsFunc(at, func(a string) bool { return a != want }) {
					t.Errorf("break: errors in %s at %v, want them at %s (the call)", b.path, at, want)
				}
			}
			if want := fmt.Sprintf("other files checked, %d with new problems", len(o.WithIntroduced)); !strings.Contains(text, want) {
				t.Errorf("break: the text lacks %q", want)
			}

			// Undone: the same problems resolved, none introduced.
			o, text = edit("fix", c.break_, true)
			slices.Sort(o.WithResolved)
			if o.Counts.Introduced != 0 || !hasAll(o.WithResolved, paths) || slices.ContainsFunc(paths, func(p string) bool { return slices.Contains(o.Stale, p) }) {
				t.Errorf("fix: %d introduced, resolved in %v, stale %v; want 0, %v among them, not stale", o.Counts.Introduced, o.WithResolved, o.Stale, paths)
			}
			if !strings.Contains(text, "other files checked, no new problems; ") {
				t.Errorf("fix: the text does not say the other files have no new problems")
			}
		})
	}
}

// TestImpactRefactor: a refactor tool's change goes through the applier,
// whose answer covers the other files too: code_replace of Describe with a
// two-parameter version, previewed and applied on gopls, names the errors
// at its two callers in other files.
func TestImpactRefactor(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	args := map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "Describe"},
		"text": "// Describe returns a one-line, human-readable summary of s.\nfunc Describe(s Shape, verbose bool) string {\n\treturn fmt.Sprintf(\"%T area=%.2f perimeter=%.2f\", s, s.Area(), s.Perimeter())\n}"}
	a := srv.toolCall(t, "code_replace", jsonArgs(args), dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	id, _ := s["previewId"].(string)
	if a.IsError || id == "" {
		t.Fatalf("preview: %s", a.Content[0].Text)
	}
	// The preview says the same, speculatively, before anything is written.
	if !strings.Contains(a.Content[0].Text, "If applied (speculative") || !strings.Contains(a.Content[0].Text, "report.go:12:27 error") || !strings.Contains(a.Content[0].Text, "cmd/shapes/main.go:23:27 error") {
		t.Errorf("the preview does not name the callers' errors it would introduce:\n%s", a.Content[0].Text)
	}
	args["previewId"] = id
	a = srv.toolCall(t, "code_replace", jsonArgs(args), dir)
	t.Logf("applied:\n%s", a.Content[0].Text)
	var r struct {
		Applied     bool `json:"applied"`
		Diagnostics *struct {
			Others *impactOthers `json:"others"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || !r.Applied || r.Diagnostics == nil || r.Diagnostics.Others == nil {
		t.Fatalf("applied: no delta of other files (%v): %s", err, a.StructuredContent)
	}
	o := r.Diagnostics.Others
	slices.Sort(o.WithIntroduced)
	if want := []string{"cmd/shapes/main.go", "report.go"}; !slices.Equal(o.WithIntroduced, want) || len(o.Stale) != 0 {
		t.Errorf("other files with new problems %v, stale %v; want %v, none stale", o.WithIntroduced, o.Stale, want)
	}
	if !strings.Contains(a.Content[0].Text, "report.go:12:27 error") || !strings.Contains(a.Content[0].Text, "cmd/shapes/main.go:23:27 error") {
		t.Errorf("the text does not name the callers' errors")
	}
}

// TestImpactThroughInterface: a method's change that makes its type stop
// satisfying an interface breaks the files that use the type as that
// interface, which are references to the type, not to the method (gopls:
// shapes.Circle returned as a Shape; tsserver: a Circle returned as a
// Shape). The edit's delta checks the type's users too and names the
// problem there; undone, it is resolved.
func TestImpactThroughInterface(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	for _, c := range []struct {
		ws, file string
		change   verifyEdit
		broken   string // the other file the change breaks
	}{
		{"go", "circle.go", verifyEdit{"func (c Circle) Perimeter() float64 {", "func (c Circle) Perimeter(scale float64) float64 {"}, "geom/parse.go"},
		{"ts", "src/circle.ts", verifyEdit{"  perimeter(): number {\n    return 2 * Math.PI * this.radius;", "  perimeter(): string {\n    return String(2 * Math.PI * this.radius);"}, "src/geom/parse.ts"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			srv := catalogServe(t)
			defer srv.shutdown(t)
			if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			for _, back := range []bool{false, true} {
				a := srv.toolCall(t, "edit", editArgs(c.file, c.change, back), dir)
				o := othersOf(t, fmt.Sprintf("edit (undone: %v)", back), a)
				list, what := o.WithIntroduced, "introduced"
				if back {
					list, what = o.WithResolved, "resolved"
				}
				if !slices.Contains(list, c.broken) {
					t.Errorf("edit (undone: %v): no problem %s in %s:\n%s", back, what, c.broken, a.Content[0].Text)
				}
			}
		})
	}
}

// TestImpactUndoneRename: an edit that renames a declaration breaks its
// callers in other files (reported introduced); the edit undone gives them
// their name back and must report those problems resolved. The undo's
// own references (of the name it replaces) reach no other file, so the
// files the previous change broke are checked from the host's memory
// (bindings/go/toolbox/otherbreaks.go) — not "none refer to what changed"
// while they still show the errors just reported (gopls, cobra: an agent
// then "fixed" the callers again).
func TestImpactUndoneRename(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "shape.go"}), dir); a.IsError {
		t.Fatalf("read: %s", a.StructuredContent)
	}
	rename := verifyEdit{"func Describe(s Shape) string {", "func DescribeShape(s Shape) string {"}
	callers := []string{"cmd/shapes/main.go", "report.go"}
	for _, undo := range []bool{false, true} {
		a := srv.toolCall(t, "edit", editArgs("shape.go", rename, undo), dir)
		text := a.Content[0].Text
		t.Logf("undone: %v:\n%s", undo, text)
		var r struct {
			Diagnostics *struct {
				Others *impactOthers `json:"others"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError || r.Diagnostics == nil || r.Diagnostics.Others == nil {
			t.Fatalf("edit (undone: %v): no delta of other files (%v): %s", undo, err, text)
		}
		o := r.Diagnostics.Others
		slices.Sort(o.WithIntroduced)
		slices.Sort(o.WithResolved)
		if !undo {
			if !slices.Equal(o.WithIntroduced, callers) || len(o.Stale) != 0 || !strings.Contains(text, "report.go:12:17 error") {
				t.Errorf("rename: other files with new problems %v, stale %v; want %v, none stale, report.go:12:17 named", o.WithIntroduced, o.Stale, callers)
			}
			continue
		}
		if o.Counts.Introduced != 0 || !slices.Equal(o.WithResolved, callers) || len(o.Stale) != 0 ||
			!strings.Contains(text, "2 other files checked, no new problems; 2 resolved:") || !strings.Contains(text, "report.go:12:17 error") {
			t.Errorf("undone: %d introduced, resolved in %v, stale %v; want 0, %v, none stale, and the text naming them resolved", o.Counts.Introduced, o.WithResolved, o.Stale, callers)
		}
		if strings.Contains(text, "refer to what changed") {
			t.Errorf("undone: the text says no other file refers to what changed")
		}
	}
}
