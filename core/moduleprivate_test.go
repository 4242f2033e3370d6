package core

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// atMarker removes the first ‸ of text and returns the text and the
// position (zero-based line, UTF-16 column) it marked.
func atMarker(t *testing.T, text string) (string, Position) {
	t.Helper()
	i := strings.Index(text, "‸")
	if i < 0 {
		t.Fatal("the case's text has no ‸")
	}
	before := text[:i]
	line := strings.Count(before, "\n")
	col := before[strings.LastIndexByte(before, '\n')+1:]
	return before + text[i+len("‸"):], Position{Line: uint32(line), Character: uint32(len(utf16.Encode([]rune(col))))}
}

func TestModulePrivate(t *testing.T) {
	const imp = "import { z } from \"./z\";\n"
	for _, tt := range []struct {
		name, path, text string
		want             bool
	}{
		// Private: a module's top-level declaration it does not export.
		{"zod's unused helper", "packages/zod/src/v4/core/util.ts", imp + "export function used() {}\n\nfunction ‸localHelper(x: number): number {\n  return x * 2;\n}\n", true},
		{"used by an exported function", "u.ts", imp + "function ‸helper() { return 1 }\nexport function f() { return helper() + 1 }\n", true},
		{"const", "u.ts", "export const a = 1;\nconst ‸b = /[}]/g, c = 2;\n", true},
		{"class, interface, type, enum, namespace", "u.ts", "export {};\nclass ‸C {}\n", true},
		{"interface", "u.ts", "export {};\ninterface ‸I { a: number }\n", true},
		{"type alias", "u.ts", "export {};\ntype ‸T<X> = X[];\n", true},
		{"const enum", "u.ts", "export {};\nconst enum ‸E { A }\n", true},
		{"namespace", "u.ts", "export {};\nnamespace ‸N { export const x = 1 }\n", true},
		{"declare", "u.ts", "export {};\ndeclare function ‸f(): void;\n", true},
		{"async generator", "u.ts", imp + "async function* ‸gen() {}\n", true},
		{"named function expression", "u.ts", imp + "export const x = function ‸inner() {};\n", true},
		{"an .mts file is a module", "u.mts", "function ‸f() {}\n", true},
		{"JavaScript module", "u.mjs", "function ‸f() {}\nexport const g = () => f();\n", true},
		{"JavaScript with import", "u.js", "import fs from \"fs\";\nfunction ‸f() {}\n", true},
		{"a cursor inside the name", "u.ts", imp + "function local‸Helper() {}\n", true},
		{"private #name of an exported class", "u.ts", "export class A {\n  ‸#count = 0;\n  inc() { this.#count++ }\n}\n", true},
		{"templates, comments, regexes, strings", "u.ts", imp + "const s = `a ${`b ${ {x: 1}.x }`} }`; // }\n/* { */ const r = /\\/{/; const q = '{\"';\nfunction ‸f() { return s + r + q }\n", true},
		{"tsx with closing tags", "c.tsx", imp + "function ‸Label() { return <b>{1}</b> }\nexport const A = () => <div><Label /></div>;\n", true},
		{"CRLF and wide characters", "u.ts", "export {};\r\nconst 🚀 = 1; const ‸f = '🚀';\r\n", true},
		{"module.exports a property elsewhere", "u.ts", imp + "const pkg = { exports: {} };\nconsole.log(pkg.exports);\nfunction ‸f() {}\n", true},

		// Not private: exported, one way or another.
		{"export function", "u.ts", imp + "export function ‸f() {}\n", false},
		{"export default function", "u.ts", imp + "export default function ‸f() {}\n", false},
		{"export declare const enum", "u.ts", imp + "export declare const enum ‸E { A }\n", false},
		{"export list", "u.ts", imp + "function ‸f() {}\nexport { f };\n", false},
		{"export list, renamed", "u.ts", imp + "function ‸f() {}\nexport {\n  g,\n  f as h,\n};\nconst g = 1;\n", false},
		{"export type list", "u.ts", imp + "type ‸T = number;\nexport type { T };\n", false},
		{"export default name", "u.ts", imp + "function ‸f() {}\nexport default f;\n", false},
		{"export =", "u.ts", "function ‸f() {}\nexport = f;\n", false},
		{"export import", "u.ts", "namespace ‸N { export const x = 1 }\nexport import M = N;\n", false},
		{"shorthand in an exported object", "u.ts", imp + "function ‸f() {}\nexport default { f, g: 1 };\n", false},
		{"an exported overload", "u.ts", imp + "export function f(a: string): void;\nfunction ‸f(a: any) {}\n", false},
		{"CommonJS module.exports", "u.js", "import x from \"x\";\nfunction ‸f() {}\nmodule.exports = { f };\n", false},
		{"CommonJS exports.name", "u.js", "import x from \"x\";\nfunction ‸f() {}\nexports.g = f;\n", false},

		// Not private: global, nested, a member, an import, a use.
		{"a script is global", "u.ts", "function ‸f() {}\n", false},
		{"a CommonJS script", "u.js", "function ‸f() {}\nmodule.exports = f;\n", false},
		{"dynamic import makes no module", "u.ts", "function ‸f() { return import(\"./x\") }\n", false},
		{"declare global", "u.ts", imp + "declare global {\n  function ‸f(): void;\n}\n", false},
		{"a namespace's member", "u.ts", imp + "namespace N {\n  function ‸f() {}\n}\n", false},
		{"a method of a private class", "u.ts", imp + "class C {\n  ‸m() {}\n}\nexport const make = () => new C();\n", false},
		{"a TypeScript private member", "u.ts", imp + "export class C {\n  private ‸m() {}\n}\n", false},
		{"a local of a function", "u.ts", imp + "function f() {\n  const ‸x = 1;\n}\n", false},
		{"an import", "u.ts", "import type ‸T from \"./t\";\nexport {};\n", false},
		{"an import specifier", "u.ts", "import { ‸z } from \"./z\";\n", false},
		{"a use, not the declaration", "u.ts", imp + "function f() {}\nf‸();\n", false},
		{"the second of several declarators", "u.ts", imp + "const a = 1, ‸b = 2;\n", false},
		{"a declaration file", "u.d.ts", imp + "function ‸f(): void;\n", false},
		{"another language", "u.py", "import x\ndef ‸f():\n    pass\n", false},
		{"a keyword, not a name", "u.ts", imp + "‸function f() {}\n", false},
		{"unbalanced brackets", "u.ts", imp + "function ‸f() {\n", false},
		{"an unterminated string", "u.ts", imp + "const s = 'a;\nfunction ‸f() {}\n", false},
		{"JSX text with a quote", "c.tsx", imp + "export const A = () => <p>don't</p>;\nfunction ‸f() {}\n", false},
		{"past the end", "u.ts", imp + "function f() {}\n‸", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, pos := atMarker(t, tt.text)
			if got := ModulePrivate(tt.path, text, pos); got != tt.want {
				t.Errorf("ModulePrivate(%s, %d:%d) = %v, want %v", tt.path, pos.Line, pos.Character, got, tt.want)
			}
		})
	}
}
