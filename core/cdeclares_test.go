package core

import (
	"slices"
	"strings"
	"testing"
)

func TestCChangeMayDeclare(t *testing.T) {
	const file = "#include \"api.h\"\n\n/* add adds. */\nint add(int a, int b)\n{\n    return a + b;\n}\n\nstatic const char *name = \"x\";\n"
	for _, c := range []struct {
		name, before, after string
		want                []ChangedSpan
	}{
		{"a function added after another", file, strings.Replace(file, "}\n\n", "}\n\nstatic void helper(void)\n{\n}\n\n", 1), []ChangedSpan{{8, 8}}},
		{"a prototype added through a macro", "API(int) f(void);\n", "API(int) f(void);\nAPI(void) assert_print_number(const char *expected, double input);\n", []ChangedSpan{{1, 1}}},
		{"a declaration added on the line of another", "int f(void);\n", "int f(void); int g(void);\n", []ChangedSpan{{0, 1}}},
		{"a #define of a name already in the file", "int min = 1;\n", "#define min(a, b) ((a) < (b) ? (a) : (b))\nint min = 1;\n", []ChangedSpan{{0, 0}}},
		{"an #if 0 removed uncovers code", "#if 0\nint hidden(void);\n#endif\n", "int hidden(void);\n", []ChangedSpan{{0, 1}, {2, 3}}},
		{"a renamed function", file, strings.Replace(file, "int add(int a", "int sum(int a", 1), []ChangedSpan{{3, 4}}},
		{"a deleted function", file, strings.Replace(file, "/* add adds. */\nint add(int a, int b)\n{\n    return a + b;\n}\n\n", "", 1), nil},
		{"a comment changed", file, strings.Replace(file, "/* add adds. */", "/* add adds two numbers. */", 1), nil},
		{"a block comment over lines added", file, strings.Replace(file, "\n\nstatic", "\n\n/*\n * helper notes\n */\nstatic", 1), nil},
		{"a string literal changed", file, strings.Replace(file, "\"x\"", "\"a new name\"", 1), nil},
		{"a number changed", "int n = 1;\n", "int n = 2;\n", nil},
		{"a body reordered", file, strings.Replace(file, "a + b", "b + a", 1), nil},
		{"a line comment with words added", file, strings.Replace(file, "return a + b;", "return a + b; // sum of both", 1), nil},
		{"a string that does not end on its line: its words", "int n;\n", "int n;\nconst char *s = \"open;\n", []ChangedSpan{{1, 1}}},
	} {
		got := CChangeMayDeclare(SplitLines(c.before), SplitLines(c.after))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: CChangeMayDeclare = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCNewWords(t *testing.T) {
	for _, c := range []struct{ before, after, want string }{
		{"int f(void);\n", "int f(void);\nstatic void assert_print_number(const char *expected, double input);\n", "assert_print_number expected input"},
		{"int add(int a, int b);\n", "int add(int a, int b, int c);\n", "c"},
		{"/* a */\nint n = 1;\n", "/* a new comment */\nint n = 2; // words\n", ""},
		{"#define A 1\n", "#define A 1\n#define min(a, b) ((a) < (b) ? (a) : (b))\n", "min a b"},
	} {
		if got := strings.Join(CNewWords("x.h", SplitLines(c.before), SplitLines(c.after)), " "); got != c.want {
			t.Errorf("CNewWords(%q, %q) = %q, want %q", c.before, c.after, got, c.want)
		}
	}
}
