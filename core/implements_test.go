package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// An implementation answer says which way it goes: gopls answers a
// concrete method with the interface method it implements, which under
// the Target line read as "implemented by".
func TestImplementsNote(t *testing.T) {
	const text = "package geom\n\ntype Shape interface {\n\tArea() float64\n}\n\ntype Circle struct{ R float64 }\n\nfunc (c Circle) Area() float64 { return c.R }\n"
	entry := func(name string, kind int, container string, start, end, col uint32) map[string]any {
		r := map[string]any{"start": map[string]any{"line": start, "character": 0}, "end": map[string]any{"line": end, "character": 1}}
		sel := map[string]any{"start": map[string]any{"line": start, "character": col}, "end": map[string]any{"line": start, "character": col + uint32(len(name))}}
		e := map[string]any{"name": name, "kind": kind, "range": r, "selectionRange": sel}
		if container != "" {
			e["container"] = container
		}
		return e
	}
	const uri = "file:///w/geom.go"
	outline := []any{entry("Shape", 11, "", 2, 4, 5), entry("Area", 6, "Shape", 3, 3, 1), entry("Circle", 23, "", 6, 6, 5), entry("Area", 6, "Circle", 8, 8, 16)}
	loc := func(line, char uint32) map[string]any {
		p := map[string]any{"line": line, "character": char}
		return map[string]any{"uri": uri, "range": map[string]any{"start": p, "end": p}}
	}
	tests := []struct {
		name      string
		at        [2]uint32 // the target's zero-based position
		locations []any
		want      string // the note's start, "" for none
	}{
		{"a concrete method: the interface's method is what it implements", [2]uint32{8, 16}, []any{loc(3, 1)}, "These are what `Area` implements"},
		{"an interface's method: its implementations, no note", [2]uint32{3, 1}, []any{loc(8, 16)}, ""},
		{"a concrete method with both", [2]uint32{8, 16}, []any{loc(3, 1), loc(8, 16)}, "The locations in an interface are what `Area` implements"},
		{"no location in an interface", [2]uint32{8, 16}, []any{loc(8, 16)}, ""},
	}
	for _, tt := range tests {
		in, _ := json.Marshal(map[string]any{
			"locations": tt.locations, "workspaceUri": "file:///w", "outlines": map[string]any{uri: outline},
			"files": map[string]any{uri: text}, "subject": "Target: `Area`",
			"implementationOf": map[string]any{"uri": uri, "position": map[string]any{"line": tt.at[0], "character": tt.at[1]}, "name": "Area"},
		})
		env := Call("codeLocations", in)
		rendered := gjson.GetBytes(env, "ok.rendered.text").Str
		if rendered == "" {
			t.Fatalf("%s: %s", tt.name, env)
		}
		second := strings.SplitN(rendered, "\n", 3)[1]
		if got := strings.HasPrefix(second, "These are") || strings.HasPrefix(second, "The locations in"); got != (tt.want != "") || (tt.want != "" && !strings.HasPrefix(second, tt.want)) {
			t.Errorf("%s: the line under the Target line is %q, want %q", tt.name, second, tt.want)
		}
	}
	bad := Call("codeLocations", []byte(`{"locations":[],"workspaceUri":"file:///w","implementationOf":{"uri":3}}`))
	if gjson.GetBytes(bad, "error.code").Str != string(CodeInvalidArgument) {
		t.Errorf("a malformed implementationOf: %s", bad)
	}
}
