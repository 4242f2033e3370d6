package core

import (
	"slices"
	"testing"
)

func TestAddedDeclarations(t *testing.T) {
	for _, tt := range []struct {
		name, path, before, after string
		want                      []string
	}{
		{"go function appended", "cobra.go", "package cobra\n\nfunc Gt(a, b int) bool { return a > b }\n",
			"package cobra\n\nfunc Gt(a, b int) bool { return a > b }\n\nfunc stripFlags(args []string, c *Command) []string { return args }\n", []string{"stripFlags"}},
		{"go method, generic function, specs", "a.go", "package a\n",
			"package a\n\nfunc (c *Command) Flags() int { return 0 }\nfunc Map[T any](x T) T { return x }\ntype Shape interface{}\nvar a, b = 1, 2\nconst Max = 3\nvar _ = Max\nfunc init() {}\n",
			[]string{"Flags", "Map", "Shape", "a", "b", "Max"}},
		{"go groups", "a.go", "package a\n\nconst (\n\tOld = 1\n)\n",
			"package a\n\nconst (\n\tOld = 1\n\tNew, Newer = 2, 3 // both\n)\n\nvar ( // vars\n\tx int\n)\n\nfunc f() {\n\tvar local int\n}\n", []string{"New", "Newer", "x", "f"}},
		{"go body edit adds nothing", "a.go", "package a\n\nfunc f() {\n}\n", "package a\n\nfunc f() {\n\tvar y = 1\n\t_ = y\n}\n", nil},
		{"go rename gives the new name", "a.go", "package a\n\ntype Old struct{}\n", "package a\n\ntype New struct{}\n", []string{"New"}},
		{"ts exports", "parse.ts", "import type * as schemas from \"./schemas.js\";\n",
			"import type * as schemas from \"./schemas.js\";\n\nexport function clone(x: unknown): unknown {\n  return x;\n}\nexport const NEVER = 1;\nexport default function main() {}\nexport declare abstract class Base {}\nexport async function* gen() {}\nfunction hidden() {}\nexport * as util from \"./util.js\";\n",
			[]string{"clone", "NEVER", "Base", "gen", "util"}},
		{"ts export lists", "index.ts", "export { a } from \"./a\";\n",
			"export { a } from \"./a\";\nexport { b as c, type T, d as default } from \"./b\";\nexport {\n  e, // the e\n  f as g,\n};\n",
			[]string{"c", "T", "e", "g"}},
		{"js", "units.mjs", "", "export let count = 0;\n", []string{"count"}},
		{"other languages: none", "app.py", "", "def f():\n    pass\n", nil},
		{"unchanged", "a.ts", "export const a = 1;\n", "export const a = 2;\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := AddedDeclarations(tt.path, SplitLines(tt.before), SplitLines(tt.after))
			if !slices.Equal(got, tt.want) {
				t.Errorf("AddedDeclarations = %q, want %q", got, tt.want)
			}
		})
	}
}
