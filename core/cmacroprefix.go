package core

import (
	"path"
	"strings"
)

// A C declaration whose return type is written through a function-like
// macro (`CJSON_PUBLIC(cJSON *) f(void)`, `LUA_API(int) f(...)`,
// `EXPORT(API(int)) f(...)`): clangd's symbol range starts at the first
// token it spells in the file, the macro's argument, inside the macro's
// parentheses. Taken as given, code_replace kept `CJSON_PUBLIC(` in front
// of the new text (`CJSON_PUBLIC(CJSON_PUBLIC(cJSON *) f(void)`, an
// unterminated invocation, answered "Applied"), and code_delete refused
// a declaration alone on its lines as sharing them with other code.
// macroPrefixStart widens such a range's start to the macro's name, so
// the span edited is the declaration as written. Conservatively: only in
// a C-family file; only when all that precedes the range on its line is
// indentation and one or more `NAME(` (no other character: a `;`, `{`,
// `}`, `,`, `)` or a second word before the parenthesis, as in a K&R
// `int f(a` or a prefix that closes before the range, leaves the range
// as it is); and only when the range itself closes those parentheses
// before any `;`, `{` or `}` (a variable declared inside a macro's
// argument, `DEFINE(int x = 1);`, whose range ends before the `)`, is
// not the macro's).

// cFamilyExtensions are the extensions of the files clangd serves
// (servers.json's C, C++, Objective-C and Objective-C++), any case.
var cFamilyExtensions = map[string]bool{
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".hh": true, ".hpp": true,
	".hxx": true, ".h++": true, ".ipp": true, ".tpp": true, ".m": true, ".mm": true, ".cu": true, ".cuh": true,
}

func isCFamilyPath(p string) bool { return cFamilyExtensions[strings.ToLower(path.Ext(p))] }

// widenMacroPrefix is r with its start moved back to the macro invocation
// that opens it (see above), or r unchanged.
func widenMacroPrefix(lines []string, r Range, filePath string) Range {
	if !isCFamilyPath(filePath) || int(r.Start.Line) >= len(lines) {
		return r
	}
	line := lines[r.Start.Line]
	at := byteOffsetOfColumn(line, int(r.Start.Character))
	mark := 0 // a byte order mark is not the line's text
	if r.Start.Line == 0 && strings.HasPrefix(line[:at], utf8BOM) {
		mark = len(utf8BOM)
	}
	from, open := macroPrefixStart(line[mark:at])
	if open == 0 || !closesWithin(lines, r, at, open) {
		return r
	}
	r.Start.Character = uint32(columnOfByteOffset(line, mark+from))
	return r
}

// macroPrefixStart reads before, a line's text up to a range's start, as
// indentation followed by one or more `NAME(` (spaces allowed between
// them): the byte offset of the first NAME and how many parentheses are
// open; open 0 when before is anything else.
func macroPrefixStart(before string) (from, open int) {
	i := len(before) - len(strings.TrimLeft(before, " \t"))
	from = i
	for i < len(before) {
		j := i
		for j < len(before) && isIdentByte(before[j]) {
			j++
		}
		if j == i || before[i] >= '0' && before[i] <= '9' {
			return 0, 0 // not a name
		}
		for j < len(before) && (before[j] == ' ' || before[j] == '\t') {
			j++
		}
		if j == len(before) || before[j] != '(' {
			return 0, 0 // a name without its parenthesis: a type or a keyword, not a macro's call
		}
		j++
		for j < len(before) && (before[j] == ' ' || before[j] == '\t') {
			j++
		}
		open++
		i = j
	}
	if open == 0 {
		return 0, 0
	}
	return from, open
}

// closesWithin reports whether the range r (whose first line's text
// starts at byte at) closes open parentheses before it opens a body or
// ends a statement: the macro's arguments are part of the declaration.
// Character and string literals and comments are passed over.
func closesWithin(lines []string, r Range, at, open int) bool {
	depth, inBlock := open, false
	for l := r.Start.Line; l <= r.End.Line && int(l) < len(lines); l++ {
		s := lines[l]
		i, end := 0, len(s)
		if l == r.Start.Line {
			i = at
		}
		if l == r.End.Line {
			end = min(end, byteOffsetOfColumn(s, int(r.End.Character)))
		}
		for ; i < end; i++ {
			if inBlock {
				if strings.HasPrefix(s[i:], "*/") {
					inBlock, i = false, i+1
				}
				continue
			}
			switch c := s[i]; c {
			case '"', '\'':
				if j := closingQuote(s, i); j > 0 {
					i = j
				}
			case '/':
				if strings.HasPrefix(s[i:], "//") {
					i = end
				} else if strings.HasPrefix(s[i:], "/*") {
					inBlock, i = true, i+1
				}
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return true
				}
			case ';', '{', '}':
				return false
			}
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || isASCIILetter(c)
}

// An object-like macro before a C declaration (`SDS_API int f(void)`,
// `Q_INVOKABLE void f()`, `#define SDS_API` or an attribute): clangd's
// range starts after it, at the first token the declaration spells in
// the file. Taken as given, code_delete refused the declaration as
// sharing its line with other code, code_insert before it wrote between
// the macro and the declaration, and a code_replace whose text repeats
// the macro wrote it twice. Only words can stand there: anything else
// before the range (`;`, `,`, `:`, `<`, `(`, a string) is other code or
// a construct left alone.

// objectMacroPrefix is the words that precede r on its first line in a
// C-family file, each an identifier, between indentation and the range
// (nil when anything else stands there), and where the first one starts.
func objectMacroPrefix(lines []string, r Range, filePath string) (words []string, from int) {
	if !isCFamilyPath(filePath) || int(r.Start.Line) >= len(lines) {
		return nil, 0
	}
	line := lines[r.Start.Line]
	at := byteOffsetOfColumn(line, int(r.Start.Character))
	mark := 0
	if r.Start.Line == 0 && strings.HasPrefix(line[:at], utf8BOM) {
		mark = len(utf8BOM)
	}
	before := line[mark:at]
	from = mark + len(before) - len(strings.TrimLeft(before, " \t"))
	for _, w := range strings.Fields(before) {
		if w[0] >= '0' && w[0] <= '9' {
			return nil, 0
		}
		for i := 0; i < len(w); i++ {
			if !isIdentByte(w[i]) {
				return nil, 0
			}
		}
		words = append(words, w)
	}
	if len(words) == 0 || !strings.HasSuffix(before, " ") && !strings.HasSuffix(before, "\t") {
		return nil, 0 // nothing before it, or a word that runs into the range
	}
	return words, from
}

// widenObjectMacroPrefix is r with its start moved back over the words
// objectMacroPrefix finds, for an edit in which they belong to the
// declaration: a delete (the macro is the declaration's), an insert
// before or after it (the new text goes above the macro, or below the
// whole declaration), and a replace whose text opens with the same words
// (it brings them; a text without them replaces the declaration after
// them and keeps them).
func widenObjectMacroPrefix(lines []string, r Range, filePath, where, newText string) Range {
	words, from := objectMacroPrefix(lines, r, filePath)
	if words == nil {
		return r
	}
	if where == "replace" {
		given := strings.Fields(newText)
		if len(given) < len(words) {
			return r
		}
		for i, w := range words {
			if given[i] != w {
				return r
			}
		}
	}
	r.Start.Character = uint32(columnOfByteOffset(lines[r.Start.Line], from))
	return r
}
