package core

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// editText: the edit tool's matcher (seed 002 "edit"): literal
// replacement of old_string by new_string in a file's text, unique unless
// replace_all, keeping the file's byte order mark and line endings.
//
// Input {text (the file's content as read, UTF-8), oldString, newString,
// replaceAll? (default false), path? (for messages only), window?}. Output
// {text (the new content), replacements, replaceAll, lineEnding: "lf" |
// "crlf" | "mixed" | "none", bom, changedLines: {first, last},
// linesBefore, linesAfter}. With window ({linesBefore, lines, lineBreaks,
// bom}: core.EditWindowOf), text is only the lines holding the matches
// and the answer's text their new content, for the host to splice back;
// the rest is the whole file's answer (editwindow.go).
//
// A leading U+FEFF is not matchable text and stays. Occurrences are
// counted without overlap, leftmost first, on the bytes of the text after
// the mark: literally first, and, when that finds none and the file has
// CRLF line breaks, with every \n of oldString not preceded by \r read as
// \r\n (a model writes \n for any line break), then, when the file has
// lone \r line breaks, with those \n read as \r. newString's lone \n are
// written as \r\n when the file's line breaks are mostly CRLF or the match
// needed that reading (as \r when they are mostly lone \r or the match
// needed that one), so the file keeps its style. Lines are counted as
// read counts them (lines.go): \n, \r\n and \r end a line, a final line
// break ends the last line, an empty text has none; changedLines are
// one-based lines of the new text, from the first replacement's first line
// to the last one's last (a deletion's line is where it happened, at most
// the last line; at least 1).
//
// Errors: FS_INVALID_ARGUMENT (empty oldString, oldString == newString,
// text or strings not UTF-8), FS_NO_MATCH (with the nearest match ignoring
// whitespace or case, when there is one), FS_AMBIGUOUS_MATCH (the lines of
// the first matches); LSP_INVALID_ARGUMENT when the host's input has the
// wrong types.

// EditResult is editText's ok value.
type EditResult struct {
	Text         string
	Replacements int
	ReplaceAll   bool
	LineEnding   string
	BOM          bool
	FirstChanged int
	LastChanged  int
	LinesBefore  int
	LinesAfter   int
}

func (r EditResult) appendJSON(b []byte) []byte {
	b = append(b, `{"text":`...)
	b = appendString(b, r.Text)
	b = append(b, `,"replacements":`...)
	b = appendInt(b, int64(r.Replacements))
	b = append(b, `,"replaceAll":`...)
	b = appendBool(b, r.ReplaceAll)
	b = append(b, `,"lineEnding":`...)
	b = appendString(b, r.LineEnding)
	b = append(b, `,"bom":`...)
	b = appendBool(b, r.BOM)
	b = append(b, `,"changedLines":{"first":`...)
	b = appendInt(b, int64(r.FirstChanged))
	b = append(b, `,"last":`...)
	b = appendInt(b, int64(r.LastChanged))
	b = append(b, `},"linesBefore":`...)
	b = appendInt(b, int64(r.LinesBefore))
	b = append(b, `,"linesAfter":`...)
	b = appendInt(b, int64(r.LinesAfter))
	return append(b, '}')
}

// utf8BOM is U+FEFF encoded in UTF-8.
const utf8BOM = "\uFEFF"

// maxListedMatches bounds the lines an ambiguous match lists.
const maxListedMatches = 5

// maxNearMatchText bounds the text scanned for a near match (the scan
// keeps an int32 per byte).
const maxNearMatchText = 8 << 20

func editTextCall(in gjson.Result) (jsonAppender, *Error) {
	text := get(in, "text")
	if text.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "text must be the file's current content as a string, got %s", describe(text))
	}
	path := get(in, "path")
	if path.Exists() && path.Type != gjson.String && path.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "path must be a string (the file's display path), got %s", describe(path))
	}
	var strs [2]string
	for i, name := range []string{"oldString", "newString"} {
		v := get(in, name)
		if v.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "%s must be a string, got %s", name, describe(v))
		}
		strs[i] = v.Str
	}
	replaceAll := false
	if ra := get(in, "replaceAll"); ra.Exists() && ra.Type != gjson.Null {
		if ra.Type != gjson.True && ra.Type != gjson.False {
			return nil, Errorf(CodeInvalidArgument, "replaceAll must be a boolean, got %s", describe(ra))
		}
		replaceAll = ra.Type == gjson.True
	}
	if w := get(in, "window"); w.Exists() && w.Type != gjson.Null {
		whole, err := readEditWindow(w)
		if err != nil {
			return nil, err
		}
		name := editName(path.Str)
		if err := checkEditStrings(text.Str, strs[0], strs[1], name); err != nil {
			return nil, err
		}
		return editBody(text.Str, whole, strs[0], strs[1], replaceAll, name)
	}
	return EditText(text.Str, strs[0], strs[1], replaceAll, path.Str)
}

// EditText replaces oldString by newString in text (see editText).
func EditText(text, oldString, newString string, replaceAll bool, path string) (EditResult, *Error) {
	name := editName(path)
	if err := checkEditStrings(text, oldString, newString, name); err != nil {
		return EditResult{}, err
	}
	body, bom := strings.CutPrefix(text, utf8BOM)
	out, err := editBody(body, wholeText(body, bom), oldString, newString, replaceAll, name)
	if err == nil && bom {
		out.Text = utf8BOM + out.Text
	}
	return out, err
}

func editName(path string) string {
	if path == "" {
		return "the file"
	}
	return path
}

// checkEditStrings refuses what no text makes editable.
func checkEditStrings(text, oldString, newString, name string) *Error {
	switch {
	case oldString == "":
		return Errorf(CodeFSInvalidArgument, "old_string must not be empty; to create or replace a whole file use write")
	case oldString == newString:
		return Errorf(CodeFSInvalidArgument, "old_string and new_string are the same, so nothing would change; %s was not changed", name)
	case !utf8.ValidString(text):
		return Errorf(CodeFSInvalidArgument, "%s is not valid UTF-8 text, so edit cannot change it safely; it was not changed", name)
	case !utf8.ValidString(oldString) || !utf8.ValidString(newString):
		return Errorf(CodeFSInvalidArgument, "old_string and new_string must be valid UTF-8 text; %s was not changed", name)
	}
	return nil
}

// editWhole is what editText reads of the whole text when it is given
// only a window of it (editwindow.go): its line breaks (\r\n, lone \n,
// lone \r), its lines, the lines before the window, and its mark.
type editWhole struct {
	lineBreaks [3]int
	lines      int
	before     int
	bom        bool
	window     bool // body is a window, not the whole text after the mark
}

// wholeText is editWhole of body, a whole text after its mark.
func wholeText(body string, bom bool) editWhole {
	crlf, lf, cr := countLineBreaks(body)
	return editWhole{lineBreaks: [3]int{crlf, lf, cr}, lines: linesOf(body, crlf+lf+cr), bom: bom}
}

// editBody is editText on body, the text after its mark or a window of
// it. A window's answer is the whole text's, but its Text is the window's
// new text, and it needs the whole text to say why there is no single
// match (errWindowUndecided).
func editBody(body string, whole editWhole, oldString, newString string, replaceAll bool, name string) (EditResult, *Error) {
	out := EditResult{ReplaceAll: replaceAll, BOM: whole.bom}
	crlf, lf, cr := whole.lineBreaks[0], whole.lineBreaks[1], whole.lineBreaks[2]
	out.LineEnding = lineEndingStyle(crlf, lf, cr)
	mostlyCRLF := crlf > lf+cr

	old, count, converted, convertedCR := oldString, strings.Count(body, oldString), false, false
	if count == 0 && crlf > 0 {
		if c := toCRLF(oldString); c != oldString {
			if n := strings.Count(body, c); n > 0 {
				old, count, converted = c, n, true
			}
		}
	}
	if count == 0 && cr > 0 {
		if c := toLoneCR(oldString); c != oldString {
			if n := strings.Count(body, c); n > 0 {
				old, count, convertedCR = c, n, true
			}
		}
	}
	if whole.window && (count == 0 || count > 1 && !replaceAll) {
		return EditResult{}, errWindowUndecided()
	}
	if count == 0 {
		return EditResult{}, noMatchError(body, oldString, name)
	}
	first := strings.Index(body, old)
	if count > 1 && !replaceAll {
		return EditResult{}, ambiguousMatchError(body, old, count, first, name)
	}
	repl := newString
	switch {
	case mostlyCRLF || converted:
		repl = toCRLF(newString)
	case cr > crlf+lf || convertedCR:
		repl = toLoneCR(newString)
	}
	n := -1
	if !replaceAll {
		n = 1
	}
	newBody := strings.Replace(body, old, repl, n)
	out.Replacements = count
	out.LinesBefore = whole.lines

	// The first replacement starts where the first match did; the last
	// starts where the last match did, shifted by the earlier ones.
	// (Walked, not strings.LastIndex, which may find an occurrence
	// overlapping the last non-overlapping one.)
	last := first
	for i := first + len(old); replaceAll && i <= len(body); {
		j := strings.Index(body[i:], old)
		if j < 0 {
			break
		}
		last = i + j
		i = last + len(old)
	}
	lastStart := last + (count-1)*(len(repl)-len(old))
	lastEnd := lastStart + len(repl)
	if len(repl) > 0 {
		lastEnd-- // the line of the replacement's last byte
	}
	// One walk of the new text: the lines of the first and last
	// replacements, then its line count (a 2,000-line file's edit walked
	// it three times more). A window starts and ends at line starts with
	// a line of context around the matches, so its lines add to the
	// whole text's.
	walk := lineWalk{s: newBody, line: 1}
	firstLine := whole.before + walk.lineOf(first)
	lastLine := whole.before + walk.lineOf(lastEnd)
	linesAfter := linesOf(newBody, walk.lineOf(len(newBody))-1)
	if whole.window {
		linesAfter += whole.lines - countLines(body)
	}
	out.LinesAfter = linesAfter
	limit := max(out.LinesAfter, 1)
	out.FirstChanged = min(firstLine, limit)
	out.LastChanged = max(min(lastLine, limit), out.FirstChanged)
	out.Text = newBody
	return out, nil
}

// countLineBreaks counts a text's \r\n, lone \n and lone \r line breaks.
func countLineBreaks(s string) (crlf, lf, cr int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lf++
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				crlf++
				i++
			} else {
				cr++
			}
		}
	}
	return crlf, lf, cr
}

// lineEndingStyle names a text's line breaks: "none", "lf", "crlf", or
// "mixed" (several kinds, or lone \r).
func lineEndingStyle(crlf, lf, cr int) string {
	switch {
	case crlf == 0 && lf == 0 && cr == 0:
		return "none"
	case cr == 0 && crlf == 0:
		return "lf"
	case cr == 0 && lf == 0:
		return "crlf"
	}
	return "mixed"
}

// toCRLF writes every \n of s that does not follow \r as \r\n.
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// toLoneCR writes every \n of s that does not follow \r as \r (the line
// break of a file whose lines end with a lone \r).
func toLoneCR(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	b := []byte(s)
	for i := range b {
		if b[i] == '\n' && (i == 0 || b[i-1] != '\r') {
			b[i] = '\r'
		}
	}
	return string(b)
}

// countLines counts lines as read does.
func countLines(s string) int {
	crlf, lf, cr := countLineBreaks(s)
	return linesOf(s, crlf+lf+cr)
}

// linesOf is countLines(s) for s holding breaks line breaks.
func linesOf(s string, breaks int) int {
	if s == "" {
		return 0
	}
	if last := s[len(s)-1]; last != '\n' && last != '\r' {
		breaks++
	}
	return breaks
}

// lineWalk answers lineOfOffset for offsets in increasing order, walking
// the text once.
type lineWalk struct {
	s    string
	i    int // the offset walked to
	line int // lineOfOffset(s, i)
}

func (w *lineWalk) lineOf(p int) int {
	p = min(max(p, 0), len(w.s))
	if p < w.i {
		return lineOfOffset(w.s, p) // not in order: walked again
	}
	for ; w.i < p; w.i++ {
		switch w.s[w.i] {
		case '\n':
			w.line++
		case '\r':
			if w.i+1 >= len(w.s) || w.s[w.i+1] != '\n' {
				w.line++
			}
		}
	}
	return w.line
}

// lineOfOffset returns the one-based line of s holding byte offset p (a
// line break belongs to the line it ends; len(s) after a final break is
// the line after the last).
func lineOfOffset(s string, p int) int {
	p = min(max(p, 0), len(s))
	line := 1
	for i := 0; i < p; i++ {
		switch s[i] {
		case '\n':
			line++
		case '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				line++
			}
		}
	}
	return line
}

// ambiguousMatchError lists the lines of the first matches.
func ambiguousMatchError(body, old string, count, first int, name string) *Error {
	var lines []string
	line, at := 1, 0
	for i := first; ; {
		line += lineOfOffset(body[at:], i-at) - 1
		at = i
		if l := strconv.Itoa(line); len(lines) == 0 || lines[len(lines)-1] != l {
			if len(lines) == maxListedMatches {
				lines = append(lines, "…")
				break
			}
			lines = append(lines, l)
		}
		j := strings.Index(body[i+len(old):], old)
		if j < 0 {
			break
		}
		i += len(old) + j
	}
	where := "on line " + lines[0]
	if len(lines) > 1 {
		where = "on lines " + strings.Join(lines, ", ")
	}
	return Errorf(CodeFSAmbiguousMatch, "old_string occurs %d times in %s (%s), so it was not changed; add surrounding lines to old_string to make it unique, or set replace_all to true to replace every occurrence",
		count, name, where)
}

// noMatchError says the file was not changed and points at the nearest
// match ignoring whitespace, case, or both, when there is one.
func noMatchError(body, old, name string) *Error {
	msg := "old_string was not found in " + name + ", so it was not changed. "
	if len(body) <= maxNearMatchText {
		for _, m := range []struct {
			space, fold bool
			how         string
		}{{true, false, "ignoring whitespace"}, {false, true, "ignoring case"}, {true, true, "ignoring whitespace and case"}} {
			start, end, ok := nearMatch(body, old, m.space, m.fold)
			if !ok {
				continue
			}
			first, last := lineOfOffset(body, start), lineOfOffset(body, max(end-1, start))
			where := "line " + strconv.Itoa(first)
			if last > first {
				where = "lines " + strconv.Itoa(first) + "–" + strconv.Itoa(last)
			}
			return &Error{Code: CodeFSNoMatch, Message: msg + "It matches " + m.how + " at " + where + ", where the file has " +
				strconv.Quote(clipRunes(body[start:end], 200)) + "; copy the text exactly as the file has it (whitespace, indentation, line breaks and case matter)."}
		}
	}
	if hasLineNumberPrefixes(old) {
		return &Error{Code: CodeFSNoMatch, Message: msg + "old_string seems to include the line numbers read shows (\"    12\\t\"); they are not part of the file: leave them out."}
	}
	return &Error{Code: CodeFSNoMatch, Message: msg + "Read the file again for its current text and copy old_string exactly from it (without read's line numbers)."}
}

// nearMatch finds old in body ignoring whitespace and/or case and returns
// the byte range of body it covers.
func nearMatch(body, old string, space, fold bool) (start, end int, ok bool) {
	key, _ := normalizeForMatch(old, space, fold)
	if key == "" {
		return 0, 0, false
	}
	norm, at := normalizeForMatch(body, space, fold)
	i := strings.Index(norm, key)
	if i < 0 {
		return 0, 0, false
	}
	start = int(at[i])
	endRune := int(at[i+len(key)-1])
	_, w := utf8.DecodeRuneInString(body[endRune:])
	return start, endRune + w, true
}

// normalizeForMatch drops whitespace and/or folds case; at maps each byte
// of the result to the start of the rune of s it came from.
func normalizeForMatch(s string, space, fold bool) (string, []int32) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int32, 0, len(s))
	for i, r := range s {
		if space && unicode.IsSpace(r) {
			continue
		}
		if fold {
			r = unicode.ToLower(r)
		}
		n := b.Len()
		b.WriteRune(r)
		for k := n; k < b.Len(); k++ {
			at = append(at, int32(i))
		}
	}
	return b.String(), at
}

// hasLineNumberPrefixes reports whether every non-empty line of s starts
// like a line of read's output (spaces, digits, a tab).
func hasLineNumberPrefixes(s string) bool {
	seen := false
	for _, line := range SplitLines(s) {
		if line == "" {
			continue
		}
		t := strings.TrimLeft(line, " ")
		d := len(t) - len(strings.TrimLeft(t, "0123456789"))
		if d == 0 || d >= len(t) || t[d] != '\t' {
			return false
		}
		seen = true
	}
	return seen
}
