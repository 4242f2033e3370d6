package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Changes only a running server can make, on typescript-language-server:
// a refactoring that runs a server command (its edits arrive as
// workspace/applyEdit while the approved command runs), and a file
// renamed with its importers updated (workspace/willRenameFiles, applied
// with a RenameFile resource operation).

// refactorCall runs one refactor tool call through serve and decodes its
// structured answer.
func refactorCall(t *testing.T, srv *serveClient, dir, tool string, args map[string]any) (toolCallAnswer, map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(args)
	a := srv.toolCall(t, tool, raw, dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	return a, s
}

func TestRefactorCommandAction(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	srv := catalogServe(t)
	report := filepath.Join(dir, "src/report.ts")
	before := string(readFile(t, report))

	// Extracting lines 5–6 of report() is a command action.
	list := map[string]any{"path": "src/report.ts", "line": 5, "endLine": 6, "only": "refactor.extract"}
	a, s := refactorCall(t, srv, dir, "code_actions", list)
	var id string
	actions, _ := s["actions"].([]any)
	for _, x := range actions {
		act, _ := x.(map[string]any)
		if act["title"] == "Extract to function in module scope" && act["command"] == true {
			id, _ = act["actionId"].(string)
		}
	}
	if a.IsError || id == "" {
		t.Fatalf("no command action \"Extract to function in module scope\" listed: %s", a.Content[0].Text)
	}

	// The preview runs nothing and says the diff is not known yet.
	apply := map[string]any{"path": "src/report.ts", "line": 5, "endLine": 6, "apply": id}
	a, s = refactorCall(t, srv, dir, "code_actions", apply)
	if a.IsError || s["previewId"] == nil || s["command"] != "_typescript.applyRefactoring" || !strings.Contains(a.Content[0].Text, "cannot be shown before") {
		t.Fatalf("command preview: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, report)); got != before {
		t.Fatalf("the preview changed report.ts:\n%s", got)
	}

	// Approved: the server's applyEdit during the command is applied.
	a, s = refactorCall(t, srv, dir, "code_actions", with(apply, "previewId", s["previewId"]))
	if a.IsError || s["applied"] != true {
		t.Fatalf("approved command: %s", a.Content[0].Text)
	}
	got := string(readFile(t, report))
	for _, want := range []string{"const lines = newFunction(shapes);", "function newFunction(shapes: readonly Shape[]) {", "return lines;"} {
		if !strings.Contains(got, want) {
			t.Errorf("report.ts after the extraction lacks %q:\n%s", want, got)
		}
	}
	delta, _ := s["diagnostics"].(map[string]any)
	counts, _ := delta["counts"].(map[string]any)
	if counts == nil || counts["introduced"] != float64(0) {
		t.Errorf("the extraction introduced problems (or no delta): %s", a.Content[0].Text)
	}
	// The server holds the new text: a second listing works on it.
	if a, _ = refactorCall(t, srv, dir, "code_actions", map[string]any{"path": "src/report.ts", "line": 5}); a.IsError {
		t.Errorf("listing after the command: %s", a.Content[0].Text)
	}
}

func TestRefactorRenameFile(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	srv := catalogServe(t)
	importers := []string{"src/circle.ts", "src/rect.ts", "src/report.ts", "src/main.ts", "src/geom/parse.ts"}
	before := map[string]string{}
	for _, f := range append(importers, "src/shape.ts") {
		before[f] = string(readFile(t, filepath.Join(dir, f)))
	}
	args := map[string]any{"path": "src/shape.ts", "newPath": "src/geometry/shape.ts"}
	a, s := refactorCall(t, srv, dir, "code_rename_file", args)
	if a.IsError || s["previewId"] == nil || !strings.Contains(a.Content[0].Text, "rename src/shape.ts → src/geometry/shape.ts") {
		t.Fatalf("preview: %s", a.Content[0].Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/geometry")); err == nil {
		t.Fatal("the preview made the new directory")
	}
	// The preview's check cannot hold the moved file: the importers,
	// whose rewritten imports would not resolve, are named as not checked
	// before writing, not predicted as errors; the counts name the move
	// once and the edits' files.
	text := a.Content[0].Text
	if !strings.Contains(text, "move src/shape.ts → src/geometry/shape.ts: 5 edits in 5 files, 1 file moved.") ||
		!strings.Contains(text, "Not checked before writing: src/circle.ts, src/geom/parse.ts, src/main.ts, src/rect.ts, src/report.ts (they import src/geometry/shape.ts") ||
		strings.Contains(text, "TS2307") || strings.Contains(text, "error introduced") || strings.Contains(text, "errors introduced") {
		t.Errorf("preview: %s", text)
	}
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", s["previewId"]))
	if a.IsError || s["applied"] != true {
		t.Fatalf("apply: %s", a.Content[0].Text)
	}
	// The moved file is checked where it landed, not "no language server
	// covers it".
	if text := a.Content[0].Text; strings.Contains(text, "Not checked") || strings.Contains(text, "no language server") {
		t.Errorf("apply: %s", text)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/shape.ts")); err == nil {
		t.Error("src/shape.ts still exists")
	}
	if got := string(readFile(t, filepath.Join(dir, "src/geometry/shape.ts"))); got != before["src/shape.ts"] {
		t.Errorf("src/geometry/shape.ts is not the old src/shape.ts:\n%s", got)
	}
	// Each importer changed in its import path alone, byte for byte.
	for _, f := range importers {
		got := string(readFile(t, filepath.Join(dir, f)))
		old, repl := `"./shape"`, `"./geometry/shape"`
		if strings.HasPrefix(f, "src/geom/") {
			old, repl = `"../shape"`, `"../geometry/shape"`
		}
		if want := strings.Replace(before[f], old, repl, 1); got != want {
			t.Errorf("%s after the rename:\n%s\nwant:\n%s", f, got, want)
		}
	}
	// The server follows the move: main.ts's totalArea is defined in the
	// moved file, and main.ts has no errors, fresh (asked of tsserver:
	// typescript-language-server does not republish an empty report).
	a, _ = refactorCall(t, srv, dir, "code_navigate", map[string]any{"target": map[string]any{"path": "src/main.ts", "line": 4, "matchText": "totalArea"}, "kind": "definition"})
	if a.IsError || !strings.Contains(a.Content[0].Text, "src/geometry/shape.ts") {
		t.Errorf("definition of totalArea after the move: %s", a.Content[0].Text)
	}
	a, s = refactorCall(t, srv, dir, "code_diagnostics", map[string]any{"path": "src/main.ts"})
	if counts, _ := s["counts"].(map[string]any); a.IsError || counts == nil || counts["error"] != float64(0) || s["status"] != "fresh" {
		t.Errorf("main.ts after the move: %s", a.Content[0].Text)
	}
}

// TestRefactorQuickFix: a quick fix for an undefined function, listed for
// the line of the problem and applied by actionId, on gopls and
// typescript-language-server (whose quick fixes carry an edit and a
// command: the edit is applied, then the command runs).
func TestRefactorQuickFix(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	for _, c := range []struct {
		ws, file, text, title, want string
	}{
		{"go", "extra.go", "package shapes\n\nfunc Quad(n int) int {\n\treturn doubled(n) + 1\n}\n", "Create function doubled", "func doubled("},
		{"ts", "src/extra.ts", "export function quad(n: number): number {\n  return doubled(n) + 1;\n}\n", "Add missing function declaration 'doubled'", "function doubled("},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t)
			a, s := refactorCall(t, srv, dir, "code_actions", map[string]any{"path": c.file, "line": 2 + strings.Count(c.text[:strings.Index(c.text, "return")], "\n") - 1})
			var id string
			actions, _ := s["actions"].([]any)
			for _, x := range actions {
				if act, _ := x.(map[string]any); act["title"] == c.title && id == "" {
					id, _ = act["actionId"].(string)
				}
			}
			if a.IsError || id == "" {
				t.Fatalf("no quick fix %q: %s", c.title, a.Content[0].Text)
			}
			apply := map[string]any{"path": c.file, "line": 1, "apply": id}
			// The actionId is bound to the file, not to the lines asked.
			a, s = refactorCall(t, srv, dir, "code_actions", apply)
			// gopls makes the fix by a command (gopls.apply_fix): the
			// preview names it; typescript-language-server's has a diff.
			if a.IsError || s["previewId"] == nil || !strings.Contains(a.Content[0].Text, "+"+c.want) && s["command"] == nil {
				t.Fatalf("preview: %s", a.Content[0].Text)
			}
			a, s = refactorCall(t, srv, dir, "code_actions", with(apply, "previewId", s["previewId"]))
			if a.IsError || s["applied"] != true {
				t.Fatalf("apply: %s", a.Content[0].Text)
			}
			got := string(readFile(t, path))
			if !strings.HasPrefix(got, strings.TrimSuffix(c.text, "\n")) && !strings.Contains(got, strings.TrimSpace(c.text[strings.Index(c.text, "return"):])) || strings.Count(got, c.want) != 1 {
				t.Errorf("%s after the quick fix:\n%s", c.file, got)
			}
			// The errors are resolved, and none introduced (a hint about
			// the new function's unused parameter may be).
			delta, _ := s["diagnostics"].(map[string]any)
			counts, _ := delta["counts"].(map[string]any)
			if counts == nil || counts["resolved"] == float64(0) {
				t.Errorf("the quick fix resolved nothing: %s", a.Content[0].Text)
			}
			introduced, _ := delta["introduced"].([]any)
			for _, x := range introduced {
				if d, _ := x.(map[string]any); d["severity"] == "error" {
					t.Errorf("the quick fix introduced an error: %s", a.Content[0].Text)
				}
			}
		})
	}
}

// TestRefactorRenameFileWithoutReferenceUpdates: pyright offers no
// workspace/willRenameFiles, so a file is renamed alone; the preview and
// the applied answer both say the importers were not updated.
func TestRefactorRenameFileWithoutReferenceUpdates(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	args := map[string]any{"path": "shapes/report.py", "newPath": "shapes/reporting.py"}
	a, s := refactorCall(t, srv, dir, "code_rename_file", args)
	const says = "does not update references when a file is renamed"
	if a.IsError || s["previewId"] == nil || !strings.Contains(a.Content[0].Text, says) {
		t.Fatalf("preview: %s", a.Content[0].Text)
	}
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", s["previewId"]))
	if a.IsError || s["applied"] != true || !strings.Contains(a.Content[0].Text, says) || !strings.Contains(str(s["notice"]), says) {
		t.Errorf("apply: the answer does not say the importers were left alone: %s", a.Content[0].Text)
	}
}

// TestRefactorCommandActionDelta: the files a command edits are compared
// with their reports before it. "Move to a new file" of a function that
// a namespace import was the only use of leaves that import unused (an
// error under noUnusedLocals): the server reports it only after the
// edit, and it is introduced. typescript-language-server creates the new
// file empty before it sends the edit that fills it: the file is new, not
// "not checked". (Checked only after the write, every file the command
// edited was "Not checked", one line each, and the heading said "0
// introduced".)
func TestRefactorCommandActionDelta(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "ts")
	files := map[string]string{
		"moves/tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "noEmit": true, "noUnusedLocals": true}, "include": ["."]}` + "\n",
		"moves/util.ts":       "export function escapeRegex(s: string): string {\n  return s.replace(/[.*+?^${}()|[\\]\\\\]/g, \"\\\\$&\");\n}\n\nexport function joinValues(values: string[]): string {\n  return values.join(\", \");\n}\n",
		"moves/regexes.ts":    "import * as util from \"./util\";\n\nexport const dot = new RegExp(util.escapeRegex(\".\"));\n",
		"moves/labels.ts":     "import * as util from \"./util\";\n\nexport const label = util.joinValues([\"a\", \"b\"]);\n",
	}
	for rel, text := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	list := map[string]any{"path": "moves/util.ts", "line": 1, "endLine": 3, "only": "refactor.move"}
	a, s := refactorCall(t, srv, dir, "code_actions", list)
	var id string
	actions, _ := s["actions"].([]any)
	for _, x := range actions {
		if act, _ := x.(map[string]any); act["title"] == "Move to a new file" && act["command"] == true {
			id, _ = act["actionId"].(string)
		}
	}
	if a.IsError || id == "" {
		t.Fatalf("no command action \"Move to a new file\" listed: %s", a.Content[0].Text)
	}
	apply := with(list, "apply", id)
	a, s = refactorCall(t, srv, dir, "code_actions", apply)
	if a.IsError || s["previewId"] == nil {
		t.Fatalf("command preview: %s", a.Content[0].Text)
	}
	a, s = refactorCall(t, srv, dir, "code_actions", with(apply, "previewId", s["previewId"]))
	if a.IsError || s["applied"] != true {
		t.Fatalf("approved command: %s", a.Content[0].Text)
	}
	text := a.Content[0].Text
	if _, err := os.Stat(filepath.Join(dir, "moves/escapeRegex.ts")); err != nil {
		t.Fatalf("the move made no moves/escapeRegex.ts (%v): %s", err, text)
	}
	delta, _ := s["diagnostics"].(map[string]any)
	counts, _ := delta["counts"].(map[string]any)
	if counts == nil || counts["introducedErrors"] != float64(1) || !strings.Contains(text, "moves/regexes.ts:1:1 error TS6133") {
		t.Errorf("the unused import the move left in moves/regexes.ts is not introduced: %s", text)
	}
	if strings.Contains(text, "Not checked") || strings.Contains(text, "not compared") {
		t.Errorf("a file the command edited or created was not compared: %s", text)
	}
}
