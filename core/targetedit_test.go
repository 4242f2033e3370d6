package core

import (
	"strings"
	"testing"
)

// applyOne applies a TargetEdit to text (zero-based LSP positions, ASCII
// and BOM-free text in these tests).
func applyOne(t *testing.T, text string, e TextEditValue) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	offset := func(p Position) int {
		n := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	return text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
}

// rangeOfLines is a symbol's range from the start of line first to the
// end of line last (zero-based).
func rangeOfLines(text string, first, last uint32) *Range {
	lines := SplitLines(text)
	return &Range{Start: Position{Line: first}, End: Position{Line: last, Character: uint32(len(lines[last]))}}
}

// TestDeleteKeepsTheFileSeparation: deleting a declaration between two
// others leaves the separation the file has (PEP 8's two blank lines
// between top-level definitions, one in Go), not a run of three.
func TestDeleteKeepsTheFileSeparation(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		first, last uint32
		want        string
	}{
		{"python, two blank lines", "def a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 4, 5,
			"def a():\n    pass\n\n\ndef c():\n    pass\n"},
		{"go, one blank line", "func a() {\n}\n\nfunc b() {\n}\n\nfunc c() {\n}\n", 3, 4,
			"func a() {\n}\n\nfunc c() {\n}\n"},
		{"a wider gap below is kept", "def a():\n    pass\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 3, 4,
			"def a():\n    pass\n\n\ndef c():\n    pass\n"},
		{"first in the file: no gap left above", "def b():\n    pass\n\n\ndef c():\n    pass\n", 0, 1,
			"def c():\n    pass\n"},
		{"code right above: the gap below stays", "x = 1\ndef b():\n    pass\n\n\ndef c():\n    pass\n", 1, 2,
			"x = 1\n\n\ndef c():\n    pass\n"},
	} {
		e, err := TargetEdit(TargetEditInput{Text: c.text, Line: c.first, Range: rangeOfLines(c.text, c.first, c.last), Where: "delete"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := applyOne(t, c.text, e); got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

// TestInsertAtBodyStartAndEnd: code_insert's start and end of a symbol are
// its body's first and last statements (after a Python docstring; inside
// the braces elsewhere), indented as the body is; a declaration without
// such a body is refused, never edited at its first character.
func TestInsertAtBodyStartAndEnd(t *testing.T) {
	const pyFn = "import x\n\n\ndef pop_context() -> None:\n    \"\"\"Removes the top level.\n\n    More.\n    \"\"\"\n    if x:\n        y()\n\n\nz = 1\n"
	const tsFn = "export default async function delay(\n\tms: number,\n): Promise<void> {\n\tawait wait(ms);\n}\n"
	for _, c := range []struct {
		name, path, text, where, newText string
		first, last                      uint32
		want                             string // "" a refusal
	}{
		{"python start: after the docstring, indented", "a.py", pyFn, "start", "x = 1\n", 3, 9,
			"import x\n\n\ndef pop_context() -> None:\n    \"\"\"Removes the top level.\n\n    More.\n    \"\"\"\n    x = 1\n    if x:\n        y()\n\n\nz = 1\n"},
		{"python end: after the last statement, at the body's indentation", "a.py", pyFn, "end", "return\n", 3, 9,
			"import x\n\n\ndef pop_context() -> None:\n    \"\"\"Removes the top level.\n\n    More.\n    \"\"\"\n    if x:\n        y()\n    return\n\n\nz = 1\n"},
		{"python start without a docstring; a header over lines with ':' in strings", "a.py",
			"def f(a=\":(\",\n      b: dict[str, int] = {}):  # c\n    return a\n", "start", "print(a)", 0, 2,
			"def f(a=\":(\",\n      b: dict[str, int] = {}):  # c\n    print(a)\n    return a\n"},
		{"python method: the text re-indented, relative indentation kept", "a.py",
			"class C:\n    def m(self):\n        '''Doc.'''\n        pass\n", "start", "  if self:\n      return\n", 1, 3,
			"class C:\n    def m(self):\n        '''Doc.'''\n        if self:\n            return\n        pass\n"},
		{"python end at the end of a file without a final break", "a.py", "def f():\n    pass", "end", "return", 0, 1,
			"def f():\n    pass\n    return"},
		{"python decorators over several lines", "a.py", "@app.route(\n    \"/x\",\n)\ndef f():\n    pass\n", "start", "x = 1", 0, 4,
			"@app.route(\n    \"/x\",\n)\ndef f():\n    x = 1\n    pass\n"},
		{"python one-line def is refused", "a.py", "def f(): pass\n", "start", "x = 1", 0, 0, ""},
		{"python variable is refused", "a.py", "x: int = 1\n", "end", "y = 2", 0, 0, ""},
		{"typescript start: after '{', not before 'export'", "delay.ts", tsFn, "start", "console.log(1);", 0, 4,
			"export default async function delay(\n\tms: number,\n): Promise<void> {\n\tconsole.log(1);\n\tawait wait(ms);\n}\n"},
		{"typescript: braces in parameter and return types", "f.ts",
			"function f(o: {a: number}): {b: string} {\n  return {b: `}${o.a}`};\n}\n", "end", "// done", 0, 2,
			"function f(o: {a: number}): {b: string} {\n  return {b: `}${o.a}`};\n  // done\n}\n"},
		{"typescript one-line body is refused", "f.ts", "function f() { return 1; }\n", "start", "x();", 0, 0, ""},
		{"typescript property is refused", "f.ts", "class C {\n  x = 1;\n}\n", "start", "y();", 1, 1, ""},
		{"go end: before '}', strings and runes with braces skipped", "a.go",
			"func f() string {\n\ts := \"}\" + string('{') + `C:\\`\n\treturn s\n}\n", "end", "x := 1", 0, 3,
			"func f() string {\n\ts := \"}\" + string('{') + `C:\\`\n\treturn s\n\tx := 1\n}\n"},
		{"go empty body on one line opens up", "a.go", "func f() {}\n", "start", "return", 0, 0,
			"func f() {\n\treturn\n}\n"},
		{"go struct end: a last field", "a.go", "type S struct {\n\tA int\n}\n", "end", "B string", 0, 2,
			"type S struct {\n\tA int\n\tB string\n}\n"},
		{"c struct with its ';'", "a.c", "struct s {\n    int a;\n};\n", "end", "int b;", 0, 2,
			"struct s {\n    int a;\n    int b;\n};\n"},
	} {
		r := rangeOfLines(c.text, c.first, c.last)
		e, err := TargetEdit(TargetEditInput{Text: c.text, Path: c.path, Line: c.first, Range: r, Where: c.where, NewText: c.newText})
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s: want a refusal, got %+v", c.name, e)
		case c.want == "" && !strings.Contains(err.Message, "use position before or after"):
			t.Errorf("%s: the refusal does not say what to do: %s", c.name, err.Message)
		case c.want != "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "":
			if got := applyOne(t, c.text, e); got != c.want {
				t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
			}
		}
	}
}
