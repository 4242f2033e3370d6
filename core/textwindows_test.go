package core

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// applyThroughWindows is applyTextEdits as a host with windows does it:
// the windows' new texts spliced back into text, or, when the text is not
// windowed or the windows' answer is any error, the whole text's answer.
func applyThroughWindows(text string, edits []TextEdit, context int, verbatim bool) (env []byte, windowed bool) {
	whole := applyInputAs(text, edits, context, verbatim)
	raw := appendArray(nil, edits)
	w, ok := TextEditWindows(text, raw, context)
	if !ok {
		return Call("applyTextEdits", whole), false
	}
	wins := make([]map[string]any, len(w.Windows))
	for i, win := range w.Windows {
		wins[i] = map[string]any{"line": win.Line, "text": text[win.Start:win.End]}
	}
	in, _ := json.Marshal(map[string]any{"uri": "file:///w/f.txt", "windows": wins, "lines": w.Lines, "lineBreaks": w.LineBreaks,
		"edits": json.RawMessage(raw), "workspaceUri": "file:///w", "context": context, "verbatim": verbatim})
	out := Call("applyTextEdits", in)
	ans := gjson.GetBytes(out, "ok")
	if !ans.Exists() {
		return Call("applyTextEdits", whole), false
	}
	var res map[string]json.RawMessage
	json.Unmarshal([]byte(ans.Raw), &res)
	var news []WindowText
	json.Unmarshal(res["windows"], &news)
	delete(res, "windows")
	res["text"], _ = json.Marshal(w.Splice(text, news))
	env, _ = json.Marshal(map[string]any{"ok": res})
	return env, true
}

// windowedText is a random text of many short lines for the windows'
// tests: \n and \r\n line breaks (never a lone \r), a byte order mark and
// a last line without a break now and then.
func windowedText(r *rand.Rand) string {
	words := []string{"a", "b", "ab", "x", "é", "😀", "\t", " ", "}", "func"}
	var b strings.Builder
	if r.Intn(8) == 0 {
		b.WriteString(utf8BOM)
	}
	crlf := r.Intn(3) // 0: \n, 1: \r\n, 2: both
	n := 20 + r.Intn(60)
	for i := range n {
		for range r.Intn(4) {
			b.WriteString(words[r.Intn(len(words))])
		}
		if i == n-1 && r.Intn(3) == 0 {
			break
		}
		if crlf == 1 || crlf == 2 && r.Intn(2) == 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// windowedEdits are random edits of text that keep apart, mostly a
// rename's: a word replaced on a few lines far apart, with now and then a
// line inserted or removed, a replacement across a line break, an edit
// past its line's end or at the text's start, and an insertion holding
// line breaks.
func windowedEdits(r *rand.Rand, text string) []TextEdit {
	lines := uint32(len(newLineIndex(text).starts))
	news := []string{"renamed", "", "x\n", "a\r\nb", "\n", "😀", "y", "z\r"}
	var edits []TextEdit
	for l := uint32(r.Intn(6)); l < lines; l += uint32(2 + r.Intn(25)) {
		e := TextEdit{Range: Range{Start: Position{Line: l, Character: uint32(r.Intn(4))}}, NewText: news[r.Intn(len(news))]}
		e.Range.End = Position{Line: l, Character: e.Range.Start.Character + uint32(r.Intn(3))}
		switch r.Intn(8) {
		case 0: // the line removed
			e.Range = Range{Start: Position{Line: l}, End: Position{Line: l + 1}}
			e.NewText = ""
		case 1: // across the line break
			e.Range.End = Position{Line: l + 1, Character: uint32(r.Intn(2))}
		case 2: // past the line's end
			e.Range.Start.Character, e.Range.End.Character = 200, 200
		}
		if e.Range.End.Line >= lines {
			break
		}
		edits = append(edits, e)
	}
	r.Shuffle(len(edits), func(i, j int) { edits[i], edits[j] = edits[j], edits[i] })
	return edits
}

// Edits answer through windows as through the whole text: the same new
// text, diff, changed lines and counts, for random texts of every form
// and rename-like edits, in every diff context; and the text is windowed
// most of the time, so the windows are what is tested. (The whole text is
// diffed in the same windows: a diff of windows apart could show a line
// inserted next to an equal one elsewhere than a diff of the whole texts,
// in 2,132 of these 11,781.)
func TestTextEditWindowsAnswerAsWholeText(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	windowed, runs := 0, 20000
	for range runs {
		text := windowedText(r)
		edits := windowedEdits(r, text)
		context, verbatim := r.Intn(5), r.Intn(6) == 0
		whole := Call("applyTextEdits", applyInputAs(text, edits, context, verbatim))
		got, w := applyThroughWindows(text, edits, context, verbatim)
		if w {
			windowed++
		}
		if !sameEnvelope(got, whole) {
			t.Fatalf("text %q, edits %+v, context %d, verbatim %v:\n through windows %s\n whole text      %s", text, edits, context, verbatim, got, whole)
		}
		// Both are diffed in windows: the changed lines must still be the
		// whole texts' (changedLinesOf), and the diff must apply.
		if ok := gjson.GetBytes(got, "ok"); ok.Exists() {
			newText := ok.Get("text").Str
			first, last := changedLinesOf(text, newText)
			back, _, _, err := applyUnifiedDiff(text, ok.Get("diff").Str)
			if newText != text && (int(ok.Get("changedLines.first").Int()) != first || int(ok.Get("changedLines.last").Int()) != last) || err != nil || back != newText {
				t.Fatalf("text %q, edits %+v, context %d: changedLines %s, the whole texts' %d–%d; the diff applies: %v", text, edits, context, ok.Get("changedLines").Raw, first, last, err)
			}
		}
	}
	if windowed < runs/2 {
		t.Fatalf("only %d of %d texts were windowed", windowed, runs)
	}
}

func TestTextEditWindows(t *testing.T) {
	lines := func(n int, eol string) string { return strings.Repeat("line"+eol, n) }
	edit := func(l1, c1, l2, c2 uint32) TextEdit {
		return TextEdit{Range: Range{Start: Position{Line: l1, Character: c1}, End: Position{Line: l2, Character: c2}}, NewText: "z"}
	}
	for _, c := range []struct {
		name    string
		text    string
		edits   []TextEdit
		context int
		want    []TextWindow // nil: not windowed
	}{
		{"one edit, context 3", lines(40, "\n"), []TextEdit{edit(10, 0, 10, 1)}, 3,
			[]TextWindow{{Line: 7, Start: 35, End: 70}}},
		{"two far apart", lines(40, "\n"), []TextEdit{edit(30, 0, 30, 1), edit(5, 0, 5, 1)}, 1,
			[]TextWindow{{Line: 4, Start: 20, End: 35}, {Line: 29, Start: 145, End: 160}}},
		{"near ones merge (a hunk's reach)", lines(40, "\n"), []TextEdit{edit(5, 0, 5, 1), edit(12, 0, 12, 1)}, 3,
			[]TextWindow{{Line: 2, Start: 10, End: 80}}},
		{"context 0 keeps a line", lines(40, "\r\n"), []TextEdit{edit(10, 0, 11, 0)}, 0,
			[]TextWindow{{Line: 9, Start: 54, End: 78}}},
		{"at the start", lines(40, "\n"), []TextEdit{edit(0, 0, 0, 0)}, 3,
			[]TextWindow{{Line: 0, Start: 0, End: 20}}},
		{"at the end without a last break", lines(40, "\n") + "last", []TextEdit{edit(40, 0, 40, 4)}, 3,
			[]TextWindow{{Line: 37, Start: 185, End: 204}}},
		{"the empty line after the last break", lines(40, "\n"), []TextEdit{edit(40, 0, 40, 0)}, 1,
			[]TextWindow{{Line: 39, Start: 195, End: 200}}},
		{"past the last line", lines(40, "\n"), []TextEdit{edit(39, 0, 41, 0)}, 3, nil},
		{"half the text", lines(10, "\n"), []TextEdit{edit(5, 0, 5, 1)}, 3, nil},
		{"a lone \\r", lines(20, "\n") + "a\rb\n" + lines(20, "\n"), []TextEdit{edit(2, 0, 2, 1)}, 3, nil},
		{"no edits", lines(40, "\n"), nil, 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, ok := TextEditWindows(c.text, appendArray(nil, c.edits), c.context)
			if ok != (c.want != nil) || ok && !equalWindows(w.Windows, c.want) {
				t.Fatalf("windows %+v (ok %v), want %+v", w.Windows, ok, c.want)
			}
			if ok && (w.Lines != countLines(c.text) || w.LineBreaks[0]+w.LineBreaks[1] != strings.Count(c.text, "\n")) {
				t.Fatalf("lines %d, breaks %v of %q", w.Lines, w.LineBreaks, c.text)
			}
		})
	}
}

func equalWindows(a, b []TextWindow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTextEditWindowsArgumentErrors(t *testing.T) {
	base := `"uri":"file:///w/f.txt","edits":[{"range":{"start":{"line":5,"character":0},"end":{"line":5,"character":1}},"newText":"z"}]`
	for _, c := range []struct{ in, want string }{
		{`{` + base + `,"text":"a","windows":[],"lines":1,"lineBreaks":[0,0,0]}`, "text or windows"},
		{`{` + base + `,"windows":[{"line":4,"text":"a\nb\nc\n"}],"lineBreaks":[0,9,0]}`, "lines must be"},
		{`{` + base + `,"windows":[{"line":4,"text":"a\nb\nc\n"}],"lines":9,"lineBreaks":[0,9]}`, "lineBreaks must be"},
		{`{` + base + `,"windows":[{"line":4,"text":"a\nb\nc\n"}],"lines":9,"lineBreaks":[0,9,1]}`, "lone \\r"},
		{`{` + base + `,"windows":{},"lines":9,"lineBreaks":[0,9,0]}`, "windows must be an array"},
		{`{` + base + `,"windows":[],"lines":9,"lineBreaks":[0,9,0]}`, "at least one window"},
		{`{` + base + `,"windows":[{"line":4}],"lines":9,"lineBreaks":[0,9,0]}`, "must be {line, text}"},
		{`{` + base + `,"windows":[{"line":4,"text":"a\nb"}],"lines":9,"lineBreaks":[0,9,0]}`, "must end with its last line's line break"},
		{`{` + base + `,"windows":[{"line":4,"text":"a\nb\nc\n"},{"line":5,"text":"x\n"}],"lines":9,"lineBreaks":[0,9,0]}`, "inside the window before it"},
		{`{` + base + `,"windows":[{"line":7,"text":"a\nb\nc\n"}],"lines":9,"lineBreaks":[0,9,0]}`, "reaches past"},
		{`{` + base + `,"windows":[{"line":1,"text":"a\nb\nc\n"}],"lines":9,"lineBreaks":[0,9,0]}`, "edits[0] (5:0–5:1) is not inside one window"},
		{`{` + base + `,"windows":[{"line":6,"text":"a\nb\nc\n"}],"lines":9,"lineBreaks":[0,9,0]}`, "edits[0] (5:0–5:1) is not inside one window"},
	} {
		env := Call("applyTextEdits", []byte(c.in))
		if code := gjson.GetBytes(env, "error.code").Str; code != string(CodeInvalidArgument) || !strings.Contains(gjson.GetBytes(env, "error.message").Str, c.want) {
			t.Errorf("%s\n → %s, want LSP_INVALID_ARGUMENT saying %q", c.in, env, c.want)
		}
	}
}

// FuzzTextEditWindows: any text and edits answer through windows as
// through the whole text, refusals included, with the whole texts'
// changed lines.
func FuzzTextEditWindows(f *testing.F) {
	r := rand.New(rand.NewSource(2))
	for i := range 8 {
		f.Add(windowedText(r), []byte{byte(i), 0, 1, byte(10 + i), 2, 0x81, byte(30 + i), 200, 0}, "renamed|\n|x\r\ny|", uint8(i))
	}
	f.Fuzz(func(t *testing.T, text string, spec []byte, pieces string, context uint8) {
		c := fuzzEdits(text, spec, pieces, context)
		text = c.text
		whole := Call("applyTextEdits", c.input)
		if got, _ := applyThroughWindows(text, c.edits, c.context, c.verbatim); !sameEnvelope(got, whole) {
			t.Fatalf("through windows %s\nwhole text      %s", got, whole)
		}
		if ok := gjson.GetBytes(whole, "ok"); ok.Exists() && ok.Get("text").Str != text {
			first, last := changedLinesOf(text, ok.Get("text").Str)
			if int(ok.Get("changedLines.first").Int()) != first || int(ok.Get("changedLines.last").Int()) != last {
				t.Fatalf("changedLines %s, the whole texts' %d–%d: %s", ok.Get("changedLines").Raw, first, last, whole)
			}
		}
	})
}
