package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Code a project reads from outside its workspace (a Go module's replace
// directory, a TypeScript import leaving the root, a package linked into
// node_modules) changes on disk while the server runs: the next answer
// follows it. Before, the watcher covered only the workspace, and
// code_diagnostics said "No problems … (fresh)" while go build and tsc
// failed (findings-multi.md, 2).

// diagnosticsText is code_diagnostics' text for rel in ws.
func diagnosticsText(t *testing.T, srv *serveClient, ws, rel string) string {
	t.Helper()
	a := srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": rel}), ws)
	if a.IsError {
		t.Fatalf("code_diagnostics %s: %s", rel, a.Content[0].Text)
	}
	return a.Content[0].Text
}

// outsideAnswerFollows checks an answer after a change outside the
// workspace: it reports want, or says it may not reflect the directory.
func outsideAnswerFollows(t *testing.T, text, want, outsideDir string) {
	t.Helper()
	if strings.Contains(text, want) {
		return
	}
	if strings.Contains(text, outsideDir) && strings.Contains(text, "may not reflect") {
		return
	}
	t.Errorf("after a change outside the workspace (%s) the answer neither reports %q nor says it may be stale:\n%s", outsideDir, want, text)
}

func TestOutsideGoReplace(t *testing.T) {
	requireServers(t, "gopls")
	tmp := t.TempDir()
	ws, lib := filepath.Join(tmp, "app"), filepath.Join(tmp, "lib")
	writeTree(t, lib, map[string]string{
		"go.mod": "module example.com/lib\n\ngo 1.21\n",
		"lib.go": "package lib\n\nfunc Hello(name string) string { return name }\n",
	})
	writeTree(t, ws, map[string]string{
		"go.mod":  "module example.com/app\n\ngo 1.21\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"main.go": "package main\n\nimport \"example.com/lib\"\n\nfunc main() { println(lib.Hello(\"x\")) }\n",
	})
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if text := diagnosticsText(t, srv, ws, "main.go"); !strings.Contains(text, "No problems in main.go (fresh") {
		t.Fatalf("before the change: %s", text)
	}
	writeTree(t, lib, map[string]string{"lib.go": "package lib\n\nfunc Hello(name string, n int) string { return name }\n"})
	outsideAnswerFollows(t, diagnosticsText(t, srv, ws, "main.go"), "not enough arguments in call to lib.Hello", lib)
}

func TestOutsideTypeScript(t *testing.T) {
	requireServers(t, "typescript-language-server")
	tmp := t.TempDir()
	ws, shared, linked := filepath.Join(tmp, "ws"), filepath.Join(tmp, "common"), filepath.Join(tmp, "linked")
	writeTree(t, shared, map[string]string{"x.ts": "export function outA(n: number): number { return n; }\n"})
	writeTree(t, linked, map[string]string{
		"package.json": `{"name":"linkedlib","types":"index.d.ts"}` + "\n",
		"index.d.ts":   "export declare function linkA(n: number): number;\n",
	})
	writeTree(t, ws, map[string]string{
		"package.json":  `{"name":"ws"}` + "\n",
		"tsconfig.json": `{"compilerOptions":{"strict":true,"target":"es2020","module":"esnext","moduleResolution":"bundler","noEmit":true,"allowImportingTsExtensions":true},"include":["src"]}` + "\n",
		"src/a.ts":      "import { outA } from \"../../common/x.ts\";\nexport const v: number = outA(1);\n",
		"src/b.ts":      "import { linkA } from \"linkedlib\";\nexport const w: number = linkA(1);\n",
	})
	if err := os.MkdirAll(filepath.Join(ws, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../linked", filepath.Join(ws, "node_modules", "linkedlib")); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	t.Run("relative import", func(t *testing.T) {
		// The first change after the server read x.ts, with no query in
		// between: tsserver registers a watcher for x.ts only as it reads
		// it (during this first answer), and the change must not fall
		// between that read and the moment lspseam watches the directory
		// (before, the directory was watched only from the next query's
		// barrier, so this change went unseen and the answer said
		// "fresh"; findings-v24.md, 1).
		if text := diagnosticsText(t, srv, ws, "src/a.ts"); !strings.Contains(text, "No problems in src/a.ts (fresh") {
			t.Fatalf("before the change: %s", text)
		}
		writeTree(t, shared, map[string]string{"x.ts": "export function outA(n: number): string { return String(n); }\n"})
		outsideAnswerFollows(t, diagnosticsText(t, srv, ws, "src/a.ts"), "is not assignable to type 'number'", shared)
		writeTree(t, shared, map[string]string{"x.ts": "export function outC(n: number): number { return n; }\n"})
		outsideAnswerFollows(t, diagnosticsText(t, srv, ws, "src/a.ts"), "has no exported member", shared)
	})
	t.Run("linked package", func(t *testing.T) {
		if text := diagnosticsText(t, srv, ws, "src/b.ts"); !strings.Contains(text, "No problems in src/b.ts (fresh") {
			t.Fatalf("before the change: %s", text)
		}
		writeTree(t, linked, map[string]string{"index.d.ts": "export declare function linkB(n: number): number;\n"})
		outsideAnswerFollows(t, diagnosticsText(t, srv, ws, "src/b.ts"), "has no exported member", linked)
	})
}
