package core

import "strings"

// A file's form — whether it starts with a UTF-8 byte order mark, and the
// line break its lines end with — belongs to the file, not to an edit of
// it (issue 21: nothing lost, nothing leaked). Every edit path ends in
// applyTextEdits (code_insert and code_replace through targetEdit, and the
// servers' formatting, rename, code action and command edits), so the form
// is kept there, once, whatever made the edit:
//
//   - The mark is not text an edit can touch. lspseam sends servers the
//     file with its mark, so U+FEFF is character 0 of line 0 in their
//     positions; an edit starting before it (at 0:0) starts after it
//     instead, and a mark leading such an edit's newText is dropped. An
//     insertion at the top of the file goes after the mark, a formatter
//     that rewrites line 0 without it (gofmt) keeps it, and no edit adds
//     a mark to a file without one.
//   - The line breaks an edit writes take the file's dominant style: the
//     kind (\r\n, \n or \r) of more than half of its breaks. A model's
//     "\n" in a CRLF file becomes "\r\n", and a formatter that would turn
//     a CRLF file's breaks into "\n" writes "\r\n". Only the breaks that
//     overlap an edit's new text are rewritten (one the new text forms
//     with the byte beside it, "\r" + "\n", is one break); the file's
//     other lines keep their bytes, so a mixed file is not converted. A
//     file with no dominant style (no breaks, or no kind the majority)
//     gets the edits' breaks as sent.
//
// Positions cannot fall between the \r and \n of a break (a character past
// a line's content is its end), so an edit's range never splits a break;
// only new text makes breaks.

// dominantBreak is the line break of more than half of text's breaks, ""
// when no kind is (or text has none).
func dominantBreak(text string) string {
	crlf, lf, cr := countLineBreaks(text)
	return dominantOf(crlf, lf, cr)
}

// dominantOf is dominantBreak of a text with these line breaks.
func dominantOf(crlf, lf, cr int) string {
	switch {
	case crlf > lf+cr:
		return "\r\n"
	case lf > crlf+cr:
		return "\n"
	case cr > crlf+lf:
		return "\r"
	}
	return ""
}

// region is the span of an edit's new text in the new document.
type region struct{ start, end int }

// restyleBreaks rewrites as eol every line break of text that overlaps one
// of regions (sorted, disjoint).
func restyleBreaks(text string, regions []region, eol string) string {
	var b strings.Builder
	done := 0
	for _, r := range regions {
		if r.start == r.end {
			continue
		}
		i := max(r.start, done)
		if i > 0 && i == r.start && text[i-1] == '\r' && i < len(text) && text[i] == '\n' && i-1 >= done {
			i-- // a \r before the new text's \n: one break
		}
		for ; i < r.end; i++ {
			if text[i] != '\n' && text[i] != '\r' {
				continue
			}
			n := 1
			if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				n = 2
			}
			if text[i:i+n] != eol {
				if b.Len() == 0 {
					b.Grow(len(text) + len(text)/8)
				}
				b.WriteString(text[done:i])
				b.WriteString(eol)
				done = i + n
			}
			i += n - 1
		}
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}
