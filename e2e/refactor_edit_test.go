package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The refactor tools other than code_rename on the real servers, through
// `lspseam serve` on its presets (approval preview): code_actions
// (organize imports on gopls; organize imports, remove unused imports and
// add missing imports on typescript-language-server), code_format (gopls
// against gofmt, and "nothing to change"), and code_insert, code_replace
// and code_replace_batch by symbol (gopls and typescript-language-server).
// Every change is previewed first (nothing written), then applied with its
// previewId, and the files on disk are compared byte for byte with what
// the change must leave; the answer's diagnostics delta must introduce
// nothing (and, where a change breaks the build on purpose, must say so).

// editSession is one serve on one copy of a fixture workspace.
type editSession struct {
	t   *testing.T
	srv *serveClient
	dir string
}

func newEditSession(t *testing.T, ws string) *editSession {
	t.Helper()
	return &editSession{t: t, srv: catalogServe(t), dir: copyFixture(t, ws)}
}

// call runs one tool and returns its answer and structured content.
func (e *editSession) call(tool string, args map[string]any) (toolCallAnswer, map[string]any) {
	e.t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		e.t.Fatal(err)
	}
	a := e.srv.toolCall(e.t, tool, raw, e.dir)
	if len(a.Content) != 1 || a.Content[0].Type != "text" || a.Content[0].Text == "" {
		e.t.Fatalf("%s %s: content %+v, want one text", tool, raw, a.Content)
	}
	var s map[string]any
	if err := json.Unmarshal(a.StructuredContent, &s); err != nil {
		e.t.Fatalf("%s %s: structured content: %v: %s", tool, raw, err, a.StructuredContent)
	}
	return a, s
}

func (e *editSession) read(rel string) string {
	e.t.Helper()
	return string(readFile(e.t, filepath.Join(e.dir, rel)))
}

func (e *editSession) write(rel, text string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.dir, rel), []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// want checks a file's bytes.
func (e *editSession) want(what, rel, want string) {
	e.t.Helper()
	if got := e.read(rel); got != want {
		e.t.Errorf("%s: %s on disk:\n%s\nwant:\n%s", what, rel, got, want)
	}
}

// snapshot reads files, to check later that nothing changed them.
func (e *editSession) snapshot(rels ...string) map[string]string {
	e.t.Helper()
	m := map[string]string{}
	for _, r := range rels {
		m[r] = e.read(r)
	}
	return m
}

func (e *editSession) unchanged(what string, snap map[string]string) {
	e.t.Helper()
	for r, want := range snap {
		if got := e.read(r); got != want {
			e.t.Errorf("%s changed %s:\n%s\nwas:\n%s", what, r, got, want)
		}
	}
}

// refused calls a tool that must fail with code and change none of the
// files; it returns the structured answer.
func (e *editSession) refused(what, tool string, args map[string]any, code string, files ...string) map[string]any {
	e.t.Helper()
	snap := e.snapshot(files...)
	a, s := e.call(tool, args)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || s["ok"] != false || errObj["code"] != code || !strings.HasPrefix(a.Content[0].Text, code+": ") {
		e.t.Errorf("%s: want %s, got isError %v: %s", what, code, a.IsError, a.StructuredContent)
	}
	e.unchanged(what, snap)
	return s
}

// previewThenApply makes a change the way an agent does: the preview
// (its diff names exactly the files, nothing is written), then the same
// call with the previewId. It returns the applied answer's structured
// content, after checking that the applied answer names the same files.
func (e *editSession) previewThenApply(what, tool string, args map[string]any, files ...string) (toolCallAnswer, map[string]any) {
	e.t.Helper()
	snap := e.snapshot(files...)
	a, s := e.call(tool, args)
	id, _ := s["previewId"].(string)
	if a.IsError || s["ok"] != true || s["applied"] != false || id == "" {
		e.t.Fatalf("%s: preview: %s", what, a.StructuredContent)
	}
	if !slices.Equal(answerPaths(s), sortedCopy(files)) {
		e.t.Errorf("%s: the preview names %v, want %v: %s", what, answerPaths(s), files, a.Content[0].Text)
	}
	for _, f := range files {
		if !strings.Contains(a.Content[0].Text, "+++ b/"+f) {
			e.t.Errorf("%s: the preview text has no diff of %s:\n%s", what, f, a.Content[0].Text)
		}
	}
	e.unchanged(what+" (preview)", snap)

	withID := map[string]any{"previewId": id}
	for k, v := range args {
		withID[k] = v
	}
	a, s = e.call(tool, withID)
	if a.IsError || s["ok"] != true || s["applied"] != true || s["previewId"] != nil {
		e.t.Fatalf("%s: apply: %s", what, a.StructuredContent)
	}
	if !slices.Equal(answerPaths(s), sortedCopy(files)) {
		e.t.Errorf("%s: the applied answer names %v, want %v: %s", what, answerPaths(s), files, a.StructuredContent)
	}
	return a, s
}

// answerPaths lists the paths of an answer's files, sorted.
func answerPaths(s map[string]any) []string {
	var out []string
	for _, f := range asList(s["files"]) {
		out = append(out, str(f["path"]))
	}
	slices.Sort(out)
	return out
}

func sortedCopy(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	return out
}

// editDelta is an applied answer's diagnostics delta.
type editDelta struct {
	Files  []deltaFile `json:"files"`
	Counts struct {
		Introduced       int `json:"introduced"`
		Resolved         int `json:"resolved"`
		Persisting       int `json:"persisting"`
		IntroducedErrors int `json:"introducedErrors"`
	} `json:"counts"`
	Uncovered []string `json:"uncovered"`
}

func deltaOf(t *testing.T, what string, s map[string]any) editDelta {
	t.Helper()
	var d editDelta
	raw, _ := json.Marshal(s["diagnostics"])
	if err := json.Unmarshal(raw, &d); err != nil || s["diagnostics"] == nil {
		t.Fatalf("%s: no diagnostics delta (diagnosticsError %v): %v", what, s["diagnosticsError"], s)
	}
	return d
}

// noneIntroduced checks that the delta covers every changed file and that
// the change introduced no problem.
func noneIntroduced(t *testing.T, what string, s map[string]any, files ...string) editDelta {
	t.Helper()
	d := deltaOf(t, what, s)
	var covered []string
	for _, f := range d.Files {
		covered = append(covered, f.Path)
		if len(f.Introduced) != 0 || f.IntroducedTotal != 0 {
			t.Errorf("%s: %s: introduced %v", what, f.Path, f.Introduced)
		}
	}
	slices.Sort(covered)
	if !slices.Equal(covered, sortedCopy(files)) || len(d.Uncovered) != 0 {
		t.Errorf("%s: the delta covers %v (uncovered %v), want %v", what, covered, d.Uncovered, files)
	}
	if d.Counts.Introduced != 0 || d.Counts.IntroducedErrors != 0 {
		t.Errorf("%s: the change introduced problems: %+v", what, d.Counts)
	}
	return d
}

// allFresh checks that every file of a delta is fresh (the server reported
// on the new content).
func allFresh(t *testing.T, what string, d editDelta) {
	t.Helper()
	for _, f := range d.Files {
		if !f.Fresh {
			t.Errorf("%s: the delta of %s is not fresh", what, f.Path)
		}
	}
}

// resolvedMessage says whether the delta resolved a problem whose message
// contains msg.
func resolvedMessage(d editDelta, msg string) bool {
	for _, f := range d.Files {
		for _, p := range f.Resolved {
			if strings.Contains(p.Message, msg) {
				return true
			}
		}
	}
	return false
}

// findAction lists the actions of a file's lines and returns the one of
// kind (exactly), checking it carries an edit (not a server command).
func (e *editSession) findAction(what string, list map[string]any, kind, title string) string {
	e.t.Helper()
	a, s := e.call("code_actions", list)
	if a.IsError || s["ok"] != true {
		e.t.Fatalf("%s: list: %s", what, a.StructuredContent)
	}
	var found []map[string]any
	for _, act := range asList(s["actions"]) {
		if act["kind"] == kind {
			found = append(found, act)
		}
	}
	if len(found) != 1 {
		e.t.Fatalf("%s: %d actions of kind %s, want 1:\n%s", what, len(found), kind, a.Content[0].Text)
	}
	act := found[0]
	id := str(act["actionId"])
	if act["title"] != title || act["command"] != false || act["disabled"] != nil || !strings.HasPrefix(id, "a-") {
		e.t.Errorf("%s: action %v, want %q carrying an edit", what, act, title)
	}
	if !strings.Contains(a.Content[0].Text, id+"  "+title) {
		e.t.Errorf("%s: the text does not list %s  %s:\n%s", what, id, title, a.Content[0].Text)
	}
	return id
}

func with(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// TestRefactorEditActionsGo: gopls's organize imports on a file with its
// imports out of order and one unused, listed with only, applied by
// actionId (preview, then previewId).
func TestRefactorEditActionsGo(t *testing.T) {
	requireServers(t, "gopls")
	e := newEditSession(t, "go")
	const before = "package shapes\n\nimport (\n\t\"strings\"\n\t\"os\"\n\t\"fmt\"\n)\n\n" +
		"// Label names a shape's type in upper case.\nfunc Label(s Shape) string {\n\treturn strings.ToUpper(fmt.Sprintf(\"%T\", s))\n}\n"
	const after = "package shapes\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n" +
		"// Label names a shape's type in upper case.\nfunc Label(s Shape) string {\n\treturn strings.ToUpper(fmt.Sprintf(\"%T\", s))\n}\n"
	e.write("label.go", before)

	list := map[string]any{"path": "label.go", "line": 1, "only": "source.organizeImports"}
	a, s := e.call("code_actions", list)
	if a.IsError {
		t.Fatalf("list: %s", a.StructuredContent)
	}
	for _, act := range asList(s["actions"]) {
		if k := str(act["kind"]); k != "source.organizeImports" && !strings.HasPrefix(k, "source.organizeImports.") {
			t.Errorf("only source.organizeImports listed an action of kind %q: %v", k, act)
		}
	}
	id := e.findAction("organize imports", list, "source.organizeImports", "Organize Imports")

	apply := with(list, "apply", id)
	a, s = e.previewThenApply("organize imports", "code_actions", apply, "label.go")
	e.want("organize imports", "label.go", after)
	d := noneIntroduced(t, "organize imports", s, "label.go")
	allFresh(t, "organize imports", d)
	if !resolvedMessage(d, `"os" imported and not used`) {
		t.Errorf("organize imports: the delta does not resolve the unused import: %s", a.Content[0].Text)
	}

	// The action was listed for the file as it was: now it is stale.
	e.refused("a stale actionId", "code_actions", apply, "LSP_CONFLICT", "label.go")
	// An id never listed, and not a title either.
	e.refused("an unknown actionId", "code_actions", with(list, "apply", "a-000000000000"), "LSP_INVALID_ARGUMENT", "label.go")
}

// TestRefactorEditActionsTS: typescript-language-server's organize
// imports (it only sorts and combines), remove unused imports, and add
// missing imports, each a source action that carries its edit.
func TestRefactorEditActionsTS(t *testing.T) {
	requireServers(t, "typescript-language-server")
	e := newEditSession(t, "ts")
	const body = "\nexport function squareArea(side: number): number {\n  return totalArea([new Rect(side, side)]);\n}\n"
	const unsorted = "import { Rect } from \"./rect\";\nimport { Circle } from \"./circle\";\nimport { totalArea, type Shape } from \"./shape\";\n" + body
	const sorted = "import { Circle } from \"./circle\";\nimport { Rect } from \"./rect\";\nimport { totalArea, type Shape } from \"./shape\";\n" + body
	const pruned = "import { Rect } from \"./rect\";\nimport { totalArea } from \"./shape\";\n" + body
	e.write("src/imports.ts", unsorted)
	const missing = "import { Rect } from \"./rect\";\n\nexport function pair(r: number) {\n  return [new Circle(r), new Rect(r, r)];\n}\n"
	const added = "import { Circle } from \"./circle\";\nimport { Rect } from \"./rect\";\n\nexport function pair(r: number) {\n  return [new Circle(r), new Rect(r, r)];\n}\n"
	e.write("src/pair.ts", missing)

	// Organize imports (source.organizeImports.ts, a subkind of the kind
	// asked for).
	list := map[string]any{"path": "src/imports.ts", "line": 1, "only": "source.organizeImports"}
	id := e.findAction("organize imports", list, "source.organizeImports.ts", "Organize Imports")
	_, s := e.previewThenApply("organize imports", "code_actions", with(list, "apply", id), "src/imports.ts")
	e.want("organize imports", "src/imports.ts", sorted)
	allFresh(t, "organize imports", noneIntroduced(t, "organize imports", s, "src/imports.ts"))

	// Remove unused imports, listed on the organized file.
	list = map[string]any{"path": "src/imports.ts", "line": 1, "endLine": 3, "only": "source.removeUnusedImports.ts"}
	id = e.findAction("remove unused imports", list, "source.removeUnusedImports.ts", "Remove Unused Imports")
	a, s := e.previewThenApply("remove unused imports", "code_actions", with(list, "apply", id), "src/imports.ts")
	e.want("remove unused imports", "src/imports.ts", pruned)
	d := noneIntroduced(t, "remove unused imports", s, "src/imports.ts")
	allFresh(t, "remove unused imports", d)
	if !resolvedMessage(d, "'Circle' is declared but its value is never read") {
		t.Errorf("remove unused imports: the delta does not resolve the unused Circle: %s", a.Content[0].Text)
	}

	// The fix-all quick fix, listed without only: the per-problem
	// requests and the lines' request both offer it, and the server
	// resolves only the copy of its latest answer (an earlier copy ran
	// its command and changed nothing).
	e.write("src/pair2.ts", "export function pair(r: number) {\n  return [new Circle(r), new Rect(r, r)];\n}\n")
	list = map[string]any{"path": "src/pair2.ts", "line": 2}
	a, s = e.call("code_actions", list)
	var fixAll string
	for _, act := range asList(s["actions"]) {
		if act["title"] == "Add all missing imports" {
			fixAll = str(act["actionId"])
		}
	}
	if a.IsError || fixAll == "" {
		t.Fatalf("add all missing imports (quick fix): not listed: %s", a.Content[0].Text)
	}
	a, s = e.call("code_actions", with(list, "apply", fixAll))
	if a.IsError || str(s["previewId"]) == "" {
		t.Fatalf("add all missing imports (quick fix): preview: %s", a.Content[0].Text)
	}
	a, _ = e.call("code_actions", with(with(list, "apply", fixAll), "previewId", s["previewId"]))
	if got := e.read("src/pair2.ts"); a.IsError || !strings.Contains(got, `import { Circle } from "./circle";`) || !strings.Contains(got, `import { Rect } from "./rect";`) {
		t.Errorf("add all missing imports (quick fix): src/pair2.ts holds:\n%s\nwant both imports added:\n%s", got, a.Content[0].Text)
	}

	// Add the missing import of Circle.
	list = map[string]any{"path": "src/pair.ts", "line": 4, "only": "source.addMissingImports.ts"}
	id = e.findAction("add missing imports", list, "source.addMissingImports.ts", "Add all missing imports")
	a, s = e.previewThenApply("add missing imports", "code_actions", with(list, "apply", id), "src/pair.ts")
	e.want("add missing imports", "src/pair.ts", added)
	d = noneIntroduced(t, "add missing imports", s, "src/pair.ts")
	allFresh(t, "add missing imports", d)
	if !resolvedMessage(d, "Cannot find name 'Circle'") {
		t.Errorf("add missing imports: the delta does not resolve the missing Circle: %s", a.Content[0].Text)
	}
}

// TestRefactorEditFormat: code_format on gopls turns a badly formatted
// file into exactly gofmt's output; a formatted file (that one, and a
// fixture's) is "nothing to change": no preview, nothing written. The
// same "nothing to change" on typescript-language-server.
func TestRefactorEditFormat(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "go")
		const ugly = "package shapes\n\nimport \"fmt\"\n\n// Ugly is badly formatted.\nfunc Ugly( s Shape )string{\nif s==nil {return \"\"}\n\t\treturn fmt.Sprint( s.Area( ) )\n}\ntype  Pair struct{A  int\nBee string}\n"
		e.write("ugly.go", ugly)
		gofmt := exec.Command(filepath.Join(goroot, "bin", "gofmt"))
		gofmt.Stdin = strings.NewReader(ugly)
		out, err := gofmt.Output()
		if err != nil {
			t.Fatalf("gofmt: %v", err)
		}
		if string(out) == ugly {
			t.Fatal("gofmt leaves the ugly file as it is")
		}
		_, s := e.previewThenApply("format", "code_format", map[string]any{"path": "ugly.go"}, "ugly.go")
		e.want("format", "ugly.go", string(out))
		allFresh(t, "format", noneIntroduced(t, "format", s, "ugly.go"))

		nothingToChange(e, "ugly.go")
		nothingToChange(e, "shape.go")
	})
	t.Run("ts", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "ts")
		nothingToChange(e, "src/report.ts")
	})
}

// nothingToChange: formatting a formatted file answers "nothing to
// change", with no previewId, and writes nothing.
func nothingToChange(e *editSession, rel string) {
	e.t.Helper()
	snap := e.snapshot(rel)
	a, s := e.call("code_format", map[string]any{"path": rel})
	if a.IsError || s["ok"] != true || s["applied"] != false || s["previewId"] != nil || len(asList(s["files"])) != 0 ||
		!strings.Contains(a.Content[0].Text, "format "+rel+": nothing to change.") {
		e.t.Errorf("format %s (formatted): %s\n%s", rel, a.StructuredContent, a.Content[0].Text)
	}
	e.unchanged("formatting a formatted file", snap)
}

// TestRefactorEditTargets: code_insert, code_replace and
// code_replace_batch at targets found by name, on gopls and
// typescript-language-server: the files byte for byte, the delta (nothing
// introduced; a replacement that breaks the build says so, and its fix
// resolves it), a batch in two files as one change (a stale preview or a
// bad target writes neither file), and firstMatch refused.
func TestRefactorEditTargets(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "go")

		// Insert a method after the type's last method.
		circle := e.read("circle.go")
		const diameter = "\n// Diameter is twice the radius.\nfunc (c Circle) Diameter() float64 {\n\treturn 2 * c.Radius\n}"
		_, s := e.previewThenApply("insert after", "code_insert",
			map[string]any{"target": map[string]any{"path": "circle.go", "symbol": "Circle.Perimeter"}, "position": "after", "text": diameter}, "circle.go")
		circle += diameter + "\n"
		e.want("insert after", "circle.go", circle)
		allFresh(t, "insert after", noneIntroduced(t, "insert after", s, "circle.go"))

		// Replace a function's whole declaration (its doc comment stays).
		shape := e.read("shape.go")
		const oldTotal = "func TotalArea(all []Shape) float64 {\n\ttotal := 0.0\n\tfor _, s := range all {\n\t\ttotal += s.Area()\n\t}\n\treturn total\n}"
		const newTotal = "func TotalArea(all []Shape) (total float64) {\n\tfor _, s := range all {\n\t\ttotal += s.Area()\n\t}\n\treturn total\n}"
		_, s = e.previewThenApply("replace", "code_replace",
			map[string]any{"target": map[string]any{"path": "shape.go", "symbol": "TotalArea"}, "text": newTotal}, "shape.go")
		shape = string(replaceOnce(t, []byte(shape), oldTotal, newTotal))
		e.want("replace", "shape.go", shape)
		allFresh(t, "replace", noneIntroduced(t, "replace", s, "shape.go"))

		// A replacement that breaks the build: the delta says so; the fix
		// resolves it.
		rect := e.read("rect.go")
		const oldArea = "func (r Rect) Area() float64 {\n\treturn r.Width * r.Height\n}"
		const badArea = "func (r Rect) Area() float64 {\n\treturn r.Depth\n}"
		areaTarget := map[string]any{"path": "rect.go", "symbol": "Rect.Area"}
		a, s := e.previewThenApply("breaking replace", "code_replace", map[string]any{"target": areaTarget, "text": badArea}, "rect.go")
		e.want("breaking replace", "rect.go", string(replaceOnce(t, []byte(rect), oldArea, badArea)))
		d := deltaOf(t, "breaking replace", s)
		allFresh(t, "breaking replace", d)
		if d.Counts.Introduced < 1 || d.Counts.IntroducedErrors < 1 || len(d.Files) != 1 || len(d.Files[0].Introduced) < 1 ||
			!strings.Contains(d.Files[0].Introduced[0].Message, "Depth") || d.Files[0].Introduced[0].Path != "rect.go" {
			t.Errorf("breaking replace: the delta does not introduce the error about Depth: %s", a.StructuredContent)
		}
		a, s = e.previewThenApply("fixing replace", "code_replace", map[string]any{"target": areaTarget, "text": oldArea}, "rect.go")
		e.want("fixing replace", "rect.go", rect)
		d = noneIntroduced(t, "fixing replace", s, "rect.go")
		allFresh(t, "fixing replace", d)
		if d.Counts.Resolved < 1 || !resolvedMessage(d, "Depth") {
			t.Errorf("fixing replace: the delta does not resolve the error about Depth: %s", a.StructuredContent)
		}

		// A batch in two files: one preview of both; a change from outside
		// to one of them makes it stale and writes neither; the fresh
		// preview applies both.
		const oldRectPerimeter = "func (r Rect) Perimeter() float64 {\n\treturn 2 * (r.Width + r.Height)\n}"
		const newRectPerimeter = "func (r Rect) Perimeter() float64 {\n\treturn 2*r.Width + 2*r.Height\n}"
		const oldCirclePerimeter = "func (c Circle) Perimeter() float64 {\n\treturn 2 * math.Pi * c.Radius\n}"
		const newCirclePerimeter = "func (c Circle) Perimeter() float64 {\n\treturn math.Pi * c.Diameter()\n}"
		batch := map[string]any{"edits": []any{
			map[string]any{"target": map[string]any{"path": "rect.go", "symbol": "Rect.Perimeter"}, "text": newRectPerimeter},
			map[string]any{"target": map[string]any{"path": "circle.go", "symbol": "Circle.Perimeter"}, "text": newCirclePerimeter},
		}}
		a, s = e.call("code_replace_batch", batch)
		id := str(s["previewId"])
		if a.IsError || s["applied"] != false || id == "" || !slices.Equal(answerPaths(s), []string{"circle.go", "rect.go"}) {
			t.Fatalf("batch preview: %s", a.StructuredContent)
		}
		circle += "\n"
		e.write("circle.go", circle)
		s = e.refused("a stale batch preview", "code_replace_batch", with(batch, "previewId", id), "LSP_CONFLICT", "rect.go", "circle.go")
		fresh, _ := s["preview"].(map[string]any)
		if fresh == nil || str(fresh["previewId"]) == "" {
			t.Fatalf("a stale batch preview: no fresh preview: %v", s)
		}
		_, s = e.call("code_replace_batch", with(batch, "previewId", fresh["previewId"]))
		if s["applied"] != true || !slices.Equal(answerPaths(s), []string{"circle.go", "rect.go"}) {
			t.Fatalf("batch apply: %v", s)
		}
		rect = string(replaceOnce(t, []byte(rect), oldRectPerimeter, newRectPerimeter))
		circle = string(replaceOnce(t, []byte(circle), oldCirclePerimeter, newCirclePerimeter))
		e.want("batch", "rect.go", rect)
		e.want("batch", "circle.go", circle)
		allFresh(t, "batch", noneIntroduced(t, "batch", s, "circle.go", "rect.go"))

		// A batch with a target that does not resolve, or two edits that
		// overlap, changes nothing.
		good := map[string]any{"target": map[string]any{"path": "rect.go", "symbol": "Rect.Area"}, "text": badArea}
		s = e.refused("a batch with a missing symbol", "code_replace_batch", map[string]any{"edits": []any{
			good, map[string]any{"target": map[string]any{"path": "circle.go", "symbol": "Circle.Nope"}, "text": "x"},
		}}, "LSP_TARGET_NOT_FOUND", "rect.go", "circle.go")
		if msg := str(s["error"].(map[string]any)["message"]); !strings.HasPrefix(msg, "edits[1]: ") {
			t.Errorf("a batch with a missing symbol: the message does not name edits[1]: %q", msg)
		}
		e.refused("overlapping batch edits", "code_replace_batch", map[string]any{"edits": []any{good, good}}, "LSP_INVALID_ARGUMENT", "rect.go")
		// The overlap is the caller's: named as its edits are, one-based,
		// workspace-relative (not a server's malformed edit, zero-based).
		areaLine := 1 + strings.Count(e.read("rect.go")[:strings.Index(e.read("rect.go"), "func (r Rect) Area")], "\n")
		s = e.refused("a line inside a batch's symbol", "code_replace_batch", map[string]any{"edits": []any{
			good, map[string]any{"target": map[string]any{"path": "rect.go", "line": areaLine + 1}, "text": "\treturn 0", "endLine": areaLine + 1},
		}}, "LSP_INVALID_ARGUMENT", "rect.go")
		want := fmt.Sprintf("edits[0] (`Rect.Area`, lines %d–%d) and edits[1] (line %d) overlap in rect.go", areaLine, areaLine+2, areaLine+1)
		if msg := str(s["error"].(map[string]any)["message"]); !strings.Contains(msg, want) || strings.Contains(msg, "server") || strings.Contains(msg, "zero-based") {
			t.Errorf("overlapping batch edits: got %q, want it to say %q", msg, want)
		}

		// firstMatch is for reads: the mutating tools refuse it.
		files := []string{"rect.go", "circle.go", "shape.go"}
		e.refused("code_replace with firstMatch", "code_replace",
			map[string]any{"target": areaTarget, "text": badArea, "firstMatch": true}, "LSP_INVALID_ARGUMENT", files...)
		e.refused("code_replace with target.firstMatch", "code_replace",
			map[string]any{"target": with(areaTarget, "firstMatch", true), "text": badArea}, "LSP_INVALID_ARGUMENT", files...)
		e.refused("code_insert with firstMatch", "code_insert",
			map[string]any{"target": areaTarget, "position": "after", "text": "// x", "firstMatch": true}, "LSP_INVALID_ARGUMENT", files...)
		e.refused("code_replace_batch with firstMatch", "code_replace_batch",
			map[string]any{"edits": []any{good}, "firstMatch": true}, "LSP_INVALID_ARGUMENT", files...)

		// start and end are the body's first and last lines, indented as
		// its statements (start inserted before `func` itself).
		diameterTarget := map[string]any{"path": "circle.go", "symbol": "Circle.Diameter"}
		bodyInserts(e, "circle.go", diameterTarget, "_ = c.Radius", "// twice the radius",
			"func (c Circle) Diameter() float64 {\n\treturn 2 * c.Radius\n}",
			"func (c Circle) Diameter() float64 {\n\t_ = c.Radius\n\treturn 2 * c.Radius\n\t// twice the radius\n}")
		e.refused("code_insert at the start of a field", "code_insert",
			map[string]any{"target": map[string]any{"path": "circle.go", "symbol": "Circle.Radius"}, "position": "start", "text": "x"}, "LSP_INVALID_ARGUMENT", "circle.go")
	})
	t.Run("ts", func(t *testing.T) {
		t.Parallel()
		e := newEditSession(t, "ts")
		const deco = "export function log<T>(value: T, _context: ClassMethodDecoratorContext): T {\n  return value;\n}\n\nexport class Api {\n  /** Gets. */\n  @log\n  get2(): number {\n    return 2;\n  }\n}\n"
		e.write("src/deco.ts", deco) // before the server starts
		measure := e.read("src/measure.ts")

		// Insert a method after a class's method.
		const perimeter = "\n  /** Returns the square's perimeter. */\n  perimeter(): number {\n    return 4 * this.side;\n  }"
		const squareArea = "  area(): number {\n    return this.side * this.side;\n  }\n"
		_, s := e.previewThenApply("insert after", "code_insert",
			map[string]any{"target": map[string]any{"path": "src/measure.ts", "symbol": "Square.area"}, "position": "after", "text": perimeter}, "src/measure.ts")
		measure = string(replaceOnce(t, []byte(measure), squareArea, squareArea+perimeter+"\n"))
		e.want("insert after", "src/measure.ts", measure)
		noneIntroduced(t, "insert after", s, "src/measure.ts")

		// Replace a method (its JSDoc stays).
		const oldDisk = "area(): number {\n    return 3.14159 * this.radius * this.radius;\n  }"
		const newDisk = "area(): number {\n    return Math.PI * this.radius ** 2;\n  }"
		_, s = e.previewThenApply("replace", "code_replace",
			map[string]any{"target": map[string]any{"path": "src/measure.ts", "symbol": "Disk.area"}, "text": newDisk}, "src/measure.ts")
		measure = string(replaceOnce(t, []byte(measure), oldDisk, newDisk))
		e.want("replace", "src/measure.ts", measure)
		noneIntroduced(t, "replace", s, "src/measure.ts")

		// Replace a decorated method (tsserver's range starts at @log) with
		// text that does not repeat the decorator: @log and the JSDoc stay.
		_, s = e.previewThenApply("replace a decorated method", "code_replace",
			map[string]any{"target": map[string]any{"path": "src/deco.ts", "symbol": "Api.get2"}, "text": "get2(): number {\n  return 3;\n}"}, "src/deco.ts")
		e.want("replace a decorated method", "src/deco.ts", strings.Replace(deco, "return 2;", "return 3;", 1))
		noneIntroduced(t, "replace a decorated method", s, "src/deco.ts")

		// Three symbols are named area: the target is ambiguous, and the
		// candidates are listed.
		s = e.refused("an ambiguous target", "code_replace",
			map[string]any{"target": map[string]any{"path": "src/measure.ts", "symbol": "area"}, "text": "x"}, "LSP_AMBIGUOUS_TARGET", "src/measure.ts")
		var cands []string
		for _, c := range asList(s["candidates"]) {
			cands = append(cands, str(c["qualifiedName"]))
		}
		if !slices.Equal(cands, []string{"Square.area", "Disk.area", "area"}) {
			t.Errorf("an ambiguous target: candidates %v, want Square.area, Disk.area, area", cands)
		}

		// start and end: inside the method's braces, not before its name.
		bodyInserts(e, "src/measure.ts", map[string]any{"path": "src/measure.ts", "symbol": "Square.perimeter"}, "void this.side;", "// four sides",
			"  perimeter(): number {\n    return 4 * this.side;\n  }",
			"  perimeter(): number {\n    void this.side;\n    return 4 * this.side;\n    // four sides\n  }")
	})
	t.Run("py", func(t *testing.T) {
		requireServers(t, "pyright-langserver")
		t.Parallel()
		e := newEditSession(t, "py")
		const cart = "from typing import overload\n\n\nclass Cart:\n    def __init__(self) -> None:\n        self.items = [150, 20]\n\n    @property\n    def value(self) -> float:\n        return sum(self.items)\n\n    def count(self) -> int:\n        return len(self.items)\n\n\n@overload\ndef parse(x: int) -> int: ...\n@overload\ndef parse(x: str) -> str: ...\ndef parse(x: int | str) -> int | str:\n    return x\n"
		e.write("shapes/cart.py", cart) // before the server starts
		// Replace a @property (pyright's range starts at the decorator)
		// with text that does not repeat it: the decorator stays (it was
		// dropped, and Cart().value became a bound method).
		_, s := e.previewThenApply("replace a decorated method", "code_replace",
			map[string]any{"target": map[string]any{"path": "shapes/cart.py", "symbol": "Cart.value"}, "text": "def value(self) -> float:\n    return round(sum(self.items), 2)"}, "shapes/cart.py")
		want := strings.Replace(cart, "return sum(self.items)", "return round(sum(self.items), 2)", 1)
		e.want("replace a decorated method", "shapes/cart.py", want)
		noneIntroduced(t, "replace a decorated method", s, "shapes/cart.py")
		// A method after the last one, written at column 1, as the tool
		// description advises: in the class, not at module level.
		_, s = e.previewThenApply("insert a method after a method", "code_insert",
			map[string]any{"target": map[string]any{"path": "shapes/cart.py", "symbol": "Cart.count"}, "position": "after", "text": "\ndef total(self) -> float:\n    return self.value * self.count()"}, "shapes/cart.py")
		want = strings.Replace(want, "return len(self.items)\n", "return len(self.items)\n\n    def total(self) -> float:\n        return self.value * self.count()\n", 1)
		e.want("insert a method after a method", "shapes/cart.py", want)
		noneIntroduced(t, "insert a method after a method", s, "shapes/cart.py")
		// Before an overloaded function (the outline names only its
		// implementation): above the @overload stubs, not between them
		// and the implementation.
		_, s = e.previewThenApply("insert before an overloaded function", "code_insert",
			map[string]any{"target": map[string]any{"path": "shapes/cart.py", "symbol": "parse"}, "position": "before", "text": "def helper() -> int:\n    return 1\n\n\n"}, "shapes/cart.py")
		want = strings.Replace(want, "@overload\ndef parse(x: int)", "def helper() -> int:\n    return 1\n\n\n@overload\ndef parse(x: int)", 1)
		e.want("insert before an overloaded function", "shapes/cart.py", want)
		noneIntroduced(t, "insert before an overloaded function", s, "shapes/cart.py")
		// start is after the docstring (it was above the def, at module
		// level); end after the last statement; both at the body's
		// indentation.
		bodyInserts(e, "shapes/base.py", map[string]any{"path": "shapes/base.py", "symbol": "total_area"}, "assert shapes is not None", "# summed",
			"    \"\"\"Return the sum of the areas of all shapes.\"\"\"\n    return sum(s.area() for s in shapes)\n",
			"    \"\"\"Return the sum of the areas of all shapes.\"\"\"\n    assert shapes is not None\n    return sum(s.area() for s in shapes)\n    # summed\n")
	})
}

// bodyInserts inserts start at the start of target's body and end at its
// end (two applied code_insert calls, each introducing no problem), and
// checks that rel then holds after where it held before.
func bodyInserts(e *editSession, rel string, target map[string]any, start, end, before, after string) {
	e.t.Helper()
	text := e.read(rel)
	if !strings.Contains(text, before) {
		e.t.Fatalf("%s lacks %q", rel, before)
	}
	for _, c := range []struct{ position, text string }{{"start", start}, {"end", end}} {
		_, s := e.previewThenApply("insert "+c.position, "code_insert",
			map[string]any{"target": target, "position": c.position, "text": c.text}, rel)
		noneIntroduced(e.t, "insert "+c.position, s, rel)
	}
	e.want("insert start and end", rel, strings.Replace(text, before, after, 1))
}
