package core

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The lines a host needs to send (deltalines.go): for every golden case of
// diagnosticsDelta that passes whole texts, the same call with each file's
// LinesChanged instead, and each dependent without its text, answers byte
// for byte the same.
func TestDeltaAnswersAsWholeTexts(t *testing.T) {
	replayed := 0
	for _, c := range casesOf(t, "diagnosticsDelta") {
		var in map[string]json.RawMessage
		if json.Unmarshal(c.Input, &in) != nil {
			continue
		}
		changed := false
		var files []map[string]json.RawMessage
		if json.Unmarshal(in["files"], &files) == nil {
			for _, f := range files {
				var before, after string
				if json.Unmarshal(f["beforeText"], &before) != nil || json.Unmarshal(f["afterText"], &after) != nil {
					continue
				}
				delete(f, "beforeText")
				delete(f, "afterText")
				f["lines"], _ = json.Marshal(LinesChanged(before, after))
				changed = true
			}
			in["files"], _ = json.Marshal(files)
		}
		var deps map[string]json.RawMessage
		var depFiles []map[string]json.RawMessage
		if json.Unmarshal(in["dependents"], &deps) == nil && json.Unmarshal(deps["files"], &depFiles) == nil {
			for _, f := range depFiles {
				if _, ok := f["text"]; ok {
					delete(f, "text")
					changed = true
				}
			}
			deps["files"], _ = json.Marshal(depFiles)
			in["dependents"], _ = json.Marshal(deps)
		}
		if !changed {
			continue
		}
		replayed++
		lines, _ := json.Marshal(in)
		if whole, cut := Call(c.Method, c.Bytes()), Call(c.Method, lines); !bytes.Equal(whole, cut) {
			t.Errorf("%s: with lines, not texts:\n got %s\nwant %s", c.Name, cut, whole)
		}
	}
	if replayed < 10 {
		t.Fatalf("only %d cases replayed with lines: the cases file changed?", replayed)
	}
}

func TestLinesChanged(t *testing.T) {
	tests := []struct {
		before, after string
		want          ChangedLines
	}{
		{"a\nb\nc", "a\nb\nc", ChangedLines{First: 3, BeforeCount: 3, AfterCount: 3, Before: []string{}, After: []string{}}},
		{"a\nb\nc", "a\nB\nc", ChangedLines{First: 1, BeforeCount: 3, AfterCount: 3, Before: []string{"b"}, After: []string{"B"}}},
		{"a\nc", "a\nb\nc", ChangedLines{First: 1, BeforeCount: 2, AfterCount: 3, Before: []string{}, After: []string{"b"}}},
		{"a\r\nb\r\n", "a\nb\n", ChangedLines{First: 2, BeforeCount: 2, AfterCount: 2, Before: []string{}, After: []string{}}}, // line ends alone change nothing
		{"", "x", ChangedLines{First: 0, BeforeCount: 0, AfterCount: 1, Before: []string{}, After: []string{"x"}}},
	}
	for _, tt := range tests {
		got := LinesChanged(tt.before, tt.after)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(tt.want)
		if !bytes.Equal(g, w) {
			t.Errorf("%q → %q: got %s, want %s", tt.before, tt.after, g, w)
		}
	}
}

func TestDeltaLinesArgumentErrors(t *testing.T) {
	file := func(lines string) string {
		return `{"workspaceUri":"file:///w","files":[{"uri":"file:///w/a.go","how":"pull","fresh":true,"before":[],"after":[],"lines":` + lines + `}]}`
	}
	tests := []struct{ name, in, want string }{
		{"not an object", file(`[]`), "files[0].lines must be an object {first, beforeCount, afterCount"},
		{"a negative count", file(`{"first":-1,"beforeCount":1,"afterCount":1,"before":[],"after":[]}`), "files[0].lines.first must be a line count"},
		{"lines not strings", file(`{"first":0,"beforeCount":1,"afterCount":1,"before":[1],"after":["x"]}`), "files[0].lines.before must hold strings"},
		{"counts that do not add up", file(`{"first":0,"beforeCount":3,"afterCount":1,"before":["a"],"after":["b"]}`), "files[0].lines does not add up"},
		{"both lines and texts", strings.Replace(file(`{"first":0,"beforeCount":1,"afterCount":1,"before":["a"],"after":["b"]}`), `"lines"`, `"beforeText":"a","afterText":"b","lines"`, 1), "takes lines or beforeText and afterText, not both"},
	}
	for _, tt := range tests {
		out := string(Call("diagnosticsDelta", []byte(tt.in)))
		if !strings.Contains(out, `"LSP_INVALID_ARGUMENT"`) || !strings.Contains(out, tt.want) {
			t.Errorf("%s: %s, want LSP_INVALID_ARGUMENT with %q", tt.name, out, tt.want)
		}
	}
}
