package core

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tidwall/gjson"
)

// editsFromSpec turns fuzz bytes into edits over text: each 3 bytes pick a
// start line, a start character and a length (in UTF-16 units, spilling
// onto the next line at times), most of them inside the text; newTexts are
// cut from pieces.
func editsFromSpec(text string, spec []byte, pieces string) []TextEdit {
	lines := len(newLineIndex(text).starts)
	parts := strings.Split(pieces, "|")
	var edits []TextEdit
	for i := 0; i+2 < len(spec) && len(edits) < 64; i += 3 {
		l := uint32(int(spec[i]) % (lines + 1))
		c := uint32(spec[i+1] % 24)
		n := uint32(spec[i+2] % 8)
		end := Position{Line: l, Character: c + n}
		if spec[i+2]&0x80 != 0 {
			end = Position{Line: l + 1, Character: n}
		}
		edits = append(edits, TextEdit{Range: Range{Start: Position{Line: l, Character: c}, End: end}, NewText: parts[len(edits)%len(parts)]})
	}
	return edits
}

// oracleApply applies edits the slow way, on the text's UTF-16 units, as a
// check of the byte-offset conversion; ok is false when applyTextEdits
// must refuse them. With bom, edits at the start of a text that starts
// with a byte order mark start after it, and edits at the start drop a
// leading mark from their newText (textform.go; the line breaks are
// checked apart).
func oracleApply(text string, edits []TextEdit, bom bool) (string, bool) {
	u := utf16.Encode([]rune(text))
	var starts, ends []int
	s := 0
	for i := 0; i <= len(u); i++ {
		switch {
		case i == len(u):
			starts, ends = append(starts, s), append(ends, i)
		case u[i] == '\n' || u[i] == '\r':
			starts, ends = append(starts, s), append(ends, i)
			if u[i] == '\r' && i+1 < len(u) && u[i+1] == '\n' {
				i++
			}
			s = i + 1
			continue
		default:
			continue
		}
	}
	type span struct{ s, e, i int }
	off := func(p Position, end bool) (int, bool) {
		if int(p.Line) >= len(starts) {
			return len(u), end // an end past the last line: the text's end
		}
		o := min(starts[p.Line]+int(p.Character), ends[p.Line]) // past the line: its end
		if o > 0 && o < len(u) && utf16.IsSurrogate(rune(u[o])) && u[o] >= 0xDC00 {
			return 0, false
		}
		return o, true
	}
	var spans []span
	for i, e := range edits {
		a, ok1 := off(e.Range.Start, false)
		b, ok2 := off(e.Range.End, true)
		if !ok1 || !ok2 || b < a {
			return "", false
		}
		spans = append(spans, span{a, b, i})
	}
	slices.SortStableFunc(spans, func(x, y span) int {
		if x.s != y.s {
			return x.s - y.s
		}
		return boolInt(x.e > x.s) - boolInt(y.e > y.s)
	})
	var out []uint16
	at := 0
	for i, sp := range spans {
		if i > 0 && spans[i-1].e > sp.s {
			return "", false
		}
		newText := edits[sp.i].NewText
		if bom && sp.s == 0 {
			newText = strings.TrimPrefix(newText, utf8BOM)
			if len(u) > 0 && u[0] == 0xFEFF {
				sp.s, sp.e = 1, max(sp.e, 1)
			}
		}
		out = append(out, u[at:sp.s]...)
		out = append(out, utf16.Encode([]rune(newText))...)
		at = sp.e
	}
	out = append(out, u[at:]...)
	return string(utf16.Decode(out)), true
}

func applyInput(text string, edits []TextEdit, context int) []byte {
	b := append([]byte(`{"uri":"file:///w/f.txt","text":`), appendString(nil, text)...)
	b = append(b, `,"edits":`...)
	b = appendArray(b, edits)
	b = append(b, `,"workspaceUri":"file:///w","context":`...)
	b = appendInt(b, int64(context))
	return append(b, '}')
}

// applyInputAs is applyInput with verbatim set when asked.
func applyInputAs(text string, edits []TextEdit, context int, verbatim bool) []byte {
	b := applyInput(text, edits, context)
	if verbatim {
		b = append(b[:len(b)-1], `,"verbatim":true}`...)
	}
	return b
}

// fuzzedEdits is what the applyTextEdits fuzzers make of their arguments:
// the text as JSON carries it (valid UTF-8), edits from spec and pieces,
// the diff context and verbatim from context's bits, and the input.
type fuzzedEdits struct {
	text     string
	edits    []TextEdit
	context  int
	verbatim bool
	input    []byte
}

func fuzzEdits(text string, spec []byte, pieces string, context uint8) fuzzedEdits {
	text, pieces = strings.ToValidUTF8(text, "\uFFFD"), strings.ToValidUTF8(pieces, "\uFFFD")
	c := fuzzedEdits{text: text, edits: editsFromSpec(text, spec, pieces), context: int(context % 8), verbatim: context&0x80 != 0}
	c.input = applyInputAs(c.text, c.edits, c.context, c.verbatim)
	return c
}

// FuzzApplyTextEdits: any text and edits give a well-formed envelope with
// a documented code; an ok answer is what the UTF-16 oracle computes (with
// the file's form kept unless verbatim: its byte order mark kept and not
// added, and the same text once every line break is read as \n, all of
// them in the file's style when it had only one), its diff applies to the
// old text giving the new one with the counts it reports, and no edits
// leave the text as it was; a refusal is one the oracle agrees with.
func FuzzApplyTextEdits(f *testing.F) {
	for _, in := range fsCases(f, "applyTextEdits") {
		f.Add(in.Get("text").Str, []byte{0, 1, 2, 1, 0, 0x83}, "x|\n|😀", uint8(3))
	}
	for _, c := range textEditCases {
		f.Add(c.text, []byte{0, 0, 1, 1, 2, 0x81, 2, 0, 0}, "a\r\n|", uint8(1))
	}
	f.Fuzz(func(t *testing.T, text string, spec []byte, pieces string, context uint8) {
		c := fuzzEdits(text, spec, pieces, context)
		text, edits, verbatim, input := c.text, c.edits, c.verbatim, c.input
		env := Call("applyTextEdits", input)
		ok := checkEnvelope(t, input, env, 40*len(input)+1<<14)
		want, wantOK := oracleApply(text, edits, !verbatim)
		if !ok.Exists() {
			if code := gjson.GetBytes(env, "error.code").Str; code != string(CodeMalformedResponse) {
				t.Fatalf("unexpected error: %s", env)
			}
			if wantOK {
				t.Fatalf("refused edits the oracle applies (%q): %s", want, env)
			}
			return
		}
		got := ok.Get("text").Str
		diff := ok.Get("diff").Str
		switch {
		case !wantOK:
			t.Fatalf("applied edits the oracle refuses: %s", env)
		case verbatim && got != want:
			t.Fatalf("text %q, oracle %q", got, want)
		case !verbatim && asLF(got) != asLF(want):
			t.Fatalf("text %q, oracle %q (line breaks aside)", got, want)
		case !verbatim && strings.HasPrefix(got, utf8BOM) != strings.HasPrefix(text, utf8BOM):
			t.Fatalf("the byte order mark of %q is not kept: %q", text, got)
		case !verbatim && oneStyle(text) && asLF(got) != got && !(oneStyle(got) && dominantBreak(got) == dominantBreak(text)):
			t.Fatalf("edits of a text with %q breaks only made others: %q", dominantBreak(text), got)
		case len(edits) == 0 && (got != text || diff != ""):
			t.Fatalf("no edits changed the text: %s", env)
		case (got == text) != (diff == ""):
			t.Fatalf("diff %q for an unchanged=%v text", diff, got == text)
		}
		back, added, removed, err := applyUnifiedDiff(text, diff)
		if err != nil || back != got || added != int(ok.Get("linesAdded").Int()) || removed != int(ok.Get("linesRemoved").Int()) {
			t.Fatalf("diff %q does not apply (%v): %q, %d+ %d-: %s", diff, err, back, added, removed, env)
		}
		first, last := int(ok.Get("changedLines.first").Int()), int(ok.Get("changedLines.last").Int())
		if got != text && (first < 1 || last < first || last > max(countLines(got), 1)) {
			t.Fatalf("changedLines %d–%d of %d lines", first, last, countLines(got))
		}
	})
}

// FuzzPlanWorkspaceEdit: any input gives a well-formed envelope with a
// documented code; an ok plan lists each touched path once, lists outside
// URIs once, and its files' edits are accepted by applyTextEdits' reader.
func FuzzPlanWorkspaceEdit(f *testing.F) {
	seed(f, "planWorkspaceEdit")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("planWorkspaceEdit", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+1<<14)
		if !ok.Exists() {
			code := gjson.GetBytes(env, "error.code").Str
			if code != string(CodeMalformedResponse) && code != string(CodeInvalidArgument) {
				t.Fatalf("unexpected error: %s", env)
			}
			return
		}
		for _, list := range []string{"touched", "outside"} {
			seen := map[string]bool{}
			for _, v := range ok.Get(list).Array() {
				if seen[v.Str] {
					t.Fatalf("%s lists %q twice: %s", list, v.Str, env)
				}
				seen[v.Str] = true
			}
		}
		if ok.Get("summary").Str == "" {
			t.Fatalf("no summary: %s", env)
		}
		for _, file := range ok.Get("files").Array() {
			if _, problem := textEditsOf(file.Get("edits"), at{"edits", -1}); problem != "" {
				t.Fatalf("planned edits are not TextEdits (%s): %s", problem, env)
			}
		}
	})
}

// FuzzTargetEdit: any input gives a well-formed envelope with a documented
// code; an ok edit's range is ordered.
func FuzzTargetEdit(f *testing.F) {
	seed(f, "targetEdit")
	f.Fuzz(func(t *testing.T, input []byte) {
		env := Call("targetEdit", input)
		ok := checkEnvelope(t, input, env, 8*len(input)+1<<14)
		if !ok.Exists() {
			return
		}
		s, e := ok.Get("range.start"), ok.Get("range.end")
		if s.Get("line").Int() > e.Get("line").Int() || (s.Get("line").Int() == e.Get("line").Int() && s.Get("character").Int() > e.Get("character").Int()) {
			t.Fatalf("a reversed range: %s", env)
		}
	})
}

// asLF writes every line break of s as \n.
func asLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// oneStyle: all of s's line breaks (at least one) are of one kind.
func oneStyle(s string) bool {
	crlf, lf, cr := countLineBreaks(s)
	return boolInt(crlf > 0)+boolInt(lf > 0)+boolInt(cr > 0) == 1
}
