package core

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Fuzz targets of the catalog's translators of server payloads: the
// code_symbols outline and search (codeSymbols), the code_hover text
// (codeHover) and code_inlay_hints (inlayHints), seeded with their golden
// cases. Besides checkEnvelope's rules (documented codes, no panic, size
// bounded by the input), each checks the limit, the counts and the
// one-based coordinates of what it answers.

// symbolsLimitOf is the limit an input asks for, as the methods read it
// (the methods reject any other value).
func symbolsLimitOf(input []byte) int {
	if l := gjson.GetBytes(input, "limit"); l.Type == gjson.Number && l.Int() != 0 {
		return int(l.Int())
	}
	return DefaultSymbolLimit
}

func FuzzCodeSymbols(f *testing.F) {
	seed(f, "codeSymbols")
	f.Fuzz(func(t *testing.T, input []byte) {
		ok := checkEnvelope(t, input, Call("codeSymbols", input), 8*len(input)+8192)
		if !ok.Exists() {
			return
		}
		limit := symbolsLimitOf(input)
		total := int(ok.Get("totalFound").Int())
		count := 0
		var walk func(list gjson.Result, depth int)
		walk = func(list gjson.Result, depth int) {
			if depth > maxSymbolDepth {
				t.Fatalf("symbols nested deeper than %d: %s", maxSymbolDepth, ok.Raw)
			}
			for _, s := range list.Array() {
				count++
				line := s.Get("line")
				if (line.Exists() && line.Int() < 1) || (s.Get("column").Exists() && s.Get("column").Int() < 1) ||
					(s.Get("endLine").Exists() && s.Get("endLine").Int() < line.Int()) || line.Exists() != s.Get("column").Exists() {
					t.Fatalf("bad coordinates %s", s.Raw)
				}
				if ok.Get("mode").Str == "workspace" && s.Get("children").Exists() {
					t.Fatalf("workspace symbol with children: %s", s.Raw)
				}
				walk(s.Get("children"), depth+1)
			}
		}
		walk(ok.Get("symbols"), 1)
		// A page (offset) is truncated when matches follow it.
		offset := int(ok.Get("offset").Int())
		if count > limit || offset+count > total || ok.Get("truncated").Bool() != (offset+count < total) {
			t.Fatalf("%d symbols from %d of %d, limit %d, truncated %v", count, offset, total, limit, ok.Get("truncated").Bool())
		}
		if (total == 0) != ok.Get("notice").Exists() {
			t.Fatalf("notice iff no symbols: %s", ok.Raw)
		}
		r := ok.Get("rendered")
		if r.Get("text").Str == "" || int(r.Get("shown").Int()) != count || int(r.Get("omitted").Int()) != total-offset-count {
			t.Fatalf("rendered counts: %s (%d of %d)", r.Raw, count, total)
		}
	})
}

func FuzzCodeHover(f *testing.F) {
	seed(f, "codeHover")
	f.Fuzz(func(t *testing.T, input []byte) {
		ok := checkEnvelope(t, input, Call("codeHover", input), 8*len(input)+128*1024)
		if !ok.Exists() {
			return
		}
		text := ok.Get("text").Str
		if utf8.RuneCountInString(text) > maxHoverTextRunes {
			t.Fatalf("text of %d code points", utf8.RuneCountInString(text))
		}
		if (text == "") != ok.Get("notice").Exists() {
			t.Fatalf("notice iff no text: %s", ok.Raw)
		}
		if ok.Get("signature").Exists() && !strings.Contains(text, signatureLead) && utf8.RuneCountInString(text) < maxHoverTextRunes {
			t.Fatalf("signature not in the text: %s", ok.Raw)
		}
		rendered := ok.Get("rendered.text").Str
		if subject := gjson.GetBytes(input, "subject").Str; subject != "" && utf8.ValidString(subject) && !strings.HasPrefix(rendered, subject+"\n") {
			t.Fatalf("rendered text does not start with the subject: %q", rendered)
		}
		if rendered == "" {
			t.Fatalf("empty rendered text: %s", ok.Raw)
		}
	})
}

func FuzzInlayHints(f *testing.F) {
	seed(f, "inlayHints")
	f.Fuzz(func(t *testing.T, input []byte) {
		ok := checkEnvelope(t, input, Call("inlayHints", input), 8*len(input)+8192)
		if !ok.Exists() {
			return
		}
		limit := symbolsLimitOf(input)
		hints := ok.Get("hints").Array()
		total := int(ok.Get("totalFound").Int())
		offset := int(ok.Get("offset").Int())
		if asked := gjson.GetBytes(input, "offset").Int(); offset != min(int(asked), total) {
			t.Fatalf("offset %d, asked %d of %d: %s", offset, asked, total, ok.Raw)
		}
		if len(hints) > limit || offset+len(hints) > total || ok.Get("truncated").Bool() != (offset+len(hints) < total) {
			t.Fatalf("%d hints from %d of %d, limit %d: %s", len(hints), offset, total, limit, ok.Raw)
		}
		if ok.Get("resultKey").Type != gjson.String {
			t.Fatalf("no resultKey: %s", ok.Raw)
		}
		if (total == 0) != ok.Get("notice").Exists() {
			t.Fatalf("notice iff no hints: %s", ok.Raw)
		}
		prevLine, prevCol := int64(0), int64(0)
		for _, h := range hints {
			line, col := h.Get("line").Int(), h.Get("column").Int()
			if line < 1 || col < 1 {
				t.Fatalf("hint not one-based: %s", h.Raw)
			}
			if line < prevLine || (line == prevLine && col < prevCol) {
				t.Fatalf("hints not sorted by position: %s", ok.Get("hints").Raw)
			}
			prevLine, prevCol = line, col
			switch h.Get("kind").Str {
			case "", "type", "parameter":
			default:
				t.Fatalf("unknown kind: %s", h.Raw)
			}
		}
		if lines := strings.Count(ok.Get("rendered.text").Str, "\n"); total > 0 && lines != len(hints)+btoi(offset > 0)+btoi(offset+len(hints) < total) {
			t.Fatalf("rendered %d lines for %d hints from %d of %d: %q", lines, len(hints), offset, total, ok.Get("rendered.text").Str)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
