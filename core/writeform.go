package core

import (
	"strconv"
	"strings"
)

// The write tool's form rule: whether the content a model writes over an
// existing file keeps the file's byte order mark and line breaks.
//
// A model writes "\n" for every line break and never sees a byte order
// mark (read does not show it), so content that has neither says nothing
// about the form the file should have; written as given it converted a
// CRLF file to LF (every line changed in a diff) and dropped the mark,
// while edit and the refactor tools keep both (textform.go). So:
//
//   - The mark: a file that starts with one keeps it when the content
//     does not start with one. A content with its own mark is written as
//     given.
//   - Line breaks: a file whose breaks are all one kind other than "\n"
//     (all CRLF, or all lone CR) gets the content's breaks in that kind
//     when the content's breaks are all "\n" (no "\r" at all). A content
//     with any "\r" is written as given: the model chose its breaks.
//   - A file with mixed breaks is written as given: a whole new content
//     has no lines of the old mix to keep, and the majority would
//     convert the minority anyway, so the content's own breaks are the
//     predictable choice, and the answer says the file's breaks changed.
//
// Whatever is kept or changed is said: Kept names what the file kept that
// the content did not have, Changed what the written file's form is now
// that the file's was not (a mark added, breaks of another kind), so no
// write changes a file's form without the answer saying so.

// WriteForm is WriteText's answer.
type WriteForm struct {
	Text       string // what to write
	LineEnding string // of Text: "lf", "crlf", "cr", "mixed" or "none"
	BOM        bool   // Text starts with a byte order mark
	Kept       string // what the file kept, as a clause ("" when nothing)
	Changed    string // how the file's form changed, as a clause ("" when it did not)
}

// WriteText is the text write puts in a file whose current text is
// current (exists false: a new file, written as given) for the model's
// content (see above).
func WriteText(current string, exists bool, content string) WriteForm {
	out := WriteForm{Text: content}
	if exists {
		oldBody, oldBOM := strings.CutPrefix(current, utf8BOM)
		_, newBOM := strings.CutPrefix(content, utf8BOM)
		var kept []string
		oc, ol, or := countLineBreaks(oldBody)
		nc, nl, nr := countLineBreaks(content)
		if nc == 0 && nr == 0 && nl > 0 {
			switch {
			case oc > 0 && ol == 0 && or == 0:
				out.Text = toCRLF(out.Text)
				kept = append(kept, `its CRLF line breaks (the content's \n written as \r\n)`)
			case or > 0 && oc == 0 && ol == 0:
				out.Text = strings.ReplaceAll(out.Text, "\n", "\r")
				kept = append(kept, `its CR line breaks (the content's \n written as \r)`)
			}
		}
		if oldBOM && !newBOM {
			out.Text = utf8BOM + out.Text
			kept = append(kept, "its byte order mark (U+FEFF, which read does not show)")
		}
		out.Kept = strings.Join(kept, " and ")
		var changed []string
		if !oldBOM && newBOM {
			changed = append(changed, "the content's byte order mark was added (the file had none)")
		}
		body := strings.TrimPrefix(out.Text, utf8BOM)
		wc, wl, wr := countLineBreaks(body)
		was, now := breakKinds(oc, ol, or), breakKinds(wc, wl, wr)
		if was != "" && now != "" && was != now {
			changed = append(changed, "its line breaks changed from "+was+" to "+now+" as the content has them")
		}
		out.Changed = strings.Join(changed, "; ")
	}
	body, bom := strings.CutPrefix(out.Text, utf8BOM)
	out.BOM = bom
	c, l, r := countLineBreaks(body)
	out.LineEnding = lineEndingStyle(c, l, r)
	if out.LineEnding == "mixed" && c == 0 && l == 0 {
		out.LineEnding = "cr"
	}
	return out
}

// breakKinds names a text's line breaks for a sentence: "CRLF", "LF",
// "CR", or "mixed (2 CRLF, 1 LF)"; "" when it has none.
func breakKinds(crlf, lf, cr int) string {
	var kinds []string
	for _, k := range []struct {
		n    int
		name string
	}{{crlf, "CRLF"}, {lf, "LF"}, {cr, "CR"}} {
		if k.n > 0 {
			kinds = append(kinds, strconv.Itoa(k.n)+" "+k.name)
		}
	}
	switch len(kinds) {
	case 0:
		return ""
	case 1:
		return kinds[0][strings.IndexByte(kinds[0], ' ')+1:]
	}
	return "mixed (" + strings.Join(kinds, ", ") + ")"
}
