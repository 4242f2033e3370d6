package core

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Code locations: result locations with the source they point at
// (docs/design.md, "the code-intelligence catalog", Locations), so a
// model rarely needs a follow-up read. The ABI methods planSnippets and
// codeLocations wrap them (catalog.go).
//
// Two pure steps around the host's file reads:
//
//  1. PlanSnippets takes the server's locations and the options (context
//     0–3 lines around each, includeBody for definitions (a location on
//     a symbol's name gets the symbol's whole range), limit 100 by
//     default and at most 500), removes duplicates, groups them by file in
//     first-seen order, keeps the first limit of them (truncated and
//     totalFound say so), and lists for each file inside the workspace the
//     line spans to read. Files outside the workspace (or not file: URIs)
//     are never read: their locations are listed without snippets. A body
//     is the range of the document symbol defined at the location, so
//     includeBody needs the file's symbols: without them the file's entry
//     says needSymbols and the host asks the server and plans again.
//  2. BuildCodeLocations takes the plan, the lines the host read (any
//     superset of the spans, e.g. whole files) and the symbols it has, and
//     makes the CodeLocation values: one-based path:line:column (UTF-16)
//     with the end, the trimmed line as snippet (or the context window or
//     body, untrimmed, with its first line number), and the symbol the
//     location lies in (symbol, kind, container) when the file's symbols
//     are known. RenderCodeLocations writes them for the model, grouped
//     under file headings, within a character budget.

// Bounds of code locations.
const (
	DefaultLocationLimit = 100
	MaxLocationLimit     = 500
	MaxSnippetContext    = 3
	MaxBodyLines         = 200
	maxSnippetLineRunes  = 240 // a longer source line (minified code) is cut with "…"
)

// SnippetOptions are the model's snippet arguments. Limit 0 is the default.
// Offset pages: the locations kept start after the first Offset of the
// grouped order (a cursor's next page).
type SnippetOptions struct {
	Context     int  `json:"context,omitempty"`
	IncludeBody bool `json:"includeBody,omitempty"`
	Limit       int  `json:"limit,omitempty"`
	Offset      int  `json:"offset,omitempty"`
}

func (o SnippetOptions) check() (SnippetOptions, *Error) {
	if o.Context < 0 || o.Context > MaxSnippetContext {
		return o, &Error{Code: CodeInvalidArgument, Message: "context must be 0 to 3 (lines of source around each location), got " + strconv.Itoa(o.Context)}
	}
	if o.Limit == 0 {
		o.Limit = DefaultLocationLimit
	}
	if o.Limit < 1 || o.Limit > MaxLocationLimit {
		return o, &Error{Code: CodeInvalidArgument, Message: "limit must be 1 to 500 (locations returned; default 100), got " + strconv.Itoa(o.Limit)}
	}
	if o.Offset < 0 {
		return o, &Error{Code: CodeInvalidArgument, Message: "offset must be 0 or more (locations skipped: the first of a page), got " + strconv.Itoa(o.Offset)}
	}
	return o, nil
}

// LineSpan is a zero-based, inclusive range of lines.
type LineSpan struct {
	Start uint32 `json:"start"`
	End   uint32 `json:"end"`
}

func (s LineSpan) appendJSON(b []byte) []byte {
	b = append(b, `{"start":`...)
	b = appendUint(b, s.Start)
	b = append(b, `,"end":`...)
	b = appendUint(b, s.End)
	return append(b, '}')
}

// FileRead is one file the host reads: its URI, its absolute path, the
// line spans needed (merged, in order; lines past the end of the file are
// simply absent), and whether its document symbols are needed first.
type FileRead struct {
	URI         string
	Path        string
	Spans       []LineSpan
	NeedSymbols bool
}

func (f FileRead) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, f.URI)
	b = append(b, `,"path":`...)
	b = appendString(b, f.Path)
	b = append(b, `,"spans":`...)
	b = appendArray(b, f.Spans)
	if f.NeedSymbols {
		b = append(b, `,"needSymbols":true`...)
	}
	return append(b, '}')
}

// SnippetPlan is what PlanSnippets decided: the locations kept (grouped by
// file), how many there were, and the reads.
type SnippetPlan struct {
	Locations    []Location
	TotalFound   int
	Truncated    bool // locations after this page's were left out
	Files        []FileRead
	Options      SnippetOptions
	WorkspaceURI string
	// ResultKey names the whole list of unique locations (every page's,
	// in the order pages take them), so a host can tell a next page of
	// the same answer from one of an answer that changed.
	ResultKey string
}

func (p SnippetPlan) appendJSON(b []byte) []byte {
	b = append(b, `{"locations":`...)
	b = appendArray(b, p.Locations)
	b = append(b, `,"totalFound":`...)
	b = appendInt(b, int64(p.TotalFound))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, p.Truncated)
	if p.Options.Offset > 0 {
		b = append(b, `,"offset":`...)
		b = appendInt(b, int64(p.Options.Offset))
	}
	b = append(b, `,"resultKey":`...)
	b = appendString(b, p.ResultKey)
	b = append(b, `,"files":`...)
	b = appendArray(b, p.Files)
	return append(b, '}')
}

// PlanSnippets plans the reads for a list of result locations (see above).
// symbols holds the flattened document symbols the host already has, by
// URI; only includeBody needs them.
func PlanSnippets(locs []Location, workspaceURI string, opts SnippetOptions, symbols map[string][]Symbol) (SnippetPlan, *Error) {
	wsPath, ok := WorkspacePath(workspaceURI)
	if !ok {
		return SnippetPlan{}, Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %q", clip(workspaceURI, 200))
	}
	opts, err := opts.check()
	if err != nil {
		return SnippetPlan{}, err
	}
	type key struct {
		uri string
		r   Range
	}
	seen := make(map[key]bool, len(locs))
	unique := make([]Location, 0, len(locs))
	for _, l := range locs {
		if k := (key{l.URI, l.Range}); !seen[k] {
			seen[k] = true
			unique = append(unique, l)
		}
	}
	order, _ := groupByFile(unique, wsPath)
	plan := SnippetPlan{TotalFound: len(unique), Options: opts, WorkspaceURI: workspaceURI, ResultKey: locationListKey(unique, order)}
	start := min(opts.Offset, len(order))
	kept := min(len(order)-start, opts.Limit)
	plan.Truncated = start+kept < len(order)
	plan.Locations = make([]Location, 0, kept)
	files := map[string]int{}
	for _, ref := range order[start : start+kept] {
		l := unique[ref.loc]
		plan.Locations = append(plan.Locations, l)
		path, inside := insideWorkspace(l.URI, wsPath)
		if !inside {
			continue
		}
		i, ok := files[l.URI]
		if !ok {
			i = len(plan.Files)
			files[l.URI] = i
			plan.Files = append(plan.Files, FileRead{URI: l.URI, Path: path})
		}
		f := &plan.Files[i]
		syms, haveSymbols := symbols[l.URI]
		if opts.IncludeBody && haveSymbols {
			if span, _, ok := bodySpan(syms, l.Range.Start); ok {
				f.Spans = append(f.Spans, span)
				continue
			}
		}
		if opts.IncludeBody && !haveSymbols {
			f.NeedSymbols = true
		}
		f.Spans = append(f.Spans, contextSpan(l.Range.Start.Line, opts.Context))
	}
	for i := range plan.Files {
		plan.Files[i].Spans = mergeSpans(plan.Files[i].Spans)
	}
	return plan, nil
}

// InsideWorkspace is the path PlanSnippets reads a location's file at:
// the absolute path of a file: URI strictly inside the workspace at
// wsPath (WorkspacePath's answer); false for a file it never reads.
func InsideWorkspace(uri, wsPath string) (string, bool) { return insideWorkspace(uri, wsPath) }

// ReadLocations reads a server's Location or LocationLink list as
// planSnippets reads it (a link as its targetUri and
// targetSelectionRange), on its fast path only: false for anything that
// path leaves to the general one (escapes, an unusual number), including
// every malformed list.
func ReadLocations(raw string) ([]Location, bool) { return scanLocations(raw, true) }

// ContextSpan is the lines PlanSnippets reads around a location's line
// without a body.
func ContextSpan(line uint32, context int) LineSpan { return contextSpan(line, context) }

// insideWorkspace returns the absolute path of a file: URI strictly inside
// the workspace directory; false for anything else (outside, the
// workspace itself, not a local file: URI).
func insideWorkspace(uri, wsPath string) (string, bool) {
	if windowsDir(wsPath) {
		p, ok := uriPathIn(uri, wsPath)
		if _, inside := relativeIn(p, wsPath); ok && inside {
			return p, true
		}
		return "", false
	}
	p, ok := FileURIPath(uri)
	if !ok || p == wsPath {
		return "", false
	}
	if wsPath == "/" || (strings.HasPrefix(p, wsPath) && p[len(wsPath)] == '/') {
		return p, true
	}
	return "", false
}

func contextSpan(line uint32, context int) LineSpan {
	start := line - min(line, uint32(context))
	return LineSpan{Start: start, End: line + uint32(context)}
}

// bodySpan is the lines of the symbol defined at a position (SymbolAt),
// at most MaxBodyLines; cut says the body is longer. A position that is
// not a definition (a reference inside a function) has no body.
func bodySpan(symbols []Symbol, p Position) (span LineSpan, cut bool, ok bool) {
	s, ok := SymbolAt(symbols, p)
	if !ok {
		return LineSpan{}, false, false
	}
	start, end := s.Range.Start.Line, max(s.Range.End.Line, s.Range.Start.Line)
	if end-start >= MaxBodyLines {
		end, cut = start+MaxBodyLines-1, true
	}
	return LineSpan{Start: start, End: end}, cut, true
}

// MergeSpans is spans in order, overlapping or adjacent ones joined, as
// PlanSnippets reads them (it reorders spans in place).
func MergeSpans(spans []LineSpan) []LineSpan { return mergeSpans(spans) }

func mergeSpans(spans []LineSpan) []LineSpan {
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if uint64(s.Start) <= uint64(last.End)+1 {
			last.End = max(last.End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// FileLines is what the host read of one file: chunks of consecutive
// lines, each from its zero-based start line (without line terminators).
type FileLines struct {
	URI    string
	Chunks []LineChunk
}

// LineChunk is consecutive lines from Start (zero-based).
type LineChunk struct {
	Start uint32   `json:"start"`
	Lines []string `json:"lines"`
}

// CodeLocation is one location for the model, one-based. Snippet is the
// trimmed source line, or (SnippetLine set) the lines from SnippetLine on:
// the context window or the body. BodyEndLine is set when a body was cut
// at MaxBodyLines: the line it really ends on.
type CodeLocation struct {
	Path        string
	Line        uint64
	Column      uint64
	EndLine     uint64
	EndColumn   uint64
	Snippet     string
	SnippetLine uint64
	BodyEndLine uint64
	Symbol      string
	Kind        string
	Container   string
	// OnSymbol says the location is the symbol's name (a definition),
	// rather than somewhere inside it.
	OnSymbol bool
	// Outside says the file is outside the workspace: no snippet is read.
	Outside bool
}

func (c CodeLocation) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, c.Path)
	for _, f := range [...]struct {
		k string
		v uint64
	}{{"line", c.Line}, {"column", c.Column}, {"endLine", c.EndLine}, {"endColumn", c.EndColumn}} {
		b = appendKey(b, f.k, false)
		b = strconv.AppendUint(b, f.v, 10)
	}
	if !c.Outside {
		b = append(b, `,"snippet":`...)
		b = appendString(b, c.Snippet)
	}
	if c.SnippetLine != 0 {
		b = append(b, `,"snippetLine":`...)
		b = strconv.AppendUint(b, c.SnippetLine, 10)
	}
	if c.BodyEndLine != 0 {
		b = append(b, `,"bodyEndLine":`...)
		b = strconv.AppendUint(b, c.BodyEndLine, 10)
	}
	for _, f := range [...]struct{ k, v string }{{"symbol", c.Symbol}, {"kind", c.Kind}, {"container", c.Container}} {
		if f.v != "" {
			b = appendKey(b, f.k, false)
			b = appendString(b, f.v)
		}
	}
	if c.Outside {
		b = append(b, `,"outsideWorkspace":true`...)
	}
	return append(b, '}')
}

// CodeLocations is the locations part of an answer: grouped by file, the
// first Limit of TotalFound.
type CodeLocations struct {
	Locations  []CodeLocation
	TotalFound int
	Truncated  bool // locations after this page's were left out
	Limit      int
	Offset     int    // locations before this page's (a cursor's page)
	ResultKey  string // SnippetPlan.ResultKey
}

func (c CodeLocations) appendJSON(b []byte) []byte {
	b = append(b, `{"locations":`...)
	b = appendArray(b, c.Locations)
	b = append(b, `,"totalFound":`...)
	b = appendInt(b, int64(c.TotalFound))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, c.Truncated)
	if c.Offset > 0 {
		b = append(b, `,"offset":`...)
		b = appendInt(b, int64(c.Offset))
	}
	b = append(b, `,"resultKey":`...)
	b = appendString(b, c.ResultKey)
	return append(b, '}')
}

// BuildCodeLocations makes the code locations of a plan from the lines the
// host read and the symbols it has (by URI; both may miss files: their
// locations come without snippet or symbol).
func BuildCodeLocations(plan SnippetPlan, files []FileLines, symbols map[string][]Symbol) (CodeLocations, *Error) {
	wsPath, ok := WorkspacePath(plan.WorkspaceURI)
	if !ok {
		return CodeLocations{}, Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %q", clip(plan.WorkspaceURI, 200))
	}
	opts, err := plan.Options.check()
	if err != nil {
		return CodeLocations{}, err
	}
	text := make(map[string]fileChunks, len(files))
	for _, f := range files {
		text[f.URI] = append(text[f.URI], f.Chunks...)
	}
	out := CodeLocations{TotalFound: plan.TotalFound, Truncated: plan.Truncated, Limit: opts.Limit, Offset: opts.Offset, ResultKey: plan.ResultKey,
		Locations: make([]CodeLocation, 0, len(plan.Locations))}
	for _, l := range plan.Locations {
		c := CodeLocation{Path: displayPath(l.URI, wsPath),
			Line: toOneBased(l.Range.Start.Line), Column: toOneBased(l.Range.Start.Character),
			EndLine: toOneBased(l.Range.End.Line), EndColumn: toOneBased(l.Range.End.Character)}
		_, inside := insideWorkspace(l.URI, wsPath)
		c.Outside = !inside
		syms, haveSymbols := symbols[l.URI]
		if haveSymbols {
			if s, ok := EnclosingSymbol(syms, l.Range.Start); ok {
				c.Symbol, c.Kind, c.Container = s.Name, s.Kind.String(), s.Container
				c.OnSymbol = rangeContains(s.Selection, l.Range.Start) && s.Selection.Start.Line == l.Range.Start.Line
			}
		}
		lines := text[l.URI]
		if c.Outside || lines == nil {
			out.Locations = append(out.Locations, c)
			continue
		}
		var span LineSpan
		cut, block := false, false
		if opts.IncludeBody && haveSymbols {
			span, cut, block = bodySpan(syms, l.Range.Start)
		}
		if !block && opts.Context > 0 {
			span, block = contextSpan(l.Range.Start.Line, opts.Context), true
		}
		if !block {
			line, _ := lines.line(l.Range.Start.Line)
			col := l.Range.Start.Character
			if l.Range.Start.Line == 0 && strings.HasPrefix(line, utf8BOM) {
				// The byte order mark is not code: invisible in the
				// answer, it is one more character to a model.
				line, col = line[len(utf8BOM):], max(col, 1)-1
			}
			c.Snippet = snippetAt(line, col, maxSnippetLineRunes)
			out.Locations = append(out.Locations, c)
			continue
		}
		var b strings.Builder
		first, have := uint32(0), false
		for n := uint64(span.Start); n <= uint64(span.End); n++ {
			line, ok := lines.line(uint32(n))
			if !ok {
				if have {
					break // past the end of the file (or of what was read)
				}
				continue
			}
			if have {
				b.WriteByte('\n')
			} else {
				first = uint32(n)
			}
			have = true
			if n == 0 {
				line = strings.TrimPrefix(line, utf8BOM)
			}
			b.WriteString(clipRunes(strings.TrimRight(line, " \t\r"), maxSnippetLineRunes))
		}
		if have {
			c.Snippet, c.SnippetLine = b.String(), toOneBased(first)
			if cut {
				if s, ok := SymbolAt(syms, l.Range.Start); ok {
					c.BodyEndLine = toOneBased(s.Range.End.Line)
				}
			}
		}
		out.Locations = append(out.Locations, c)
	}
	return out, nil
}

// fileChunks is what was read of one file; a host passes few chunks (one
// per planned span, or the whole file), so lookups scan them.
type fileChunks []LineChunk

// line returns line n (zero-based) if it was read.
func (fc fileChunks) line(n uint32) (string, bool) {
	for _, c := range fc {
		if n >= c.Start && uint64(n-c.Start) < uint64(len(c.Lines)) {
			return c.Lines[n-c.Start], true
		}
	}
	return "", false
}

// snippetAt is a location's one-line snippet: line without its leading
// and trailing space, at most n code points. When the line is longer, the
// part shown holds the location (UTF-16 column col): its start when the
// location is near it, else a window around the location, each cut
// marked with "…" (a use at column 3,000 of a minified line would
// otherwise be cut away).
func snippetAt(line string, col uint32, n int) string {
	trimmed := strings.TrimSpace(line)
	total := utf8.RuneCountInString(trimmed)
	if total <= n {
		return trimmed
	}
	// The location's code point in trimmed.
	lead := len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
	at := utf8.RuneCountInString(line[:byteOffsetOfColumn(line, int(col))]) - utf8.RuneCountInString(line[:lead])
	if at < n*2/3 {
		return clipRunes(trimmed, n)
	}
	start := min(at-n/3, total-(n-1))
	window := []rune(trimmed)[start:]
	if len(window) > n-1 {
		return "…" + string(window[:n-2]) + "…"
	}
	return "…" + string(window)
}

// clipRunes cuts s to n code points, marking the cut with "…".
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return firstRunes(s, n-1) + "…"
}

// RenderCodeLocations writes code locations for the model: the subject
// (the resolved target) first when given, a count, then each file's path
// and its locations (line:column, the symbol, the snippet; a window or
// body as numbered lines, the windows of neighbouring locations merged so
// no line is written twice), then what was left out. The text stays within
// maxChars code points (DefaultMaxResultChars when 0), cut between
// locations.
func RenderCodeLocations(c CodeLocations, subject string, maxChars int) Rendered {
	if maxChars <= 0 {
		maxChars = DefaultMaxResultChars
	}
	var head strings.Builder
	if subject != "" {
		head.WriteString(subject + "\n")
	}
	if len(c.Locations) == 0 {
		head.WriteString("No locations found.")
		return fitText(Rendered{Text: head.String()}, maxChars)
	}
	files := 0
	for i, l := range c.Locations {
		if i == 0 || l.Path != c.Locations[i-1].Path {
			files++
		}
	}
	head.WriteString(strconv.Itoa(c.TotalFound) + " " + plural(c.TotalFound, "location", "locations"))
	switch {
	case c.Offset > 0:
		// A later page: its files are not the answer's.
		span := strconv.Itoa(c.Offset + 1)
		if len(c.Locations) > 1 {
			span += "–" + strconv.Itoa(c.Offset+len(c.Locations))
		}
		head.WriteString("; " + span + " here, in " + strconv.Itoa(files) + " " + plural(files, "file", "files"))
	case !c.Truncated:
		head.WriteString(" in " + strconv.Itoa(files) + " " + plural(files, "file", "files"))
	}
	head.WriteString(":")

	// A block is one location, or consecutive locations of a file whose
	// context windows overlap or touch: their positions, then the lines of
	// the windows once.
	type block struct {
		text  string
		count int
	}
	var blocks []block
	for i := 0; i < len(c.Locations); {
		l := c.Locations[i]
		j := i + 1
		end := windowEnd(l)
		for l.SnippetLine != 0 && l.BodyEndLine == 0 && j < len(c.Locations) {
			n := c.Locations[j]
			if n.Path != l.Path || n.SnippetLine == 0 || n.BodyEndLine != 0 || n.SnippetLine < l.SnippetLine || n.SnippetLine > end+1 {
				break
			}
			end = max(end, windowEnd(n))
			j++
		}
		var b strings.Builder
		if i == 0 || l.Path != c.Locations[i-1].Path {
			b.WriteString("\n")
			b.WriteString(l.Path)
			if l.Outside {
				b.WriteString(" (outside the workspace: no source shown)")
			}
		}
		for _, m := range c.Locations[i:j] {
			b.WriteString("\n  ")
			b.WriteString(strconv.FormatUint(m.Line, 10))
			b.WriteString(":")
			b.WriteString(strconv.FormatUint(m.Column, 10))
			switch {
			case m.Symbol != "" && m.OnSymbol:
				b.WriteString(" (" + strings.TrimSpace(m.Kind+" "+qualified(m.Container, m.Symbol)) + ")")
			case m.Symbol != "":
				b.WriteString(" (in " + qualified(m.Container, m.Symbol) + ")")
			}
		}
		switch {
		case l.SnippetLine != 0:
			// The windows' lines, each once, in order.
			width := digits(end)
			next := l.SnippetLine
			for _, m := range c.Locations[i:j] {
				for k, line := range strings.Split(m.Snippet, "\n") {
					n := m.SnippetLine + uint64(k)
					if n < next {
						continue
					}
					num := strconv.FormatUint(n, 10)
					b.WriteString("\n    ")
					for range width - len(num) {
						b.WriteByte(' ')
					}
					b.WriteString(num)
					b.WriteString(" | ")
					b.WriteString(line)
					next = n + 1
				}
			}
			if l.BodyEndLine != 0 {
				b.WriteString("\n    … (the body goes on to line " + strconv.FormatUint(l.BodyEndLine, 10) + "; " + strconv.Itoa(MaxBodyLines) + " lines shown)")
			}
		case l.Snippet != "":
			b.WriteString("  ")
			b.WriteString(l.Snippet)
		}
		blocks = append(blocks, block{b.String(), j - i})
		i = j
	}

	moreNotice := func(shown int, cutByChars bool) string {
		omitted := c.TotalFound - shown
		if omitted <= 0 {
			return ""
		}
		s := "(" + strconv.Itoa(shown) + " of " + strconv.Itoa(c.TotalFound) + " locations shown"
		if c.Offset > 0 {
			s = "(locations " + strconv.Itoa(c.Offset+1) + "–" + strconv.Itoa(c.Offset+shown) + " of " + strconv.Itoa(c.TotalFound)
			if c.Offset+shown >= c.TotalFound {
				return s + ": the last page)"
			}
			s += " shown"
		}
		switch {
		case cutByChars:
			s += "; the text was cut to " + strconv.Itoa(maxChars) + " characters: ask for less context or a smaller limit"
		case c.Limit < MaxLocationLimit:
			s += "; limit is " + strconv.Itoa(c.Limit) + ", at most " + strconv.Itoa(MaxLocationLimit)
		default:
			s += "; limit is at its maximum, " + strconv.Itoa(MaxLocationLimit)
		}
		return s + ")"
	}
	text := head.String()
	used := utf8.RuneCountInString(text)
	all := used
	var whole strings.Builder
	size := len(text) + 1
	for _, blk := range blocks {
		size += len(blk.text)
	}
	whole.Grow(size + 160) // and the notice
	whole.WriteString(text)
	for _, blk := range blocks {
		all += utf8.RuneCountInString(blk.text)
		whole.WriteString(blk.text)
	}
	if notice := moreNotice(len(c.Locations), false); notice != "" {
		all += 1 + utf8.RuneCountInString(notice)
		whole.WriteString("\n" + notice)
	}
	if all <= maxChars {
		return Rendered{Text: whole.String(), Shown: len(c.Locations), Omitted: c.TotalFound - len(c.Locations)}
	}
	// Too long: the most whole blocks that fit with the notice.
	var b strings.Builder
	b.WriteString(text)
	shown := 0
	for _, blk := range blocks {
		n := utf8.RuneCountInString(blk.text)
		if used+n+1+utf8.RuneCountInString(moreNotice(shown+blk.count, true)) > maxChars {
			break
		}
		b.WriteString(blk.text)
		used += n
		shown += blk.count
	}
	b.WriteString("\n" + moreNotice(shown, true))
	out := Rendered{Text: b.String(), Shown: shown, Omitted: c.TotalFound - shown, Truncated: true}
	if utf8.RuneCountInString(out.Text) > maxChars {
		out.Text = firstRunes(out.Text, maxChars)
	}
	return out
}

// windowEnd is the last line (one-based) of a location's snippet window.
func windowEnd(l CodeLocation) uint64 {
	if l.SnippetLine == 0 {
		return l.Line
	}
	return l.SnippetLine + uint64(strings.Count(l.Snippet, "\n"))
}

func qualified(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

// locationListKey names an answer's locations in the order its pages
// take them (listKey of their "uri\x00range" lines).
func locationListKey(locs []Location, order []lineRef) string {
	// The same bytes listKey hashes for "uri\x00line:char-line:char",
	// written into one buffer instead of a string per location.
	h := newListKey()
	var b []byte
	for _, ref := range order {
		l := locs[ref.loc]
		r := l.Range
		b = append(append(b[:0], l.URI...), 0)
		b = strconv.AppendUint(b, uint64(r.Start.Line), 10)
		b = strconv.AppendUint(append(b, ':'), uint64(r.Start.Character), 10)
		b = strconv.AppendUint(append(b, '-'), uint64(r.End.Line), 10)
		b = strconv.AppendUint(append(b, ':'), uint64(r.End.Character), 10)
		h.addBytes(b)
	}
	return h.String()
}

// listKey names a list of strings in its order: a 64-bit FNV-1a hash of
// them, one per line, in hex. Pages are cut from an answer in order, so
// the same results in another order (a server that answers in another
// order, ties ranked otherwise) are another answer: its pages would not
// fit together.
func listKey(keys []string) string {
	h := newListKey()
	for _, k := range keys {
		h.add(k)
	}
	return h.String()
}

// listKeyHash is listKey's hash (64-bit FNV-1a), taking the list one
// item at a time.
type listKeyHash struct{ h uint64 }

func newListKey() *listKeyHash { return &listKeyHash{14695981039346656037} }

// add hashes one item and the line break after it.
func (k *listKeyHash) add(item string) { k.h = hashItem(k.h, item) }

// addBytes is add for an item in a buffer.
func (k *listKeyHash) addBytes(item []byte) { k.h = hashItem(k.h, item) }

func hashItem[T ~string | ~[]byte](h uint64, item T) uint64 {
	const prime64 = 1099511628211
	for i := 0; i < len(item); i++ {
		h ^= uint64(item[i])
		h *= prime64
	}
	h ^= '\n'
	return h * prime64
}

func (k *listKeyHash) String() string { return strconv.FormatUint(k.h, 16) }
