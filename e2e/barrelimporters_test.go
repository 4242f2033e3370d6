package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// barrelTSConfig is a project with the `@/` path alias React apps use.
const barrelTSConfig = `{
  "compilerOptions": {
    "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler",
    "strict": true, "noEmit": true, "skipLibCheck": true,
    "baseUrl": ".", "paths": {"@/*": ["src/*"]}
  },
  "include": ["src"]
}
`

// TestImpactBarrelReexportRemoved: an edit of a barrel (index.ts) that
// removes an `export * from` line, or narrows an `export { … } from`
// list, declares nothing the outline lists and touches no declaration
// the importers use, yet breaks every file importing a name it no longer
// re-exports (TS2305). The edit's answer checks the barrel's importers
// that spell such a name — through a path alias, a relative path, and a
// barrel that `export *`s it — and names their new problems at their
// one-based positions; undone, resolved (bindings/go/toolbox/
// barrelimporters.go). A tester's removal of a React app's re-export
// answered "Other files: none refer to what changed" while 26 files broke.
func TestImpactBarrelReexportRemoved(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{
		"package.json":  "{\"name\": \"barrels\", \"private\": true, \"type\": \"module\"}\n",
		"tsconfig.json": barrelTSConfig,
		"src/components/layouts/dashboard-layout.ts": "export function DashboardLayout(title: string): string {\n  return title;\n}\n",
		"src/components/layouts/content-layout.ts":   "export function ContentLayout(title: string): string {\n  return title;\n}\n",
		"src/components/layouts/index.ts":            "export * from './content-layout';\nexport * from './dashboard-layout';\n",
		"src/components/index.ts":                    "export * from './layouts';\nexport { Button, Spinner } from './ui/button';\n",
		"src/components/ui/button.ts":                "export const Button = 'button';\nexport const Spinner = 'spinner';\n",
		"src/app/root.ts":                            "import { DashboardLayout } from '@/components/layouts';\n\nexport const root = DashboardLayout('root');\n",
		"src/app/admin.ts":                           "import { ContentLayout, DashboardLayout } from '../components/layouts';\n\nexport const admin = ContentLayout(DashboardLayout('admin'));\n",
		"src/app/deep.ts":                            "import type {} from './root';\nimport {\n  Spinner,\n  DashboardLayout,\n} from '@/components';\n\nexport const deep = DashboardLayout(Spinner);\n",
		"src/app/content.ts":                         "import { ContentLayout } from '@/components/layouts';\n\nexport const content = ContentLayout('content');\n",
	})
	srv := catalogServe(t)
	defer srv.shutdown(t)
	for _, c := range []struct {
		name, file string
		change     verifyEdit
		want       []verifyProblem // the other files' new problems: path, one-based line and column, code
	}{
		{"export * removed", "src/components/layouts/index.ts",
			verifyEdit{"export * from './content-layout';\nexport * from './dashboard-layout';\n", "export * from './content-layout';\n"},
			[]verifyProblem{{Path: "src/app/admin.ts", Line: 1, Column: 25, Code: "2305"}, {Path: "src/app/deep.ts", Line: 4, Column: 3, Code: "2305"}, {Path: "src/app/root.ts", Line: 1, Column: 10, Code: "2305"}}},
		{"export list narrowed", "src/components/index.ts",
			verifyEdit{"export { Button, Spinner } from './ui/button';", "export { Button } from './ui/button';"},
			[]verifyProblem{{Path: "src/app/deep.ts", Line: 3, Column: 3, Code: "2305"}}},
	} {
		if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
			t.Fatalf("read: %s", a.StructuredContent)
		}
		for _, back := range []bool{false, true} {
			what := c.name
			if back {
				what += ", undone"
			}
			a := srv.toolCall(t, "edit", editArgs(c.file, c.change, back), dir)
			t.Logf("%s:\n%s", what, a.Content[0].Text)
			o := othersOf(t, what, a)
			var got []verifyProblem
			for _, f := range o.Files {
				list := f.Introduced
				if back {
					list = f.Resolved
				}
				for _, p := range list {
					got = append(got, verifyProblem{Path: f.Path, Line: p.Line, Column: p.Column, Code: strings.TrimPrefix(p.Code, "TS")})
				}
			}
			slices.SortFunc(got, func(a, b verifyProblem) int { return strings.Compare(a.Path, b.Path) })
			if !slices.Equal(got, c.want) || len(o.Stale) > 0 {
				t.Errorf("%s: other files' problems %+v (stale %v); want %+v", what, got, o.Stale, c.want)
			}
			if strings.Contains(a.Content[0].Text, "none refer to what changed") {
				t.Errorf("%s: says no other file refers to what changed", what)
			}
		}
	}
}

// TestRenameFileOutsideProjectImporters: tsserver's willRenameFiles
// updates the importers its tsconfig.json project holds; files outside it
// that import the moved file by a relative path are left naming the old
// path. The preview and the applied answer name them, with their lines,
// as not updated, and what to do (bindings/go/toolbox/movedimporters.go);
// a tester's move answered "3 edits in 3 files" and "may have missed
// files" while two e2e tests no longer compiled.
func TestRenameFileOutsideProjectImporters(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{
		"package.json":                   "{\"name\": \"moves\", \"private\": true, \"type\": \"module\"}\n",
		"tsconfig.json":                  barrelTSConfig,
		"src/testing/data-generators.ts": "export function createUser(name: string): { name: string } {\n  return { name };\n}\n",
		"src/testing/test-utils.ts":      "import { createUser } from './data-generators';\n\nexport const admin = createUser('admin');\n",
		"e2e/tests/auth.setup.ts":        "// Signs a user in.\nimport { createUser } from '../../src/testing/data-generators';\n\nexport const user = createUser('e2e');\n",
		"e2e/tests/smoke.spec.ts":        "// Smoke.\n\nimport { createUser } from \"../../src/testing/data-generators\";\n\nexport const smoke = createUser('smoke');\n",
	})
	srv := catalogServe(t)
	defer srv.shutdown(t)
	args := map[string]any{"path": "src/testing/data-generators.ts", "newPath": "src/testing/gen/data-generators.ts"}
	const named = `2 files import src/testing/data-generators.ts by a relative path the move does not update (outside what the server updates), and will not find it at src/testing/gen/data-generators.ts: e2e/tests/auth.setup.ts:2 ("../../src/testing/data-generators"), e2e/tests/smoke.spec.ts:3 ("../../src/testing/data-generators"); update those imports (edit) to the new path`
	a, s := refactorCall(t, srv, dir, "code_rename_file", args)
	t.Logf("preview:\n%s", a.Content[0].Text)
	if a.IsError || s["previewId"] == nil || !strings.Contains(a.Content[0].Text, named) {
		t.Errorf("the preview does not name the importers left with the old path (want %q)", named)
	}
	a, s = refactorCall(t, srv, dir, "code_rename_file", with(args, "previewId", s["previewId"]))
	t.Logf("apply:\n%s", a.Content[0].Text)
	if a.IsError || s["applied"] != true || !strings.Contains(a.Content[0].Text, named) {
		t.Errorf("the applied answer does not name the importers left with the old path (want %q)", named)
	}
	if got := string(readFile(t, filepath.Join(dir, "src/testing/test-utils.ts"))); !strings.Contains(got, "'./gen/data-generators'") {
		t.Errorf("the importer in the project was not updated:\n%s", got)
	}
}
