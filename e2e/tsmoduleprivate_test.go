package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeScriptModulePrivateSearch: in a monorepo-like workspace (a root
// tsconfig.json and a package's own, a script outside the package's
// project that imports its file, an MDX page), tsserver searches the
// package's project only, and lspseam says so — but not of a name the
// module does not export, which no other file can import: code_delete
// deletes such an unused function, references and renames of such a name
// carry no caveat, while an exported unused function is still refused for
// the files outside the project. (colinhacks/zod: code_delete of a
// non-exported function tsserver itself reported unused, TS6133, was
// refused because "55 files … outside packages/zod/tsconfig.json's
// project … may import this file".)
func TestTypeScriptModulePrivateSearch(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tsconfig := "{\n  \"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"commonjs\", \"noEmit\": true},\n  \"include\": [%q]\n}\n"
	util := "packages/lib/src/util.ts"
	writeTree(t, dir, map[string]string{
		"package.json":               "{\"name\": \"mono\", \"private\": true}\n",
		"tsconfig.json":              strings.Replace(tsconfig, "%q", `"**/*.ts"`, 1),
		"packages/lib/package.json":  "{\"name\": \"lib\", \"private\": true}\n",
		"packages/lib/tsconfig.json": strings.Replace(tsconfig, "%q", `"src"`, 1),
		util: "export function twice(x: number): number {\n  return double(x);\n}\n\n" +
			"function double(x: number): number {\n  return x * 2;\n}\n\n" +
			"function localHelper(x: number): number {\n  return x * 3;\n}\n\n" +
			"export function exportedHelper(x: number): number {\n  return x * 4;\n}\n",
		"packages/lib/src/index.ts": "import { twice } from \"./util\";\n\nexport const four = twice(2);\n",
		"scripts/check.ts":          "import { twice } from \"../packages/lib/src/util\";\n\nconsole.log(twice(1));\n",
		"docs/guide.mdx":            "import { twice } from \"../packages/lib/src/util\";\n\n# Guide {twice(3)}\n",
	})
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	target := func(symbol string) map[string]any { return map[string]any{"path": util, "symbol": symbol} }
	const caveat = "outside packages/lib/tsconfig.json's project"

	// Exported: the files outside the project may use it, so the
	// answers say so, and an unused one is not deleted.
	a := srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"kind": "references", "target": target("twice")}), dir)
	if text := a.Content[0].Text; a.IsError || (!strings.Contains(text, "scripts/check.ts") && !strings.Contains(text, caveat)) {
		t.Errorf("references of an exported function neither find scripts/check.ts nor say it was not searched:\n%s", text)
	}
	a = srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": target("exportedHelper")}), dir)
	t.Logf("code_delete exportedHelper:\n%s", a.Content[0].Text)
	if !a.IsError || !strings.Contains(a.Content[0].Text, caveat) {
		t.Errorf("code_delete of an exported function is not refused for the files outside the project:\n%s", a.Content[0].Text)
	}
	if !strings.Contains(string(readFile(t, filepath.Join(dir, util))), "function exportedHelper") {
		t.Errorf("code_delete deleted an exported function the files outside the project may use")
	}

	// Module-private: every use is in util.ts.
	a = srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"kind": "references", "target": target("double")}), dir)
	t.Logf("references of double:\n%s", a.Content[0].Text)
	if text := a.Content[0].Text; a.IsError || !strings.Contains(text, "2 locations") || strings.Contains(text, "Incomplete") {
		t.Errorf("references of a module-private function are not its 2 locations, unmarked:\n%s", text)
	}
	a = srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": target("localHelper")}), dir)
	t.Logf("code_delete localHelper:\n%s", a.Content[0].Text)
	if a.IsError {
		t.Errorf("code_delete of an unused module-private function is refused:\n%s", a.Content[0].Text)
	}
	if strings.Contains(string(readFile(t, filepath.Join(dir, util))), "function localHelper") {
		t.Errorf("code_delete left the unused module-private function in place")
	}
	a = srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": target("double"), "newName": "doubled"}), dir)
	t.Logf("code_rename double:\n%s", a.Content[0].Text)
	if text := a.Content[0].Text; a.IsError || strings.Contains(text, "the rename may have missed uses") {
		t.Errorf("a rename of a module-private function says it may have missed uses elsewhere:\n%s", text)
	}
	if got := string(readFile(t, filepath.Join(dir, util))); strings.Count(got, "doubled(") != 2 {
		t.Errorf("the rename did not rename both places of double:\n%s", got)
	}
}
