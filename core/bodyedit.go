package core

import (
	"path"
	"strings"
)

// code_insert's "start" and "end" of a symbol: new statements as the
// first or last of its body, where a model asking for "a statement at a
// function's start" means them, not at the declaration's first character
// (`console.log(1);export default async function delay(`, or Python at
// module level above the def) or right after its closing brace.
//
// The body is found from the text, lexically:
//
//   - Python (.py, .pyi; a def, async def or class): the lines after the
//     header's ':' (the first outside brackets, strings and comments); the
//     start is after the docstring, when the first statement is one; the
//     end after the range's last line.
//   - Other languages: the block whose '}' ends the declaration (only ';',
//     ',' or comments after it) and the '{' it matches, strings and
//     comments skipped; the start is the line after '{', the end the line
//     of '}'.
//
// The text is inserted as whole lines, re-indented as the body's
// statements are (its own common indentation taken off, the body's put
// on, so relative indentation stays); an empty body on one line ({}) is
// opened up. A declaration without such a body (a variable, a property,
// a one-line def) is refused with what to do instead: nothing is guessed.

// errNoBody is bodyEdit's refusal for a declaration without a body.
func errNoBody(what string) *Error {
	return Errorf(CodeInvalidArgument, "the target has %s, so there is no first or last statement to insert at; use position before or after (whole lines around the declaration), or target a line inside the body", what)
}

// bodyEdit is the "start" or "end" edit of the symbol at r.
func bodyEdit(in TargetEditInput, lines []string, eol string) (TextEditValue, *Error) {
	r := *in.Range
	last := min(r.End.Line, uint32(len(lines)-1))
	if r.End.Character == 0 && r.End.Line > r.Start.Line {
		last = min(r.End.Line-1, last) // a range ending at the next line's start
	}
	if isPythonPath(in.Path) {
		return pythonBodyEdit(in, lines, eol, r.Start.Line, last)
	}
	isGo := strings.EqualFold(path.Ext(in.Path), ".go")
	b, ok := braceBody(lines, r, last, isGo)
	if !ok {
		return TextEditValue{}, errNoBody("no {…} block ending its declaration")
	}
	declIndent := indentOf(lines[r.Start.Line])
	unit := indentUnit(lines, declIndent)
	if isGo {
		unit = "\t" // gofmt's
	}
	openRest := lines[b.openLine][b.openByte+1:]
	if b.closeLine == b.openLine {
		if strings.TrimSpace(lines[b.openLine][b.openByte+1:b.closeByte]) != "" {
			return TextEditValue{}, errNoBody("its whole body on one line")
		}
		// {} opens up: the new lines between the braces.
		text := eol + reindent(in.NewText, declIndent+unit, fileIndentUnit(lines, declIndent+unit), eol) + declIndent
		return TextEditValue{Range: Range{
			Start: Position{Line: uint32(b.openLine), Character: uint32(columnOfByteOffset(lines[b.openLine], b.openByte+1))},
			End:   Position{Line: uint32(b.closeLine), Character: uint32(columnOfByteOffset(lines[b.closeLine], b.closeByte))},
		}, NewText: text}, nil
	}
	if !blankOrComment(openRest) || strings.TrimSpace(lines[b.closeLine][:b.closeByte]) != "" {
		return TextEditValue{}, errNoBody("code on the line of its body's { or }")
	}
	indent, found := "", false
	for l := b.openLine + 1; l < b.closeLine && !found; l++ {
		if strings.TrimSpace(lines[l]) != "" {
			indent, found = indentOf(lines[l]), true
		}
	}
	if !found {
		indent = declIndent + unit
	}
	at := Position{Line: uint32(b.openLine + 1)}
	if in.Where == "end" {
		at = Position{Line: uint32(b.closeLine)}
	}
	return TextEditValue{Range: Range{Start: at, End: at}, NewText: reindent(in.NewText, indent, fileIndentUnit(lines, indent), eol)}, nil
}

// pythonBodyEdit is bodyEdit for a Python def or class spanning lines
// [first, last].
func pythonBodyEdit(in TargetEditInput, lines []string, eol string, first, last uint32) (TextEditValue, *Error) {
	isHeader := func(l uint32) bool {
		head := strings.Fields(lines[l])
		return len(head) > 0 && (head[0] == "def" || head[0] == "class" || head[0] == "async" && len(head) > 1 && head[1] == "def")
	}
	decl := first
	for decl < last && strings.HasPrefix(strings.TrimSpace(lines[first]), "@") && !isHeader(decl) {
		decl++ // decorators, over one line or several
	}
	if !isHeader(decl) {
		return TextEditValue{}, errNoBody("no body (it is not a def or class)")
	}
	colonLine, colonByte, ok := pythonHeaderEnd(lines, int(decl), int(last))
	if !ok {
		return TextEditValue{}, errNoBody("no ':' ending its header that lspseam could find")
	}
	if !blankOrComment(lines[colonLine][colonByte+1:]) || colonLine >= int(last) {
		return TextEditValue{}, errNoBody("its whole body on the line of its header")
	}
	// The body's indentation is its first statement's.
	stmt := colonLine + 1
	for stmt <= int(last) && blankOrComment(lines[stmt]) {
		stmt++
	}
	if stmt > int(last) {
		return TextEditValue{}, errNoBody("no statement in its body")
	}
	indent := indentOf(lines[stmt])
	var at uint32
	if in.Where == "start" {
		at = uint32(colonLine + 1)
		if end, ok := pythonDocstringEnd(lines, stmt); ok {
			at = uint32(end + 1)
		}
	} else {
		at = last + 1
	}
	text := reindent(in.NewText, indent, fileIndentUnit(lines, indent), eol)
	if int(at) >= len(lines) {
		// After the file's last line: a line break first when it has none.
		p := Position{Line: uint32(len(lines) - 1), Character: uint32(utf16Len(lines[len(lines)-1]))}
		return TextEditValue{Range: Range{Start: p, End: p}, NewText: eol + strings.TrimSuffix(text, eol)}, nil
	}
	p := Position{Line: at}
	return TextEditValue{Range: Range{Start: p, End: p}, NewText: text}, nil
}

func isPythonPath(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".py" || ext == ".pyi"
}

// pythonHeaderEnd finds the ':' that ends a def's or class's header,
// from line first: the first outside brackets, strings and comments.
func pythonHeaderEnd(lines []string, first, last int) (line, at int, ok bool) {
	depth := 0
	var quote string // the string open at a line's start
	for l := first; l <= last && l < first+200; l++ {
		s := lines[l]
		var stopped bool
		quote, stopped = scanPythonLine(s, quote, func(i int) bool {
			switch s[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ':':
				at = i
				return depth == 0
			}
			return false
		})
		if stopped {
			return l, at, true
		}
	}
	return 0, 0, false
}

// scanPythonLine calls code with the index of each byte of the line s
// that is code — outside strings and comments — until code returns
// true (stopped). quote is the string open at the line's start ("" for
// none, else a triple quote); the one open at its end is returned: a
// one-quote string ends with its line (or is an error).
func scanPythonLine(s, quote string, code func(i int) bool) (after string, stopped bool) {
	for i := 0; i < len(s); i++ {
		if quote != "" {
			switch {
			case s[i] == '\\':
				i++
			case strings.HasPrefix(s[i:], quote):
				i += len(quote) - 1
				quote = ""
			}
			continue
		}
		switch c := s[i]; c {
		case '#':
			i = len(s)
		case '"', '\'':
			quote = string(c)
			if strings.HasPrefix(s[i:], strings.Repeat(quote, 3)) {
				quote = strings.Repeat(quote, 3)
				i += 2
			}
		default:
			if code(i) {
				return quote, true
			}
		}
	}
	if len(quote) == 1 {
		quote = ""
	}
	return quote, false
}

// pythonDocstringEnd is the last line of the docstring starting line
// stmt, when that statement is a string literal.
func pythonDocstringEnd(lines []string, stmt int) (int, bool) {
	s := strings.TrimLeft(lines[stmt], " \t")
	s = strings.TrimLeft(s, "rRuUbBfF")
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return 0, false
	}
	quote := s[:1]
	if strings.HasPrefix(s, strings.Repeat(quote, 3)) {
		quote = strings.Repeat(quote, 3)
	}
	rest := s[len(quote):]
	for l := stmt; l < len(lines) && l < stmt+1000; l++ {
		if l > stmt {
			rest = lines[l]
		}
		for i := 0; i < len(rest); i++ {
			switch {
			case rest[i] == '\\':
				i++
			case strings.HasPrefix(rest[i:], quote):
				return l, true
			}
		}
		if len(quote) == 1 {
			return 0, false
		}
	}
	return 0, false
}

// braceBlock is where a declaration's body braces are (byte offsets).
type braceBlock struct{ openLine, openByte, closeLine, closeByte int }

// braceBody finds the {…} block that ends the declaration at r (lines
// up to last): the '}' after which only ';', ',', blanks and comments
// follow within the range, and the '{' it matches. Strings ("…", '…',
// `…`, which may span lines) and comments (//, /* */) are skipped; goRaw:
// a backtick string is Go's raw string, without escapes.
func braceBody(lines []string, r Range, last uint32, goRaw bool) (braceBlock, bool) {
	type at struct{ line, b int }
	var opens []at
	var block braceBlock
	found := false
	inBlockComment, inBacktick := false, false
	for l := int(r.Start.Line); l <= int(last); l++ {
		s := lines[l]
		from, to := 0, len(s)
		if l == int(r.Start.Line) {
			from = byteOffsetOfColumn(s, int(r.Start.Character))
		}
		if l == int(r.End.Line) {
			to = byteOffsetOfColumn(s, int(r.End.Character))
		}
		for i := from; i < to; i++ {
			c := s[i]
			switch {
			case inBlockComment:
				if strings.HasPrefix(s[i:], "*/") {
					inBlockComment = false
					i++
				}
				continue
			case inBacktick:
				if c == '\\' && !goRaw {
					i++
				} else if c == '`' {
					inBacktick = false
				}
				continue
			case strings.HasPrefix(s[i:], "//"):
				i = to
				continue
			case strings.HasPrefix(s[i:], "/*"):
				inBlockComment = true
				i++
				continue
			case c == ' ' || c == '\t' || c == '\r' || c == ';' || c == ',':
				continue
			}
			found = false // code after a block: it did not end the declaration
			switch c {
			case '`':
				inBacktick = true
			case '"', '\'':
				// A string or character on its line; a lone quote (a Rust
				// lifetime) is skipped alone.
				if j := closingQuote(s, i); j > 0 {
					i = j
				}
			case '{':
				opens = append(opens, at{l, i})
			case '}':
				if len(opens) == 0 {
					return braceBlock{}, false
				}
				o := opens[len(opens)-1]
				opens = opens[:len(opens)-1]
				if len(opens) == 0 {
					block, found = braceBlock{o.line, o.b, l, i}, true
				}
			}
		}
	}
	return block, found && !inBlockComment && !inBacktick
}

// closingQuote is the byte offset of the quote closing the string that
// opens at s[i], on its line, or -1.
func closingQuote(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case s[i]:
			return j
		}
	}
	return -1
}

// blankOrComment reports whether s is blanks and a trailing comment only.
func blankOrComment(s string) bool {
	t := strings.TrimSpace(s)
	return t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*")
}

func indentOf(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// indentUnit is one level of indentation beyond indent: a tab where the
// file indents with tabs, else the narrowest step of its space
// indentation (4 when it has none).
func indentUnit(lines []string, indent string) string {
	if strings.Contains(indent, "\t") {
		return "\t"
	}
	narrowest := 0
	for _, l := range lines {
		in := indentOf(l)
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(in, "\t"):
			return "\t"
		case len(in) > 0 && (narrowest == 0 || len(in) < narrowest):
			narrowest = len(in)
		}
	}
	if narrowest == 0 {
		narrowest = 4
	}
	return strings.Repeat(" ", narrowest)
}

// reindent gives text's lines the indentation indent in place of their
// common one, the levels inside it in the file's unit (indentunit.go),
// with eol line breaks and a final one.
func reindent(text, indent, unit, eol string) string {
	text = strings.TrimSuffix(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	ls := strings.Split(text, "\n")
	common := ""
	first := true
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		in := indentOf(l)
		if first {
			common, first = in, false
			continue
		}
		for !strings.HasPrefix(in, common) {
			common = common[:len(common)-1]
		}
	}
	for i, l := range ls {
		ls[i] = strings.TrimPrefix(l, common)
	}
	toIndentUnit(ls, unit)
	for i, l := range ls {
		if strings.TrimSpace(l) == "" {
			ls[i] = ""
			continue
		}
		ls[i] = indent + l
	}
	return strings.Join(ls, eol) + eol
}
