package core

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// The position checked against the document, and the subject of an answer.
//
// A host reads the source file anyway (it sends it in didOpen), so the core
// checks the model's position against that text before any request is
// sent: a line past the end of the file or a column past the end of its
// line would otherwise reach the server, which answers with a zero-based
// error of its own (gopls: "line number 98 out of range") or, worse,
// silently about another line (typescript-language-server and pyright clamp
// the offset). The error is in the caller's terms (PositionTerms): the lsp
// tool's model spoke one-based lines and columns, which the error restates;
// a seam caller (serve's lsp/query, the Go and npm APIs) sent the zero-based
// position itself, and reading "line 27 … one-based" for the line 26 it sent
// would move it off by one everywhere, silently. Either way it quotes the
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

// CheckPosition checks a zero-based position against a document's text and
// returns the subject line of the answer (see above), or
// LSP_INVALID_ARGUMENT in terms' coordinates when the position is not in
// the text.
func CheckPosition(text string, pos Position, terms PositionTerms) (string, *Error) {
	return checkPosition(lineSource{s: text}, pos, terms, identRules{})
}

func checkPosition(src lineSource, pos Position, terms PositionTerms, rules identRules) (string, *Error) {
	line, ok := src.lineAt(pos.Line)
	if !ok {
		return "", src.lineError(pos.Line, terms)
	}
	return checkColumn(line, pos, terms, rules)
}

// checkColumn checks pos against the text of its line, which exists.
func checkColumn(line string, pos Position, terms PositionTerms, rules identRules) (string, *Error) {
	width := utf16Len(line)
	if uint64(pos.Character) > uint64(width) {
		return "", terms.columnError(line, width, pos)
	}
	return subjectLine(line, pos, rules), nil
}

// lineSource is a document's text, either as it is or, when raw is set,
// as the inside of the JSON string literal the host sent (between the
// quotes, escapes intact). The envelope uses the raw form so that only the
// one line it needs is ever unescaped: a document can be megabytes, and
// decoding it whole on every query would cost more than the rest of the
// request. In a valid JSON string a line terminator is always escaped
// (\n, \r, \u000a, \u000d), so lines are found between escapes.
type lineSource struct {
	s   string
	raw bool
}

// next returns the end of the line that starts at start (the index of its
// terminator, or len(s)) and the start of the following line (len(s) when
// there is none).
func (src lineSource) next(start int) (end, after int) {
	s := src.s
	if !src.raw {
		// The first \r or \n: IndexByte twice, not IndexAny once, which
		// tests the bytes one at a time (a quarter of a 2,000-line file's
		// diagnostics delta went there: BenchmarkDiagnosticsDelta).
		rest := s[start:]
		i := strings.IndexByte(rest, '\n')
		before := rest
		if i >= 0 {
			before = rest[:i]
		}
		if r := strings.IndexByte(before, '\r'); r >= 0 {
			i = r
		}
		if i < 0 {
			return len(s), len(s)
		}
		end = start + i
		if s[end] == '\r' && end+1 < len(s) && s[end+1] == '\n' {
			return end, end + 2
		}
		return end, end + 1
	}
	for i := start; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			break
		}
		i += j
		kind, n := rawTerminator(s, i)
		if kind == 0 {
			i += n
			continue
		}
		after = i + n
		if kind == '\r' && after < len(s) && s[after] == '\\' {
			if k2, n2 := rawTerminator(s, after); k2 == '\n' {
				after += n2
			}
		}
		return i, after
	}
	return len(s), len(s)
}

// rawTerminator reads the escape at s[i] (a backslash) of a raw JSON
// string: kind is '\n' or '\r' for an escaped line terminator, else 0; n
// is the escape's length.
func rawTerminator(s string, i int) (kind byte, n int) {
	if i+1 >= len(s) {
		return 0, len(s) - i
	}
	switch s[i+1] {
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 'u':
		if i+6 > len(s) {
			return 0, len(s) - i
		}
		if s[i+2:i+5] == "000" {
			switch s[i+5] {
			case 'a', 'A':
				return '\n', 6
			case 'd', 'D':
				return '\r', 6
			}
		}
		return 0, 6
	}
	return 0, 2
}

// text returns the line s[start:end] decoded.
func (src lineSource) text(start, end int) string {
	line := src.s[start:end]
	if !src.raw || strings.IndexByte(line, '\\') < 0 {
		return line
	}
	return gjson.Parse(`"` + line + `"`).Str
}

// skipBlock is how many bytes skip looks at at once.
const skipBlock = 4096

// skip returns the start of the line k lines after the one that starts at
// start, and how many lines it passed (fewer than k when the text ends:
// start is then len(s)). Where the text has no "\r", whole blocks of
// lines are passed by counting their "\n"s, not one line at a time: a
// snippet's lines are usually deep in a long file.
func (src lineSource) skip(start int, k uint32) (int, uint32) {
	s := src.s
	var n uint32
	for !src.raw && n < k && start < len(s) {
		block := s[start:min(len(s), start+skipBlock)]
		if strings.IndexByte(block, '\r') >= 0 {
			break // "\r" and "\r\n" end lines too: one at a time
		}
		c := uint32(strings.Count(block, "\n"))
		if c == 0 {
			break // a line longer than the block
		}
		if c <= k-n {
			start += strings.LastIndexByte(block, '\n') + 1
			n += c
			continue
		}
		for ; n < k; n++ {
			start += strings.IndexByte(s[start:], '\n') + 1
		}
	}
	for ; n < k && start < len(s); n++ {
		_, start = src.next(start)
	}
	return start, n
}

// lineAt returns line n (zero-based), without its terminator.
func (src lineSource) lineAt(n uint32) (string, bool) {
	start := 0
	for i := uint32(0); i < n; i++ {
		end, after := src.next(start)
		if end == len(src.s) || after == len(src.s) {
			return "", false // past the end; a final line break ends the last line
		}
		start = after
	}
	if start == len(src.s) {
		return "", false // an empty file has no lines
	}
	end, _ := src.next(start)
	return src.text(start, end), true
}

// lineError is the error for a line past the end of the text.
func (src lineSource) lineError(line uint32, terms PositionTerms) *Error {
	n, lastStart, lastEnd := 0, 0, 0
	for start := 0; start < len(src.s); {
		end, after := src.next(start)
		n, lastStart, lastEnd = n+1, start, end
		start = after
	}
	return terms.lineError(line, n, src.text(lastStart, lastEnd))
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
func subjectLine(line string, pos Position, rules identRules) string {
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
	if at == '#' && rules.hashPrefix && atStart+1 < len(line) {
		// On a private name's '#': the name after it.
		if next, _ := utf8.DecodeRuneInString(line[atStart+1:]); rules.identChar(next) {
			at, atStart = next, atStart+1
		}
	}
	if at >= 0 && rules.identChar(at) {
		if id := rules.identifierAround(line, atStart); id != "" {
			return quoteCode(id) + " at " + where + ":"
		}
	}
	if before >= 0 && rules.identChar(before) && beforeStart >= 0 {
		if id := rules.identifierAround(line, beforeStart); id != "" {
			on := "at the end of the line"
			if at >= 0 {
				on = "on " + quoteCode(string(at))
			}
			return quoteCode(id) + " just before " + where + " (" + on + "):"
		}
	}
	return "No identifier at " + where + ": " + quoteLine(line)
}

// identRules are a language's identifier characters, as far as naming
// what is at a position needs them. The default suits the languages whose
// names are letters, digits, '_' and '$'; CSS and its dialects also join
// names with '-' (--main-color, font-size, .nav-item), so there the
// subject of a position inside one is the whole name.
type identRules struct{ hyphen, hashPrefix, kebabMarkup bool }

// identRulesFor chooses the rules by a document's URI (its extension).
func identRulesFor(uri string) identRules {
	ext := uri
	if i := strings.LastIndexAny(uri, "/."); i >= 0 {
		ext = uri[i:]
	}
	switch strings.ToLower(ext) {
	case ".css", ".scss", ".sass", ".less":
		return identRules{hyphen: true}
	case ".vue":
		// A template's attribute and tag names are kebab-case (vuekebab.go).
		return identRules{hashPrefix: true, kebabMarkup: true}
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".svelte":
		// A class's private members are named #x: the '#' is part of
		// the name (tsserver's outline has it), so "#x" is the subject.
		return identRules{hashPrefix: true}
	}
	return identRules{}
}

// identChar reports whether r can be part of an identifier: letters,
// digits, marks, '_' and '$', and '-' where the language allows it.
func (ir identRules) identChar(r rune) bool {
	return r == '_' || r == '$' || (r == '-' && ir.hyphen) || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// identChar is the default rules' identChar, for target resolution, whose
// names come from outlines.
func identChar(r rune) bool { return identRules{}.identChar(r) }

// identifierAround returns the run of identifier characters around the
// code point at byte i of line, or "" when the run is a number (it starts
// with a digit) or only hyphens.
func (ir identRules) identifierAround(line string, i int) string {
	start, end := i, i
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(line[:start])
		if !ir.identChar(r) {
			break
		}
		start -= w
	}
	for end < len(line) {
		r, w := utf8.DecodeRuneInString(line[end:])
		if !ir.identChar(r) {
			break
		}
		end += w
	}
	if first, _ := utf8.DecodeRuneInString(line[start:]); unicode.IsDigit(first) || strings.Trim(line[start:end], "-") == "" {
		return ""
	}
	if ir.kebabMarkup {
		start, end = kebabAround(line, start, end)
	}
	if ir.hashPrefix && start > 0 && line[start-1] == '#' {
		start-- // a private name, #x
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
