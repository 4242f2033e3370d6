package core

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// The lines applyTextEdits needs (its "windows").
//
// A server's edits of a file change the lines their ranges cover; the rest
// of the text applyTextEdits reads only to count its line breaks and to
// diff unchanged lines against themselves. A rename's edits of cobra's
// command.go (2,072 lines, 66 kB) and the eight other files it touches
// cost the module 41 ms per rename, whole texts in and out, for 22
// changed lines. So a host may send windows instead of the text: runs of
// whole lines around the edits (TextEditWindows finds them, natively and
// cheaply, reading the edits as applyTextEdits reads them), each with the
// lines of diff context around its edits, and the whole text's line
// count and line breaks. The answer is each window's new text, which the
// host splices back, and the diff, changed lines and counts of the whole
// text:
//
//   - an edit is applied in the one window that holds its range, whose
//     line around it keeps a replacement's line breaks from joining a
//     line outside it;
//   - the text's form is the whole text's: its dominant line break comes
//     from the counts, and a byte order mark only starts the first line;
//   - the diff is the windows' diffs one after another, numbered from
//     each window's line: windows are as far apart as a hunk's context
//     reaches (TextEditWindows merges nearer ones), so no hunk spans two.
//     A whole text is diffed in the same windows (ApplyTextEdits): a
//     shortest edit script of a window can show a change that could be
//     shown in more than one place (a line inserted next to an equal one)
//     elsewhere than one of the whole texts (in 2,132 of 11,781 random
//     cases of TestTextEditWindowsAnswerAsWholeText), and the answer must
//     not depend on what the host sent;
//   - the changed lines are the whole texts': when a window's new text
//     starts or ends the old one, where the change starts or ends depends
//     on the text outside the window, and the windows' answer is an error
//     (the host asks again with the whole text).
//
// A text with a lone "\r" line break is not windowed: the diff splits
// lines at "\n" only, and a window's lines must be the diff's lines. Nor
// is an edit whose range reaches past the last line (the document's end,
// as a formatter's whole replacement says), nor windows that would hold
// most of the text. Any error of a window's answer is answered again with
// the whole text by the host, so messages name what the whole text says.

// TextWindows is the part of a text that a server's edits need, and what
// applyTextEdits reads of the rest.
type TextWindows struct {
	Windows    []TextWindow
	Lines      int    // the whole text's lines as read counts them
	LineBreaks [3]int // the whole text's \r\n, lone \n and lone \r
}

// TextWindow is text[Start:End]: whole lines, with their line breaks,
// from zero-based line Line.
type TextWindow struct {
	Line       int
	Start, End int
}

// TextEditWindows is the windows of text that hold edits (a TextEdit[] as
// applyTextEdits reads it) with context lines of diff context around them
// (at least one). ok is false when the whole text must be sent: it is not
// UTF-8 or has a lone "\r" line break, the edits are none or malformed or
// reach past the last line, or the windows would hold half the text or
// more.
func TextEditWindows(text string, edits []byte, context int) (w TextWindows, ok bool) {
	es, problem := textEditsOf(gjson.ParseBytes(edits), at{"edits", -1})
	if problem != "" || !utf8.ValidString(text) {
		return TextWindows{}, false
	}
	if w, ok = windowsOf(text, es, context); !ok {
		return TextWindows{}, false
	}
	size := 0
	for _, win := range w.Windows {
		size += win.End - win.Start
	}
	if 2*size >= len(text) {
		return TextWindows{}, false
	}
	return w, true
}

// windowsOf is the windows of text (UTF-8) that hold edits, whatever
// their size: ApplyTextEdits diffs a whole text in the same windows, so
// that a host's windows answer with the same diff.
func windowsOf(text string, es []TextEdit, context int) (w TextWindows, ok bool) {
	if len(es) == 0 {
		return TextWindows{}, false
	}
	crlf, lf, cr := countLineBreaks(text)
	if cr > 0 {
		return TextWindows{}, false
	}
	starts := newLineIndex(text).starts
	n := len(starts)
	pad := max(min(context, maxDiffContext), 1)
	spans := make([][2]int, 0, len(es))
	for _, e := range es {
		s, t := int(e.Range.Start.Line), int(e.Range.End.Line)
		if t >= n || s > t {
			return TextWindows{}, false
		}
		spans = append(spans, [2]int{max(s-pad, 0), min(t+pad, n-1)})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		// Nearer than a hunk's reach (touching windows): one window.
		if last := &merged[len(merged)-1]; sp[0] <= last[1]+1 {
			last[1] = max(last[1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	for _, sp := range merged {
		win := TextWindow{Line: sp[0], Start: starts[sp[0]], End: len(text)}
		if sp[1]+1 < n {
			win.End = starts[sp[1]+1]
		}
		w.Windows = append(w.Windows, win)
	}
	w.Lines = linesOf(text, crlf+lf)
	w.LineBreaks = [3]int{crlf, lf, cr}
	return w, true
}

// cut is the windows' texts, as applyInWindows takes them.
func (w TextWindows) cut(text string) []textWindow {
	wins := make([]textWindow, len(w.Windows))
	for i, win := range w.Windows {
		t := text[win.Start:win.End]
		wins[i] = textWindow{line: win.Line, text: t, lines: countLines(t), tail: win.End == len(text)}
	}
	return wins
}

// Splice is text with its windows' new texts (applyTextEdits' answer, in
// the windows' order) in their places.
func (w TextWindows) Splice(text string, news []WindowText) string {
	var b strings.Builder
	done := 0
	for i, win := range w.Windows {
		b.WriteString(text[done:win.Start])
		b.WriteString(news[i].Text)
		done = win.End
	}
	b.WriteString(text[done:])
	return b.String()
}

// textWindow is one window of applyTextEdits' input: the document's lines
// from line on, as text.
type textWindow struct {
	line int
	text string
	// lines is text's lines as read counts them; tail says the window
	// ends the document (its last line may have no line break, and a
	// position past its last line is the document's end).
	lines int
	tail  bool
}

// WindowText is a window of applyTextEdits' input, its text from line
// Line on, or of its answer: that window's new text.
type WindowText struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// readTextWindows reads applyTextEdits' windows, lines and lineBreaks.
func readTextWindows(in gjson.Result) (wins []textWindow, lines int, breaks [3]int, _ *Error) {
	const shape = "windows: [{line, text}], lines, lineBreaks: [crlf, lf, cr] (core.TextEditWindows)"
	f := fields(in, "windows", "lines", "lineBreaks")
	n, ok := integer(f[1], 0, maxSafeInteger)
	if !ok {
		return nil, 0, breaks, Errorf(CodeInvalidArgument, "lines must be the whole text's line count (an integer from 0), got %s; with windows send %s", describe(f[1]), shape)
	}
	lines = int(n)
	counts := f[2].Array()
	if !f[2].IsArray() || len(counts) != 3 {
		return nil, 0, breaks, Errorf(CodeInvalidArgument, "lineBreaks must be the whole text's counts [crlf, lf, cr], got %s", describe(f[2]))
	}
	for i, c := range counts {
		n, ok := integer(c, 0, maxSafeInteger)
		if !ok {
			return nil, 0, breaks, Errorf(CodeInvalidArgument, "lineBreaks must hold counts (integers from 0), got %s", describe(c))
		}
		breaks[i] = int(n)
	}
	if breaks[2] > 0 {
		return nil, 0, breaks, Errorf(CodeInvalidArgument, "a text with lone \\r line breaks cannot be sent as windows (the diff's lines are not its lines): send the whole text")
	}
	if !f[0].IsArray() {
		return nil, 0, breaks, Errorf(CodeInvalidArgument, "windows must be an array %s, got %s", shape, describe(f[0]))
	}
	var bad *Error
	f[0].ForEach(func(_, v gjson.Result) bool {
		where := at{"windows", len(wins)}
		wf := fields(v, "line", "text")
		line, ok := integer(wf[0], 0, maxSafeInteger)
		if !v.IsObject() || !ok || wf[1].Type != gjson.String {
			bad = Errorf(CodeInvalidArgument, "%s must be {line, text}: the zero-based line the window starts at and its whole lines, got %s", where, describe(v))
			return false
		}
		w := textWindow{line: int(line), text: wf[1].Str}
		if !utf8.ValidString(w.text) {
			bad = Errorf(CodeInvalidArgument, "%s.text is not valid UTF-8", where)
			return false
		}
		w.lines = countLines(w.text)
		w.tail = w.line+w.lines == lines
		switch {
		case len(wins) > 0 && w.line < wins[len(wins)-1].line+wins[len(wins)-1].lines:
			bad = Errorf(CodeInvalidArgument, "%s starts at line %d, inside the window before it: send windows in order, apart", where, w.line)
		case w.line+w.lines > lines:
			bad = Errorf(CodeInvalidArgument, "%s (lines %d–%d) reaches past the text's %d lines", where, w.line, w.line+w.lines-1, lines)
		case !w.tail && !strings.HasSuffix(w.text, "\n"):
			bad = Errorf(CodeInvalidArgument, "%s must end with its last line's line break (only the window that ends the text may not)", where)
		}
		wins = append(wins, w)
		return bad == nil
	})
	if bad != nil {
		return nil, 0, breaks, bad
	}
	if len(wins) == 0 {
		return nil, 0, breaks, Errorf(CodeInvalidArgument, "windows must hold at least one window; send %s, or the whole text", shape)
	}
	return wins, lines, breaks, nil
}

// applyInWindows is ApplyTextEdits over windows of a document of lines
// lines (see the top of this file): the answer's Windows are their new
// texts, and Text is empty. undecided says the windows cannot tell the
// changed lines (only the whole texts can), which are then left zero.
func applyInWindows(out TextEditsResult, wins []textWindow, lines int, breaks [3]int, edits []TextEdit, context int, keepForm bool) (_ TextEditsResult, undecided bool, _ *Error) {
	// Each edit to the window that holds its range: the last one starting
	// at or before it, which must reach past its end unless it ends the
	// document.
	held := make([][]int, len(wins))
	for i, e := range edits {
		s, t := int(e.Range.Start.Line), int(e.Range.End.Line)
		k := sort.Search(len(wins), func(k int) bool { return wins[k].line > s }) - 1
		if k < 0 || !wins[k].tail && t >= wins[k].line+wins[k].lines {
			return TextEditsResult{}, false, Errorf(CodeInvalidArgument, "edits[%d] (%s) is not inside one window: send the window that holds it, or the whole text", i, rangeString(e.Range))
		}
		held[k] = append(held[k], i)
	}
	form := editForm{keep: keepForm}
	if keepForm {
		form.eol = dominantOf(breaks[0], breaks[1], breaks[2])
	}
	var diff strings.Builder
	diffShift, lineShift := 0, 0 // what the windows before added, in diff lines and in lines
	first, last := -1, -1        // the windows that changed
	starts := make([]int, len(wins))
	out.Windows = make([]WindowText, len(wins))
	for k, w := range wins {
		local := make([]TextEdit, len(held[k]))
		for j, i := range held[k] {
			local[j] = edits[i]
		}
		form.docStart = w.line == 0
		newText, problem, overlap := spliceEditsIn(w.text, w.line, local, held[k], form)
		if problem != "" {
			err := malformedEdit(out.URI, problem)
			if overlap {
				err.Reason = ReasonEditsOverlap
			}
			return TextEditsResult{}, false, err
		}
		out.Windows[k] = WindowText{Line: w.line, Text: newText}
		starts[k] = w.line + lineShift
		if newText != w.text {
			d := diffLines(w.text, newText)
			added, removed := d.counts()
			out.LinesAdded, out.LinesRemoved = out.LinesAdded+added, out.LinesRemoved+removed
			if diff.Len() == 0 {
				diff.WriteString("--- " + diffName("a/", out.Path) + "\n+++ " + diffName("b/", out.Path) + "\n")
			}
			d.writeHunks(&diff, context, w.line, w.line+diffShift)
			diffShift += len(d.b) - len(d.a)
			if first < 0 {
				first = k
			}
			last = k
		}
		lineShift += countLines(newText) - w.lines
	}
	out.Diff = diff.String()
	if first < 0 {
		return out, false, nil
	}
	// changedLines as ApplyTextEdits finds them in the whole texts: the
	// common prefix ends in the first window that changed and the common
	// suffix in the last — unless one of those windows' texts ends or
	// starts the other: then the whole texts' comparison goes on past the
	// window, and only they can tell.
	limit := max(lines+lineShift, 1)
	oldFirst, newFirst := wins[first].text, out.Windows[first].Text
	start := commonPrefix(oldFirst, newFirst)
	if start == min(len(oldFirst), len(newFirst)) {
		return out, true, nil
	}
	oldLast, newLast := wins[last].text, out.Windows[last].Text
	var end int
	if first == last {
		end = changedEnd(oldLast, newLast, start)
	} else {
		suffix := commonSuffix(oldLast, newLast, min(len(oldLast), len(newLast)))
		if suffix == min(len(oldLast), len(newLast)) {
			return out, true, nil
		}
		end = len(newLast) - suffix - 1 // the change's last byte (its first is in an earlier window)
	}
	out.FirstChanged = min(starts[first]+lineOfOffset(newFirst, start), limit)
	out.LastChanged = max(min(starts[last]+lineOfOffset(newLast, end), limit), out.FirstChanged)
	return out, false, nil
}
