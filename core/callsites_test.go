package core

import "testing"

// CallSiteThere keeps a site whose text is the callee's call and refuses
// one that cannot be where the answer puts it: the sites clangd 14 merged
// under one main() (findings s26 #7), read in that main's file.
func TestCallSiteThere(t *testing.T) {
	const cjsonAdd = "int main(void)\n{\n    UNITY_BEGIN();\n    cJSON_AddBoolToObject(root, \"true\", true);\n    return UNITY_END();\n}\n"
	at := func(line, from, to uint32) Range {
		return Range{Start: Position{Line: line, Character: from}, End: Position{Line: line, Character: to}}
	}
	for _, tc := range []struct {
		name, text, callee string
		r                  Range
		want               bool
	}{
		{"the callee's name", "    x = helper(1);\n", "helper", at(0, 8, 14), true},
		{"a qualified call", "    x := pkg.Helper(1)\n", "Helper", at(0, 9, 19), true},
		{"a whole call expression", "    helper(1, 2);\n", "helper", at(0, 4, 16), true},
		{"a method's name with its signature", "    o.run(3);\n", "run(int)", at(0, 6, 9), true},
		{"a C++ qualified name", "    Foo::bar();\n", "Foo::bar", at(0, 9, 12), true},
		{"an empty range at the name", "    helper(1);\n", "helper", at(0, 4, 4), true},
		{"a call through a macro, at the macro's name", cjsonAdd, "UnityEnd", at(4, 11, 20), true},
		{"past the file's last line", cjsonAdd, "UnityEnd", at(835, 11, 20), false},
		{"past the line's end", cjsonAdd, "UnityEnd", at(1, 11, 20), false},
		{"inside another identifier", cjsonAdd, "UnityEnd", at(3, 11, 20), false},
		{"on blanks and punctuation", cjsonAdd, "UnityEnd", at(0, 8, 14), false},
		{"a token of another width", cjsonAdd, "UnityEnd", at(2, 11, 17), false},
		{"an end before the start", "    helper(1);\n", "helper", Range{Start: Position{0, 8}, End: Position{0, 4}}, false},
		{"an end line past the file", "    helper(1,\n 2);\n", "helper", Range{Start: Position{0, 4}, End: Position{5, 1}}, false},
		{"a multi-line call", "    helper(1,\n 2);\n", "helper", Range{Start: Position{0, 4}, End: Position{1, 3}}, true},
		{"a call on a multi-line expression, named on its last line", "  const items = [\n    { name: 'a' },\n    ok && { name: 'b' },\n  ].filter(Boolean);\n", "filter",
			Range{Start: Position{0, 16}, End: Position{3, 11}}, true},
		{"a multi-line range whose lines do not name the callee", "  const items = [\n    { name: 'a' },\n  ].map(String);\n", "filter",
			Range{Start: Position{0, 16}, End: Position{2, 8}}, false},
		{"the callee past the range's end", "  const items = [\n  ].map(String).filter(Boolean);\n", "filter",
			Range{Start: Position{0, 16}, End: Position{1, 8}}, false},
		{"an empty file", "", "helper", at(0, 0, 6), false},
		{"UTF-16 columns", "  /* é😀 */ helper();\n", "helper", at(0, 12, 18), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CallSiteThere(tc.text, tc.r, tc.callee); got != tc.want {
				t.Errorf("CallSiteThere(%q, %v, %q) = %v, want %v", tc.text, tc.r, tc.callee, got, tc.want)
			}
		})
	}
}

func TestCalleeIdentifier(t *testing.T) {
	for name, want := range map[string]string{
		"UnityEnd": "UnityEnd", "Foo::bar": "bar", "bar(int)": "bar", "Foo.bar(String, int)": "bar",
		"(*T).Method": "Method", "<anonymous>": "anonymous", "": "",
	} {
		if got := calleeIdentifier(name); got != want {
			t.Errorf("calleeIdentifier(%q) = %q, want %q", name, got, want)
		}
	}
}
