package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefactorEditForm: every edit path keeps a file's form (issue 21,
// core/textform.go) on the real servers. A file that starts with a UTF-8
// byte order mark and has CRLF line breaks, in a copy of a fixture
// workspace, goes through code_insert (before line 1, and after a
// symbol), code_replace (a symbol, and line 1), code_format and
// code_rename (with a use in an LF file beside it), each previewed and
// then applied; after each the files on disk are compared byte for byte:
// the mark still first, every line break CRLF (the model's and the
// servers' "\n" included), the LF file still LF.
func TestRefactorEditForm(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "go")
		const twice = "// Twice doubles x.\nfunc Twice(x float64) float64 {\n\treturn 2 * x\n}\n"
		file := "package shapes\n\n" + twice
		e.write("form.go", withForm(file))
		e.write("useform.go", "package shapes\n\n// Quadruple is x four times.\nfunc Quadruple(x float64) float64 { return Twice(Twice(x)) }\n")
		e.formRows([]formRow{
			{"insert before line 1", "code_insert", map[string]any{"target": map[string]any{"path": "form.go", "line": 1}, "position": "before",
				"text": "// form.go starts with a byte order mark and has CRLF line breaks.\n"},
				func(s string) string {
					return "// form.go starts with a byte order mark and has CRLF line breaks.\n" + s
				}},
			{"insert after a symbol", "code_insert", map[string]any{"target": map[string]any{"path": "form.go", "symbol": "Twice"}, "position": "after",
				"text": "\n// Half halves x.\nfunc Half(x float64) float64 {\n\treturn x / 2\n}"},
				func(s string) string {
					return s + "\n// Half halves x.\nfunc Half(x float64) float64 {\n\treturn x / 2\n}\n"
				}},
			{"replace a symbol", "code_replace", map[string]any{"target": map[string]any{"path": "form.go", "symbol": "Twice"},
				"text": "func Twice(x float64) float64 {\n\treturn x + x\n}"},
				func(s string) string {
					return strings.Replace(s, "\treturn 2 * x\n", "\treturn x + x\n", 1)
				}},
			{"replace line 1", "code_replace", map[string]any{"target": map[string]any{"path": "form.go", "line": 1}, "text": "// form.go, a file in another form"},
				func(s string) string {
					return strings.Replace(s, "// form.go starts with a byte order mark and has CRLF line breaks.\n", "// form.go, a file in another form\n", 1)
				}},
		}, "form.go", file)

		// Formatting: gofmt's output (which has neither the mark nor
		// CRLF), in the file's form.
		const ugly = "package shapes\n\n// Thrice triples x.\nfunc Thrice( x float64 )float64{\nreturn 3*x }\n"
		gofmt := exec.Command(filepath.Join(goroot, "bin", "gofmt"))
		gofmt.Stdin = strings.NewReader(ugly)
		out, err := gofmt.Output()
		if err != nil || string(out) == ugly {
			t.Fatalf("gofmt: %v: %q", err, out)
		}
		e.write("ugly.go", withForm(ugly))
		_, s := e.previewThenApply("format", "code_format", map[string]any{"path": "ugly.go"}, "ugly.go")
		e.want("format", "ugly.go", withForm(string(out)))
		noneIntroduced(t, "format", s, "ugly.go")

		// Renaming across the marked CRLF file and an LF one.
		form, use := e.read("form.go"), e.read("useform.go")
		_, s = e.previewThenApply("rename", "code_rename", map[string]any{"target": map[string]any{"path": "form.go", "symbol": "Twice"}, "newName": "Double"},
			"form.go", "useform.go")
		e.want("rename", "form.go", strings.ReplaceAll(form, "Twice", "Double"))
		e.want("rename", "useform.go", strings.ReplaceAll(use, "Twice", "Double"))
		noneIntroduced(t, "rename", s, "form.go", "useform.go")
	})
	t.Run("ts", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "ts")
		const twice = "/** Doubles x. */\nexport function twice(x: number): number {\n  return 2 * x;\n}\n"
		e.write("src/form.ts", withForm(twice))
		e.write("src/useform.ts", "import { twice } from \"./form\";\n\nexport const four = twice(twice(1));\n")
		e.formRows([]formRow{
			{"insert before line 1", "code_insert", map[string]any{"target": map[string]any{"path": "src/form.ts", "line": 1}, "position": "before",
				"text": "// form.ts starts with a byte order mark and has CRLF line breaks.\n"},
				func(s string) string {
					return "// form.ts starts with a byte order mark and has CRLF line breaks.\n" + s
				}},
			{"insert after a symbol", "code_insert", map[string]any{"target": map[string]any{"path": "src/form.ts", "symbol": "twice"}, "position": "after",
				"text": "\n/** Halves x. */\nexport function half(x: number): number {\n  return x / 2;\n}"},
				func(s string) string {
					return s + "\n/** Halves x. */\nexport function half(x: number): number {\n  return x / 2;\n}\n"
				}},
			{"replace a symbol", "code_replace", map[string]any{"target": map[string]any{"path": "src/form.ts", "symbol": "twice"},
				"text": "export function twice(x: number): number {\n  return x + x;\n}"},
				func(s string) string {
					return strings.Replace(s, "  return 2 * x;\n", "  return x + x;\n", 1)
				}},
			{"replace line 1", "code_replace", map[string]any{"target": map[string]any{"path": "src/form.ts", "line": 1}, "text": "// form.ts, a file in another form"},
				func(s string) string {
					return strings.Replace(s, "// form.ts starts with a byte order mark and has CRLF line breaks.\n", "// form.ts, a file in another form\n", 1)
				}},
		}, "src/form.ts", twice)

		const ugly = "export function thrice( x:number ):number{\nreturn 3*x}\n"
		const formatted = "export function thrice(x: number): number {\n    return 3 * x\n}\n" // four spaces: the file has no indentation to go by
		e.write("src/ugly.ts", withForm(ugly))
		_, s := e.previewThenApply("format", "code_format", map[string]any{"path": "src/ugly.ts"}, "src/ugly.ts")
		e.want("format", "src/ugly.ts", withForm(formatted))
		noneIntroduced(t, "format", s, "src/ugly.ts")

		form, use := e.read("src/form.ts"), e.read("src/useform.ts")
		_, s = e.previewThenApply("rename", "code_rename", map[string]any{"target": map[string]any{"path": "src/form.ts", "symbol": "twice"}, "newName": "double"},
			"src/form.ts", "src/useform.ts")
		e.want("rename", "src/form.ts", strings.ReplaceAll(form, "twice", "double"))
		e.want("rename", "src/useform.ts", strings.ReplaceAll(use, "twice", "double"))
		noneIntroduced(t, "rename", s, "src/form.ts", "src/useform.ts")
	})
}

// withForm writes an LF text as a file in the other form: a byte order
// mark first, CRLF line breaks.
func withForm(lf string) string {
	return "\uFEFF" + strings.ReplaceAll(lf, "\n", "\r\n")
}

// formRow is one edit of a file in the other form: the call, and what it
// does to the file's text written with LF and no mark.
type formRow struct {
	what, tool string
	args       map[string]any
	change     func(lf string) string
}

// formRows applies rows in turn to rel, whose text (LF, no mark) is lf,
// checking after each that the file is the changed text in the other
// form, and that the change introduced no problem.
func (e *editSession) formRows(rows []formRow, rel, lf string) {
	e.t.Helper()
	for _, r := range rows {
		next := r.change(lf)
		if next == lf {
			e.t.Fatalf("%s: the row changes nothing", r.what)
		}
		_, s := e.previewThenApply(r.what, r.tool, r.args, rel)
		e.want(r.what, rel, withForm(next))
		noneIntroduced(e.t, r.what, s, rel)
		lf = next
	}
}
