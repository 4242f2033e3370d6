package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSpeculativePreview: a preview says what its change would break
// before anything is written, on the four original servers. A function
// whose body names something undefined is previewed (code_insert): the
// preview's delta, marked speculative, introduces that error in the file,
// and the file on disk is unchanged; the server then answers from the
// disk (code_diagnostics has no such error), so nothing of the speculative
// text outlives the preview; applied, the real delta introduces the same
// error. Then a signature change that breaks a caller in another file is
// previewed: the preview says, speculatively, that the caller's file
// would have a new error; the caller's file has no such error after the
// preview (the server was given the disk's text back), and has it once the
// change is applied (so the check could have seen it).
func TestSpeculativePreview(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws, file, after, text, undefined string
		// A declaration given a second required parameter, and a file
		// calling it with one.
		declFile, decl, newDecl, caller string
	}{
		{"go", "circle.go", "Circle.Perimeter", "\nfunc brokenHelper() float64 {\n\treturn undefinedRadius\n}", "undefinedRadius",
			"shape.go", "Describe", "func Describe(s Shape, verbose bool) string {\n\treturn fmt.Sprintf(\"%T area=%.2f perimeter=%.2f\", s, s.Area(), s.Perimeter())\n}", "report.go"},
		{"ts", "src/shape.ts", "totalArea", "\nexport function brokenHelper(): number {\n  return undefinedRadius;\n}", "undefinedRadius",
			"src/shape.ts", "totalArea", "export function totalArea(shapes: readonly Shape[], scale: number): number {\n  return shapes.reduce((sum, s) => sum + s.area(), 0) * scale;\n}", "src/report.ts"},
		{"py", "shapes/base.py", "total_area", "\n\ndef broken_helper() -> float:\n    return undefined_radius", "undefined_radius",
			"shapes/base.py", "total_area", "def total_area(shapes: Iterable[Shape], scale: float) -> float:\n    \"\"\"Return the sum of the areas of all shapes.\"\"\"\n    return sum(s.area() for s in shapes) * scale", "shapes/report.py"},
		// clangd checks a file that includes a changed header again only
		// when that file itself changes: no caller to check.
		{"c", "shape.c", "total_area", "\nint broken_helper(void) {\n    return undefined_radius;\n}", "undefined_radius", "", "", "", ""},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			e := newEditSession(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, e.dir)
			}
			args := map[string]any{"target": map[string]any{"path": c.file, "symbol": c.after}, "position": "after", "text": c.text}
			snap := e.snapshot(c.file)

			a, s := e.call("code_insert", args)
			id := str(s["previewId"])
			if a.IsError || s["applied"] != false || id == "" {
				t.Fatalf("preview: %s", a.StructuredContent)
			}
			e.unchanged("the preview", snap)
			d := deltaOf(t, "the preview", s)
			if spec, _ := s["diagnostics"].(map[string]any); spec["speculative"] != true {
				t.Errorf("the preview's delta is not marked speculative: %v", s["diagnostics"])
			}
			if !strings.Contains(a.Content[0].Text, "If applied (speculative") || !introducedMessage(d, c.file, c.undefined) {
				t.Errorf("the preview does not say it would introduce the error about %s in %s:\n%s", c.undefined, c.file, a.Content[0].Text)
			}

			// The server answers from the disk again.
			r, da := codeDiagnostics(t, e.srv, c.file, e.dir)
			for _, p := range r.Problems {
				if strings.Contains(p.Message, c.undefined) {
					t.Errorf("after the preview the server still reports on its text (%q): %s", p.Message, da.Content[0].Text)
				}
			}

			// Applied, the real delta says the same.
			a, s = e.call("code_insert", with(args, "previewId", id))
			if a.IsError || s["applied"] != true {
				t.Fatalf("apply: %s", a.StructuredContent)
			}
			if d := deltaOf(t, "the applied change", s); !introducedMessage(d, c.file, c.undefined) {
				t.Errorf("the applied change's delta does not introduce the error about %s:\n%s", c.undefined, a.Content[0].Text)
			}
			if spec, _ := s["diagnostics"].(map[string]any); spec["speculative"] == true {
				t.Errorf("the applied change's delta is marked speculative")
			}

			// A change that breaks another file: after its preview, that
			// file is checked against the disk; after it is applied, not.
			if c.declFile == "" {
				e.srv.shutdown(t)
				return
			}
			change := map[string]any{"target": map[string]any{"path": c.declFile, "symbol": c.decl}, "text": c.newDecl}
			a, s = e.call("code_replace", change)
			id = str(s["previewId"])
			if a.IsError || id == "" {
				t.Fatalf("preview of the signature change: %s", a.StructuredContent)
			}
			var pr struct {
				Diagnostics *struct {
					Speculative bool          `json:"speculative"`
					Others      *impactOthers `json:"others"`
				} `json:"diagnostics"`
			}
			json.Unmarshal(a.StructuredContent, &pr)
			if pr.Diagnostics == nil || !pr.Diagnostics.Speculative || pr.Diagnostics.Others == nil || !slices.Contains(pr.Diagnostics.Others.WithIntroduced, c.caller) {
				t.Errorf("the preview does not say the change would break %s:\n%s", c.caller, a.Content[0].Text)
			}
			if n := callerProblems(t, e, c.caller); n != 0 {
				t.Errorf("after the preview, %s has %d problems: the server kept the previewed text of %s", c.caller, n, c.declFile)
			}
			if a, _ = e.call("code_replace", with(change, "previewId", id)); a.IsError {
				t.Fatalf("apply of the signature change: %s", a.StructuredContent)
			}
			if n := callerProblems(t, e, c.caller); n == 0 {
				t.Errorf("after the signature change is applied, %s has no problem: the check above could not have failed", c.caller)
			}
			e.srv.shutdown(t)
		})
	}
}

// introducedMessage says whether the delta introduced, in file, a problem
// whose message contains msg.
func introducedMessage(d editDelta, file, msg string) bool {
	for _, f := range d.Files {
		for _, p := range f.Introduced {
			if f.Path == file && strings.Contains(p.Message, msg) {
				return true
			}
		}
	}
	return false
}

// callerProblems is the number of errors code_diagnostics reports in file.
func callerProblems(t *testing.T, e *editSession, file string) int {
	t.Helper()
	r, _ := codeDiagnostics(t, e.srv, file, e.dir)
	n := 0
	for _, p := range r.Problems {
		if p.Severity == "error" {
			n++
		}
	}
	return n
}

// TestSpeculativeRenameOntoExistingName: typescript-language-server
// renames a function onto the name of another one in its file (gopls
// refuses such a rename; tsserver does not). The preview lists the errors
// the rename would introduce, marked speculative, before anything is
// written, and the server answers from the disk afterwards.
func TestSpeculativeRenameOntoExistingName(t *testing.T) {
	requireServers(t, "typescript-language-server")
	e := newEditSession(t, "ts")
	files := []string{"src/shape.ts", "src/report.ts", "src/main.ts", "src/circle.ts", "src/rect.ts", "src/measure.ts"}
	snap := e.snapshot(files...)
	a, s := e.call("code_rename", map[string]any{"target": map[string]any{"path": "src/shape.ts", "symbol": "describe"}, "newName": "totalArea"})
	if a.IsError || s["applied"] != false || str(s["previewId"]) == "" {
		t.Fatalf("preview: %s", a.StructuredContent)
	}
	e.unchanged("the preview", snap)
	d := deltaOf(t, "the preview", s)
	if spec, _ := s["diagnostics"].(map[string]any); spec["speculative"] != true || d.Counts.IntroducedErrors < 1 || !introducedMessage(d, "src/shape.ts", "Duplicate function implementation") {
		t.Errorf("the preview does not say the rename would introduce duplicate implementations:\n%s", a.Content[0].Text)
	}
	if n := callerProblems(t, e, "src/shape.ts"); n != 0 {
		t.Errorf("after the preview, src/shape.ts has %d errors: the server kept the renamed text", n)
	}
	e.srv.shutdown(t)
}

// TestSpeculativeHeaderOnClangd: clangd parses the files that include a
// header from the disk's copy of it, so a preview of a rename across a
// header and the C files using it checks the header alone, names the
// other files as not checked before writing, and reports no error the
// applied change would not have (checked against the header's old
// text, the renamed calls were undeclared functions).
func TestSpeculativeHeaderOnClangd(t *testing.T) {
	requireServers(t, "clangd")
	e := newEditSession(t, "c")
	freshC.prepare(t, e.dir)
	files := []string{"shape.h", "shape.c", "main.c", "report.c"}
	snap := e.snapshot(files...)
	a, s := e.call("code_rename", map[string]any{"target": map[string]any{"path": "shape.h", "symbol": "total_area"}, "newName": "summed_area"})
	if a.IsError || s["applied"] != false || str(s["previewId"]) == "" {
		t.Fatalf("preview: %s", a.StructuredContent)
	}
	e.unchanged("the preview", snap)
	left, _ := s["speculativeLeftOut"].([]any)
	var names []string
	for _, l := range left {
		names = append(names, str(l))
	}
	if !slices.Contains(names, "shape.c") || !slices.Contains(names, "main.c") || !strings.Contains(a.Content[0].Text, "reads shape.h from the disk") {
		t.Errorf("the preview does not name the files that include shape.h as not checked (left out %v):\n%s", names, a.Content[0].Text)
	}
	if d := deltaOf(t, "the preview", s); d.Counts.Introduced != 0 {
		t.Errorf("the preview reports %d problems introduced, which the rename does not cause:\n%s", d.Counts.Introduced, a.Content[0].Text)
	}
	a, s = e.call("code_rename", map[string]any{"target": map[string]any{"path": "shape.h", "symbol": "total_area"}, "newName": "summed_area", "previewId": str(s["previewId"])})
	if d := deltaOf(t, "the applied rename", s); a.IsError || s["applied"] != true || d.Counts.Introduced != 0 {
		t.Errorf("applied: %s", a.Content[0].Text)
	}
	e.srv.shutdown(t)
}

// TestSpeculativeMoveHidesNothing: a preview of a file move cannot show
// the server the moved file at its new path, so in a check before writing
// every import rewritten to that path is unresolved and everything typed
// through it is untyped: an importer's real error vanished and was listed
// as resolved (zod: checks.ts's TS2322 through regexes.ts, still there
// once the move was applied). The importers are named as not checked
// before writing, none of their problems is resolved, and the server
// answers from the disk right after the preview: the importer still has
// its error, and the moved file is where it was.
func TestSpeculativeMoveHidesNothing(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	const probe = "import { totalArea } from \"./shape\";\n\nexport const probe: string = totalArea([]);\n"
	if err := os.WriteFile(filepath.Join(dir, "src/probe.ts"), []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	hasProbeError := func(when string) {
		t.Helper()
		a, s := refactorCall(t, srv, dir, "code_diagnostics", map[string]any{"path": "src/probe.ts"})
		if counts, _ := s["counts"].(map[string]any); a.IsError || counts == nil || counts["error"] != float64(1) || !strings.Contains(a.Content[0].Text, "TS2322") {
			t.Fatalf("src/probe.ts %s: want its TS2322 alone: %s", when, a.Content[0].Text)
		}
	}
	hasProbeError("before the preview")

	args := map[string]any{"path": "src/shape.ts", "newPath": "src/geometry/shape.ts"}
	a, s := refactorCall(t, srv, dir, "code_rename_file", args)
	text, previewID := a.Content[0].Text, s["previewId"]
	if a.IsError || previewID == nil || !strings.Contains(text, "+++ b/src/probe.ts") {
		t.Fatalf("preview: want probe.ts's import rewritten: %s", text)
	}
	if strings.Contains(text, "Resolved:") || strings.Contains(text, "TS2322") {
		t.Errorf("the preview says the move resolves what it could not check:\n%s", text)
	}
	if d, _ := s["diagnostics"].(map[string]any); d != nil {
		if counts, _ := d["counts"].(map[string]any); counts["resolved"] != float64(0) {
			t.Errorf("the preview's delta counts resolved problems: %v\n%s", d["counts"], text)
		}
	}
	left, _ := s["speculativeLeftOut"].([]any)
	if !slices.Contains(left, any("src/probe.ts")) || !strings.Contains(text, "which the server cannot see until the change is written") {
		t.Errorf("the preview does not name src/probe.ts as not checked before writing, and why (left out %v):\n%s", left, text)
	}

	// The server's view is the disk's.
	hasProbeError("right after the preview")
	a, _ = refactorCall(t, srv, dir, "code_navigate", map[string]any{"target": map[string]any{"path": "src/main.ts", "line": 4, "matchText": "totalArea"}, "kind": "definition"})
	if a.IsError || !strings.Contains(a.Content[0].Text, "src/shape.ts") || strings.Contains(a.Content[0].Text, "geometry") {
		t.Errorf("definition of totalArea right after the preview: %s", a.Content[0].Text)
	}
	a, s = refactorCall(t, srv, dir, "code_diagnostics", map[string]any{"path": "src/main.ts"})
	if counts, _ := s["counts"].(map[string]any); a.IsError || counts == nil || counts["error"] != float64(0) {
		t.Errorf("main.ts right after the preview: %s", a.Content[0].Text)
	}

	// Applied, the error is still there: the move did not resolve it.
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", previewID))
	if a.IsError || s["applied"] != true {
		t.Fatalf("apply: %s", a.Content[0].Text)
	}
	hasProbeError("after the move")
}
