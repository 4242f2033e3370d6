package core

import (
	"slices"
	"strings"
)

// The brace matcher under the body-only proofs of Go (gobody.go) and the
// C family (cbody.go): over a function's lines it finds the body's
// opening brace and checks that the brace matching it ends the last
// line. Both languages need the same thing of their lexer (skip comments,
// strings, character literals and raw strings, which may hold braces,
// and hand out brackets); what differs is which literals there are and
// whether a line may be a preprocessor directive, and that is what a
// braceSyntax says. The text is the user's file as it is being edited,
// so anything the matcher does not understand makes it answer "not
// matched": the proofs built on it are only ever "proven" or "check the
// other files", never wrong.

// braceSyntax is what the brace matcher knows of a language's lexical
// forms beyond what Go and C share: // and /* */ comments, and "…" and
// '…' literals that end on their line, a backslash escaping the byte
// after it.
type braceSyntax struct {
	// backtickRaw: `…` is a raw string that may span lines (Go).
	backtickRaw bool
	// prefixedRaw: R"delim(…)delim" is a raw string that may span lines,
	// also with the prefixes u8R, uR, UR and LR (C++).
	prefixedRaw bool
	// ppNumbers: a number is a preprocessing number, 1'000'000 or
	// 0x1p-3 — its ' is a digit separator, not a character literal (C++).
	ppNumbers bool
	// dollarInWords: $ is an identifier byte (C and C++ compilers accept
	// it); identifiers matter for raw-string prefixes and typeWords.
	dollarInWords bool
	// typeWords are the words after which a "{" opens a type, not the
	// body (Go's struct and interface in a result type).
	typeWords []string
	// preprocessor: a line whose first non-blank is "#" is a directive
	// (skipped whole, with its backslash-continued lines, unless it is a
	// conditional or in the change); a line-ending backslash elsewhere, a
	// "#" after something else on its line and a // comment continued by
	// a backslash are not understood (C, C++, Objective-C).
	preprocessor bool
	// digraphs: a line holding a digraph or trigraph (<% %> %: ??< ??>
	// ??=), which may be a brace or a directive, is not understood.
	digraphs bool
}

// matchBodyBraces lexes lines [first, last] as syn says and returns the
// line of the body's opening brace — the first "{" outside parentheses
// and brackets that does not follow one of syn.typeWords — when its
// matching "}" is the last token of line last (only blanks and comments
// after it). Lines [changedFrom, changedTo) are the change's: with
// syn.preprocessor, none of them may be a directive or a directive's
// continuation.
func matchBodyBraces(syn *braceSyntax, lines []string, first, last, changedFrom, changedTo int) (open int, ok bool) {
	lx := braceLexer{syn: syn}
	open = -1
	var stack []byte   // the brackets open inside the body, or before it
	continued := false // the previous line was a directive ending in a backslash
	for ln := first; ln <= last; ln++ {
		line := lines[ln]
		if syn.digraphs && hasDigraph(line) {
			return 0, false
		}
		if syn.preprocessor {
			inChange := ln >= changedFrom && ln < changedTo
			if continued {
				if inChange {
					return 0, false // the change is part of a directive
				}
				continued = endsInBackslash(line)
				continue
			}
			if !lx.inBlock && !lx.inRaw {
				if word, ok := cDirective(line); ok {
					if inChange {
						return 0, false
					}
					switch word {
					case "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif":
						return 0, false // its branches may hold unbalanced braces
					}
					if strings.Contains(line, "/*") {
						return 0, false // a comment that may go on past the directive
					}
					continued = endsInBackslash(line)
					continue
				}
			}
		}
		for i := 0; i < len(line); {
			tok, next, bad := lx.next(line, i)
			if bad {
				return 0, false
			}
			i = next
			switch tok {
			case '\\', '#':
				// A line continued outside a directive; a directive after
				// something else on its line.
				return 0, false
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
					if tok != '}' || open < 0 || ln != last || !onlyCommentsLeft(syn, line[i:]) {
						return 0, false
					}
					return open, true
				}
				if stack[len(stack)-1] != openerOf(tok) {
					return 0, false
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	return 0, false
}

// openerOf is the bracket the closing bracket c closes.
func openerOf(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

// hasDigraph reports whether line holds a digraph or trigraph that may
// be a brace or a directive.
func hasDigraph(line string) bool {
	for _, d := range []string{"<%", "%>", "%:", "??<", "??>", "??="} {
		if strings.Contains(line, d) {
			return true
		}
	}
	return false
}

// endsInBackslash reports whether line ends in a backslash, trailing
// blanks aside: the next line continues it.
func endsInBackslash(line string) bool {
	return strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
}

// cDirective returns the directive's name when line is a preprocessor
// line ("#" first, blanks aside; "" for a null directive).
func cDirective(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "#") {
		return "", false
	}
	t = strings.TrimLeft(t[1:], " \t")
	n := 0
	for n < len(t) && (t[n] >= 'a' && t[n] <= 'z' || t[n] == '_') {
		n++
	}
	return t[:n], true
}

// onlyCommentsLeft reports whether rest of a line is blanks and comments
// that end on it.
func onlyCommentsLeft(syn *braceSyntax, rest string) bool {
	lx := braceLexer{syn: syn}
	for i := 0; i < len(rest); {
		switch c := rest[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(rest) && (rest[i+1] == '/' || rest[i+1] == '*'):
			_, next, bad := lx.next(rest, i)
			for !bad && lx.inBlock && next < len(rest) {
				_, next, bad = lx.next(rest, next)
			}
			if bad {
				return false // a // comment continued on the next line
			}
			i = next
		default:
			return false
		}
	}
	return !lx.inBlock
}

// braceLexer is the little of a lexer matchBodyBraces needs: it skips
// comments, strings, character literals, raw strings (block comments and
// raw strings may span lines) and, with syn.ppNumbers, numbers, and
// hands out brackets, and with syn.preprocessor "#" and a line-ending
// backslash ('\\'); typeBrace says whether the last word before a "{"
// was one of syn.typeWords.
type braceLexer struct {
	syn       *braceSyntax
	inBlock   bool
	inRaw     bool
	rawEnd    string // what ends the raw string: "`", or `)delim"`
	word      string // the last identifier or keyword seen
	typeBrace bool
}

// next reads from line[i:] and returns the bracket found (0 for none, at
// the end of the line or of something skipped) and where to go on from;
// bad is a string or character literal that does not end on its line, a
// raw string's malformed opening, or (with syn.preprocessor) a //
// comment continued on the next line.
func (lx *braceLexer) next(line string, i int) (tok byte, next int, bad bool) {
	syn := lx.syn
	switch {
	case lx.inRaw:
		if k := strings.Index(line[i:], lx.rawEnd); k >= 0 {
			lx.inRaw = false
			return 0, i + k + len(lx.rawEnd), false
		}
		return 0, len(line), false
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
		if syn.preprocessor && endsInBackslash(line) {
			return 0, 0, true // a // comment continued on the next line
		}
		return 0, len(line), false
	case c == '/' && i+1 < len(line) && line[i+1] == '*':
		lx.inBlock = true
		return 0, i + 2, false
	case c == '`' && syn.backtickRaw:
		lx.inRaw, lx.rawEnd = true, "`"
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
		lx.typeBrace = c == '{' && slices.Contains(syn.typeWords, lx.word)
		lx.word = ""
		return c, i + 1, false
	case c == '#' && syn.preprocessor:
		return '#', i + 1, false
	case c == '\\' && syn.preprocessor:
		if strings.TrimRight(line[i+1:], " \t\r") == "" {
			return '\\', len(line), false
		}
		return 0, i + 1, false
	case syn.ppNumbers && (c >= '0' && c <= '9' || c == '.' && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9'):
		// A preprocessing number: 1'000'000, 0x1p-3, 1.5e+10f.
		lx.word = ""
		j := i + 1
		for j < len(line) {
			d := line[j]
			switch {
			case (d == '+' || d == '-') && strings.ContainsRune("eEpP", rune(line[j-1])):
				j++
			case d == '\'' && j+1 < len(line) && lx.wordByte(line[j+1]):
				j += 2
			case lx.wordByte(d) || d == '.':
				j++
			default:
				return 0, j, false
			}
		}
		return 0, j, false
	case lx.wordByte(c) && !(c >= '0' && c <= '9'):
		j := i
		for j < len(line) && lx.wordByte(line[j]) {
			j++
		}
		lx.word = line[i:j]
		// A raw string: R"delim( … )delim", its prefix u8R, uR, UR or LR.
		if w := line[i:j]; syn.prefixedRaw && j < len(line) && line[j] == '"' && (w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR") {
			k := strings.IndexByte(line[j+1:], '(')
			if k < 0 || k > 16 || strings.ContainsAny(line[j+1:j+1+k], " ()\\\t\"") {
				return 0, 0, true
			}
			lx.inRaw, lx.rawEnd = true, ")"+line[j+1:j+1+k]+"\""
			lx.word = ""
			return lx.next(line, j+2+k)
		}
		return 0, j, false
	case c == ' ' || c == '\t' || c == '\r':
		return 0, i + 1, false
	default:
		lx.word = ""
		return 0, i + 1, false
	}
}

// wordByte reports whether c may be part of an identifier.
func (lx *braceLexer) wordByte(c byte) bool { return lx.syn.wordByte(c) }

// wordByte reports whether c may be part of an identifier of the syntax.
func (syn *braceSyntax) wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 || c == '$' && syn.dollarInWords
}
