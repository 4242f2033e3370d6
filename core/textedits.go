package core

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// applyTextEdits: a language server's TextEdits applied to one document's
// text, with a unified diff of the change (issue 13's applier computes the
// new texts here; the host reads, checks and writes the files).
//
// Input {uri, text (the document's current content, as sent to the
// server), edits: [TextEdit | AnnotatedTextEdit] (null: none), workspaceUri?
// (for the path), context? (diff context lines, 0–1,000, default 3),
// verbatim? (default false)}.
// Output {uri, path, text (the new content), edits (how many were
// applied), diff, changedLines: {first, last}, linesAdded, linesRemoved}.
// Instead of text, a host may send windows of it, and gets their new
// texts (textwindows.go).
//
// Positions are LSP's: zero-based lines split at "\n", "\r\n" and "\r"
// (after a final line break there is one more, empty line), characters
// UTF-16 code units of the line without its terminator (a character
// outside the Basic Multilingual Plane counts 2, a leading byte order mark
// U+FEFF counts 1 like any character: lspseam sends the text with it).
// Every range refers to the original text. A character past the end of
// its line is the line's end, as LSP says (typescript-language-server
// sends one after an extract refactoring). A range is malformed when a
// position is past the last line, splits a surrogate pair, or ends before
// it starts; two edits are malformed when
// they overlap (an insertion at the start or end of a replaced range does
// not overlap it). Edits apply in order of their start; insertions at the
// same position apply in array order, before a range replaced from there.
// The text keeps its form (textform.go): an edit at 0:0 of a text that
// starts with a byte order mark starts after the mark, a mark leading the
// newText of an edit at the text's start is dropped, and the line breaks
// that overlap new text are written in the text's dominant style. With
// verbatim, newText is inserted as sent (the host's diff of two texts it
// already has).
//
// The diff is made window by window when the text can be windowed (the
// lines around the edits, as a host would send them): the same diff
// whether the host sends the text or its windows.
//
// path is relative to the workspace when the URI is inside it, absolute
// when outside, the URI itself when it is not a file: URI. diff has the
// headers "--- a/PATH" and "+++ b/PATH" ("--- PATH" for an absolute path)
// and is "" when the text does not change (unifieddiff.go). changedLines
// are one-based lines of the new text counted as read counts them (\n,
// \r\n and \r end a line), from the line of the first byte that differs
// to the line of the last one (what lies between the texts' common prefix
// and suffix; a deletion's line is where it happened, at least 1 and at
// most the last line); {0, 0} when nothing changed. linesAdded and
// linesRemoved are the diff's + and - lines (the diff splits lines at
// "\n" only, as diff and patch do).
//
// Errors: LSP_MALFORMED_RESPONSE naming the edit (edits[i], its range
// zero-based as line:character) for a bad shape, a bad range or an
// overlap; LSP_INVALID_ARGUMENT for the host's input (uri, text not a
// string or not UTF-8, workspaceUri, context).

// TextEdit is one LSP TextEdit.
type TextEdit struct {
	Range   Range
	NewText string
}

func (e TextEdit) appendJSON(b []byte) []byte {
	b = append(b, `{"range":`...)
	b = e.Range.appendJSON(b)
	b = append(b, `,"newText":`...)
	b = appendString(b, e.NewText)
	return append(b, '}')
}

// TextEditsResult is applyTextEdits' ok value.
type TextEditsResult struct {
	URI          string
	Path         string
	Text         string
	Edits        int
	Diff         string
	FirstChanged int
	LastChanged  int
	LinesAdded   int
	LinesRemoved int
	// Windows are the new texts of the input's windows, when it sent
	// windows instead of the text (textwindows.go); Text is then empty.
	Windows []WindowText
}

func (r TextEditsResult) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, r.URI)
	b = append(b, `,"path":`...)
	b = appendString(b, r.Path)
	if r.Windows != nil {
		b = append(b, `,"windows":[`...)
		for i, w := range r.Windows {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"line":`...)
			b = appendInt(b, int64(w.Line))
			b = append(b, `,"text":`...)
			b = appendString(b, w.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	} else {
		b = append(b, `,"text":`...)
		b = appendString(b, r.Text)
	}
	b = append(b, `,"edits":`...)
	b = appendInt(b, int64(r.Edits))
	b = append(b, `,"diff":`...)
	b = appendString(b, r.Diff)
	b = append(b, `,"changedLines":{"first":`...)
	b = appendInt(b, int64(r.FirstChanged))
	b = append(b, `,"last":`...)
	b = appendInt(b, int64(r.LastChanged))
	b = append(b, `},"linesAdded":`...)
	b = appendInt(b, int64(r.LinesAdded))
	b = append(b, `,"linesRemoved":`...)
	b = appendInt(b, int64(r.LinesRemoved))
	return append(b, '}')
}

// maxDiffContext bounds the context lines a caller may ask for.
const maxDiffContext = 1000

func applyTextEditsCall(in gjson.Result) (jsonAppender, *Error) {
	if err := requireObject(in, "applyTextEdits' input"); err != nil {
		return nil, err
	}
	uri := get(in, "uri")
	if uri.Type != gjson.String || uri.Str == "" {
		return nil, Errorf(CodeInvalidArgument, "uri must be the document's URI as a non-empty string, got %s", describe(uri))
	}
	text, windowed := get(in, "text"), get(in, "windows").Exists()
	if windowed && text.Exists() {
		return nil, Errorf(CodeInvalidArgument, "applyTextEdits takes text or windows (with lines and lineBreaks), not both")
	}
	if !windowed && text.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "text must be the document's current content as a string, got %s", describe(text))
	}
	wsPath, err := optionalWorkspace(in)
	if err != nil {
		return nil, err
	}
	context := 3
	if c := get(in, "context"); c.Exists() && c.Type != gjson.Null {
		n, ok := integer(c, 0, maxDiffContext)
		if !ok {
			return nil, Errorf(CodeInvalidArgument, "context must be an integer from 0 to %d (diff context lines), got %s", maxDiffContext, describe(c))
		}
		context = int(n)
	}
	verbatim := false
	if v := get(in, "verbatim"); v.Exists() && v.Type != gjson.Null {
		if v.Type != gjson.True && v.Type != gjson.False {
			return nil, Errorf(CodeInvalidArgument, "verbatim must be a boolean, got %s", describe(v))
		}
		verbatim = v.Type == gjson.True
	}
	edits, problem := textEditsOf(get(in, "edits"), at{"edits", -1})
	if problem != "" {
		return nil, malformedEdit(uri.Str, problem)
	}
	if !windowed {
		return ApplyTextEdits(uri.Str, text.Str, edits, wsPath, context, !verbatim)
	}
	wins, lines, breaks, err := readTextWindows(in)
	if err != nil {
		return nil, err
	}
	out, undecided, err := applyInWindows(TextEditsResult{URI: uri.Str, Path: editedPath(uri.Str, wsPath), Edits: len(edits)}, wins, lines, breaks, edits, context, !verbatim)
	if err == nil && undecided {
		err = Errorf(CodeInvalidArgument, "where the change of %s starts or ends cannot be told from its windows (the text around it repeats what it inserts or removes): send the whole text", clip(uri.Str, 200))
	}
	return out, err
}

// optionalWorkspace reads an optional workspaceUri ("" when absent).
func optionalWorkspace(in gjson.Result) (string, *Error) {
	ws := get(in, "workspaceUri")
	if !ws.Exists() || ws.Type == gjson.Null {
		return "", nil
	}
	p, ok := "", false
	if ws.Type == gjson.String {
		p, ok = WorkspacePath(ws.Str)
	}
	if !ok {
		return "", Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %s", describe(ws))
	}
	return p, nil
}

// textEditsOf reads a TextEdit[] (null: none) named by where; problem is
// non-empty when it is not one.
func textEditsOf(v gjson.Result, where at) ([]TextEdit, string) {
	if !v.Exists() || v.Type == gjson.Null {
		return nil, ""
	}
	if !v.IsArray() {
		return nil, where.String() + " must be an array of TextEdit, got " + describe(v)
	}
	var edits []TextEdit
	var problem string
	v.ForEach(func(_, item gjson.Result) bool {
		var e TextEdit
		e, problem = textEditOf(item, at{where.String(), len(edits)})
		edits = append(edits, e)
		return problem == ""
	})
	return edits, problem
}

// textEditOf reads one TextEdit or AnnotatedTextEdit (its annotationId is
// not needed to apply it).
func textEditOf(v gjson.Result, where at) (TextEdit, string) {
	if !v.IsObject() {
		return TextEdit{}, where.String() + " must be a TextEdit object, got " + describe(v)
	}
	f := fields(v, "range", "newText")
	r, problem := rangeOf(f[0], where, "range")
	if problem != "" {
		return TextEdit{}, problem
	}
	if f[1].Type != gjson.String {
		return TextEdit{}, where.field("newText") + " must be a string, got " + describe(f[1])
	}
	if !utf8.ValidString(f[1].Str) {
		return TextEdit{}, where.field("newText") + " is not valid UTF-8"
	}
	if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		return TextEdit{}, where.field("range") + " ends before it starts (" + rangeString(r) + ")"
	}
	return TextEdit{Range: r, NewText: f[1].Str}, ""
}

// rangeString writes a zero-based range as line:character–line:character.
func rangeString(r Range) string {
	return strconv.FormatUint(uint64(r.Start.Line), 10) + ":" + strconv.FormatUint(uint64(r.Start.Character), 10) + "–" +
		strconv.FormatUint(uint64(r.End.Line), 10) + ":" + strconv.FormatUint(uint64(r.End.Character), 10)
}

func malformedEdit(uri, problem string) *Error {
	if strings.Contains(problem, "range") || strings.Contains(problem, "overlap") {
		problem += " (positions zero-based line:character, characters in UTF-16 code units)"
	}
	return Errorf(CodeMalformedResponse, "the language server's edit of %s is malformed: %s", clip(uri, 200), problem)
}

// ApplyTextEdits applies edits to text, the content of the document uri,
// for a workspace at wsPath ("": none), keeping the text's byte order
// mark and line breaks unless !keepForm (see applyTextEdits).
func ApplyTextEdits(uri, text string, edits []TextEdit, wsPath string, context int, keepForm bool) (TextEditsResult, *Error) {
	if !utf8.ValidString(text) {
		return TextEditsResult{}, Errorf(CodeInvalidArgument, "text is not valid UTF-8, so the edits of %s cannot be applied to it", clip(uri, 200))
	}
	out := TextEditsResult{URI: uri, Path: editedPath(uri, wsPath), Edits: len(edits), Text: text}
	if w, ok := windowsOf(text, edits, context); ok {
		// Diffed in the windows a host may send instead of the text, so
		// that both answer alike (textwindows.go); any error is the
		// whole text's to say, below.
		res, undecided, err := applyInWindows(out, w.cut(text), w.Lines, w.LineBreaks, edits, context, keepForm)
		if err == nil {
			res.Text, res.Windows = w.Splice(text, res.Windows), nil
			if undecided {
				res.FirstChanged, res.LastChanged = changedLinesOf(text, res.Text)
			}
			return res, nil
		}
	}
	newText, problem, overlap := spliceEdits(text, edits, keepForm)
	if problem != "" {
		err := malformedEdit(uri, problem)
		if overlap {
			err.Reason = ReasonEditsOverlap
		}
		return TextEditsResult{}, err
	}
	out.Text = newText
	if newText == text {
		return out, nil
	}
	d := diffLines(text, newText)
	out.LinesAdded, out.LinesRemoved = d.counts()
	out.Diff = d.unified(diffName("a/", out.Path), diffName("b/", out.Path), context)
	out.FirstChanged, out.LastChanged = changedLinesOf(text, newText)
	return out, nil
}

// changedLinesOf is applyTextEdits' changedLines of a change from text to
// newText: the one-based lines of newText from the first byte that
// differs to the last, between the texts' common prefix and suffix.
func changedLinesOf(text, newText string) (first, last int) {
	start := commonPrefix(text, newText)
	end := changedEnd(text, newText, start)
	limit := max(countLines(newText), 1)
	first = min(lineOfOffset(newText, start), limit)
	return first, max(min(lineOfOffset(newText, end), limit), first)
}

// commonPrefix is how many bytes a and b start with alike.
func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is how many bytes a and b end with alike, at most limit.
func commonSuffix(a, b string, limit int) int {
	s := 0
	for s < limit && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return s
}

// changedEnd is the offset in b of the last byte of the change from a to
// b, whose common prefix is start bytes: before their common suffix,
// which does not reach back into the prefix (start itself when the change
// only removed bytes).
func changedEnd(a, b string, start int) int {
	end := len(b) - commonSuffix(a, b, min(len(a), len(b))-start)
	if end > start {
		end-- // the line of the change's last byte
	}
	return end
}

// editedPath is the answer's path of the document uri: relative to the
// workspace at wsPath when inside it, else the URI's path or the URI.
func editedPath(uri, wsPath string) string {
	if wsPath != "" {
		return displayPath(uri, wsPath)
	}
	if p, ok := FileURIPath(uri); ok {
		return p
	}
	return uri
}

// spliced is an edit with its byte span in the original text.
type spliced struct {
	start, end, index int
}

// spliceEdits applies edits to text, keeping its form (textform.go) when
// keepForm; problem names a bad edit.
func spliceEdits(text string, edits []TextEdit, keepForm bool) (newText, problem string, overlap bool) {
	form := editForm{keep: keepForm, docStart: true}
	if keepForm {
		form.eol = dominantBreak(strings.TrimPrefix(text, utf8BOM))
	}
	return spliceEditsIn(text, 0, edits, nil, form)
}

// editForm is how spliced edits keep their document's form: keep, with
// the document's dominant line break eol ("": none), and docStart when
// the text spliced starts the document (a mark there is the document's).
type editForm struct {
	keep     bool
	docStart bool
	eol      string
}

// spliceEditsIn applies edits to text, the document's lines from line
// first on (0 and the whole document, or a window of it: textwindows.go);
// the edits' positions are the document's. index maps an edit to its
// place in the array the server sent, for messages (nil: the same).
func spliceEditsIn(text string, first int, edits []TextEdit, index []int, form editForm) (newText, problem string, overlap bool) {
	if len(edits) == 0 {
		return text, "", false
	}
	orig := func(i int) int {
		if index == nil {
			return i
		}
		return index[i]
	}
	idx := newLineIndex(text)
	idx.first = first
	spans := make([]spliced, len(edits))
	for i, e := range edits {
		where := at{"edits", orig(i)}
		s, problem := idx.offset(e.Range.Start, where, "start")
		if problem == "" {
			spans[i].start = s
			spans[i].end, problem = idx.offset(e.Range.End, where, "end")
		}
		if problem != "" {
			return "", problem + " (range " + rangeString(e.Range) + ")", false
		}
		spans[i].index = i
	}
	// By start; at one start, insertions first (in array order), then a
	// replaced range.
	slices.SortStableFunc(spans, func(x, y spliced) int {
		if x.start != y.start {
			return x.start - y.start
		}
		return boolInt(x.end > x.start) - boolInt(y.end > y.start)
	})
	size := len(text)
	for i, s := range spans {
		if i > 0 && spans[i-1].end > s.start {
			p, q := spans[i-1].index, s.index
			if orig(p) > orig(q) {
				p, q = q, p
			}
			return "", "edits[" + strconv.Itoa(orig(p)) + "] (" + rangeString(edits[p].Range) + ") and edits[" + strconv.Itoa(orig(q)) + "] (" +
				rangeString(edits[q].Range) + ") overlap; the edits of one document must not", true
		}
		size += len(edits[s.index].NewText) - (s.end - s.start)
	}
	if !form.keep {
		var b strings.Builder
		b.Grow(size)
		done := 0
		for _, s := range spans {
			b.WriteString(text[done:s.start])
			b.WriteString(edits[s.index].NewText)
			done = s.end
		}
		b.WriteString(text[done:])
		return b.String(), "", false
	}
	// The file's form (textform.go): edits start after a leading byte
	// order mark and add none; their line breaks are the file's. The
	// overlaps are checked on the ranges as sent, so moving an edit off
	// the mark does not make a refused pair acceptable.
	bom := form.docStart && strings.HasPrefix(text, utf8BOM)
	var b strings.Builder
	b.Grow(size)
	regions := make([]region, 0, len(spans))
	done := 0
	for _, s := range spans {
		newText := edits[s.index].NewText
		if s.start == 0 && form.docStart {
			newText = strings.TrimPrefix(newText, utf8BOM)
			if bom {
				s.start, s.end = len(utf8BOM), max(s.end, len(utf8BOM))
			}
		}
		b.WriteString(text[done:s.start])
		regions = append(regions, region{b.Len(), b.Len() + len(newText)})
		b.WriteString(newText)
		done = s.end
	}
	b.WriteString(text[done:])
	if form.eol == "" {
		return b.String(), "", false
	}
	return restyleBreaks(b.String(), regions, form.eol), "", false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lineIndex converts LSP positions to byte offsets of a text: a
// document's, or its lines from line first on (a window).
type lineIndex struct {
	text   string
	first  int   // the document's line the text starts with
	starts []int // the byte offset each line starts at
	ends   []int // where each line's content ends (its terminator's offset)
	// A cursor: the last conversion's line, byte offset and UTF-16
	// column, so that positions converted in order along a long line do
	// not rescan it.
	curLine, curByte, curCol int
}

func newLineIndex(text string) *lineIndex {
	idx := &lineIndex{text: text, curLine: -1}
	src := lineSource{s: text}
	start := 0
	for {
		end, after := src.next(start)
		idx.starts = append(idx.starts, start)
		idx.ends = append(idx.ends, end)
		if after >= len(text) && end == after {
			break // the last line has no terminator
		}
		start = after
		if start == len(text) {
			idx.starts = append(idx.starts, start)
			idx.ends = append(idx.ends, start)
			break
		}
	}
	return idx
}

// offset returns the byte offset of pos; problem says why there is none.
func (idx *lineIndex) offset(pos Position, where at, which string) (int, string) {
	name := where.field("range") + "." + which
	line := int(pos.Line) - idx.first
	if line < 0 { // a window's edits are inside it (textwindows.go)
		return 0, name + " is on line " + strconv.Itoa(int(pos.Line)) + ", before the window's first line " + strconv.Itoa(idx.first)
	}
	if line >= len(idx.starts) && which == "end" {
		// An end past the last line means the document's end, as editors
		// clamp it: servers that replace a whole document say so with an
		// end of (2147483647, 2147483647) (bash-language-server's shfmt
		// formatting) or the line after the last (cmake-language-server's).
		return len(idx.text), ""
	}
	if line >= len(idx.starts) {
		n := len(idx.starts)
		return 0, name + " is on line " + strconv.Itoa(int(pos.Line)) + ", past the end of the document (lines 0–" + strconv.Itoa(idx.first+n-1) + ")"
	}
	content := idx.text[idx.starts[line]:idx.ends[line]]
	i, col := 0, 0
	if idx.curLine == line && idx.curCol <= int(pos.Character) {
		i, col = idx.curByte, idx.curCol
	}
	want := int(pos.Character)
	for col < want && i < len(content) {
		r, w := utf8.DecodeRuneInString(content[i:])
		u := 1
		if r >= 0x10000 {
			u = 2
		}
		if col+u > want {
			return 0, name + " (" + strconv.Itoa(int(pos.Line)) + ":" + strconv.Itoa(want) + ") splits the UTF-16 surrogate pair of " + strconv.QuoteRune(r)
		}
		col += u
		i += w
	}
	// A character past the end of the line means the line's end (LSP:
	// "it defaults back to the line length"; editors clamp the same way).
	idx.curLine, idx.curByte, idx.curCol = line, i, col
	return idx.starts[line] + i, ""
}
