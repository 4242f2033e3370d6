package core

import (
	"strings"
	"testing"
)

// TestNewNameProblem: a rename's newName is refused when its language
// never accepts it as a declared name (a keyword, not an identifier), and
// only then: soft keywords, predeclared names, private names and
// TypeScript members named by keywords pass; languages without rules
// pass everything.
func TestNewNameProblem(t *testing.T) {
	for _, c := range []struct {
		path, name, kind string
		want             string // a part of the problem; "" none
	}{
		{"src/click/globals.py", "class", "function", "newName `class` is a keyword in Python"},
		{"src/click/globals.py", "two words", "function", "newName `two words` is not a valid Python identifier (it has a space at character 4)"},
		{"a.py", "1st", "variable", "it starts with `1`"},
		{"a.py", "x-y", "variable", "it has `-` at character 2"},
		{"a.py", "match", "variable", ""},
		{"a.py", "type", "function", ""},
		{"a.py", "case", "", ""},
		{"a.py", "_", "variable", ""},
		{"a.py", "größe", "variable", ""},
		{"a.pyi", "None", "variable", "keyword in Python"},
		{"shape.go", "func", "function", "newName `func` is a keyword in Go"},
		{"shape.go", "string", "type", ""},
		{"shape.go", "len", "function", ""},
		{"shape.go", "Area2", "method", ""},
		{"shape.go", "$x", "variable", "not a valid Go identifier"},
		{"src/ky.ts", "#retryDelay", "method", ""},
		{"src/ky.ts", "$el", "variable", ""},
		{"src/ky.ts", "class", "function", "newName `class` is a keyword in TypeScript"},
		{"src/ky.ts", "delete", "method", ""},
		{"src/ky.ts", "default", "property", ""},
		{"src/ky.ts", "delete", "", ""},
		{"src/ky.ts", "let", "variable", ""},
		{"src/ky.ts", "a.b", "variable", "not a valid TypeScript identifier"},
		{"web/app.jsx", "new", "class", "keyword in JavaScript"},
		{"sds.c", "struct", "function", "keyword in C"},
		{"sds.h", "class", "function", ""},
		{"shape.cpp", "class", "function", "keyword in C++"},
		{"shape.cpp", "override", "function", ""},
		{"style.css", "two words", "class", ""},
		{"lib.rs", "fn", "function", ""},
		{"a.py", "", "variable", "it is empty"},
	} {
		got := NewNameProblem(c.path, c.name, c.kind)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("NewNameProblem(%q, %q, %q) = %q, want %q", c.path, c.name, c.kind, got, c.want)
		}
	}
}
