package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestReadInlayHints(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // "line:col kind label" joined by "; ", zero-based
	}{
		{"sorted stably", `[{"position":{"line":2,"character":1},"label":"b"},{"position":{"line":1,"character":5},"label":"a","kind":1},{"position":{"line":2,"character":1},"label":"c","kind":2}]`,
			"1:5 type a; 2:1  b; 2:1 parameter c"},
		{"parts joined, unknown kind empty", `[{"position":{"line":0,"character":0},"label":[{"value":"x"},{"value":": "},{"value":"int"}],"kind":7}]`, "0:0  x: int"},
		{"null kind", `[{"position":{"line":0,"character":0},"label":"","kind":null}]`, "0:0  "},
		{"null", `null`, ""},
	}
	for _, tt := range tests {
		hints, err := readInlayHints(gjson.Parse(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, h := range hints {
			got = append(got, strconv.Itoa(int(h.Pos.Line))+":"+strconv.Itoa(int(h.Pos.Character))+" "+h.Kind+" "+h.Label)
		}
		if s := strings.Join(got, "; "); s != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, s, tt.want)
		}
	}
}

func TestReadInlayHintsMalformed(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, "result must be null or an array of InlayHint"},
		{`["x"]`, "result[0] must be an InlayHint object"},
		{`[{"position":{"line":0,"character":0}}]`, "result[0].label must be a string or an array of InlayHintLabelPart, got missing"},
		{`[{"position":{"line":0,"character":0},"label":[3]}]`, "result[0].label[0] must be an InlayHintLabelPart object"},
		{`[{"position":{"line":0,"character":0},"label":"a","kind":"type"}]`, "result[0].kind must be an InlayHintKind number"},
		{`[{"position":{"line":0,"character":0},"label":"a","paddingLeft":"yes"}]`, "result[0].paddingLeft must be a boolean"},
		{`[{"position":{"line":0,"character":1.5},"label":"a"}]`, "result[0].position.character must be a non-negative integer"},
	}
	for _, tt := range tests {
		_, err := readInlayHints(gjson.Parse(tt.in))
		if err == nil || err.Code != CodeMalformedResponse || !strings.Contains(err.Message, tt.want) {
			t.Errorf("%s: got %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestInlayHintsRenderedOneLineEach(t *testing.T) {
	in := `{"uri":"file:///w/a.ts","workspaceUri":"file:///w","result":[{"position":{"line":0,"character":0},"label":"{\n  a: string;\n}","kind":1},{"position":{"line":4294967295,"character":4294967295},"label":"` + strings.Repeat("x", 300) + `"}]}`
	ok := gjson.GetBytes(Call("inlayHints", []byte(in)), "ok")
	lines := strings.Split(ok.Get("rendered.text").Str, "\n")
	if len(lines) != 3 || lines[1] != "  1:1 type `{ a: string; }`" || !strings.HasPrefix(lines[2], "  4294967296:4294967296 `xxx") || len([]rune(lines[2])) > 40+maxRenderedHintRunes {
		t.Fatalf("rendered: %q", lines)
	}
	if ok.Get("hints.0.label").Str != "{\n  a: string;\n}" {
		t.Fatalf("label changed in the hints: %s", ok.Get("hints.0").Raw)
	}
}
