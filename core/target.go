package core

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Targets: what a model names instead of a UTF-16 column (docs/design.md,
// "the code-intelligence catalog", Targets); the ABI method resolveTarget
// wraps ResolveTarget (catalog.go).
//
// A target is {path, symbol?, kind?, line?, column?, matchText?}, resolved
// against the file's text and its document symbols in this order:
//
//  1. symbol: a name ("Helper") or a dotted "Container.member"
//     ("Circle.Area", "geom.Circle.Area"; "::" works as "."), matched
//     against the flattened symbols (symbols.go), narrowed by kind, and
//     when several remain, by line and column (the symbol whose name
//     starts at them, else holds them: two can start on one line), then
//     by line (the symbol whose name is on the line, else whose range
//     holds it). The position is the start of its name.
//  2. line + matchText: the first occurrence of matchText on the line.
//  3. line + column: the position itself.
//  4. line alone: the name of the symbol declared on the line (the
//     outline's), else the line's first identifier that is not a keyword
//     of the file's language, else its first non-blank character.
//
// No symbol matches → LSP_TARGET_NOT_FOUND with the nearest names by edit
// distance, or where the name occurs when the outline lacks it
// (targetnames.go); several → LSP_AMBIGUOUS_TARGET with every candidate, unless
// firstMatch (reads only) takes the first in document order. A matchText
// not on its line, or a blank line, is LSP_TARGET_NOT_FOUND quoting the
// line as it is now. Lines and columns are one-based in and out (UTF-16
// columns, as in the lsp tool); the resolved Position is zero-based, for
// the request.

// Target is a model's target, one-based. Zero Line or Column means absent.
type Target struct {
	Path      string `json:"path"`
	Symbol    string `json:"symbol,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Line      int64  `json:"line,omitempty"`
	Column    int64  `json:"column,omitempty"`
	MatchText string `json:"matchText,omitempty"`
}

// TargetFile is what the host knows of the target's file: its text and
// its document symbols. NoSymbols says the server cannot give symbols (no
// documentSymbol provider), so symbol targets cannot work.
type TargetFile struct {
	Text      string
	Symbols   []Symbol
	NoSymbols bool
	// Partial says Lines holds what was read of the file instead of Text:
	// the lines of the symbols' names, enough for a symbol target only.
	Partial bool
	Lines   fileChunks
}

// How a target was resolved.
const (
	BySymbol    = "symbol"
	ByMatchText = "matchText"
	ByColumn    = "column"
	ByLine      = "line"
)

// ResolvedTarget is the resolved position and what is there, echoed in
// every answer so an off-by-one is visible.
type ResolvedTarget struct {
	Path string
	// Position is zero-based, for the LSP request.
	Position Position
	// Identifier is the identifier in the text at Position ("" when there
	// is none).
	Identifier string
	// Symbol is the qualified name of the symbol targeted, or of the
	// symbol whose name is at Position; Kind its kind; Container the
	// qualified name of the symbol it lies in. All may be empty.
	Symbol    string
	Kind      string
	Container string
	// By says which form of the target was used.
	By string
	// Range is the targeted symbol's whole range (zero-based), when known.
	Range *Range
	// Note says what of the target was not used: a line given with a
	// symbol that is not in the symbol found by its name.
	Note string
}

// Line and Column are the one-based position.
func (r ResolvedTarget) Line() uint64   { return toOneBased(r.Position.Line) }
func (r ResolvedTarget) Column() uint64 { return toOneBased(r.Position.Character) }

// Text is the target's line for the model: "Target: `Area` (method
// Circle.Area) at geom/geom.go:12:17".
func (r ResolvedTarget) Text() string {
	var b strings.Builder
	b.WriteString("Target: ")
	if r.Identifier != "" {
		b.WriteString(quoteCode(r.Identifier))
	} else {
		b.WriteString("no identifier")
	}
	if r.Kind != "" || r.Symbol != "" || r.Container != "" {
		b.WriteString(" (")
		switch {
		case r.Symbol != "":
			b.WriteString(r.Kind)
			if r.Symbol != r.Identifier || r.Kind == "" {
				if r.Kind != "" {
					b.WriteString(" ")
				}
				b.WriteString(r.Symbol)
			}
		case r.Container != "":
			b.WriteString("in " + r.Container)
		default:
			b.WriteString(r.Kind)
		}
		b.WriteString(")")
	}
	b.WriteString(" at " + r.Path + ":" + strconv.FormatUint(r.Line(), 10) + ":" + strconv.FormatUint(r.Column(), 10))
	if r.Note != "" {
		b.WriteString(" (" + r.Note + ")")
	}
	return b.String()
}

func (r ResolvedTarget) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, r.Path)
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, r.Line(), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, r.Column(), 10)
	b = append(b, `,"position":`...)
	b = r.Position.appendJSON(b)
	b = append(b, `,"identifier":`...)
	b = appendString(b, r.Identifier)
	for _, f := range [...]struct{ k, v string }{{"symbol", r.Symbol}, {"kind", r.Kind}, {"container", r.Container}} {
		if f.v != "" {
			b = appendKey(b, f.k, false)
			b = appendString(b, f.v)
		}
	}
	b = append(b, `,"by":`...)
	b = appendString(b, r.By)
	if r.Range != nil {
		b = append(b, `,"range":`...)
		b = r.Range.appendJSON(b)
	}
	if r.Note != "" {
		b = append(b, `,"note":`...)
		b = appendString(b, r.Note)
	}
	b = append(b, `,"text":`...)
	b = appendString(b, r.Text())
	return append(b, '}')
}

// TargetCandidate is one symbol offered when a symbol target is ambiguous
// or not found, one-based.
type TargetCandidate struct {
	QualifiedName string `json:"qualifiedName"`
	Kind          string `json:"kind"`
	Path          string `json:"path"`
	Line          uint64 `json:"line"`
	Column        uint64 `json:"column"`
	EndLine       uint64 `json:"endLine"`
	Container     string `json:"container,omitempty"`
}

func candidateOf(path string, s Symbol) TargetCandidate {
	return TargetCandidate{QualifiedName: s.QualifiedName(), Kind: s.Kind.String(), Path: path,
		Line: toOneBased(s.Selection.Start.Line), Column: toOneBased(s.Selection.Start.Character),
		EndLine: toOneBased(max(s.Range.End.Line, s.Selection.Start.Line)), Container: s.Container}
}

func (c TargetCandidate) appendJSON(b []byte) []byte {
	b = append(b, `{"qualifiedName":`...)
	b = appendString(b, c.QualifiedName)
	b = append(b, `,"kind":`...)
	b = appendString(b, c.Kind)
	b = append(b, `,"path":`...)
	b = appendString(b, c.Path)
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, c.Line, 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, c.Column, 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendUint(b, c.EndLine, 10)
	if c.Container != "" {
		b = append(b, `,"container":`...)
		b = appendString(b, c.Container)
	}
	return append(b, '}')
}

// describeCandidate is a candidate in a message: "`Circle.Area` (method,
// line 12, column 17)".
func (c TargetCandidate) describe() string {
	s := quoteCode(c.QualifiedName) + " ("
	if c.Kind != "" {
		s += c.Kind + ", "
	}
	return s + "line " + strconv.FormatUint(c.Line, 10) + ", column " + strconv.FormatUint(c.Column, 10) + ")"
}

// Bounds of what a target failure lists.
const (
	maxCandidates     = 50 // candidates of an ambiguous target
	maxNearest        = 5  // nearest names of a missing symbol
	maxListed         = 10 // candidates named in a message
	maxNameForDist    = 64 // runes of a name compared by edit distance
	maxMatchTextLines = 3  // other lines named where a missing matchText is
)

// ResolveTarget resolves a target in its file (see above). candidates is
// set with LSP_AMBIGUOUS_TARGET (every match, in document order, at most
// 50) and LSP_TARGET_NOT_FOUND for a symbol (the nearest names, or the
// same name's other kinds). firstMatch is for reads only: a mutating tool
// must pass false, so an ambiguous target never edits a guess.
func ResolveTarget(t Target, firstMatch bool, file TargetFile) (ResolvedTarget, []TargetCandidate, *Error) {
	if t.Path == "" {
		return ResolvedTarget{}, nil, targetArgError("path is required: the file the target is in")
	}
	for _, f := range [...]struct {
		name string
		v    int64
	}{{"line", t.Line}, {"column", t.Column}} {
		if f.v < 0 || f.v > maxOneBased {
			return ResolvedTarget{}, nil, targetArgError(f.name + " must be a positive integer (one-based), got " + strconv.FormatInt(f.v, 10))
		}
	}
	var kind SymbolKind
	if t.Kind != "" {
		k, ok := ParseSymbolKind(t.Kind)
		if !ok {
			return ResolvedTarget{}, nil, targetArgError("kind " + strconv.Quote(clip(t.Kind, 40)) + " is not a symbol kind; use one of " + strings.Join(SymbolKindNames(), ", "))
		}
		kind = k
	}
	if file.Partial {
		if strings.TrimSpace(t.Symbol) == "" {
			return resolveLineFromChunks(t, file)
		}
		return resolveSymbol(t, kind, firstMatch, file, file.Lines.line)
	}
	lines := SplitLines(file.Text)
	lineAt := func(n uint32) (string, bool) {
		if int64(n) < int64(len(lines)) {
			return lines[n], true
		}
		return "", false
	}
	switch {
	case strings.TrimSpace(t.Symbol) != "":
		return resolveSymbol(t, kind, firstMatch, file, lineAt)
	case t.Symbol != "":
		return ResolvedTarget{}, nil, targetArgError("symbol is blank; give a name such as \"Helper\" or \"Circle.Area\", or target by line")
	case t.Kind != "":
		return ResolvedTarget{}, nil, targetArgError("kind narrows a symbol name; give symbol with it, or drop kind")
	case t.Line == 0 && (t.Column != 0 || t.MatchText != ""):
		return ResolvedTarget{}, nil, targetArgError("column and matchText are positions on a line; give line with them")
	case t.Line == 0:
		return ResolvedTarget{}, nil, targetArgError("give symbol (a name such as \"Helper\" or \"Circle.Area\"), or line with matchText (text on that line) or column")
	}
	line := toZeroBased(t.Line)
	if int64(line) >= int64(len(lines)) {
		return ResolvedTarget{}, nil, lineSource{s: file.Text}.lineError(line, OneBasedTerms)
	}
	text := lines[line]
	if t.MatchText == "" && t.Column != 0 {
		pos := Position{Line: line, Character: toZeroBased(t.Column)}
		if _, err := checkPosition(lineSource{s: file.Text}, pos, OneBasedTerms, identRules{}); err != nil {
			return ResolvedTarget{}, nil, err
		}
		return lineTarget(t, text, pos, ByColumn, file.Symbols), nil, nil
	}
	col, by, ok := spotOnLine(t.Path, text, t.MatchText)
	switch {
	case !ok && t.MatchText != "":
		return ResolvedTarget{}, nil, matchTextError(t, lines, int(line))
	case !ok:
		return ResolvedTarget{}, nil, &Error{Code: CodeTargetNotFound, Message: "line " + strconv.FormatInt(t.Line, 10) + " of " + t.Path + " is " +
			quoteLine(text) + ": there is nothing to target on it. " + nearbyLines(lines, int(line)) + "Give the line of the code you mean, with matchText (text on that line) to pick the spot."}
	}
	if by == ByLine {
		col = declaredOnLine(text, line, file.Symbols, col)
	}
	return lineTarget(t, text, Position{Line: line, Character: uint32(col)}, by, file.Symbols), nil, nil
}

// spotOnLine is where a target by line points on its line: matchText's
// first occurrence, or without it the first identifier that is not a
// keyword (keywords.go), else the first non-blank character; false when
// there is none.
func spotOnLine(path, text, matchText string) (col int, by string, ok bool) {
	i, by := strings.Index(text, matchText), ByMatchText
	if matchText == "" {
		by = ByLine
		if j, ok := firstNonKeyword(text, path); ok {
			i = j
		} else {
			i = strings.IndexFunc(text, func(r rune) bool { return !unicode.IsSpace(r) })
		}
	}
	if i < 0 {
		return 0, "", false
	}
	return columnOfByteOffset(text, i), by, true
}

// declaredOnLine is where a target by line alone points when the outline
// has a symbol whose name is on the line: its name (the leftmost), the
// line's subject (`func (c *Circle) Area()` is about Area, not the
// receiver c); else col. A name must be at the selection's start, as
// tsserver gives a callback a selection as wide as the callback.
func declaredOnLine(text string, line uint32, symbols []Symbol, col int) int {
	best := -1
	for _, s := range symbols {
		if s.Selection.Start.Line != line {
			continue
		}
		c := int(s.Selection.Start.Character)
		if id, at := identifierAt(text, c); id == "" || at != c || !strings.Contains(s.Name, id) {
			continue
		}
		if best < 0 || c < best {
			best = c
		}
	}
	if best < 0 {
		return col
	}
	return best
}

// errLineNeedsText is a line target's failure when only its line was
// sent: every such failure explains itself with other lines of the file
// (the ones around it, where matchText is), so the host asks again with
// the text and shows that answer.
func errLineNeedsText(t Target) *Error {
	return Errorf(CodeInvalidArgument, "target line %d of %s could not be resolved from the line alone: send the file's text for the explanation", t.Line, t.Path)
}

// resolveLineFromChunks resolves a line target (with matchText, or alone)
// from the target's line, all a target that resolves needs; the host sends
// the line and the outline entries holding it, not the whole file. A
// column target, or anything that fails, is errLineNeedsText.
func resolveLineFromChunks(t Target, file TargetFile) (ResolvedTarget, []TargetCandidate, *Error) {
	if t.Symbol != "" || t.Kind != "" || t.Line == 0 || t.Column != 0 {
		return ResolvedTarget{}, nil, errLineNeedsText(t)
	}
	line := toZeroBased(t.Line)
	text, ok := file.Lines.line(line)
	if !ok {
		return ResolvedTarget{}, nil, errLineNeedsText(t)
	}
	col, by, ok := spotOnLine(t.Path, text, t.MatchText)
	if !ok {
		return ResolvedTarget{}, nil, errLineNeedsText(t)
	}
	if by == ByLine {
		col = declaredOnLine(text, line, file.Symbols, col)
	}
	return lineTarget(t, text, Position{Line: line, Character: uint32(col)}, by, file.Symbols), nil, nil
}

// lineTarget is a resolved line target: the identifier at pos on text
// (the target's line) and the symbol holding it.
func lineTarget(t Target, text string, pos Position, by string, symbols []Symbol) ResolvedTarget {
	r := ResolvedTarget{Path: t.Path, Position: pos, By: by}
	r.Identifier, _ = identifierAt(text, int(pos.Character))
	if FinalExtension(t.Path) == ".vue" {
		r.Identifier, _ = kebabIdentifierAt(text, int(pos.Character))
	}
	if s, ok := EnclosingSymbol(symbols, pos); ok {
		// The position is on the symbol's name only when the identifier
		// there is (part of) its name: tsserver gives a callback a
		// selection range as wide as the whole callback, which would make
		// every identifier in it "the callback".
		onName := rangeContains(s.Selection, pos) && s.Selection.Start.Line == pos.Line &&
			r.Identifier != "" && strings.Contains(s.Name, r.Identifier)
		if onName {
			r.Symbol, r.Kind, r.Container = s.QualifiedName(), s.Kind.String(), s.Container
			rng := s.Range
			r.Range = &rng
		} else {
			r.Container = s.QualifiedName()
		}
	}
	return r
}

// targetArgError is LSP_INVALID_ARGUMENT for a target, with the forms.
func targetArgError(problem string) *Error {
	return &Error{Code: CodeInvalidArgument, Message: "target: " + problem + ". A target is {path, symbol?, kind?, line?, column?, matchText?}: " +
		"symbol \"Helper\" or \"Circle.Area\" (kind such as \"function\" or \"method\" narrows it), or line with matchText (text on that line), " +
		"or line with column, or line alone (the name declared on it, else its first non-keyword name); line and column are one-based, column counts UTF-16 code units (an emoji counts as 2)."}
}

// matchTextError quotes the line as it is now and names the nearest lines
// that do hold matchText.
func matchTextError(t Target, lines []string, line int) *Error {
	msg := "matchText " + quoteCode(clip(t.MatchText, maxQuotedLine)) + " is not on line " + strconv.FormatInt(t.Line, 10) + " of " + t.Path + ", which is now " + quoteLine(lines[line]) + "."
	var found []int
	for d := 1; d < len(lines) && len(found) < maxMatchTextLines; d++ {
		for _, l := range [2]int{line - d, line + d} {
			if l >= 0 && l < len(lines) && len(found) < maxMatchTextLines && strings.Contains(lines[l], t.MatchText) {
				found = append(found, l+1)
			}
		}
	}
	switch len(found) {
	case 0:
		msg += " It is nowhere in the file; read the file again, or target by symbol."
	default:
		msg += " It is on line"
		if len(found) > 1 {
			msg += "s"
		}
		for i, l := range found {
			if i > 0 {
				msg += ","
			}
			msg += " " + strconv.Itoa(l)
		}
		msg += "; call again with the right line."
	}
	return &Error{Code: CodeTargetNotFound, Message: msg}
}

// nearbyLines names the nearest non-blank lines around a blank one.
func nearbyLines(lines []string, line int) string {
	out := ""
	for _, l := range [2]int{line - 1, line + 1} {
		for l >= 0 && l < len(lines) && strings.TrimSpace(lines[l]) == "" {
			if l < line {
				l--
			} else {
				l++
			}
		}
		if l >= 0 && l < len(lines) {
			out += "Line " + strconv.Itoa(l+1) + " is " + quoteLine(lines[l]) + ". "
		}
	}
	return out
}

// resolveSymbol is order 1: a symbol name.
func resolveSymbol(t Target, kind SymbolKind, firstMatch bool, file TargetFile, lineAt func(uint32) (string, bool)) (ResolvedTarget, []TargetCandidate, *Error) {
	if file.NoSymbols {
		return ResolvedTarget{}, nil, &Error{Code: CodeUnsupportedOperation, Message: "the language server for " + t.Path +
			" does not list document symbols, so symbol " + quoteCode(clip(t.Symbol, 80)) + " cannot be found by name; target it by line with matchText (text on that line) instead."}
	}
	query := strings.TrimSpace(t.Symbol)
	segs := splitQuery(query)
	var byName, matches []int
	for i, s := range file.Symbols {
		if !symbolMatches(s, query, segs) {
			continue
		}
		byName = append(byName, i)
		if kind == 0 || s.Kind == kind {
			matches = append(matches, i)
		}
	}
	if len(matches) == 0 {
		cs, err := symbolNotFound(t, query, kind, file, byName)
		return ResolvedTarget{}, cs, err
	}
	if len(matches) > 1 && t.Line != 0 && t.Column != 0 {
		// Two symbols of one name and kind can start on one line (C's
		// `typedef struct T T;`: the struct tag and the typedef, clangd
		// calls both "class"); the ambiguity lists their columns, and a
		// column names the one whose name starts there, else whose name
		// holds it.
		at := Position{Line: toZeroBased(t.Line), Character: toZeroBased(t.Column)}
		var starts, holds []int
		for _, i := range matches {
			sel := file.Symbols[i].Selection
			switch {
			case sel.Start == at:
				starts = append(starts, i)
			case sel.Start.Line == at.Line && rangeContains(sel, at) && at != sel.End:
				holds = append(holds, i)
			}
		}
		switch {
		case len(starts) > 0:
			matches = starts
		case len(holds) > 0:
			matches = holds
		}
	}
	if len(matches) > 1 && t.Line != 0 {
		line := toZeroBased(t.Line)
		var on, in []int
		for _, i := range matches {
			s := file.Symbols[i]
			if s.Selection.Start.Line == line {
				on = append(on, i)
			} else if s.Range.Start.Line <= line && line <= s.Range.End.Line {
				in = append(in, i)
			}
		}
		switch {
		case len(on) > 0:
			matches = on
		case len(in) > 0:
			matches = in[len(in)-1:] // the innermost
			for _, i := range in {
				if file.Symbols[i].Range.Within(file.Symbols[matches[0]].Range) {
					matches = []int{i}
				}
			}
		}
	}
	if len(matches) > 1 && !firstMatch {
		return ResolvedTarget{}, candidatesOf(t.Path, file.Symbols, matches, maxCandidates), ambiguous(t, query, file.Symbols, matches)
	}
	s := file.Symbols[matches[0]]
	pos := s.Selection.Start
	r := ResolvedTarget{Path: t.Path, Position: pos, Symbol: s.QualifiedName(), Kind: s.Kind.String(), Container: s.Container, By: BySymbol}
	rng := s.Range
	r.Range = &rng
	if line, ok := lineAt(pos.Line); ok {
		r.Identifier, _ = identifierAt(line, int(pos.Character))
	}
	if l := toZeroBased(t.Line); t.Line != 0 && s.Selection.Start.Line != l && !(s.Range.Start.Line <= l && l <= s.Range.End.Line) {
		// The line narrows same-named symbols; one found elsewhere is
		// still the one named, but a model that gave the line may mean
		// another place (a use there, or a line that moved): say so.
		r.Note = "line " + strconv.FormatInt(t.Line, 10) + " given with the symbol is not in it; " + quoteCode(s.QualifiedName()) + " is at " + lineSpan(s.Range)
	}
	return r, nil, nil
}

// lineSpan is "line 9" or "lines 9–14" (one-based) of a range.
func lineSpan(r Range) string {
	a, b := toOneBased(r.Start.Line), toOneBased(max(r.End.Line, r.Start.Line))
	if a == b {
		return "line " + strconv.FormatUint(a, 10)
	}
	return "lines " + strconv.FormatUint(a, 10) + "–" + strconv.FormatUint(b, 10)
}

// splitQuery splits a dotted (or "::") symbol name into its segments.
func splitQuery(query string) []string {
	return strings.Split(strings.ReplaceAll(query, "::", "."), ".")
}

// symbolMatches: the name itself, or the qualified name's last segments.
func symbolMatches(s Symbol, query string, segs []string) bool {
	if s.Name == query || s.QualifiedName() == query {
		return true
	}
	if len(segs) < 2 || s.Name != segs[len(segs)-1] {
		return false
	}
	container := s.Container
	for i := len(segs) - 2; i >= 0; i-- {
		switch {
		case container == segs[i]:
			container = ""
		case strings.HasSuffix(container, "."+segs[i]):
			container = container[:len(container)-len(segs[i])-1]
		default:
			return false
		}
		if container == "" && i > 0 {
			return false
		}
	}
	return true
}

func candidatesOf(path string, symbols []Symbol, idx []int, limit int) []TargetCandidate {
	out := make([]TargetCandidate, 0, min(len(idx), limit))
	for _, i := range idx[:min(len(idx), limit)] {
		out = append(out, candidateOf(path, symbols[i]))
	}
	return out
}

func listCandidates(cs []TargetCandidate, total int) string {
	var b strings.Builder
	for i, c := range cs[:min(len(cs), maxListed)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.describe())
	}
	if total > maxListed {
		b.WriteString(" and " + strconv.Itoa(total-maxListed) + " more")
	}
	return b.String()
}

// firstMatchHint ends an ambiguous target's message for a read; a change
// (resolveTarget's exact) ends it with "." instead: it never takes a guess.
const firstMatchHint = ", or with firstMatch: true to take the first."

func ambiguous(t Target, query string, symbols []Symbol, matches []int) *Error {
	cs := candidatesOf(t.Path, symbols, matches, maxListed)
	msg := quoteCode(clip(query, 80)) + " matches " + strconv.Itoa(len(matches)) + " symbols in " + t.Path + ": " + listCandidates(cs, len(matches)) + ". "
	// kind narrows only when it was not given (it already applied).
	narrow, alsoKind := "(or add kind or line to narrow it)", " (kind also narrows)"
	if t.Kind != "" {
		narrow, alsoKind = "(or add line to narrow it: kind "+strconv.Quote(t.Kind)+" matches them all)", ""
	}
	switch {
	case distinctNames(cs):
		msg += "Call again with symbol set to one of these qualified names " + narrow
	case distinctLines(cs):
		msg += "Call again with symbol and the line of the one you mean" + alsoKind
	default:
		msg += "Call again with symbol, line and column of the one you mean (several start on one line)"
	}
	msg += firstMatchHint
	return &Error{Code: CodeAmbiguousTarget, Message: msg}
}

// distinctLines: no two candidates start on one line, so a line tells
// them apart.
func distinctLines(cs []TargetCandidate) bool {
	seen := map[uint64]bool{}
	for _, c := range cs {
		if seen[c.Line] {
			return false
		}
		seen[c.Line] = true
	}
	return true
}

func distinctNames(cs []TargetCandidate) bool {
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[c.QualifiedName] {
			return false
		}
		seen[c.QualifiedName] = true
	}
	return true
}

// symbolNotFound lists the symbols of that name of other kinds; else, when
// the name occurs in the file though the outline lacks it, where
// (targetnames.go); else the nearest names by edit distance.
func symbolNotFound(t Target, query string, kind SymbolKind, file TargetFile, byName []int) ([]TargetCandidate, *Error) {
	symbols := file.Symbols
	msg := "no symbol " + quoteCode(clip(query, 80))
	if kind != 0 {
		msg += " of kind " + kind.String()
	}
	msg += " in " + t.Path
	if len(byName) > 0 {
		cs := candidatesOf(t.Path, symbols, byName, maxCandidates)
		return cs, &Error{Code: CodeTargetNotFound, Message: msg + "; of other kinds it has " + listCandidates(cs, len(byName)) + ". Call again with the right kind, or without kind."}
	}
	segs := splitQuery(query)
	occ, container := missingNameOccurrences(file, segs)
	if len(symbols) == 0 && FinalExtension(t.Path) == ".vue" {
		// tsserver has no outline of a .vue file; the host asked its
		// workspace symbol search instead (searchedoutline.go).
		return nil, &Error{Code: CodeTargetNotFound, Message: msg + "; the language server lists no symbols for .vue files, and its workspace symbol search found no declaration of that name in this file." +
			occurrencesHint(t, segs[len(segs)-1], occ, "", true)}
	}
	if len(symbols) == 0 {
		return nil, &Error{Code: CodeTargetNotFound, Message: msg + "; the language server lists no symbols in it (the file may be empty or not parse)." +
			occurrencesHint(t, segs[len(segs)-1], occ, "", true)}
	}
	if len(occ) > 0 {
		return nil, &Error{Code: CodeTargetNotFound, Message: msg + "." + occurrencesHint(t, segs[len(segs)-1], occ, container, false)}
	}
	cs := nearestSymbols(t.Path, query, symbols)
	again := "Call again with one of them (Container.member for a member), or target by line with matchText."
	if len(segs) > 1 {
		again = "Call again with one of them, or target by line with matchText."
	}
	return cs, &Error{Code: CodeTargetNotFound, Message: msg + ". The nearest names are " + listCandidates(cs, len(cs)) + ". " + again}
}

// NearestSymbols returns up to five symbols whose names are nearest to
// query by edit distance (case-insensitive; ties in document order).
func NearestSymbols(path, query string, symbols []Symbol) []TargetCandidate {
	return nearestSymbols(path, query, symbols)
}

func nearestSymbols(path, query string, symbols []Symbol) []TargetCandidate {
	q := []rune(strings.ToLower(firstRunes(query, maxNameForDist)))
	type scored struct{ d, i int }
	var all []scored
	seen := map[string]bool{}
	for i, s := range symbols {
		qn := s.QualifiedName()
		if seen[qn] {
			continue
		}
		seen[qn] = true
		d := runeEditDistance(q, []rune(strings.ToLower(firstRunes(s.Name, maxNameForDist))))
		if strings.Contains(query, ".") {
			d = min(d, runeEditDistance(q, []rune(strings.ToLower(firstRunes(qn, maxNameForDist)))))
		}
		all = append(all, scored{d, i})
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].d < all[b].d })
	idx := make([]int, 0, maxNearest)
	for _, s := range all[:min(len(all), maxNearest)] {
		idx = append(idx, s.i)
	}
	return candidatesOf(path, symbols, idx, maxNearest)
}
