package core

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Lines of a source file and UTF-16 columns within a line, for targets and
// snippets. Lines are numbered as read tools and CheckPosition number them
// (subject.go): "\n", "\r\n" and "\r" end a line, a final line break ends
// the last line, and an empty file has no lines.

// NthLine returns line n of text (zero-based; false past the last line),
// numbered as SplitLines numbers it. A host uses these natively to find
// the lines a query needs (the lsp tool's target line, a target's or
// snippet's lines), so that only those cross into the module.
func NthLine(text string, n uint32) (string, bool) { return lineSource{s: text}.lineAt(n) }

// LineChunks returns the lines of text in spans (zero-based, inclusive;
// End ≥ Start), one chunk per span in the order given, as SplitLines would
// number them: a span's lines past the end are left out, and a span that
// starts past it has no chunk. It reads text only up to the last line
// asked for and keeps only the lines asked for: a host reads a few lines
// of each result file this way, not every line of it.
func LineChunks(text string, spans []LineSpan) []LineChunk {
	out := []LineChunk{}
	if len(spans) == 0 {
		return out
	}
	byStart := slices.SortedFunc(slices.Values(spans), func(a, b LineSpan) int { return cmp.Compare(a.Start, b.Start) })
	kept := map[uint32]string{}
	src := lineSource{s: text}
	line, pos := uint32(0), 0 // the line that starts at pos
	for i := 0; i < len(byStart) && pos < len(text); {
		if start := byStart[i].Start; start > line {
			var passed uint32
			pos, passed = src.skip(pos, start-line)
			if line += passed; line < start || pos == len(text) {
				break // the text ends before the span
			}
		}
		// The lines of the spans that start by each line, overlapping
		// spans read once.
		reach := byStart[i].End
		for ; pos < len(text) && line <= reach; line++ {
			for ; i < len(byStart) && byStart[i].Start <= line; i++ {
				reach = max(reach, byStart[i].End)
			}
			end, after := src.next(pos)
			kept[line] = text[pos:end]
			pos = after
			if line == reach { // the last line a span may ask for
				line++
				break
			}
		}
	}
	for _, s := range spans {
		first, ok := kept[s.Start]
		if !ok {
			continue // starts past the end
		}
		c := LineChunk{Start: s.Start, Lines: []string{first}}
		for l := uint64(s.Start) + 1; l <= uint64(s.End); l++ {
			next, ok := kept[uint32(l)]
			if !ok {
				break // past the end
			}
			c.Lines = append(c.Lines, next)
		}
		out = append(out, c)
	}
	return out
}

// SplitLines returns the lines of text without their terminators.
func SplitLines(text string) []string {
	src := lineSource{s: text}
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for start := 0; start < len(text); {
		end, after := src.next(start)
		lines = append(lines, text[start:end])
		start = after
	}
	return lines
}

// byteOffsetOfColumn returns the byte offset in line of the zero-based
// UTF-16 column col (len(line) past the end; a column inside a surrogate
// pair rounds down to the character's start).
func byteOffsetOfColumn(line string, col int) int {
	u := 0
	for i, r := range line {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if u+w > col {
			return i
		}
		u += w
	}
	return len(line)
}

// columnOfByteOffset returns the zero-based UTF-16 column of byte offset i
// of line.
func columnOfByteOffset(line string, i int) int {
	return utf16Len(line[:min(i, len(line))])
}

// ColumnOfByteOffset is the zero-based UTF-16 column (an LSP position's
// character) of byte offset i of line: a host's position at an
// identifier IdentifierOffsets found in the line.
func ColumnOfByteOffset(line string, i int) int { return columnOfByteOffset(line, i) }

// identifierAt returns the identifier at the zero-based UTF-16 column col
// of line (the run of identifier characters around it, not starting with a
// digit) and the column it starts at; "" when there is none.
func identifierAt(line string, col int) (string, int) {
	i := byteOffsetOfColumn(line, col)
	if i >= len(line) {
		return "", col
	}
	r, _ := utf8.DecodeRuneInString(line[i:])
	hash := false
	if r == '#' && i+1 < len(line) {
		// A private name (#x in JavaScript and TypeScript), as outlines
		// name it: a target's selection range starts on the '#'.
		if next, _ := utf8.DecodeRuneInString(line[i+1:]); identChar(next) && !(next >= '0' && next <= '9') {
			hash, i, r = true, i+1, next
		}
	}
	if !identChar(r) {
		return "", col
	}
	start := i
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(line[:start])
		if !identChar(r) {
			break
		}
		start -= w
	}
	end := i
	for end < len(line) {
		r, w := utf8.DecodeRuneInString(line[end:])
		if !identChar(r) {
			break
		}
		end += w
	}
	if first, _ := utf8.DecodeRuneInString(line[start:]); first >= '0' && first <= '9' {
		return "", col
	}
	if hash {
		start-- // the '#' the position was on
	}
	return line[start:end], columnOfByteOffset(line, start)
}

// identifierLike reports whether s is made of identifier characters only.
func identifierLike(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !identChar(r) {
			return false
		}
	}
	return true
}

// HasIdentifier reports whether text holds name as a whole identifier
// (findIdentifier's rule), for a host that looks for a declaration's uses
// the server does not see (the Toolbox's build-excluded Go files).
func HasIdentifier(text, name string) bool {
	if name == "" {
		return false
	}
	_, ok := findIdentifier(text, name, 0)
	return ok
}

// IdentifierOffsets returns the byte offsets at which name occurs in text
// as a whole identifier by the rules of path's language: a host's textual
// search for uses a server did not report (the Toolbox's rename check and
// its search before deleting a symbol of a dynamically typed language)
// counts exactly what the core's own lookups count. Where '$' is a sigil
// (shell, PHP, Perl: $LOG_LEVEL names LOG_LEVEL), a '$' before the name
// is a boundary, and one after it still joins; elsewhere '$' is part of
// identifiers (JavaScript's $el is not el).
func IdentifierOffsets(path, text, name string) []int {
	if name == "" {
		return nil
	}
	ir := identRulesFor(path)
	sigil := dollarSigil(path)
	var out []int
	for from := 0; from <= len(text); {
		j := strings.Index(text[from:], name)
		if j < 0 {
			break
		}
		s, e := from+j, from+j+len(name)
		before, _ := utf8.DecodeLastRuneInString(text[:s])
		after, _ := utf8.DecodeRuneInString(text[e:])
		if (s == 0 || !ir.identChar(before) || sigil && before == '$') && (e == len(text) || !ir.identChar(after)) {
			out = append(out, s)
		}
		from = e
	}
	return out
}

// dollarSigil says whether '$' marks a name (a variable's) in path's
// language rather than being one of its characters.
func dollarSigil(path string) bool {
	ext := path
	if i := strings.LastIndexAny(path, "/."); i >= 0 {
		ext = path[i:]
	}
	switch strings.ToLower(ext) {
	case ".sh", ".bash", ".zsh", ".ksh", ".php", ".pl", ".pm":
		return true
	}
	return false
}

// findIdentifier finds name as a whole identifier in line at or after byte
// offset from, and returns its zero-based UTF-16 column.
func findIdentifier(line, name string, from int) (int, bool) {
	for from <= len(line) {
		j := strings.Index(line[from:], name)
		if j < 0 {
			return 0, false
		}
		s, e := from+j, from+j+len(name)
		before, _ := utf8.DecodeLastRuneInString(line[:s])
		after, _ := utf8.DecodeRuneInString(line[e:])
		if (s == 0 || !identChar(before)) && (e == len(line) || !identChar(after)) {
			return columnOfByteOffset(line, s), true
		}
		from = s + 1
		for from < len(line) && !utf8.RuneStart(line[from]) {
			from++
		}
	}
	return 0, false
}
