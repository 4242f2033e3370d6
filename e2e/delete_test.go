package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeDelete: code_delete on the four original servers. A function
// nothing uses (appended to a fixture file with its doc comment) is
// previewed, then deleted with its previewId, and the file is as it was
// before it was added; a function other files use is refused with
// LSP_CONFLICT naming its uses, and no file changes.
func TestCodeDelete(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server", "pyright-langserver", "clangd")
	for _, c := range []struct {
		ws, file, unused, added string
		used                    string
		usedIn                  string // a file the refusal must name
	}{
		{"go", "shape.go", "unusedHelper", "\n// unusedHelper is used nowhere.\nfunc unusedHelper() int {\n\treturn 1\n}\n", "Describe", "report.go"},
		{"ts", "src/shape.ts", "unusedHelper", "\n/** unusedHelper is used nowhere. */\nexport function unusedHelper(): number {\n  return 1;\n}\n", "totalArea", "src/report.ts"},
		{"py", "shapes/base.py", "unused_helper", "\n\n# unused_helper is used nowhere.\ndef unused_helper() -> int:\n    return 1\n", "total_area", "shapes/report.py"},
		{"c", "shape.c", "unused_helper", "\n/* unused_helper is used nowhere. */\nint unused_helper(void) {\n    return 1;\n}\n", "total_area", "main.c"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			if c.ws == "c" {
				freshC.prepare(t, dir)
			}
			path := filepath.Join(dir, c.file)
			orig := string(readFile(t, path))
			if err := os.WriteFile(path, []byte(orig+c.added), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t)
			call := func(symbol, previewID string) (toolCallAnswer, map[string]any) {
				args := map[string]any{"target": map[string]any{"path": c.file, "symbol": symbol}}
				if previewID != "" {
					args["previewId"] = previewID
				}
				raw, _ := json.Marshal(args)
				a := srv.toolCall(t, "code_delete", raw, dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}

			// Used elsewhere: refused, the uses named, nothing written.
			a, s := call(c.used, "")
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "stillReferenced" || !strings.Contains(a.Content[0].Text, c.usedIn+":") {
				t.Errorf("deleting the used %s: %s", c.used, a.Content[0].Text)
			}
			if got := string(readFile(t, path)); got != orig+c.added {
				t.Fatalf("a refused delete changed %s", c.file)
			}

			// Unused: a preview, then applied; the file is as before.
			a, s = call(c.unused, "")
			id, _ := s["previewId"].(string)
			if a.IsError || id == "" || !strings.Contains(a.Content[0].Text, "-"+strings.Split(strings.TrimPrefix(c.added, "\n"), "\n")[0]) {
				t.Fatalf("preview of deleting %s: %s", c.unused, a.Content[0].Text)
			}
			a, s = call(c.unused, id)
			if a.IsError || s["applied"] != true {
				t.Fatalf("applying the delete of %s: %s", c.unused, a.Content[0].Text)
			}
			if got := string(readFile(t, path)); got != orig {
				t.Errorf("after deleting %s, %s holds:\n%s\nwant the fixture's text:\n%s", c.unused, c.file, got, orig)
			}
			srv.shutdown(t)
		})
	}
}

// TestCodeDeleteBuildExcludedUse: gopls searches the files of this
// machine's build, so a use in a file the build excludes is not among its
// references — beside the declaration, or in another package importing
// its package (a tester deleted a function only another package's
// _windows.go file used, and the Windows build broke): the references
// answer says it may be incomplete, naming the file, and code_delete
// refuses (usesUnknown) naming it, writes nothing, and deletes once the
// file no longer names the function. An excluded file of another package
// that names the identifier without importing the package is not named.
func TestCodeDeleteBuildExcludedUse(t *testing.T) {
	requireServers(t, "gopls")
	for _, c := range []struct{ name, file, use, unused string }{
		{"beside", "hidden_other.go",
			"//go:build lspseam_never\n\npackage shapes\n\nvar _ = HiddenHelper()\n",
			"//go:build lspseam_never\n\npackage shapes\n"},
		{"another package", "cmd/shapes/hidden_windows.go",
			"package main\n\nimport \"example.com/shapes\"\n\nvar _ = shapes.HiddenHelper()\n",
			"package main\n\nimport \"example.com/shapes\"\n\nvar _ = shapes.Describe\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, "go")
			path := filepath.Join(dir, "shape.go")
			withHelper := string(readFile(t, path)) + "\n// HiddenHelper is used only where the build does not look.\nfunc HiddenHelper() int {\n\treturn 1\n}\n"
			hidden := filepath.Join(dir, c.file)
			for name, text := range map[string]string{
				path:   withHelper,
				hidden: c.use,
				// Names it, but is another package's own HiddenHelper.
				filepath.Join(dir, "units", "own_windows.go"): "package units\n\nfunc HiddenHelper() int { return 2 }\n",
			} {
				if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			srv := catalogServe(t)
			defer srv.shutdown(t)
			// Its references say they may be incomplete, naming the file.
			refs := srv.toolCall(t, "code_navigate", json.RawMessage(`{"target":{"path":"shape.go","symbol":"HiddenHelper"},"kind":"references"}`), dir)
			var rs map[string]any
			json.Unmarshal(refs.StructuredContent, &rs)
			inc, _ := rs["incomplete"].(string)
			if refs.IsError || !strings.Contains(inc, c.file) || !strings.Contains(refs.Content[0].Text, "Incomplete: ") {
				t.Errorf("references of a function a build-excluded file uses: %s", refs.Content[0].Text)
			}
			if strings.Contains(inc, "own_windows.go") {
				t.Errorf("references name an excluded file that does not import the package: %s", inc)
			}
			del := func() (toolCallAnswer, map[string]any) {
				a := srv.toolCall(t, "code_delete", json.RawMessage(`{"target":{"path":"shape.go","symbol":"HiddenHelper"}}`), dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}
			a, s := del()
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, c.file) {
				t.Fatalf("deleting a function only a build-excluded file uses: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, path)); got != withHelper {
				t.Fatal("a refused delete changed shape.go")
			}
			// Without the use, the same call previews the deletion.
			if err := os.WriteFile(hidden, []byte(c.unused), 0o644); err != nil {
				t.Fatal(err)
			}
			if a, s = del(); a.IsError || s["previewId"] == nil {
				t.Fatalf("deleting it once nothing names it: %s", a.Content[0].Text)
			}
		})
	}
}

// TestCodeDeleteThroughLink: a symbolic link in the workspace to the
// declaration's file makes it another file to pyright and tsserver, whose
// references then miss the uses through the link; code_delete refuses
// (usesUnknown) naming the link and writes nothing, while the same
// function in a file no link reaches is deleted.
func TestCodeDeleteThroughLink(t *testing.T) {
	requireServers(t, "typescript-language-server", "pyright-langserver")
	for _, c := range []struct{ ws, linked, unlinked, link, target, added, symbol string }{
		{"py", "shapes/base.py", "shapes/report.py", "linked.py", "shapes/base.py", "\n\ndef linked_helper() -> int:\n    return 1\n", "linked_helper"},
		{"ts", "src/shape.ts", "src/report.ts", "src/linked.ts", "shape.ts", "\nexport function linkedHelper(): number {\n  return 1;\n}\n", "linkedHelper"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			texts := map[string]string{}
			for _, f := range []string{c.linked, c.unlinked} {
				texts[f] = string(readFile(t, filepath.Join(dir, f))) + c.added
				if err := os.WriteFile(filepath.Join(dir, f), []byte(texts[f]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(c.target, filepath.Join(dir, c.link)); err != nil {
				t.Fatal(err)
			}
			srv := catalogServe(t)
			defer srv.shutdown(t)
			del := func(file string) (toolCallAnswer, map[string]any) {
				args, _ := json.Marshal(map[string]any{"target": map[string]any{"path": file, "symbol": c.symbol}})
				a := srv.toolCall(t, "code_delete", args, dir)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}
			a, s := del(c.linked)
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, c.link) {
				t.Fatalf("deleting a function whose file a link also reaches: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, filepath.Join(dir, c.linked))); got != texts[c.linked] {
				t.Fatalf("a refused delete changed %s", c.linked)
			}
			if a, s = del(c.unlinked); a.IsError || s["previewId"] == nil {
				t.Fatalf("deleting it from %s, which no link reaches: %s", c.unlinked, a.Content[0].Text)
			}
		})
	}
}

// TestCodeDeleteWithoutIndex: clangd without compile_commands.json has no
// index and searches only the files it has opened, so "no use left" from
// its references is no proof. On a copy of the C fixture without one,
// code_delete of a function other files call is refused as usesUnknown
// (not applied, as it was when the search found only the header), saying
// how to make an index; and a references answer says what it covered.
func TestCodeDeleteWithoutIndex(t *testing.T) {
	requireServers(t, "clangd")
	dir := copyFixture(t, "c") // compile_flags.txt, no compile_commands.json
	srv := catalogServe(t)
	defer srv.shutdown(t)
	before := string(readFile(t, filepath.Join(dir, "shape.h")))
	a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "shape.h", "symbol": "total_area"}}), dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "usesUnknown" {
		t.Fatalf("deleting total_area without an index: %s", a.Content[0].Text)
	}
	if !strings.Contains(a.Content[0].Text, "compile_commands.json") {
		t.Errorf("the refusal does not say how to make an index: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "shape.h"))); got != before {
		t.Fatalf("a refused delete changed shape.h")
	}
	a = srv.toolCall(t, "lsp", jsonArgs(map[string]any{"operation": "findReferences", "file_path": "shape.h", "line": 1 + lineOf(t, before, "double total_area("), "character": 8}), dir)
	if a.IsError || !strings.Contains(a.Content[0].Text, "found no compile_commands.json") {
		t.Errorf("references without an index are not marked incomplete: %s", a.Content[0].Text)
	}
}

// lineOf is the zero-based line of the first line of text holding s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	t.Fatalf("%q is not in the text", s)
	return 0
}

// TestCodeDeleteBreaksUse: gopls's references of a method do not include
// the assignment that needs it to satisfy an interface (`var _ kinder =
// myVal{}`), so "no use left" was taken as safe and the method was
// deleted — in preview (with a previewId) and with approval auto — although
// the check of the change showed the compile error it causes. The
// deletion is refused (LSP_CONFLICT, stillReferenced) listing the error,
// whether the assignment is in another file or in the method's own, and
// nothing is written; a deletion whose only new error does not name it
// (the import the deleted function alone used) goes ahead as before.
func TestCodeDeleteBreaksUse(t *testing.T) {
	requireServers(t, "gopls")
	for _, approval := range []string{"preview", "auto"} {
		t.Run(approval, func(t *testing.T) {
			t.Parallel()
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{
				"go.mod":       "module example.com/kinds\n\ngo 1.21\n",
				"myval.go":     "package kinds\n\nimport \"fmt\"\n\ntype myVal struct{}\n\n// Kind names the kind.\nfunc (myVal) Kind() string { return \"k\" }\n\n// Print is used nowhere; fmt is used only here.\nfunc Print() { fmt.Println(\"x\") }\n",
				"myval_use.go": "package kinds\n\ntype kinder interface{ Kind() string }\n\nvar _ kinder = myVal{}\n",
				"own.go":       "package kinds\n\ntype ownVal struct{}\n\n// Name names it.\nfunc (ownVal) Name() string { return \"n\" }\n\ntype namer interface{ Name() string }\n\nvar _ namer = ownVal{}\n",
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(base, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			srv := catalogServe(t, "--approval", approval)
			defer srv.shutdown(t)
			del := func(file, symbol string) (toolCallAnswer, map[string]any) {
				a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": file, "symbol": symbol}}), base)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}
			for _, c := range []struct{ file, symbol, breaks string }{
				{"myval.go", "myVal.Kind", "myval_use.go:5:16"},
				{"own.go", "ownVal.Name", "own.go:10:15"},
			} {
				a, s := del(c.file, c.symbol)
				errObj, _ := s["error"].(map[string]any)
				if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "stillReferenced" || !strings.Contains(a.Content[0].Text, c.breaks) || !strings.Contains(a.Content[0].Text, "missing method") {
					t.Errorf("deleting %s, which an interface assignment needs: %s", c.symbol, a.Content[0].Text)
				}
				if got := string(readFile(t, filepath.Join(base, c.file))); got != files[c.file] {
					t.Fatalf("a refused delete changed %s:\n%s", c.file, got)
				}
			}
			// Deleting Print leaves fmt unused, an error that is not a use
			// of Print: the deletion goes ahead and reports it.
			a, s := del("myval.go", "Print")
			done := s["previewId"] != nil
			if approval == "auto" {
				done = s["applied"] == true
			}
			if a.IsError || !done || !strings.Contains(a.Content[0].Text, "imported and not used") {
				t.Errorf("deleting Print, whose deletion leaves an unused import: %s", a.Content[0].Text)
			}
		})
	}
}

// TestCodeDeleteUncoveredByIndex: a compile_commands.json that does not
// list the workspace's sources gives clangd no index of them either. On a
// copy of the C fixture whose database names another checkout's paths (a
// moved or copied repository), code_delete of report(), which main.c
// calls, is refused as usesUnknown (it was applied: the search found no
// use), and references say which files the database leaves out; with the
// database made for the copy, a new source file it does not list yet is
// named the same way.
func TestCodeDeleteUncoveredByIndex(t *testing.T) {
	requireServers(t, "clangd")
	dir := copyFixture(t, "c")
	if out, err := exec.Command("sh", filepath.Join(dir, "gen-compile-commands.sh")).CombinedOutput(); err != nil {
		t.Fatalf("gen-compile-commands: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "compile_commands.json")
	right := string(readFile(t, db))
	if err := os.WriteFile(db, []byte(strings.ReplaceAll(right, dir, "/elsewhere/c")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	before := string(readFile(t, filepath.Join(dir, "report.c")))
	a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "report.c", "symbol": "report"}}), dir)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, "none of its 8 entries is a file here") {
		t.Fatalf("deleting report, which main.c calls, with another checkout's database: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(dir, "report.c"))); got != before {
		t.Fatalf("a refused delete changed report.c")
	}

	fresh := copyFixture(t, "c")
	if out, err := exec.Command("sh", filepath.Join(fresh, "gen-compile-commands.sh")).CombinedOutput(); err != nil {
		t.Fatalf("gen-compile-commands: %v\n%s", err, out)
	}
	refs := jsonArgs(map[string]any{"target": map[string]any{"path": "shape.h", "symbol": "total_area"}, "kind": "references"})
	if a := srv.toolCall(t, "code_navigate", refs, fresh); a.IsError || incomplete(a.StructuredContent) != "" {
		t.Fatalf("references with the copy's own database: %s", a.Content[0].Text)
	}
	added := copyFixture(t, "c")
	if out, err := exec.Command("sh", filepath.Join(added, "gen-compile-commands.sh")).CombinedOutput(); err != nil {
		t.Fatalf("gen-compile-commands: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(added, "zoom.c"), []byte("#include \"shape.h\"\n\ndouble zoomed(const shape *all, size_t n) { return 2 * total_area(all, n); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := srv.toolCall(t, "code_navigate", refs, added); a.IsError || !strings.Contains(incomplete(a.StructuredContent), "no entry for 1 C/C++ source file of the workspace (such as zoom.c)") {
		t.Errorf("references with zoom.c, which the database does not list: %s", a.Content[0].Text)
	}
}

// TestCodeDeleteDynamicUses: pyright's references of a method do not
// include a call on a value of unknown type (`c.total()` with `c` an
// untyped parameter), so code_delete deleted a method still called (a
// tester's finding). Lines of the language's files naming the identifier
// outside the references make it refuse (usesUnknown), naming them; a
// same-named function declared in another module is not a use, and a
// name no other line holds is deleted.
func TestCodeDeleteDynamicUses(t *testing.T) {
	requireServers(t, "pyright-langserver")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"pyproject.toml": "[project]\nname = \"shop\"\nversion = \"0\"\n",
		"shop.py":        "class Cart:\n    def total(self) -> int:\n        return 1\n\n    def unused_helper(self) -> int:\n        return 2\n",
		"use.py":         "def show(c):\n    return c.total()\n",
		"other.py":       "def unused_helper() -> int:\n    return 3\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(base, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	del := func(symbol string) (toolCallAnswer, map[string]any) {
		a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "shop.py", "symbol": symbol}}), base)
		var s map[string]any
		json.Unmarshal(a.StructuredContent, &s)
		return a, s
	}
	a, s := del("Cart.total")
	errObj, _ := s["error"].(map[string]any)
	if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, "use.py:2") {
		t.Fatalf("deleting a method called on an untyped value: %s", a.Content[0].Text)
	}
	if got := string(readFile(t, filepath.Join(base, "shop.py"))); got != files["shop.py"] {
		t.Fatal("a refused delete changed shop.py")
	}
	if a, s = del("Cart.unused_helper"); a.IsError || s["previewId"] == nil {
		t.Fatalf("deleting a method whose name only another module's function declares: %s", a.Content[0].Text)
	}
}

// TestLinkChecksWithEveryPathForm: the checks for uses through a
// symbolic link key on the target's path, so they held for pkg/val.go
// but not for the same file named by its absolute path, which deleted
// `Val` under auto approval while cmd2 still called it through pkglink
// ("0 introduced"; go build failed), and gave references and callers no
// Incomplete line. Every form of the path — relative, ./x, x/../x,
// absolute, absolute through a symbolic link to the workspace, and the
// workspace itself given through that link — is refused alike (gopls).
func TestLinkChecksWithEveryPathForm(t *testing.T) {
	requireServers(t, "gopls")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, alias := filepath.Join(base, "ws"), filepath.Join(base, "alias")
	val := "package pkg\n\n// Val doc.\nfunc Val() int { return 1 }\n"
	writeTree(t, dir, map[string]string{
		"go.mod":       "module example.com/g3\n\ngo 1.21\n",
		"pkg/val.go":   val,
		"cmd2/main.go": "package main\n\nimport pl \"example.com/g3/pkglink\"\n\nfunc main() { println(pl.Val()) }\n",
	})
	for link, to := range map[string]string{filepath.Join(dir, "pkglink"): "pkg", alias: dir} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	for _, c := range []struct{ name, ws, path string }{
		{"relative", dir, "pkg/val.go"},
		{"dot", dir, "./pkg/val.go"},
		{"dotdot", dir, "pkg/../pkg/val.go"},
		{"absolute", dir, filepath.Join(dir, "pkg/val.go")},
		{"absolute through a link to the workspace", dir, filepath.Join(alias, "pkg/val.go")},
		{"workspace through a link, real absolute path", alias, filepath.Join(dir, "pkg/val.go")},
		{"workspace through a link, absolute path through it", alias, filepath.Join(alias, "pkg/val.go")},
	} {
		t.Run(c.name, func(t *testing.T) {
			call := func(tool string, extra map[string]any) (toolCallAnswer, map[string]any) {
				t.Helper()
				args := map[string]any{"target": map[string]any{"path": c.path, "symbol": "Val"}}
				for k, v := range extra {
					args[k] = v
				}
				a := srv.toolCall(t, tool, jsonArgs(args), c.ws)
				var s map[string]any
				json.Unmarshal(a.StructuredContent, &s)
				return a, s
			}
			a, s := call("code_delete", nil)
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["code"] != "LSP_CONFLICT" || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, "pkglink") {
				t.Errorf("code_delete of Val, used through pkglink: %s", a.Content[0].Text)
			}
			if got := string(readFile(t, filepath.Join(dir, "pkg/val.go"))); got != val {
				writeTree(t, dir, map[string]string{"pkg/val.go": val})
				t.Errorf("code_delete changed pkg/val.go to %q", got)
			}
			for _, q := range []struct{ tool, kind string }{{"code_navigate", "references"}, {"code_hierarchy", "callers"}} {
				a, s := call(q.tool, map[string]any{"kind": q.kind})
				inc, _ := s["incomplete"].(string)
				if a.IsError || !strings.Contains(inc, "symbolic link pkglink") {
					t.Errorf("%s %s: incomplete = %q: %s", q.tool, q.kind, inc, a.Content[0].Text)
				}
			}
		})
	}
}
