package toolbox

import (
	"reflect"
	"testing"
)

func TestRemovedReexports(t *testing.T) {
	for _, c := range []struct {
		name, before, after string
		stars, names        []string
	}{
		{"a star removed", "export * from './a';\nexport * from './b';\n", "export * from './b';\n", []string{"./a"}, nil},
		{"a star commented out", "export * from './button';\n", "// moved\n", []string{"./button"}, nil},
		{"a named list narrowed", "export { A, B as C, type D } from './x';\n", "export { A } from './x';\n", nil, []string{"C", "D"}},
		{"a multi-line list, whitespace aside", "export {\n  A,\n  B,\n} from \"./x\";\n", "export { A, B, } from \"./x\";\n", nil, nil},
		{"a namespace re-export removed", "export * as icons from './icons';\n", "", nil, []string{"icons"}},
		{"a name moved to another statement", "export { A } from './x';\n", "export { A } from './y';\n", nil, nil},
		{"nothing removed", "export * from './a';\nexport const x = 1;\n", "export * from './a';\nexport const x = 2;\n", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			stars, names := removedReexports(c.before, c.after)
			if !reflect.DeepEqual(stars, c.stars) || !reflect.DeepEqual(names, c.names) {
				t.Errorf("removedReexports = %q, %q; want %q, %q", stars, names, c.stars, c.names)
			}
		})
	}
}

func TestModuleExports(t *testing.T) {
	for _, c := range []struct {
		name, text string
		names      []string
		complete   bool
	}{
		{"declarations and a list", "export const A = 1;\nexport function B() {}\nexport default function C() {}\nexport type D = string;\nconst e = 1;\nexport { e as E };\n", []string{"A", "B", "D", "E"}, true},
		{"a star re-export", "export const A = 1;\nexport * from './b';\n", nil, false},
		{"a destructuring", "export const { useUser, useLogout } = configureAuth();\n", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			names, complete := moduleExports(c.text)
			if !reflect.DeepEqual(names, c.names) || complete != c.complete {
				t.Errorf("moduleExports = %q, %v; want %q, %v", names, complete, c.names, c.complete)
			}
		})
	}
}

func TestBarrelImporters(t *testing.T) {
	texts := map[string]string{
		"src/components/layouts/index.ts":             "export * from './content-layout';\n",
		"src/components/layouts/dashboard-layout.tsx": "export const DashboardLayout = () => null;\n",
		"src/components/index.ts":                     "export * from './layouts';\n",
		"src/app/root.tsx":                            "import { DashboardLayout } from '@/components/layouts';\n",
		"src/app/other.tsx":                           "import { ContentLayout } from '@/components/layouts';\n",
		"src/app/deep.tsx":                            "import {\n  DashboardLayout,\n} from '../components';\n",
		"src/app/star.tsx":                            "import * as L from \"../components/layouts/index\";\nL.DashboardLayout;\n",
		"src/app/unrelated.tsx":                       "import { DashboardLayout } from '@/other/layouts';\n",
	}
	barrel := "src/components/layouts/index.ts"
	names := removedNames(texts, barrel, []string{"./dashboard-layout"}, nil)
	if !reflect.DeepEqual(names, []string{"DashboardLayout"}) {
		t.Fatalf("removedNames = %q", names)
	}
	got := barrelImporters(texts, barrel, names, map[string]bool{barrel: true})
	want := []string{"src/app/root.tsx", "src/app/star.tsx", "src/app/deep.tsx"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("barrelImporters = %q; want %q", got, want)
	}
	// Names that cannot be told: every importer.
	got = barrelImporters(texts, barrel, nil, map[string]bool{barrel: true})
	want = []string{"src/app/other.tsx", "src/app/root.tsx", "src/app/star.tsx", "src/app/deep.tsx"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("barrelImporters (any name) = %q; want %q", got, want)
	}
	if names := removedNames(texts, barrel, []string{"some-package"}, nil); names != nil {
		t.Errorf("removedNames of a package's module = %q; want nil (every importer)", names)
	}
}

func TestStaleImports(t *testing.T) {
	texts := map[string]string{
		"src/testing/data-generators.ts": "export const createUser = () => ({});\n",
		"src/testing/test-utils.tsx":     "import { createUser } from './data-generators';\n",
		"e2e/tests/auth.setup.ts":        "import { test } from '@playwright/test';\nimport { createUser } from '../../src/testing/data-generators';\n",
		"e2e/tests/smoke.spec.ts":        "// smoke\n\n\n\n\nimport { createUser } from \"../../src/testing/data-generators.js\";\n",
		"e2e/tests/alias.spec.ts":        "import { createUser } from '@/testing/data-generators';\n",
		"e2e/tests/other.spec.ts":        "import { x } from '../../src/testing/other';\n",
	}
	got := staleImports(texts, "src/testing/data-generators.ts", "src/testing/gen/data-generators.ts", map[string]bool{"src/testing/test-utils.tsx": true})
	want := []staleImport{{"e2e/tests/auth.setup.ts", 2, "../../src/testing/data-generators"}, {"e2e/tests/smoke.spec.ts", 6, "../../src/testing/data-generators.js"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("staleImports = %+v; want %+v", got, want)
	}
	notice := staleImportsNotice("src/testing/data-generators.ts", "src/testing/gen/data-generators.ts", got)
	const wantNotice = `2 files import src/testing/data-generators.ts by a relative path the move does not update (outside what the server updates), and will not find it at src/testing/gen/data-generators.ts: e2e/tests/auth.setup.ts:2 ("../../src/testing/data-generators"), e2e/tests/smoke.spec.ts:6 ("../../src/testing/data-generators.js"); update those imports (edit) to the new path`
	if one := staleImportsNotice("a.ts", "b/a.ts", got[:1]); one != `1 file imports a.ts by a relative path the move does not update (outside what the server updates), and will not find it at b/a.ts: e2e/tests/auth.setup.ts:2 ("../../src/testing/data-generators"); update that import (edit) to the new path` {
		t.Errorf("notice of one import: %s", one)
	}
	if notice != wantNotice {
		t.Errorf("notice:\n got %s\nwant %s", notice, wantNotice)
	}
	if staleImportsNotice("a.ts", "b.ts", nil) != "" {
		t.Error("a notice with no stale imports")
	}
}
