package core

import (
	"strings"
	"testing"
)

const cBodyFile = `#include "lib.h"

static int counter;

CJSON_PUBLIC(int) scale(int v)
{
    int r = v * 2;
    while (r > 0)
    {
        r--;
    }
    return r;
}

int twice(void) { return scale(4); }
`

const cppBodyFile = `#include "shape.h"

namespace geo {
int Shape::area() const {
    auto f = [this](int k) { return k * w; };
    return f(h);
}

class Local {
public:
    int get() {
        return 1;
    }
};

Shape::Shape() : w{1}, h{2} {
    init();
}
}
`

func TestCChangeInsideBody(t *testing.T) {
	for _, c := range []struct {
		name, path        string
		before, old, new_ string
		nameLine, endLine int
		want              bool
	}{
		{"a statement changed", "lib.c", cBodyFile, "    int r = v * 2;\n", "    int r = v * 3;\n", 4, 12, true},
		{"a comment added inside the loop", "lib.c", cBodyFile, "        r--;\n", "        /* count down */\n        r--;\n", 4, 12, true},
		{"statements and nested braces added", "lib.c", cBodyFile, "    return r;\n", "    if (r) {\n        { r = 0; }\n    }\n    return r;\n", 4, 12, true},
		{"the same change in a header", "lib.h", cBodyFile, "    int r = v * 2;\n", "    int r = v * 3;\n", 4, 12, false},
		{"an upper-case C++ source", "lib.C", cBodyFile, "    int r = v * 2;\n", "    int r = v * 3;\n", 4, 12, true},
		{"an Objective-C source", "lib.m", cBodyFile, "    int r = v * 2;\n", "    int r = v * 3;\n", 4, 12, true},
		{"a file of another language", "lib.go", cBodyFile, "    int r = v * 2;\n", "    int r = v * 3;\n", 4, 12, false},
		{"the signature changed", "lib.c", cBodyFile, "CJSON_PUBLIC(int) scale(int v)\n", "CJSON_PUBLIC(int) scale(int v, int w)\n", 4, 12, false},
		{"the opening brace's line changed", "lib.c", cBodyFile, "{\n    int r", "{ int q;\n    int r", 4, 12, false},
		{"a line added before the opening brace", "lib.c", cBodyFile, "scale(int v)\n{\n", "scale(int v)\n/* doc */\n{\n", 4, 12, false},
		{"the closing brace's line changed", "lib.c", cBodyFile, "    return r;\n}\n", "    return r;\n} /* end */\n", 4, 12, false},
		{"a #define written inside the body", "lib.c", cBodyFile, "    return r;\n", "#define R r\n    return R;\n", 4, 12, false},
		{"a directive after a comment", "lib.c", cBodyFile, "    return r;\n", "    /* x */ #define R r\n    return r;\n", 4, 12, false},
		{"an #if added inside the body", "lib.c", cBodyFile, "    return r;\n", "#if DEBUG\n    r++;\n#endif\n    return r;\n", 4, 12, false},
		{"a conditional the body held already", "lib.c", strings.Replace(cBodyFile, "    return r;\n", "#ifdef X\n    r++;\n#endif\n    return r;\n", 1), "        r--;\n", "        r -= 1;\n", 4, 15, false},
		{"an unchanged #pragma in the body is skipped", "lib.c", strings.Replace(cBodyFile, "    return r;\n", "#pragma omp barrier\n    return r;\n", 1), "        r--;\n", "        r -= 1;\n", 4, 13, true},
		{"a change inside a continued #define", "lib.c", strings.Replace(cBodyFile, "    return r;\n", "#define Q \\\n    1\n    return r;\n", 1), "    1\n", "    2\n", 4, 14, false},
		{"a declaration written into the body's lines", "lib.c", cBodyFile, "    return r;\n", "    return r;\n}\n\nint extra(void)\n{\n    return 0;\n", 4, 12, false},
		{"an unbalanced brace", "lib.c", cBodyFile, "    return r;\n", "    if (r) {\n    return r;\n", 4, 12, false},
		{"a static variable at file scope", "lib.c", cBodyFile, "static int counter;\n", "static int counter, other;\n", 4, 12, false},
		{"a struct defined at file scope", "lib.c", cBodyFile, "int twice(void)", "struct point { int x; };\n\nint twice(void)", 4, 12, false},
		{"a change in two functions", "lib.c", cBodyFile, "    return r;\n}\n\nint twice(void) { return scale(4); }\n", "    return r + 1;\n}\n\nint twice(void) { return scale(5); }\n", 4, 12, false},
		{"a one-line function", "lib.c", cBodyFile, "return scale(4);", "return scale(5);", 14, 14, false},
		{"braces in strings, characters and comments", "lib.c", cBodyFile, "    return r;\n", "    puts(\"}\"); putchar('{'); // }\n    /* { */ return r;\n", 4, 12, true},
		{"an escaped quote in a string", "lib.c", cBodyFile, "    return r;\n", "    puts(\"\\\"}\");\n    return r;\n", 4, 12, true},
		{"an unterminated string", "lib.c", cBodyFile, "    return r;\n", "    puts(\"}\n    return r;\n", 4, 12, false},
		{"a comment spanning lines", "lib.c", cBodyFile, "    return r;\n", "    /* {\n    } */\n    return r;\n", 4, 12, true},
		{"a // comment continued by a backslash", "lib.c", cBodyFile, "    return r;\n", "    // note \\\n    return r;\n", 4, 12, false},
		{"digit separators", "lib.cpp", cBodyFile, "    int r = v * 2;\n", "    int r = v * 1'000'000;\n", 4, 12, true},
		{"a raw string holding braces over lines", "lib.cpp", cBodyFile, "    return r;\n", "    auto s = R\"x(\n})\" }\n)x\";\n    return r;\n", 4, 12, true},
		{"an unterminated raw string", "lib.cpp", cBodyFile, "    return r;\n", "    auto s = R\"x(\n    return r;\n", 4, 12, false},
		{"a digraph brace", "lib.cpp", cBodyFile, "    return r;\n", "    if (r) <%\n    %>\n    return r;\n", 4, 12, false},
		{"no change", "lib.c", cBodyFile, "    return r;\n", "    return r;\n", 4, 12, false},
		{"lines out of range", "lib.c", cBodyFile, "    return r;\n", "    return 0;\n", 4, 40, false},
		{"the return type on the line before the name", "lib.c", "static int\nf(int a,\n  int b)\n{\n    return a;\n}\n", "    return a;\n", "    return b;\n", 1, 5, true},
		{"a C++ member function's body, a lambda in it", "shape.cpp", cppBodyFile, "    return f(h);\n", "    auto g = [&] { return f(h) + 1; };\n    return g();\n", 3, 6, true},
		{"inside a lambda's body", "shape.cpp", cppBodyFile, "return k * w;", "return k * w + 1;", 3, 6, true},
		{"a member function's const qualifier", "shape.cpp", cppBodyFile, "int Shape::area() const {", "int Shape::area() {", 3, 6, false},
		{"a method defined in its class", "shape.cpp", cppBodyFile, "        return 1;\n", "        return 2;\n", 10, 12, true},
		{"a constructor with brace initializers: unproven", "shape.cpp", cppBodyFile, "    init();\n", "    init(); init();\n", 15, 17, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.before, c.old) {
				t.Fatalf("the case's old text is not in its file")
			}
			after := strings.Replace(c.before, c.old, c.new_, 1)
			if got := CChangeInsideBody(c.path, SplitLines(c.before), SplitLines(after), c.nameLine, c.endLine); got != c.want {
				t.Errorf("CChangeInsideBody = %v, want %v\nafter:\n%s", got, c.want, after)
			}
		})
	}
}

// FuzzCChangeInsideBody: any texts and lines, no panic; a change proven
// inside a body is proven the other way too.
func FuzzCChangeInsideBody(f *testing.F) {
	f.Add(cBodyFile, strings.Replace(cBodyFile, "v * 2", "v * 3", 1), 4, 12)
	f.Add(cBodyFile, strings.Replace(cBodyFile, "return r;", "auto s = R\"(\n})\";", 1), 4, 12)
	f.Add("int f() {\n/*\n*/}\n", "int f() {\n/*\n}*/\n", 0, 2)
	f.Fuzz(func(t *testing.T, before, after string, nameLine, endLine int) {
		b, a := SplitLines(before), SplitLines(after)
		if !CChangeInsideBody("f.c", b, a, nameLine, endLine) {
			return
		}
		_, beforeEnd, afterEnd := changedLineRange(b, a)
		if moved := endLine + afterEnd - beforeEnd; !CChangeInsideBody("f.c", a, b, nameLine, moved) {
			t.Errorf("proven one way only: lines %d–%d, moved to %d", nameLine, endLine, moved)
		}
	})
}
