package core

import (
	"strings"
	"testing"
)

const goBodyFile = `package p

// F adds.
func F(a, b int) int {
	s := a + b
	return s
}

func G() {}
`

func TestGoChangeInsideBody(t *testing.T) {
	for _, c := range []struct {
		name              string
		before, old, new_ string
		nameLine, endLine int
		want              bool
	}{
		{"a statement changed", goBodyFile, "\ts := a + b\n", "\ts := a - b\n", 3, 6, true},
		{"statements added", goBodyFile, "\treturn s\n", "\tif s > 0 {\n\t\treturn s\n\t}\n\treturn -s\n", 3, 6, true},
		{"a statement removed", goBodyFile, "\ts := a + b\n\treturn s\n", "\treturn a + b\n", 3, 6, true},
		{"the signature changed", goBodyFile, "func F(a, b int) int {\n", "func F(a, b int) int64 {\n", 3, 6, false},
		{"the closing line changed", goBodyFile, "\treturn s\n}\n", "\treturn s\n} // end\n", 3, 6, false},
		{"a declaration written into the body's lines", goBodyFile, "\ts := a + b\n", "\treturn 0\n}\n\nfunc H() {\n\ts := a + b\n", 3, 6, false},
		{"an unbalanced brace", goBodyFile, "\ts := a + b\n", "\tif a > b {\n\ts := a + b\n", 3, 6, false},
		{"braces in strings, runes and comments", goBodyFile, "\ts := a + b\n", "\t_ = \"}\" + string('{') // }\n\t/* { */ s := a + b\n", 3, 6, true},
		{"a raw string spanning lines", goBodyFile, "\ts := a + b\n", "\t_ = `\n}\n`\n\ts := a + b\n", 3, 6, true},
		{"an unterminated raw string", goBodyFile, "\ts := a + b\n", "\t_ = `\n\ts := a + b\n", 3, 6, false},
		{"an unterminated string", goBodyFile, "\ts := a + b\n", "\t_ = \"}\n\ts := a + b\n", 3, 6, false},
		{"a change outside the function", goBodyFile, "func G() {}\n", "func G() { _ = 1 }\n", 3, 6, false},
		{"a one-line function", goBodyFile, "func G() {}\n", "func G() { _ = 1 }\n", 8, 8, false},
		{"a struct result type before the body",
			"package p\n\nfunc F() struct {\n\tA int\n} {\n\tx := 1\n\treturn struct{ A int }{x}\n}\n",
			"\tx := 1\n", "\tx := 2\n", 2, 7, true},
		{"a change inside the struct result type",
			"package p\n\nfunc F() struct {\n\tA int\n} {\n\tx := 1\n\treturn struct{ A int }{x}\n}\n",
			"\tA int\n", "\tA int64\n", 2, 7, false},
		{"a method with a multi-line signature",
			"package p\n\nfunc (r *T) M(\n\ta int,\n) error {\n\treturn nil\n}\n",
			"\treturn nil\n", "\treturn errX\n", 2, 6, true},
		{"a parameter of a multi-line signature",
			"package p\n\nfunc (r *T) M(\n\ta int,\n) error {\n\treturn nil\n}\n",
			"\ta int,\n", "\ta string,\n", 2, 6, false},
		{"no change", goBodyFile, "\ts := a + b\n", "\ts := a + b\n", 3, 6, false},
		{"lines out of range", goBodyFile, "\ts := a + b\n", "\ts := a - b\n", 3, 60, false},
		{"a brace after the closing one", "package p\n\nfunc F() {\n\tx := 1\n} ; var y = T{}\n", "\tx := 1\n", "\tx := 2\n", 2, 4, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.before, c.old) {
				t.Fatalf("the case's old text is not in its file")
			}
			after := strings.Replace(c.before, c.old, c.new_, 1)
			if got := GoChangeInsideBody(SplitLines(c.before), SplitLines(after), c.nameLine, c.endLine); got != c.want {
				t.Errorf("GoChangeInsideBody = %v, want %v\nafter:\n%s", got, c.want, after)
			}
		})
	}
}

// FuzzGoChangeInsideBody: any texts and lines, no panic; and a change
// proven inside a body is proven the other way too (the body's braces are
// the same tokens in both texts).
func FuzzGoChangeInsideBody(f *testing.F) {
	f.Add(goBodyFile, strings.Replace(goBodyFile, "a + b", "a - b", 1), 3, 6)
	f.Add(goBodyFile, strings.Replace(goBodyFile, "return s", "return `\n}`", 1), 3, 6)
	f.Add("func F() {\n/*\n*/}\n", "func F() {\n/*\n}*/\n", 0, 2)
	f.Fuzz(func(t *testing.T, before, after string, nameLine, endLine int) {
		b, a := SplitLines(before), SplitLines(after)
		if !GoChangeInsideBody(b, a, nameLine, endLine) {
			return
		}
		_, beforeEnd, afterEnd := changedLineRange(b, a)
		if moved := endLine + afterEnd - beforeEnd; !GoChangeInsideBody(a, b, nameLine, moved) {
			t.Errorf("proven one way only: lines %d–%d, moved to %d", nameLine, endLine, moved)
		}
	})
}
