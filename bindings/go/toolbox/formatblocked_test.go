package toolbox

import (
	"encoding/json"
	"reflect"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

func TestNoEdits(t *testing.T) {
	for raw, want := range map[string]bool{
		"":     true,
		"null": true,
		"[]":   true,
		`[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":""}]`: false,
	} {
		if got := noEdits(json.RawMessage(raw)); got != want {
			t.Errorf("noEdits(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestFileErrors(t *testing.T) {
	rep := lspseam.DiagnosticReport{Diagnostics: json.RawMessage(`[
		{"range":{"start":{"line":1,"character":0}},"severity":3,"message":"The mentioned syntax error was in this if expression."},
		{"range":{"start":{"line":1,"character":3}},"severity":1,"message":"Couldn't parse this test expression."},
		{"range":{"start":{"line":2,"character":0}},"severity":1,"message":"expected ']'\nsecond line"},
		{"range":{"start":{"line":4,"character":0}},"severity":2,"message":"a warning"}]`)}
	want := []string{"2:4 Couldn't parse this test expression.", "3:1 expected ']'"}
	if got := fileErrors(rep); !reflect.DeepEqual(got, want) {
		t.Errorf("fileErrors = %q, want %q", got, want)
	}
	if got := fileErrors(lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]")}); got != nil {
		t.Errorf("fileErrors of no diagnostics = %q", got)
	}
}
