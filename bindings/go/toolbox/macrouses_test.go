package toolbox

import (
	"reflect"
	"testing"
)

func TestMacroSpellings(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []macroSpelling
	}{
		{"a call in a function-like macro's body",
			"int f(int);\n#define CALL(o, n) ((o) ? f(n) : 0)\n", []macroSpelling{{1, "CALL"}}},
		{"the body continued onto later lines",
			"#define CALL(o) \\\n  do { \\\n    f(o); \\\n  } while (0)\nint x = f(1);\n", []macroSpelling{{2, "CALL"}}},
		{"an object-like macro and spaces after the #",
			"#  define  DEFAULT f\n", []macroSpelling{{0, "DEFAULT"}}},
		{"the macro's own name is another symbol", "#define f g\n#define f(x) g(x)\n", nil},
		{"a parameter of that name is the parameter", "#define APPLY(f, x) f(x)\n", nil},
		{"a longer name is not the name", "#define CALL(x) f_of(x) + of(x)\n", nil},
		{"not a define", "#include \"f.h\"\n#ifdef f\n#definef f\nf(1);\n", nil},
	} {
		if got := macroSpellings("x.h", c.text, "f"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
