package core

import (
	"strings"
	"testing"
)

// TestWidenMacroPrefix: a C declaration's range that clangd starts inside
// its return type's macro (at the macro's argument) starts at the macro;
// every other range is as the server gave it. Each case's text marks the
// server's range start with « (removed before the call); the range ends
// at the text's end.
func TestWidenMacroPrefix(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		want             int // the widened start's column on the range's first line
	}{
		{"return-type macro", "cJSON.c", "CJSON_PUBLIC(«cJSON *) cJSON_CreateTrue(void)\n{\n    return NULL;\n}", 0},
		{"a prototype", "cJSON.h", "CJSON_PUBLIC(«cJSON *) cJSON_CreateTrue(void);", 0},
		{"spaces around the parentheses", "a.c", "LUA_API ( «int ) lua_gettop (lua_State *L) {}", 0},
		{"indented, in a C++ class", "a.hpp", "  EXPORT(«int) f() const { return 1; }", 2},
		{"nested macros", "a.c", "EXPORT(API(«struct s *)) make(void) { return 0; }", 0},
		{"an argument with parentheses and a comment", "a.cc", "WRAP(«int (*)(int) /* ) */) g(void);", 0},
		{"an argument on the next line", "a.c", "API(«struct s\n    *) make(void) { return 0; }", 0},
		{"Objective-C", "a.m", "API(«int) f(void) { return 0; }", 0},
		{"a byte order mark first", "a.c", utf8BOM + "API(«int) f(void) { return 0; }", 1},
		{"a macro without parentheses: the range already starts at the type", "sds.h", "SDS_API «sds sdsnew(const char *init);", 8},
		{"a K&R parameter inside its function's parentheses", "a.c", "int f(«a, b)", 6},
		{"a prefix that closes before the range", "a.c", "API(int) «f(void) { return 0; }", 9},
		{"a statement before the macro", "a.c", "int x; API(«int) f(void) { return 0; }", 11},
		{"a brace before the macro", "a.c", "} API(«int) f(void) { return 0; }", 6},
		{"a comma before the range", "a.c", "API(x, «int) f(void) { return 0; }", 7},
		{"a variable inside a macro's argument, its range ending before the ')'", "a.c", "DEFINE(«int x = g(1)", 7},
		{"the argument's parentheses unclosed before a body", "a.c", "API(«int f(void) { return 0; }", 4},
		{"a name starting with a digit", "a.c", "9API(«int) f(void);", 5},
		{"not a C-family file", "a.ts", "API(«int) f(void) { return 0; }", 4},
		{"no path", "", "API(«int) f(void) { return 0; }", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			mark := strings.Index(c.text, "«")
			text := c.text[:mark] + c.text[mark+len("«"):]
			lines := SplitLines(text)
			startLine := strings.Count(text[:mark], "\n")
			startCol := columnOfByteOffset(lines[startLine], mark-strings.LastIndex("\n"+text[:mark], "\n"))
			last := len(lines) - 1
			r := Range{Start: Position{Line: uint32(startLine), Character: uint32(startCol)},
				End: Position{Line: uint32(last), Character: uint32(utf16Len(lines[last]))}}
			got := widenMacroPrefix(lines, r, c.path)
			if got.Start.Line != r.Start.Line || got.End != r.End || got.Start.Character != uint32(c.want) {
				t.Errorf("widenMacroPrefix(%q) = %+v, want the start at column %d (given %+v)", text, got, c.want, r)
			}
		})
	}
}
