package core

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
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
	type h = LineHunk
	none := []string{}
	far := func(edits ...int) string { // 1,000 lines, those at edits renamed
		lines := make([]string, 1000)
		for i := range lines {
			lines[i] = "line " + strconv.Itoa(i)
		}
		for _, e := range edits {
			lines[e] = "renamed " + strconv.Itoa(e)
		}
		return strings.Join(lines, "\n")
	}
	tests := []struct {
		name, before, after string
		want                ChangedLines
	}{
		{"unchanged", "a\nb\nc", "a\nb\nc", ChangedLines{3, 3, []h{}}},
		{"one line changed", "a\nb\nc", "a\nB\nc", ChangedLines{3, 3, []h{{1, []string{"b"}, []string{"B"}}}}},
		{"one line added", "a\nc", "a\nb\nc", ChangedLines{2, 3, []h{{1, none, []string{"b"}}}}},
		{"line ends alone change nothing", "a\r\nb\r\n", "a\nb\n", ChangedLines{2, 2, []h{}}},
		{"from nothing", "", "x", ChangedLines{0, 1, []h{{0, none, []string{"x"}}}}},
		{"to nothing", "x\ny", "", ChangedLines{2, 0, []h{{0, []string{"x", "y"}, none}}}},
		// each hunk is placed by its first line before the change: the
		// second starts at 4 before, 5 after (the first added a line)
		{"three hunks, the unchanged lines between them left out", "a\nb\nc\nd\ne\nf\ng", "a\nB\nB2\nc\nd\nf\ng\nh",
			ChangedLines{7, 8, []h{{1, []string{"b"}, []string{"B", "B2"}}, {4, []string{"e"}, none}, {7, none, []string{"h"}}}}},
		{"two hunks far apart", far(), far(3, 996), ChangedLines{1000, 1000, []h{
			{3, []string{"line 3"}, []string{"renamed 3"}}, {996, []string{"line 996"}, []string{"renamed 996"}}}}},
	}
	for _, tt := range tests {
		got := LinesChanged(tt.before, tt.after)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(tt.want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: got %s, want %s", tt.name, g, w)
		}
	}
}

// The hunks are the edit script itself: lines between hunks map and are
// not read, and a hunk's before lines are changed whatever their text (a
// host's hunk is a pure replacement, never diffed again), less the equal
// lines at its ends.
func TestDeltaLinesAreTheScript(t *testing.T) {
	c, err := readLinesArg(gjson.Parse(`{"beforeCount":6,"afterCount":6,"hunks":[{"first":0,"before":["s","a","b"],"after":["s","b","a"]},{"first":4,"before":["x"],"after":["y"]}]}`), "lines")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		line    uint32
		to      uint32
		changed bool
		text    string // beforeLine's, "" when untouched
	}{{0, 0, false, ""}, {1, 0, true, "a"}, {2, 0, true, "b"}, {3, 3, false, ""}, {4, 0, true, "x"}, {5, 5, false, ""}} {
		to, ok := c.mapLine(tt.line)
		text, touched := c.beforeLine(tt.line)
		if ok == tt.changed || (ok && to != tt.to) || touched != tt.changed || text != tt.text {
			t.Errorf("line %d: maps to %d, %v, text %q, %v; want %d, changed %v, %q", tt.line, to, ok, text, touched, tt.to, tt.changed, tt.text)
		}
	}
	if text, ok := c.afterLine(2); !ok || text != "a" {
		t.Errorf("after line 2: %q, %v; want a", text, ok)
	}
	if _, ok := c.afterLine(3); ok {
		t.Error("after line 3, between the hunks, is touched")
	}
}

func TestDeltaLinesArgumentErrors(t *testing.T) {
	file := func(lines string) string {
		return `{"workspaceUri":"file:///w","files":[{"uri":"file:///w/a.go","how":"pull","fresh":true,"before":[],"after":[],"lines":` + lines + `}]}`
	}
	hunks := func(beforeCount, afterCount int, hunks string) string {
		return file(`{"beforeCount":` + strconv.Itoa(beforeCount) + `,"afterCount":` + strconv.Itoa(afterCount) + `,"hunks":[` + hunks + `]}`)
	}
	tests := []struct{ name, in, want string }{
		{"not an object", file(`[]`), "files[0].lines must be an object {beforeCount, afterCount, hunks: [{first, before: [line], after: [line]}]}"},
		{"the old shape", file(`{"first":0,"beforeCount":1,"afterCount":1,"before":["a"],"after":["b"]}`), "files[0].lines.hunks must be an array of the runs of changed lines"},
		{"a negative count", file(`{"beforeCount":-1,"afterCount":1,"hunks":[]}`), "files[0].lines.beforeCount must be a line count"},
		{"a hunk not an object", hunks(1, 1, `[]`), "files[0].lines.hunks[0] must be an object {first, before: [line], after: [line]}"},
		{"a hunk without first", hunks(1, 1, `{"before":["a"],"after":["b"]}`), "files[0].lines.hunks[0].first must be a line of the text before"},
		{"lines not strings", hunks(2, 2, `{"first":0,"before":["a"],"after":["b"]},{"first":1,"before":[1],"after":["x"]}`), "files[0].lines.hunks[1].before must hold strings"},
		{"hunks out of order", hunks(9, 9, `{"first":5,"before":["a"],"after":["b"]},{"first":2,"before":["c"],"after":["d"]}`), "files[0].lines.hunks[1] starts at line 2, before the end of the hunk above it (line 6): hunks must be in order and not overlap"},
		{"hunks that overlap", hunks(9, 9, `{"first":2,"before":["a","b"],"after":["c","d"]},{"first":3,"before":["b"],"after":["e"]}`), "files[0].lines.hunks[1] starts at line 3, before the end of the hunk above it (line 4)"},
		{"a hunk past beforeCount", hunks(3, 3, `{"first":2,"before":["a","b"],"after":["c","d"]}`), "files[0].lines.hunks[0] ends at line 4, past beforeCount 3"},
		{"counts that do not add up", hunks(3, 1, `{"first":0,"before":["a"],"after":["b"]}`), "files[0].lines does not add up: beforeCount 3 and what the hunks add (0: their after lines less their before lines) must make afterCount 1"},
		{"no hunks, other counts", hunks(3, 4, ``), "files[0].lines does not add up: beforeCount 3 and what the hunks add (0"},
		{"both lines and texts", strings.Replace(hunks(1, 1, `{"first":0,"before":["a"],"after":["b"]}`), `"lines"`, `"beforeText":"a","afterText":"b","lines"`, 1), "takes lines or beforeText and afterText, not both"},
	}
	for _, tt := range tests {
		out := string(Call("diagnosticsDelta", []byte(tt.in)))
		if !strings.Contains(out, `"LSP_INVALID_ARGUMENT"`) || !strings.Contains(out, tt.want) {
			t.Errorf("%s: %s, want LSP_INVALID_ARGUMENT with %q", tt.name, out, tt.want)
		}
	}
	// Adjacent hunks, one that only adds lines at the end, and equal lines
	// at a hunk's ends are well formed.
	ok := hunks(4, 5, `{"first":0,"before":["a"],"after":["A"]},{"first":1,"before":["b","c"],"after":["b","C"]},{"first":4,"before":[],"after":["e"]}`)
	if out := Call("diagnosticsDelta", []byte(ok)); !bytes.Contains(out, []byte(`"ok"`)) {
		t.Errorf("well-formed hunks: %s", out)
	}
}

// The hunks map every line as the edit script of the whole texts does
// (diffMiddle): random texts of few distinct lines, so that changes fall
// close together and far apart.
func TestDeltaLinesMapAsTheDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		lines := make([]string, r.IntN(30))
		for i := range lines {
			lines[i] = string(rune('a' + r.IntN(4)))
		}
		return strings.Join(lines, "\n")
	}
	for range 2000 {
		before, after := text(), text()
		b, a := SplitLines(before), SplitLines(after)
		c := placed(LinesChanged(before, after))
		i, j := 0, 0
		for _, op := range diffMiddle(nil, b, a) {
			switch op {
			case '=':
				if to, ok := c.mapLine(uint32(i)); !ok || int(to) != j {
					t.Fatalf("%q → %q: line %d maps to %d, %v; the diff maps it to %d", before, after, i, to, ok, j)
				}
				i, j = i+1, j+1
			case '-':
				if _, ok := c.mapLine(uint32(i)); ok {
					t.Fatalf("%q → %q: line %d, removed, maps", before, after, i)
				}
				i++
			default:
				if _, ok := c.afterLine(uint32(j)); !ok {
					t.Fatalf("%q → %q: after line %d, added, is not touched", before, after, j)
				}
				j++
			}
		}
	}
}
