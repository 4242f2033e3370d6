package core

import (
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// The lines editText needs (editText's "window").
//
// An edit changes the lines that hold old_string's matches; editText reads
// the rest of the text only to count its lines and line breaks. Sending
// the whole text of a 2,000-line file into the module and its new text
// back cost 8–9 ms of a 24 ms edit on cobra's command.go, for a one-line
// change. So a host may send a window: the lines from the one before the
// first match to the one after the last (EditWindowOf finds them, natively
// and cheaply, the way editText matches), with the whole text's line
// breaks, lines and mark, and splice the window's new text back. The
// answer is the one the whole text gives: the matches are all in the
// window, a line of context on each side keeps a replacement's line
// breaks from joining a line outside it, and the counts add up. When the
// window does not hold exactly the match editText would take (none, or
// several without replaceAll), it answers errWindowUndecided and the host
// asks again with the whole text, whose error names lines of the file.

// EditWindow is the part of a text an edit of old_string needs, and what
// editText reads of the rest. The window is text[Start:End], whole lines
// after the byte order mark.
type EditWindow struct {
	Start, End  int    `json:"-"`
	LinesBefore int    `json:"linesBefore"`
	Lines       int    `json:"lines"`
	LineBreaks  [3]int `json:"lineBreaks"` // \r\n, lone \n, lone \r
	BOM         bool   `json:"bom"`
}

// EditWindowOf is the window of text that holds every match of oldString
// as editText matches it (literally, else with \n read as \r\n, else as
// a lone \r), with one line more on each side. ok is false when there is no match or the text
// is not UTF-8: editText then needs the whole text to say so.
func EditWindowOf(text, oldString string) (w EditWindow, ok bool) {
	if oldString == "" || !utf8.ValidString(text) {
		return EditWindow{}, false
	}
	body, bom := strings.CutPrefix(text, utf8BOM)
	offset := len(text) - len(body)
	old := oldString
	first := strings.Index(body, old)
	for _, read := range []func(string) string{toCRLF, toLoneCR} {
		if first >= 0 {
			break
		}
		if old = read(oldString); old != oldString {
			first = strings.Index(body, old)
		}
	}
	if first < 0 {
		return EditWindow{}, false
	}
	end := strings.LastIndex(body, old) + len(old)
	start := lineStartBefore(body, first)
	if start > 0 {
		start = lineStartBefore(body, start-1) // the line before
	}
	stop := lineEndAfter(body, max(end, start+1)-1)
	if stop < len(body) {
		stop = lineEndAfter(body, stop) // the line after
	}
	whole := wholeText(body, bom)
	return EditWindow{
		Start: offset + start, End: offset + stop,
		LinesBefore: lineOfOffset(body, start) - 1,
		Lines:       whole.lines,
		LineBreaks:  whole.lineBreaks,
		BOM:         bom,
	}, true
}

// lineStartBefore is the start of the line holding byte p of s.
func lineStartBefore(s string, p int) int {
	for p > 0 {
		switch s[p-1] {
		case '\n':
			return p
		case '\r':
			if p >= len(s) || s[p] != '\n' {
				return p
			}
		}
		p--
	}
	return 0
}

// lineEndAfter is the end of the line holding byte p of s, after its line
// break (len(s) for the last line).
func lineEndAfter(s string, p int) int {
	for ; p < len(s); p++ {
		switch s[p] {
		case '\n':
			return p + 1
		case '\r':
			if p+1 < len(s) && s[p+1] == '\n' {
				return p + 2
			}
			return p + 1
		}
	}
	return len(s)
}

// errWindowUndecided is a window's answer when it holds no single match:
// the whole text's answer is an error that names lines of the file.
func errWindowUndecided() *Error {
	return Errorf(CodeInvalidArgument, "the window holds no single match of oldString (none, or several without replaceAll): send the whole text, without window, for the error to show")
}

// readEditWindow reads editText's window.
func readEditWindow(v gjson.Result) (editWhole, *Error) {
	const shape = "{linesBefore, lines, lineBreaks: [crlf, lf, cr], bom} (core.EditWindowOf)"
	if !v.IsObject() {
		return editWhole{}, Errorf(CodeInvalidArgument, "window must be an object %s, got %s", shape, describe(v))
	}
	f := fields(v, "linesBefore", "lines", "lineBreaks", "bom")
	w := editWhole{window: true}
	for i, dst := range []*int{&w.before, &w.lines} {
		n, ok := integer(f[i], 0, maxSafeInteger)
		if !ok {
			return editWhole{}, Errorf(CodeInvalidArgument, "window.%s must be a line count (an integer from 0), got %s", []string{"linesBefore", "lines"}[i], describe(f[i]))
		}
		*dst = int(n)
	}
	breaks := f[2].Array()
	if !f[2].IsArray() || len(breaks) != 3 {
		return editWhole{}, Errorf(CodeInvalidArgument, "window.lineBreaks must be the whole text's counts [crlf, lf, cr], got %s", describe(f[2]))
	}
	for i, b := range breaks {
		n, ok := integer(b, 0, maxSafeInteger)
		if !ok {
			return editWhole{}, Errorf(CodeInvalidArgument, "window.lineBreaks must hold counts (integers from 0), got %s", describe(b))
		}
		w.lineBreaks[i] = int(n)
	}
	if f[3].Type != gjson.True && f[3].Type != gjson.False {
		return editWhole{}, Errorf(CodeInvalidArgument, "window.bom must be a boolean (the whole text starts with U+FEFF), got %s", describe(f[3]))
	}
	w.bom = f[3].Type == gjson.True
	return w, nil
}
