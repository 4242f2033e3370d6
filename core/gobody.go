package core

// Whether a change of a Go file stays inside one function's body
// (GoChangeInsideBody): the cross-file impact of a change (diagimpact.go)
// follows the references of the declarations it touched into the files
// that use them, and a Go function's body is not part of what any other
// file compiles against — its signature is, and no return type or
// exception is inferred from the body. So a change proven to stay inside
// a body cannot change another file's compile errors, and the host need
// not ask for the function's references and check its callers. (Analyzer
// findings built on facts about a body, a printf wrapper's callers for
// one, can still change; the delta says the other files were not
// checked, it does not call them unaffected.)
//
// The proof is lexical, over the function's text from the line of its
// name to the line of its closing brace, before and after the change:
//
//   - the body's opening brace is the first "{" outside parentheses and
//     brackets that does not open a struct or interface type, and it is
//     on a line before the change's first line;
//   - before the change, its matching "}" is the last token of the
//     function's last line, and the change's lines lie between the two
//     braces' lines;
//   - after the change, the same "{" (its line is unchanged) matches a
//     "}" that is the last token of the line the function's last line
//     moved to.
//
// The text outside the function is the same before and after, so the
// declaration's extent is the same, and whatever the change wrote is
// between the body's braces: statements, never a declaration of the
// package. Comments, interpreted and raw strings and runes are skipped as
// Go's lexer does; a text that does not lex (an unterminated string or
// comment) is not proven, and neither is anything unusual — the answer is
// only ever "proven" or "check the other files".

// GoChangeInsideBody reports whether the change from before to after (Go
// source, lines split as SplitLines does) stays inside the body of the
// function whose declaration spans before's lines [nameLine, endLine]
// (zero-based: the line of its name and of its closing brace).
func GoChangeInsideBody(before, after []string, nameLine, endLine int) bool {
	if nameLine < 0 || endLine < nameLine || endLine >= len(before) {
		return false
	}
	from, beforeEnd, afterEnd := changedLineRange(before, after)
	if from == beforeEnd && from == afterEnd {
		return false // no change
	}
	open, ok := goBodyBraces(before, nameLine, endLine)
	if !ok || from <= open || beforeEnd > endLine || from > endLine {
		return false
	}
	moved := endLine + (afterEnd - beforeEnd)
	if moved < from || moved >= len(after) {
		return false
	}
	openAfter, ok := goBodyBraces(after, nameLine, moved)
	return ok && openAfter == open
}

// goBodyBraces lexes lines [first, last] and returns the line of the body's
// opening brace, when its matching brace is the last token of line last
// (only blanks and comments after it).
func goBodyBraces(lines []string, first, last int) (open int, ok bool) {
	var lx goLexer
	open = -1
	var stack []byte // the brackets open inside the body, or before it
	for ln := first; ln <= last; ln++ {
		line := lines[ln]
		for i := 0; i < len(line); {
			tok, next, bad := lx.next(line, i)
			if bad {
				return 0, false
			}
			i = next
			switch tok {
			case '(', '[':
				stack = append(stack, tok)
			case '{':
				if open < 0 && len(stack) == 0 && !lx.typeBrace {
					open = ln
					continue
				}
				stack = append(stack, tok)
			case ')', ']', '}':
				if len(stack) == 0 {
					// Only the body's own closing brace, at the end of
					// the last line.
					if tok != '}' || open < 0 || ln != last || !onlyCommentsLeft(line[i:]) {
						return 0, false
					}
					return open, true
				}
				if want := map[byte]byte{')': '(', ']': '[', '}': '{'}[tok]; stack[len(stack)-1] != want {
					return 0, false
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	return 0, false
}

// onlyCommentsLeft reports whether rest of a line is blanks and comments
// that end on it.
func onlyCommentsLeft(rest string) bool {
	var lx goLexer
	for i := 0; i < len(rest); {
		switch c := rest[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(rest) && (rest[i+1] == '/' || rest[i+1] == '*'):
			_, i, _ = lx.next(rest, i)
			for lx.inBlock && i < len(rest) {
				_, i, _ = lx.next(rest, i)
			}
		default:
			return false
		}
	}
	return !lx.inBlock
}

// goLexer is the little of Go's lexer goBodyBraces needs: it skips
// comments, strings and runes (raw strings and block comments may span
// lines) and hands out brackets; typeBrace says whether the last word
// before a "{" was struct or interface.
type goLexer struct {
	inRaw, inBlock bool
	word           string // the last identifier or keyword seen
	typeBrace      bool
}

// next reads from line[i:] and returns the bracket found (0 for none, at
// the end of the line or of something skipped) and where to go on from;
// bad is a string or rune that does not end on its line.
func (lx *goLexer) next(line string, i int) (tok byte, next int, bad bool) {
	switch {
	case lx.inRaw:
		for ; i < len(line); i++ {
			if line[i] == '`' {
				lx.inRaw = false
				return 0, i + 1, false
			}
		}
		return 0, i, false
	case lx.inBlock:
		for ; i+1 < len(line); i++ {
			if line[i] == '*' && line[i+1] == '/' {
				lx.inBlock = false
				return 0, i + 2, false
			}
		}
		return 0, len(line), false
	}
	c := line[i]
	switch {
	case c == '/' && i+1 < len(line) && line[i+1] == '/':
		return 0, len(line), false
	case c == '/' && i+1 < len(line) && line[i+1] == '*':
		lx.inBlock = true
		return 0, i + 2, false
	case c == '`':
		lx.inRaw = true
		lx.word = ""
		return 0, i + 1, false
	case c == '"' || c == '\'':
		for j := i + 1; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case c:
				lx.word = ""
				return 0, j + 1, false
			}
		}
		return 0, 0, true
	case c == '(' || c == '[' || c == '{' || c == ')' || c == ']' || c == '}':
		lx.typeBrace = c == '{' && (lx.word == "struct" || lx.word == "interface")
		lx.word = ""
		return c, i + 1, false
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		j := i
		for j < len(line) && (line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9' || line[j] >= 0x80) {
			j++
		}
		lx.word = line[i:j]
		return 0, j, false
	case c == ' ' || c == '\t' || c == '\r':
		return 0, i + 1, false
	default:
		lx.word = ""
		return 0, i + 1, false
	}
}
