package core

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The position checked against the document, and the subject of an answer.
//
// A host reads the source file anyway (it sends it in didOpen), so the core
// checks the model's position against that text before any request is
// sent: a line past the end of the file or a column past the end of its
// line would otherwise reach the server, which answers with a zero-based
// error of its own (gopls: "line number 98 out of range") or, worse,
// silently about another line (typescript-language-server and pyright clamp
// the offset). The error is in the tool's terms: one-based, quoting the
// line.
//
// Lines are counted as read tools number them: a line ends at "\n", "\r\n"
// or "\r" (LSP's line terminators), and a line break at the end of the file
// ends its last line rather than starting an empty one. A column is valid
// from 1 up to one past the line's last UTF-16 code unit: LSP positions sit
// between characters, and the position just after an identifier that ends
// the line is one servers answer for.
//
// The subject is the first line of every answer: the identifier at the
// position, so an off-by-one is visible to the model. A column on an
// identifier character names that identifier; a column just after one (on
// "." of "s.Get", or at the end of the line) names the identifier before it
// and says so, as servers answer for that identifier; otherwise the line
// says there is no identifier there and quotes the line.

// maxQuotedLine bounds a quoted line of source, in bytes.
const maxQuotedLine = 160

// positionConvention ends every position error.
const positionConvention = "line and character are one-based; character counts UTF-16 code units (an emoji counts as 2)."

// CheckPosition checks a zero-based position against a document's text and
// returns the subject line of the answer (see above), or
// LSP_INVALID_ARGUMENT in one-based terms when the position is not in the
// text.
func CheckPosition(text string, pos Position) (string, *Error) {
	line, ok := lineAt(text, pos.Line)
	if !ok {
		return "", lineError(text, pos.Line)
	}
	width := utf16Len(line)
	if uint64(pos.Character) > uint64(width) {
		msg := "character " + strconv.FormatUint(toOneBased(pos.Character), 10) + " is past the end of line " + strconv.FormatUint(toOneBased(pos.Line), 10)
		if width == 0 {
			msg += ", which is empty: column 1 is its only column"
		} else {
			msg += ", which has " + strconv.Itoa(width) + " " + plural(width, "character", "characters") + " (the last column is " +
				strconv.Itoa(width) + ", and " + strconv.Itoa(width+1) + " is just after it): " + quoteLine(line)
		}
		return "", &Error{Code: CodeInvalidArgument, Message: msg + ". " + upperFirst(positionConvention)}
	}
	return subjectLine(line, pos), nil
}

// lineAt returns line n (zero-based) of text, without its terminator.
func lineAt(text string, n uint32) (string, bool) {
	start := 0
	for i := uint32(0); i < n; i++ {
		end := lineEnd(text, start)
		if end == len(text) {
			return "", false
		}
		start = end + terminatorLen(text, end)
		if start == len(text) {
			return "", false // a final line break ends the last line
		}
	}
	if start == len(text) {
		return "", false // an empty file has no lines
	}
	return text[start:lineEnd(text, start)], true
}

// lineEnd is the index of the first line terminator at or after start, or
// len(text).
func lineEnd(text string, start int) int {
	if i := strings.IndexAny(text[start:], "\r\n"); i >= 0 {
		return start + i
	}
	return len(text)
}

func terminatorLen(text string, i int) int {
	if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
		return 2
	}
	return 1
}

// lineError is the error for a line past the end of text.
func lineError(text string, line uint32) *Error {
	n, last := 0, ""
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		n, last = n+1, text[start:end]
		if end == len(text) {
			break
		}
		start = end + terminatorLen(text, end)
	}
	msg := "line " + strconv.FormatUint(toOneBased(line), 10) + " is past the end of the file, "
	if n == 0 {
		msg += "which is empty: there is nothing to ask about"
	} else {
		msg += "which has " + strconv.Itoa(n) + " " + plural(n, "line", "lines") + "; its last line, " + strconv.Itoa(n) + ", is " + quoteLine(last)
	}
	return &Error{Code: CodeInvalidArgument, Message: msg + ". " + upperFirst(positionConvention)}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// subjectLine names what is at pos on line (pos is valid for it).
func subjectLine(line string, pos Position) string {
	// Find the code points before and at the column.
	col := int(pos.Character)
	at, atStart, before, beforeStart := rune(-1), -1, rune(-1), -1
	u := 0
	for i, r := range line {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if u+w <= col {
			before, beforeStart = r, i
		} else if at < 0 {
			at, atStart = r, i
			break
		}
		u += w
	}
	where := "line " + strconv.FormatUint(toOneBased(pos.Line), 10) + ", column " + strconv.FormatUint(toOneBased(pos.Character), 10)
	if at >= 0 && identChar(at) {
		if id := identifierAround(line, atStart); id != "" {
			return quoteCode(id) + " at " + where + ":"
		}
	}
	if before >= 0 && identChar(before) && beforeStart >= 0 {
		if id := identifierAround(line, beforeStart); id != "" {
			on := "at the end of the line"
			if at >= 0 {
				on = "on " + quoteCode(string(at))
			}
			return quoteCode(id) + " just before " + where + " (" + on + "):"
		}
	}
	return "No identifier at " + where + ": " + quoteLine(line)
}

// identChar reports whether r can be part of an identifier in the
// languages lspseam serves: letters, digits, marks, '_' and '$'.
func identChar(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// identifierAround returns the run of identifier characters around the
// code point at byte i of line, or "" when the run is a number (it starts
// with a digit).
func identifierAround(line string, i int) string {
	start, end := i, i
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(line[:start])
		if !identChar(r) {
			break
		}
		start -= w
	}
	for end < len(line) {
		r, w := utf8.DecodeRuneInString(line[end:])
		if !identChar(r) {
			break
		}
		end += w
	}
	if first, _ := utf8.DecodeRuneInString(line[start:]); unicode.IsDigit(first) {
		return ""
	}
	return clip(line[start:end], maxQuotedLine)
}

// quoteLine quotes a line of source for a message, clipped.
func quoteLine(line string) string {
	if strings.TrimSpace(line) == "" {
		if line == "" {
			return "(an empty line)"
		}
		return "(a blank line)"
	}
	return quoteCode(clip(line, maxQuotedLine))
}

// quoteCode wraps s in a Markdown code span that s cannot close.
func quoteCode(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	fence := "``"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
