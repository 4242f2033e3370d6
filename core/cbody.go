package core

import (
	"path"
	"strings"
)

// Whether a change of a C, C++ or Objective-C source file stays inside
// one function's body (CChangeInsideBody), the C family's counterpart of
// GoChangeInsideBody (gobody.go). A C compiler reads one translation unit:
// the source file and what it #includes. What another file compiles
// against is a header's declarations, never a source file's function
// body, so a change between a function's braces in a source file cannot
// change another file's compile errors — unless a file #includes that
// source file, which the host checks (cincluders.go) before it relies on
// this. A header is never proven: its inline and static functions, its
// macros and templates are compiled into every file that includes it.
//
// The proof is lexical, as for Go, over the function's lines from the
// line of its name to the line of its closing brace, before and after
// the change:
//
//   - the body's opening brace is the first "{" outside parentheses and
//     brackets after the name, on a line before the change's first line
//     (a constructor's member initializer `a{1}` comes first, and its
//     "}" not ending the function makes the proof fail: never wrong,
//     only unproven);
//   - before the change its matching "}" is the last token of the
//     function's last line, and the changed lines lie between the two
//     braces' lines; after the change the same "{" matches a "}" that is
//     the last token of the line the last line moved to.
//
// Comments, strings, character literals, C++ raw strings and numbers
// (with their digit separators) are skipped as the C and C++ lexers do.
// Not proven: a preprocessor line in the change (a #define inside a body
// lives on past it, an #include brings declarations) and a conditional
// one (#if, #ifdef, #else, …) anywhere in the function, whose branches
// may hold unbalanced braces; a line ending in a backslash outside a
// directive (it continues a // comment or a string); digraphs and
// trigraphs for braces; a text that does not lex. Other directives the
// function holds unchanged (#pragma, #undef, a #define) are skipped
// whole, with their continuation lines.

// cSourceExtensions are the C family's source files (lower-cased
// extensions). Headers (.h, .hh, .hpp, .hxx, .inl, .inc, .ipp, .tcc and
// extensionless ones) are not among them.
var cSourceExtensions = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".m": true, ".mm": true}

// CSourceFile reports whether path names a C, C++ or Objective-C source
// file (not a header).
func CSourceFile(p string) bool {
	return cSourceExtensions[strings.ToLower(path.Ext(p))]
}

// CFamilyFile reports whether path names a file clangd serves: a C, C++
// or Objective-C source file or header (any case).
func CFamilyFile(p string) bool { return isCFamilyPath(p) }

// CChangeInsideBody reports whether the change from before to after of
// the C-family source file at path (lines split as SplitLines does) stays
// inside the body of the function whose definition spans before's lines
// [nameLine, endLine] (zero-based: the line of its name and of its
// closing brace). Always false for a header.
func CChangeInsideBody(p string, before, after []string, nameLine, endLine int) bool {
	if !CSourceFile(p) || nameLine < 0 || endLine < nameLine || endLine >= len(before) {
		return false
	}
	from, beforeEnd, afterEnd := changedLineRange(before, after)
	if from == beforeEnd && from == afterEnd {
		return false // no change
	}
	if from <= nameLine || beforeEnd > endLine || from > endLine {
		return false
	}
	open, ok := cBodyBraces(before, nameLine, endLine, from, beforeEnd)
	if !ok || from <= open {
		return false
	}
	moved := endLine + (afterEnd - beforeEnd)
	if moved < from || moved >= len(after) {
		return false
	}
	openAfter, ok := cBodyBraces(after, nameLine, moved, from, afterEnd)
	return ok && openAfter == open
}

// cBodyBraces lexes lines [first, last] and returns the line of the body's
// opening brace, when its matching brace is the last token of line last
// (only blanks and comments after it). Lines [changedFrom, changedTo) are
// the change's: no preprocessor line may be among them.
func cBodyBraces(lines []string, first, last, changedFrom, changedTo int) (open int, ok bool) {
	var lx cLexer
	open = -1
	var stack []byte
	continued := false // the previous line was a directive ending in a backslash
	for ln := first; ln <= last; ln++ {
		line := lines[ln]
		if strings.Contains(line, "<%") || strings.Contains(line, "%>") || strings.Contains(line, "%:") ||
			strings.Contains(line, "??<") || strings.Contains(line, "??>") || strings.Contains(line, "??=") {
			return 0, false // a digraph or trigraph may be a brace or a directive
		}
		if continued {
			if ln >= changedFrom && ln < changedTo {
				return 0, false // the change is part of a directive
			}
			continued = strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
			continue
		}
		if !lx.inBlock && !lx.inRaw {
			if word, ok := cDirective(line); ok {
				if ln >= changedFrom && ln < changedTo {
					return 0, false
				}
				switch word {
				case "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif":
					return 0, false
				}
				if strings.Contains(line, "/*") {
					return 0, false // a comment that may go on past the directive
				}
				continued = strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
				continue
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
				// a comment on its line.
				return 0, false
			case '(', '[':
				stack = append(stack, tok)
			case '{':
				if open < 0 && len(stack) == 0 {
					open = ln
					continue
				}
				stack = append(stack, tok)
			case ')', ']', '}':
				if len(stack) == 0 {
					if tok != '}' || open < 0 || ln != last || !cOnlyCommentsLeft(line[i:]) {
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

// cOnlyCommentsLeft reports whether rest of a line is blanks and comments
// that end on it.
func cOnlyCommentsLeft(rest string) bool {
	var lx cLexer
	for i := 0; i < len(rest); {
		switch c := rest[i]; {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(rest) && (rest[i+1] == '/' || rest[i+1] == '*'):
			if rest[i+1] == '/' && strings.HasSuffix(strings.TrimRight(rest, " \t\r"), "\\") {
				return false // the comment goes on to the next line
			}
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

// cLexer is the little of a C/C++ lexer cBodyBraces needs: it skips
// comments, strings, character literals, raw strings (block comments and
// raw strings may span lines) and numbers, and hands out brackets and a
// line-ending backslash ('\\').
type cLexer struct {
	inBlock bool
	inRaw   bool
	rawEnd  string // `)delim"` ending the raw string
}

// next reads from line[i:] and returns the bracket found (0 for none) and
// where to go on from; bad is a string or character literal that does not
// end on its line, or a raw string's malformed opening.
func (lx *cLexer) next(line string, i int) (tok byte, next int, bad bool) {
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
		if strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\") {
			return 0, 0, true // a // comment continued on the next line
		}
		return 0, len(line), false
	case c == '/' && i+1 < len(line) && line[i+1] == '*':
		lx.inBlock = true
		return 0, i + 2, false
	case c == '"' || c == '\'':
		for j := i + 1; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case c:
				return 0, j + 1, false
			}
		}
		return 0, 0, true
	case c == '(' || c == '[' || c == '{' || c == ')' || c == ']' || c == '}':
		return c, i + 1, false
	case c == '#':
		return '#', i + 1, false
	case c == '\\':
		if strings.TrimRight(line[i+1:], " \t\r") == "" {
			return '\\', len(line), false
		}
		return 0, i + 1, false
	case c >= '0' && c <= '9' || c == '.' && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9':
		// A preprocessing number: 1'000'000, 0x1p-3, 1.5e+10f.
		j := i + 1
		for j < len(line) {
			d := line[j]
			switch {
			case (d == '+' || d == '-') && strings.ContainsRune("eEpP", rune(line[j-1])):
				j++
			case d == '\'' && j+1 < len(line) && cWordByte(line[j+1]):
				j += 2
			case cWordByte(d) || d == '.':
				j++
			default:
				return 0, j, false
			}
		}
		return 0, j, false
	case cWordByte(c):
		j := i
		for j < len(line) && cWordByte(line[j]) {
			j++
		}
		// A raw string: R"delim( … )delim", its prefix u8R, uR, UR or LR.
		if w := line[i:j]; j < len(line) && line[j] == '"' && (w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR") {
			k := strings.IndexByte(line[j+1:], '(')
			if k < 0 || k > 16 || strings.ContainsAny(line[j+1:j+1+k], " ()\\\t\"") {
				return 0, 0, true
			}
			lx.inRaw, lx.rawEnd = true, ")"+line[j+1:j+1+k]+"\""
			return lx.next(line, j+2+k)
		}
		return 0, j, false
	default:
		return 0, i + 1, false
	}
}

func cWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '$' || c >= 0x80
}
