package core

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// readView: the read tool's projection (seed 002 "read"): a window of a
// file's lines, numbered like `cat -n`, and a pagination footer.
//
// Input {text (the file's content), path (its display path), offset?
// (one-based first line, default 1), limit? (lines, default 2000, at most
// 10000), maxLineChars? (code points shown of a line, default 2000)}.
// Output {path, text, startLine, returnedLines, totalLines, partial,
// nextOffset? (when lines follow the window), footer}. text is the window,
// each line as its number right-aligned in six columns, a tab and the line
// without its terminator, lines joined by \n; a line longer than
// maxLineChars code points is cut there with "… [line truncated: N more
// characters]". The model sees text, a blank line and footer (footer alone
// for an empty window).
//
// Lines are counted as everywhere in core (lines.go): \n, \r\n and \r end
// a line, a final line break ends the last line ("a\nb" and "a\nb\n" both
// have 2 lines, "" none); a leading byte order mark is not shown, and
// the footer of a window with line 1 says how servers count it. An
// offset past the last line is FS_INVALID_ARGUMENT saying how many lines
// the file has (offset 1 of an empty file is an empty window).

// ReadView is readView's ok value.
type ReadView struct {
	Path          string
	Text          string
	StartLine     int
	ReturnedLines int
	TotalLines    int
	Partial       bool
	NextOffset    int // 0: no lines follow
	Footer        string
}

func (v ReadView) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, v.Path)
	b = append(b, `,"text":`...)
	b = appendString(b, v.Text)
	b = append(b, `,"startLine":`...)
	b = appendInt(b, int64(v.StartLine))
	b = append(b, `,"returnedLines":`...)
	b = appendInt(b, int64(v.ReturnedLines))
	b = append(b, `,"totalLines":`...)
	b = appendInt(b, int64(v.TotalLines))
	b = append(b, `,"partial":`...)
	b = appendBool(b, v.Partial)
	if v.NextOffset > 0 {
		b = append(b, `,"nextOffset":`...)
		b = appendInt(b, int64(v.NextOffset))
	}
	b = append(b, `,"footer":`...)
	b = appendString(b, v.Footer)
	return append(b, '}')
}

const (
	defaultReadMaxLineChars = 2000
	maxReadMaxLineChars     = 1 << 20
)

func readViewCall(in gjson.Result) (jsonAppender, *Error) {
	text := get(in, "text")
	if text.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "text must be the file's content as a string, got %s", describe(text))
	}
	path := get(in, "path")
	if path.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "path must be the file's display path as a string, got %s", describe(path))
	}
	num := func(name string, lo, hi, def int64, code Code, what string) (int64, *Error) {
		v := get(in, name)
		if !v.Exists() || v.Type == gjson.Null {
			return def, nil
		}
		n, ok := integer(v, lo, hi)
		if !ok {
			return 0, Errorf(code, "%s must be an integer from %d to %d (%s), got %s", name, lo, hi, what, describe(v))
		}
		return n, nil
	}
	offset, err := num("offset", 1, maxOneBased, 1, CodeFSInvalidArgument, "the one-based first line")
	if err != nil {
		return nil, err
	}
	limit, err := num("limit", 1, maxReadLimit, defaultReadLimit, CodeFSInvalidArgument, "the number of lines")
	if err != nil {
		return nil, err
	}
	maxChars, err := num("maxLineChars", 1, maxReadMaxLineChars, defaultReadMaxLineChars, CodeInvalidArgument, "the characters shown of a line")
	if err != nil {
		return nil, err
	}
	return ReadText(text.Str, path.Str, int(offset), int(limit), int(maxChars))
}

// ReadText projects a window of text's lines (see readView); offset is
// one-based, limit and maxLineChars at least 1.
func ReadText(text, path string, offset, limit, maxLineChars int) (ReadView, *Error) {
	text, bom := strings.CutPrefix(text, utf8BOM)
	v := ReadView{Path: path, StartLine: offset}
	src := lineSource{s: text}
	// Skip to the first line of the window, counting as we go.
	start, line := 0, 1
	for line < offset && start < len(text) {
		_, start = src.next(start)
		line++
	}
	if line < offset || (start == len(text) && offset > 1) {
		if total := line - 1; total > 0 {
			return ReadView{}, Errorf(CodeFSInvalidArgument, "offset %d is past the end of %s, which has %s; call read with an offset from 1 to %d",
				offset, path, linesPhrase(total), total)
		}
		return ReadView{}, Errorf(CodeFSInvalidArgument, "offset %d is past the end of %s, which is empty (0 lines); call read without an offset", offset, path)
	}
	var b strings.Builder
	for start < len(text) && v.ReturnedLines < limit {
		end, after := src.next(start)
		if v.ReturnedLines > 0 {
			b.WriteByte('\n')
		}
		writeNumberedLine(&b, offset+v.ReturnedLines, text[start:end], maxLineChars)
		v.ReturnedLines++
		start = after
	}
	v.Text = b.String()
	last := offset + v.ReturnedLines - 1
	if start < len(text) {
		v.NextOffset = last + 1
		v.TotalLines = last + countLines(text[start:])
	} else {
		v.TotalLines = last
	}
	v.Partial = offset > 1 || v.NextOffset > 0
	switch {
	case v.TotalLines == 0:
		v.Footer = "(empty file)"
	case !v.Partial:
		v.Footer = "(end of file, " + linesPhrase(v.TotalLines) + ")"
	case v.NextOffset > 0:
		v.Footer = "(" + rangePhrase(offset, last) + " of " + strconv.Itoa(v.TotalLines) + "; call read with offset " + strconv.Itoa(v.NextOffset) + " to continue)"
	default:
		v.Footer = "(" + rangePhrase(offset, last) + " of " + strconv.Itoa(v.TotalLines) + "; end of file)"
	}
	if bom && offset == 1 && v.ReturnedLines > 0 {
		// Servers are sent the mark (design.md, "Edits"), so they count it
		// as line 1's first column: say so where the line is shown.
		v.Footer += "\n" + bomColumnsNote
	}
	return v, nil
}

// bomColumnsNote explains line 1's columns in a file with a byte order
// mark, which read does not show.
const bomColumnsNote = "The file starts with a byte order mark (not shown). Language servers count it, so on line 1 the columns in other answers, and the columns you give for line 1, are one more than the characters shown here."

func linesPhrase(n int) string { return strconv.Itoa(n) + " " + plural(n, "line", "lines") }

func rangePhrase(first, last int) string {
	if first == last {
		return "line " + strconv.Itoa(first)
	}
	return "lines " + strconv.Itoa(first) + "–" + strconv.Itoa(last)
}

// writeNumberedLine writes `%6d\t%s`, the line cut after maxChars code
// points.
func writeNumberedLine(b *strings.Builder, n int, line string, maxChars int) {
	num := strconv.Itoa(n)
	for i := len(num); i < 6; i++ {
		b.WriteByte(' ')
	}
	b.WriteString(num)
	b.WriteByte('\t')
	if len(line) <= maxChars {
		b.WriteString(line)
		return
	}
	cut, count := 0, 0
	for cut < len(line) && count < maxChars {
		_, w := utf8.DecodeRuneInString(line[cut:])
		cut += w
		count++
	}
	if cut == len(line) {
		b.WriteString(line)
		return
	}
	more := utf8.RuneCountInString(line[cut:])
	b.WriteString(line[:cut])
	b.WriteString("… [line truncated: " + moreChars(more) + "]")
}

func moreChars(more int) string {
	return strconv.Itoa(more) + " more " + plural(more, "character", "characters")
}
