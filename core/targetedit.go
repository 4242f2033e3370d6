package core

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Edits at a resolved target, for code_insert and code_replace (seed 003
// §5.9–5.11): the ABI method targetEdit turns a target that resolveTarget
// resolved (its line, and the symbol's range when it named one) into one
// TextEdit for the applier. Where:
//
//   - "before": new lines above the target's first line (the symbol's
//     first line, above the comment lines directly over it: its doc
//     comment, which servers leave out of the range; or the target line);
//   - "after": new lines below its last line; before and after a symbol,
//     the new lines are kept apart from it by as many blank lines as the
//     file leaves between it and its neighbour (declarationGap);
//   - "start" / "end": a symbol's: new lines as the first / last
//     statements of its body (bodyedit.go); a line target's: exactly at
//     the line's first non-blank character / end;
//   - "replace": the symbol's whole range (and the `;` that follows it
//     when the text ends with its own: pastOwnTerminator), or with
//     endLine the whole lines from the target's first line to endLine, or
//     for a line target that line's text;
//   - "delete" (code_delete, a symbol target only): the whole lines from
//     its doc comment's first to the range's last, and as many of the
//     blank lines after it as there are above it (all of them at the
//     start of the file), so the gaps around it close up into one. The
//     declaration must own its lines: other code before its start
//     (beyond keywords such as export or const) or after its end (beyond
//     ';', ',' or a comment) is refused.
//
// A C-family declaration's range that clangd starts inside its return
// type's macro (`API(int) f(void)`) is taken from the macro's name for
// every position (cmacroprefix.go).
//
// Inserted lines get the file's dominant line break (textform.go: a
// model's "\n" in a CRLF file is "\r\n"; "\n" when the file has none) and
// a final one when the text has none. A byte order mark stays first: line
// 0 starts after it (applyTextEdits keeps the file's form too, for every
// edit; here the edit says so itself).

// TargetEditInput is targetEdit's input, zero-based.
type TargetEditInput struct {
	Text    string
	Path    string // the file's path or URI, for its language ("": unknown)
	Line    uint32 // the target's line
	Range   *Range // the targeted symbol's range, when it named one
	Where   string
	NewText string
	EndLine int64 // one-based, inclusive; "replace" only (0: none)
}

// TargetEdit computes the edit (see above).
func TargetEdit(in TargetEditInput) (TextEditValue, *Error) {
	lines := SplitLines(in.Text)
	if int(in.Line) >= len(lines) && !(len(lines) == 0 && in.Line == 0) {
		return TextEditValue{}, Errorf(CodeInvalidArgument, "the target's line %d is past the end of the file (%d lines)", in.Line+1, len(lines))
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	eol := dominantBreak(in.Text)
	if eol == "" {
		eol = "\n"
	}
	// lineStart is where a line's text starts: after the mark on line 0.
	bom := strings.HasPrefix(in.Text, utf8BOM)
	lineStart := func(l uint32) Position {
		if l == 0 && bom {
			return Position{Character: 1}
		}
		return Position{Line: l}
	}
	first, last := in.Line, in.Line
	if in.Range != nil && int(in.Range.Start.Line) >= len(lines) {
		// A server's symbol range past the file (found by FuzzTargetEdit:
		// it indexed past the lines).
		return TextEditValue{}, Errorf(CodeInvalidArgument, "the symbol's range starts on line %d, past the end of the file (%d lines)", in.Range.Start.Line+1, len(lines))
	}
	if in.Range != nil && (in.Range.End.Line < in.Range.Start.Line || in.Range.End.Line == in.Range.Start.Line && in.Range.End.Character < in.Range.Start.Character) {
		// Found by FuzzTargetEdit: a delete of such a range was reversed.
		return TextEditValue{}, Errorf(CodeInvalidArgument, "the symbol's range ends (line %d) before it starts (line %d)", in.Range.End.Line+1, in.Range.Start.Line+1)
	}
	if in.Range != nil {
		// A C declaration's range that opens inside its return type's
		// macro starts at the macro (cmacroprefix.go).
		widened := widenMacroPrefix(lines, *in.Range, in.Path)
		// One preceded by an object-like macro starts at the macro when
		// the edit takes it with the declaration (cmacroprefix.go).
		widened = widenObjectMacroPrefix(lines, widened, in.Path, in.Where, in.NewText)
		in.Range = &widened
		first, last = in.Range.Start.Line, min(in.Range.End.Line, uint32(len(lines)-1))
	}
	lineEnd := func(l uint32) Position { return Position{Line: l, Character: uint32(utf16Len(lines[l]))} }
	asLines := func(text string) string {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", eol)
		if !strings.HasSuffix(text, eol) {
			text += eol
		}
		return text
	}
	switch in.Where {
	case "before":
		text := asLines(in.NewText)
		if in.Range != nil { // above the symbol's doc comment, which belongs to it
			text = asLines(insertedLines(in.NewText, indentOf(lines[first]), fileIndentUnit(lines, indentOf(lines[first])), eol))
			first = docCommentStart(lines, first)
			if d := declarationLine(lines, *in.Range, in.Line); isPythonPath(in.Path) && pythonDefName(lines[d]) != "" {
				first = pythonOverloadsStart(lines, first, pythonDefName(lines[d]), indentOf(lines[d]))
			}
			// The blank lines above stay above the new text; the file's
			// separation goes between it and the symbol.
			text += strings.Repeat(eol, max(0, declarationGap(lines, first, last, true)-trailingBlankLines(text)))
		}
		p := lineStart(first)
		return TextEditValue{Range: Range{Start: p, End: p}, NewText: text}, nil
	case "after":
		text := asLines(in.NewText)
		if in.Range != nil {
			text = asLines(insertedLines(in.NewText, indentOf(lines[first]), fileIndentUnit(lines, indentOf(lines[first])), eol))
			// The blank lines below stay below the new text; the file's
			// separation goes between the symbol and it.
			text = strings.Repeat(eol, max(0, declarationGap(lines, docCommentStart(lines, first), last, false)-leadingBlankLines(text))) + text
		}
		if int(last)+1 < len(lines) || strings.HasSuffix(in.Text, "\n") || strings.HasSuffix(in.Text, "\r") {
			p := Position{Line: last + 1}
			return TextEditValue{Range: Range{Start: p, End: p}, NewText: text}, nil
		}
		p := lineEnd(last) // the last line has no break: start a new one
		return TextEditValue{Range: Range{Start: p, End: p}, NewText: eol + strings.TrimSuffix(text, eol)}, nil
	case "start", "end":
		if in.Range != nil {
			return bodyEdit(in, lines, eol) // bodyedit.go
		}
		var p Position
		switch {
		case in.Where == "start":
			text := lines[first]
			if first == 0 {
				text = strings.TrimPrefix(text, utf8BOM)
			}
			i := len(lines[first]) - len(strings.TrimLeft(text, " \t"))
			p = Position{Line: first, Character: uint32(columnOfByteOffset(lines[first], i))}
		default:
			p = lineEnd(first)
		}
		return TextEditValue{Range: Range{Start: p, End: p}, NewText: in.NewText}, nil
	case "replace":
		if in.EndLine != 0 {
			end := in.EndLine - 1
			switch {
			case end < int64(first):
				return TextEditValue{}, Errorf(CodeInvalidArgument, "endLine %d is before the target's first line %d", in.EndLine, first+1)
			case end >= int64(len(lines)):
				return TextEditValue{}, Errorf(CodeInvalidArgument, "endLine %d is past the end of the file (%d lines)", in.EndLine, len(lines))
			}
			// Whole lines: up to the start of the next line, or the end of
			// the last one.
			if int(end)+1 < len(lines) {
				return TextEditValue{Range: Range{Start: lineStart(first), End: Position{Line: uint32(end) + 1}}, NewText: asLines(in.NewText)}, nil
			}
			return TextEditValue{Range: Range{Start: lineStart(first), End: lineEnd(uint32(end))}, NewText: strings.TrimSuffix(asLines(in.NewText), eol)}, nil
		}
		if in.Range != nil {
			return replaceSymbol(in, lines, eol, lineStart), nil
		}
		return TextEditValue{Range: Range{Start: lineStart(first), End: lineEnd(first)}, NewText: in.NewText}, nil
	case "delete":
		return deleteEdit(in, lines, first, last, lineStart, lineEnd)
	}
	return TextEditValue{}, Errorf(CodeInvalidArgument, "where must be before, after, start, end, replace or delete, got %q", clip(in.Where, 40))
}

// replaceSymbol is where "replace" of a symbol's range. The text goes in
// as given when it is written to start at the declaration's column
// (writtenAtRange), one line, or the declaration follows other code on
// its line. Otherwise, a declaration with only indentation before it
// takes the text's lines re-indented as code_insert's are (the text's
// common indentation off, the declaration's on, bodyedit.go's
// reindent), so it can also be written as the model reads it — the
// whole declaration copied with its indentation, or as at column 1 —
// and lands at the declaration's indentation with its relative
// indentation kept (as given, a Python method's body written at column
// 5 under a `def` at 1 landed beside the `def`). lineStart is where the range's first line starts (after a
// byte order mark on line 0).
func replaceSymbol(in TargetEditInput, lines []string, eol string, lineStart func(uint32) Position) TextEditValue {
	r := *in.Range
	lead := r.Start.Line // where the range starts: its decorators, when it takes them in
	text := strings.TrimRight(in.NewText, "\r\n")
	if d := declarationLine(lines, r, in.Line); d > r.Start.Line {
		// The server's range opens with the decorators, attributes or doc
		// comment (pyright and tsserver at the first decorator,
		// intelephense at the /** block): a text that does not bring its
		// own replaces from the declaration's own first line and keeps
		// them (replacing them dropped @property, #[Route] with a clean
		// diagnostics delta).
		i := len(lines[d]) - len(strings.TrimLeft(lines[d], " \t"))
		r.Start = Position{Line: d, Character: uint32(columnOfByteOffset(lines[d], i))}
	}
	r.End = pastOwnTerminator(lines, r.End, text)
	line := lines[r.Start.Line]
	before := line[:byteOffsetOfColumn(line, int(r.Start.Character))]
	if r.Start.Line == 0 {
		before = strings.TrimPrefix(before, utf8BOM)
	}
	finalBreak := in.NewText[len(text):]
	start := lineStart(r.Start.Line)
	if doc := docCommentStart(lines, lead); doc < r.Start.Line && strings.Trim(before, " \t") == "" && opensWithComment(text) {
		// The text brings its own doc comment (or decorators): it
		// replaces the declaration's, which servers leave out of the
		// range, rather than landing under it twice.
		start = lineStart(doc)
		if writtenAtRange(text, before) {
			text = before + text // whole lines now: the first one too
		}
	} else if strings.Trim(before, " \t") != "" || !strings.ContainsAny(text, "\r\n") {
		return TextEditValue{Range: r, NewText: in.NewText}
	} else if writtenAtRange(text, before) {
		return TextEditValue{Range: r, NewText: writtenInUnit(text, before, fileIndentUnit(lines, before)) + finalBreak}
	}
	// The range's end keeps what follows it on its line; at the line's
	// end, the line's own break ends the text (a final one of the text's
	// would add a blank line), else the text's goes with it as given.
	newText := strings.TrimSuffix(reindent(text, before, fileIndentUnit(lines, before), eol), eol)
	if int(r.End.Line) >= len(lines) || int(r.End.Character) < utf16Len(lines[r.End.Line]) {
		newText += finalBreak
	}
	return TextEditValue{Range: Range{Start: start, End: r.End}, NewText: newText}
}

// pastOwnTerminator is end, a symbol's range's end, moved past the `;`
// that follows it on its line (after blanks) when text, the replacing
// text, ends with its own `;` (trailing blanks aside): clangd's range of
// a declaration (`int f(void);`, `API(int) f(void);`, a field, a
// `struct S {…};`) stops before its `;`, and a whole declaration written
// with its `;` replaced the range and kept the file's, writing `;;`
// (-Wpedantic's "extra ';' outside of a function"), unreported. A text
// without a `;` keeps the file's, as before.
func pastOwnTerminator(lines []string, end Position, text string) Position {
	if !strings.HasSuffix(strings.TrimRight(text, " \t\r\n"), ";") || int(end.Line) >= len(lines) {
		return end
	}
	line := lines[end.Line]
	at := byteOffsetOfColumn(line, int(end.Character))
	rest := strings.TrimLeft(line[at:], " \t")
	if !strings.HasPrefix(rest, ";") {
		return end
	}
	return Position{Line: end.Line, Character: uint32(columnOfByteOffset(line, len(line)-len(rest)+1))}
}

// insertedLines is the text of "before" and "after" a symbol at its
// indentation, as replaceSymbol's: a text of several lines written from
// the target's column (its first line bare, the others at the file's
// indentation) as given, its first line indented; any other re-indented
// (its common indentation off, the target's on), so a method written at
// column 1 after a method lands in the class (as given, Python took it
// for a module-level function). Blank lines leading the text stay. A line
// target's text stays as given: the line may be blank, or a closing
// brace, whose indentation is not the text's.
func insertedLines(text, indent, unit, eol string) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	body := strings.TrimLeft(text, "\n")
	if strings.TrimSpace(body) == "" {
		return text
	}
	blank := strings.Repeat(eol, len(text)-len(body))
	if strings.Contains(strings.TrimRight(body, "\n"), "\n") && writtenAtRange(strings.TrimRight(body, "\n"), indent) {
		return blank + indent + strings.ReplaceAll(writtenInUnit(body, indent, unit), "\n", eol)
	}
	return blank + reindent(body, indent, unit, eol)
}

// pythonOverloadsStart is the first line of the @overload stubs of name
// directly above line top, a Python def's first line (its decorators and
// doc comment included) at indentation indent, or top when there are
// none: the outline names only the implementation, and "before" it is
// before the group, not between the stubs and the implementation. The
// stubs' signatures, bodies and the blank lines between them are passed
// over; a stub counts from its first decorator when one is @overload.
func pythonOverloadsStart(lines []string, top uint32, name, indent string) uint32 {
	start := top
	decorator, overload := -1, false // the topmost decorator line of the def below, and whether one is @overload
	for l := int(top) - 1; l >= 0; l-- {
		t := strings.TrimSpace(lines[l])
		in := indentOf(lines[l])
		if t != "" && in == indent && strings.HasPrefix(t, "@") {
			decorator = l
			overload = overload || t == "@overload" || strings.HasSuffix(t, ".overload")
			continue
		}
		if decorator >= 0 && overload {
			start = uint32(decorator)
		}
		decorator, overload = -1, false
		switch {
		case t == "", len(in) > len(indent) && strings.HasPrefix(in, indent):
			// a blank line, or a stub's body or signature continued
		case in == indent && (strings.HasPrefix(t, ")") || strings.HasPrefix(t, "]")):
			// a stub's signature closing
		case in == indent && pythonDefName(lines[l]) == name:
			// a stub's def: its decorators come next
		default:
			return start
		}
	}
	if decorator >= 0 && overload {
		start = uint32(decorator)
	}
	return start
}

// pythonDefName is the name a line's def (or async def) declares, or "".
func pythonDefName(line string) string {
	f := strings.Fields(strings.ReplaceAll(line, "(", " ("))
	if len(f) > 1 && f[0] == "async" {
		f = f[1:]
	}
	if len(f) < 2 || f[0] != "def" {
		return ""
	}
	return f[1]
}

// declarationLine is the declaration's own first line in the symbol's
// range r whose name is on line name: the first line, from the range's
// start, that is not a comment (//, #, /* … */, * inside a block), a
// decorator or an attribute (@x, #[x], [x]) — one over several lines
// followed up to its closing bracket. It is the range's first line when
// name lies outside the range, and at most name.
func declarationLine(lines []string, r Range, name uint32) uint32 {
	if name <= r.Start.Line || name > r.End.Line || int(name) >= len(lines) {
		return r.Start.Line
	}
	depth, inBlock := 0, false
	for l := r.Start.Line; l < name; l++ {
		t := strings.TrimSpace(lines[l])
		if l == r.Start.Line {
			t = strings.TrimSpace(lines[l][byteOffsetOfColumn(lines[l], int(r.Start.Character)):])
		}
		switch {
		case inBlock:
			inBlock = !strings.Contains(t, "*/")
		case depth > 0:
			depth += bracketBalance(t)
		case t == "", strings.HasPrefix(t, "//"), strings.HasPrefix(t, "*"):
		case strings.HasPrefix(t, "/*"):
			inBlock = !strings.Contains(t[2:], "*/")
		case strings.HasPrefix(t, "@"), strings.HasPrefix(t, "#["), strings.HasPrefix(t, "["):
			depth = max(bracketBalance(t), 0)
		case strings.HasPrefix(t, "#") && !(len(t) > 1 && isASCIILetter(t[1])):
			// a comment, not a C preprocessor line
		default:
			return l
		}
	}
	return name
}

// bracketBalance is the brackets a line opens and does not close, strings
// and what follows a // or # comment not counted (approximately: one
// line's view).
func bracketBalance(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; c {
		case '"', '\'':
			if j := closingQuote(t, i); j > 0 {
				i = j
			}
		case '(', '[', '{':
			n++
		case ')', ']', '}':
			n--
		case '/':
			if strings.HasPrefix(t[i:], "//") {
				return n
			}
		case '#':
			if i > 0 && t[i+1:] != "" && t[i+1] != '[' {
				return n
			}
		}
	}
	return n
}

// opensWithComment: text's first non-blank line is a comment or a
// decorator, what docCommentStart takes for a declaration's doc.
func opensWithComment(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") && len(t) > 1 && isASCIILetter(t[1]) {
			return false // a C preprocessor line
		}
		for _, p := range []string{"//", "/*", "#", "@"} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	}
	return false
}

// writtenAtRange reports whether a text of several lines is written to
// start at the declaration's column: its first line without indentation
// and every other line at the file's own (starting with indent, the
// declaration's), except where a first line ending a block opener (":")
// is followed by a line no deeper than the declaration, which only a text
// written as at column 1 has (a Python body must be deeper). Such a text
// goes in as given; any other is re-indented.
func writtenAtRange(text, indent string) bool {
	ls := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	if indentOf(ls[0]) != "" {
		return false
	}
	next := ""
	for _, l := range ls[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !strings.HasPrefix(l, indent) {
			return false
		}
		if next == "" {
			next = l
		}
	}
	opener := strings.HasSuffix(strings.TrimRight(ls[0], " \t"), ":")
	return !(opener && next != "" && len(indentOf(next)) <= len(indent))
}

// deleteEdit is where "delete" (see above).
func deleteEdit(in TargetEditInput, lines []string, first, last uint32, lineStart, lineEnd func(uint32) Position) (TextEditValue, *Error) {
	if in.Range == nil {
		return TextEditValue{}, Errorf(CodeInvalidArgument, "delete needs a symbol's range: target the symbol by name")
	}
	if in.NewText != "" {
		return TextEditValue{}, Errorf(CodeInvalidArgument, "delete takes no newText")
	}
	before := lines[first][:byteOffsetOfColumn(lines[first], int(in.Range.Start.Character))]
	if first == 0 {
		before = strings.TrimPrefix(before, utf8BOM)
	}
	after := ""
	if in.Range.End.Line == last {
		after = lines[last][byteOffsetOfColumn(lines[last], int(in.Range.End.Character)):]
	}
	if !onlyModifiers(before) || !ownsLineEnd(after) {
		return TextEditValue{}, Errorf(CodeInvalidArgument, "the declaration shares its lines with other code (line %d or %d); delete it with code_replace or edit instead", first+1, last+1)
	}
	start := docCommentStart(lines, first)
	blank := func(l uint32) bool { return strings.TrimSpace(lines[l]) == "" }
	// The gaps above and below the declaration become one, as wide as
	// the wider of them: PEP 8's two blank lines between top-level
	// definitions stay two, not three (removing one blank line after the
	// declaration left three); a declaration first in the file takes its
	// gap below with it, and one right under other code leaves it.
	above := 0
	for l := start; l > 0 && blank(l-1); l-- {
		above++
	}
	end := last + 1 // the first line kept
	for taken := 0; int(end) < len(lines) && blank(end) && (start == 0 || taken < above); taken++ {
		end++
	}
	// Last in its block (the next code closes it: `}`, `</script>`), it
	// takes the gaps on both sides with it, as at the end of the file, so
	// a declaration inserted there and deleted leaves the block as it was.
	next := last + 1
	for int(next) < len(lines) && blank(next) {
		next++
	}
	if start > 0 && int(next) < len(lines) && closesBlock(lines[next]) {
		for start > 0 && blank(start-1) {
			start--
		}
		end = next
	}
	if int(end) < len(lines) {
		return TextEditValue{Range: Range{Start: lineStart(start), End: Position{Line: end}}}, nil
	}
	// Through the end of the file: the blank lines and the break before
	// the deleted lines go too, so the file ends where the code above it
	// did, with the final line break it had or had not.
	for start > 0 && blank(start-1) {
		start--
	}
	from := lineStart(start)
	if start > 0 {
		from = lineEnd(start - 1)
	}
	return TextEditValue{Range: Range{Start: from, End: lineEnd(uint32(len(lines) - 1))}}, nil
}

// closesBlock reports whether a line opens with the close of the block
// around it: a bracket (`}`, `};`, `)`, `]`) or a markup end tag
// (`</script>` of a Svelte or Vue component).
func closesBlock(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return t != "" && (t[0] == '}' || t[0] == ')' || t[0] == ']' || strings.HasPrefix(t, "</"))
}

// declarationKeywords may precede a symbol's range on its first line and
// still belong to it: servers start a variable's range at its name (gopls
// after var, tsserver after const), and some leave out modifiers.
var declarationKeywords = []string{"export", "default", "declare", "async", "public", "private", "protected", "internal",
	"static", "readonly", "abstract", "override", "final", "const", "let", "var", "val", "func", "def", "function", "class", "type"}

// onlyModifiers reports whether what precedes a declaration on its first
// line is blank or declaration keywords only.
func onlyModifiers(before string) bool {
	for _, word := range strings.Fields(before) {
		found := false
		for _, k := range declarationKeywords {
			found = found || word == k
		}
		if !found {
			return false
		}
	}
	return true
}

// ownsLineEnd reports whether what follows a declaration on its last line
// belongs to it: nothing, its terminator (';' or ','), or a comment.
func ownsLineEnd(rest string) bool {
	rest = strings.TrimLeft(rest, " \t;,")
	return rest == "" || strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "/*")
}

// TextEditValue is an LSP TextEdit.
type TextEditValue struct {
	Range   Range
	NewText string
}

func (e TextEditValue) appendJSON(b []byte) []byte {
	b = append(b, `{"range":`...)
	b = e.Range.appendJSON(b)
	b = append(b, `,"newText":`...)
	b = appendString(b, e.NewText)
	return append(b, '}')
}

// targetEditCall: {text, line (zero-based), range?, where, newText,
// endLine?} → TextEdit.
func targetEditCall(in gjson.Result) (jsonAppender, *Error) {
	var te TargetEditInput
	for _, f := range []struct {
		name string
		dst  *string
	}{{"text", &te.Text}, {"where", &te.Where}, {"newText", &te.NewText}} {
		v := get(in, f.name)
		if v.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "%s must be a string, got %s", f.name, describe(v))
		}
		*f.dst = v.Str
	}
	if p := get(in, "path"); p.Exists() && p.Type != gjson.Null {
		if p.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "path must be a string, got %s", describe(p))
		}
		te.Path = p.Str
	}
	line, ok := integer(get(in, "line"), 0, maxUint31)
	if !ok {
		return nil, Errorf(CodeInvalidArgument, "line must be the target's zero-based line, got %s", describe(get(in, "line")))
	}
	te.Line = uint32(line)
	if r := get(in, "range"); r.Exists() && r.Type != gjson.Null {
		rng, problem := rangeOf(r, at{index: -1}, "range")
		if problem != "" {
			return nil, Errorf(CodeInvalidArgument, "range: %s", problem)
		}
		te.Range = &rng
	}
	if e := get(in, "endLine"); e.Exists() && e.Type != gjson.Null {
		n, ok := integer(e, 1, maxOneBased)
		if !ok {
			return nil, Errorf(CodeInvalidArgument, "endLine must be a one-based line, got %s", describe(e))
		}
		te.EndLine = n
	}
	return wrap(TargetEdit(te))
}

// docCommentStart is the first of the comment lines directly above line
// (no blank line between): //, #, /* … */ and /** … */ blocks, and
// decorators or attributes on the lines between (@x, [[x]], #[x]). A
// block is taken whole from its closing line up to the line that opens
// it, whatever its inner lines start with: JSDoc written without a
// leading `*` per line (sindresorhus's style) is a block all the same,
// and stopping at its first bare line cut the comment in two (a delete
// left `/**` and its text unterminated; an insert "before" landed inside
// it). Code with a comment after it (`x(); /* y */`) ends the comments.
func docCommentStart(lines []string, line uint32) uint32 {
	for line > 0 {
		t := strings.TrimSpace(lines[line-1])
		switch {
		case strings.HasPrefix(t, "#") && len(t) > 1 && isASCIILetter(t[1]):
			return line // a C preprocessor line (#include, #define), not a comment
		case strings.HasSuffix(t, "*/"):
			open, ok := blockCommentOpening(lines, line-1)
			if !ok {
				return line
			}
			line = open
		case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "#"), strings.HasPrefix(t, "/*"),
			strings.HasPrefix(t, "*"), strings.HasPrefix(t, "@"):
			line--
		default:
			return line
		}
	}
	return line
}

// maxDocCommentLines bounds the lines a block comment is followed up.
const maxDocCommentLines = 1000

// blockCommentOpening is the line that opens the block comment closing at
// the end of line close, when that line starts with the comment (ok is
// false when code comes before it, or no opening is found within
// maxDocCommentLines).
func blockCommentOpening(lines []string, close uint32) (uint32, bool) {
	for i := int64(close); i >= 0 && int64(close)-i < maxDocCommentLines; i-- {
		t := strings.TrimSpace(lines[i])
		if i == int64(close) {
			t = t[:len(t)-len("*/")] // not the close's own "/" ("/*/")
		}
		if at := strings.LastIndex(t, "/*"); at >= 0 {
			return uint32(i), at == 0
		}
	}
	return 0, false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Inserted declarations keep the file's separation. Tester: code_insert
// "after" a C function put the new function directly under its closing
// brace, where the file leaves a blank line between functions. The gap
// the file leaves around the target (declarationGap) goes between it
// and the new text, less the blank lines the text already has there.

// maxDeclarationGap bounds the blank lines kept between declarations
// (Python's two between top-level definitions).
const maxDeclarationGap = 2

// declarationGap is the number of blank lines separating the declaration
// on lines top..bottom (its doc comment included) from a sibling: the
// gap on the side the text goes (above when above), else on the other;
// 0 when it has no sibling. A sibling below starts at the declaration's
// indentation (a line less indented, or a closing bracket, ends its
// scope: a Python method's class, a C block); one above ends at it or
// deeper (a Python method's body), and does not open the scope. At most
// maxDeclarationGap.
func declarationGap(lines []string, top, bottom uint32, above bool) int {
	indent := indentOf(lines[top])
	below, next := 0, int(bottom)+1
	for ; next < len(lines) && strings.TrimSpace(lines[next]) == ""; next++ {
		below++
	}
	belowSibling := next < len(lines) && indentOf(lines[next]) == indent && !closesScope(lines[next])
	over, prev := 0, int(top)-1
	for ; prev >= 0 && strings.TrimSpace(lines[prev]) == ""; prev-- {
		over++
	}
	aboveSibling := prev >= 0 && strings.HasPrefix(indentOf(lines[prev]), indent) && !opensScope(lines[prev])
	switch {
	case above && aboveSibling, !belowSibling && aboveSibling:
		return min(over, maxDeclarationGap)
	case belowSibling:
		return min(below, maxDeclarationGap)
	}
	return 0
}

// closesScope says whether a line closes its scope (a bracket first):
// the end of the class or block the declaration is in, not a sibling.
func closesScope(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && strings.ContainsRune(")]}", rune(t[0]))
}

// opensScope says whether a line opens the scope a declaration below it
// is in (a bracket or a colon last: a class's, a block's).
func opensScope(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && strings.ContainsRune("([{:", rune(t[len(t)-1]))
}

// leadingBlankLines counts the blank lines text starts with.
func leadingBlankLines(text string) int {
	n := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" || strings.TrimSpace(l) != "" {
			break
		}
		n++
	}
	return n
}

// trailingBlankLines counts the blank lines text (ending in a line
// break) ends with.
func trailingBlankLines(text string) int {
	ls := strings.Split(text, "\n")
	n := 0
	for i := len(ls) - 2; i >= 0 && strings.TrimSpace(ls[i]) == ""; i-- {
		n++
	}
	return n
}
