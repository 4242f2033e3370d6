package core

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
)

// The bytes a host needs to send (outline.go): for every golden case that
// passes whole files and raw outlines, the same call with flattenSymbols'
// entries (all of them, then only those a host would pick) and the lines
// the call needs answers byte for byte the same.

type outlineEntry struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	Container      string          `json:"container,omitempty"`
	Range          json.RawMessage `json:"range"`
	SelectionRange json.RawMessage `json:"selectionRange"`
	rng, sel       Range
}

// flattenFor calls flattenSymbols as a host does, once per file version.
func flattenFor(t *testing.T, symbols json.RawMessage, text string) ([]outlineEntry, bool) {
	t.Helper()
	in, _ := json.Marshal(map[string]any{"symbols": symbols, "text": text})
	out := Call("flattenSymbols", in)
	var env struct {
		OK struct {
			Symbols []outlineEntry `json:"symbols"`
		} `json:"ok"`
	}
	if !bytes.HasPrefix(out, []byte(`{"ok":`)) {
		return nil, false // malformed symbols: the call's own error
	}
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatalf("flattenSymbols: %v %s", err, out)
	}
	for i := range env.OK.Symbols {
		e := &env.OK.Symbols[i]
		e.rng, _ = rangeOf(gjson.ParseBytes(e.Range), at{"", -1}, "range")
		e.sel, _ = rangeOf(gjson.ParseBytes(e.SelectionRange), at{"", -1}, "selectionRange")
	}
	return env.OK.Symbols, true
}

// namedIn is a host's pick for a symbol target: the entries whose name is
// in the query.
func namedIn(outline []outlineEntry, query string) []outlineEntry {
	out := []outlineEntry{}
	for _, e := range outline {
		if strings.Contains(strings.TrimSpace(query), e.Name) {
			out = append(out, e)
		}
	}
	return out
}

// onLines is a host's pick for locations: the entries holding one of the
// lines.
func onLines(outline []outlineEntry, lines map[uint32]bool) []outlineEntry {
	out := []outlineEntry{}
	for _, e := range outline {
		for l := range lines {
			if (e.rng.Start.Line <= l && l <= e.rng.End.Line) || e.sel.Start.Line == l {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

func chunksOf(text string, lines []uint32) []map[string]any {
	all := SplitLines(text)
	out := []map[string]any{}
	for _, l := range lines {
		if int(l) < len(all) {
			out = append(out, map[string]any{"start": l, "lines": []string{all[l]}})
		}
	}
	return out
}

func TestOutlineAnswersAsWholeFiles(t *testing.T) {
	cases, err := casefile.Load(casefile.Dir(".."))
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	for _, c := range cases {
		if c.InputRaw != nil || c.Want == "LSP_INVALID_ARGUMENT" {
			continue
		}
		var in map[string]json.RawMessage
		if json.Unmarshal(c.Input, &in) != nil {
			continue
		}
		want := Call(c.Method, c.Bytes())
		same := func(variant string, v map[string]any) {
			t.Helper()
			b, _ := json.Marshal(v)
			if got := Call(c.Method, b); !bytes.Equal(got, want) {
				t.Errorf("%s %q %s:\n got %s\nwant %s", c.Method, c.Name, variant, got, want)
			}
			checked[c.Method]++
		}
		copyIn := func() map[string]any {
			v := map[string]any{}
			for k, x := range in {
				v[k] = x
			}
			return v
		}
		switch c.Method {
		case "resolveTarget":
			var text string
			if json.Unmarshal(in["text"], &text) != nil || !gjson.ParseBytes(in["symbols"]).IsArray() {
				continue // no symbols, or malformed ones: the flattening's own answer
			}
			outline, ok := flattenFor(t, in["symbols"], text)
			if !ok {
				continue
			}
			v := copyIn()
			delete(v, "symbols")
			v["outline"] = outline
			same("with the whole outline", v)
			var target Target
			json.Unmarshal(in["target"], &target)
			if strings.TrimSpace(target.Symbol) == "" {
				if target.Line <= 0 {
					continue
				}
				// A line target: the entries holding the line and the
				// line alone. A failure there sends the text again (the
				// host's retry), so only an answer must match.
				line := uint32(target.Line - 1)
				v = copyIn()
				delete(v, "symbols")
				delete(v, "text")
				v["outline"], v["lines"] = onLines(outline, map[uint32]bool{line: true}), chunksOf(text, []uint32{line})
				b, _ := json.Marshal(v)
				got := Call(c.Method, b)
				switch {
				case bytes.HasPrefix(want, []byte(`{"ok":`)) && target.Column == 0:
					same("with the line and the entries holding it", v)
				case !bytes.HasPrefix(got, []byte(`{"error":`)):
					t.Errorf("%s %q with the line alone: got %s, want an error that asks for the text (the whole file answers %s)", c.Method, c.Name, got, want)
				}
				continue
			}
			if c.Want == string(CodeTargetNotFound) {
				// The host asks again with the whole outline and the
				// lines holding the name.
				var naming []uint32
				for _, sp := range LinesNaming(text, target.Symbol) {
					naming = append(naming, sp.Start)
				}
				v = copyIn()
				delete(v, "symbols")
				delete(v, "text")
				v["outline"], v["lines"] = outline, chunksOf(text, naming)
				same("with the whole outline and the lines naming it", v)
				continue
			}
			picked := namedIn(outline, target.Symbol)
			var lines []uint32
			for _, e := range picked {
				lines = append(lines, e.sel.Start.Line)
			}
			v = copyIn()
			delete(v, "symbols")
			delete(v, "text")
			v["outline"], v["lines"] = picked, chunksOf(text, lines)
			if c.Want == string(CodeTargetNotFound) {
				// Not in the picked entries: the host cannot tell from
				// here whether the whole outline has the nearest names.
				continue
			}
			same("with the picked entries and lines", v)
		case "codeLocations":
			var files map[string]json.RawMessage
			var symbols map[string]json.RawMessage
			json.Unmarshal(in["files"], &files)
			json.Unmarshal(in["symbols"], &symbols)
			if len(symbols) == 0 {
				continue
			}
			outlines := map[string]any{}
			for uri, raw := range symbols {
				var text string
				if json.Unmarshal(files[uri], &text) != nil {
					continue // no text: symbols stay raw (unplaced)
				}
				var locs []Location
				for _, l := range gjson.GetBytes(in["locations"], "@this").Array() {
					loc, _ := locationOrLink(l, at{"", -1})
					if loc.URI == uri {
						locs = append(locs, loc)
					}
				}
				lines := map[uint32]bool{}
				for _, l := range locs {
					lines[l.Range.Start.Line] = true
				}
				outline, ok := flattenFor(t, raw, text)
				if !ok {
					continue
				}
				outlines[uri] = onLines(outline, lines)
			}
			v := copyIn()
			v["outlines"] = outlines
			same("with the outlines of the locations' lines", v)
			// And the files as the planned spans alone.
			b, _ := json.Marshal(v)
			plan := gjson.ParseBytes(Call("planSnippets", b)).Get("ok.files")
			chunked := map[string]any{}
			for uri, raw := range files {
				var text string
				if json.Unmarshal(raw, &text) != nil {
					chunked[uri] = raw
					continue
				}
				all := SplitLines(text)
				chunks := []map[string]any{}
				for _, f := range plan.Array() {
					if f.Get("uri").Str != uri {
						continue
					}
					for _, sp := range f.Get("spans").Array() {
						start, end := int(sp.Get("start").Int()), int(sp.Get("end").Int())
						if start < len(all) {
							chunks = append(chunks, map[string]any{"start": start, "lines": all[start:min(end+1, len(all))]})
						}
					}
				}
				chunked[uri] = chunks
			}
			v["files"] = chunked
			same("with the outlines and the planned lines", v)
		case "request":
			var text string
			if json.Unmarshal(in["text"], &text) != nil {
				continue
			}
			var pos Position
			json.Unmarshal(in["position"], &pos)
			lines := SplitLines(text)
			if int(pos.Line) >= len(lines) {
				continue // past the end: the host sends the text
			}
			v := copyIn()
			delete(v, "text")
			v["line"] = lines[pos.Line]
			same("with the line", v)
		}
	}
	for _, m := range []string{"resolveTarget", "codeLocations", "request"} {
		if checked[m] < 3 {
			t.Errorf("%s: only %d cases checked; the golden cases should exercise outlines and lines", m, checked[m])
		}
	}
	t.Logf("checked %v", checked)
}
