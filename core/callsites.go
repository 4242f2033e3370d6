package core

import "strings"

// A call hierarchy answer's fromRanges are positions in one file: the
// caller's for incoming calls, the expanded item's own for outgoing ones.
// A server that names callers by symbol ID merges callers that share one:
// clangd 14 answers the callers of a function called from the main() of
// 20 test programs (every external main has the USR c:@F@main) with one
// `from` item, main in tests/cjson_add.c, whose 20 fromRanges are each
// relative to its own program's file — lines 207, 836, … of a 471-line
// file that calls the function once. A host checks each site against the
// text of the file it is said to be in before showing it there.

// CallSiteThere reports whether the call site r (an LSP range, UTF-16
// columns) of callee (a hierarchy item's name) can be in text, the file
// the answer puts it in: its lines exist, its columns are inside them,
// and its text names callee as a whole identifier (foo, pkg.foo,
// foo(x)) or is one whole identifier — a call through a macro is
// reported at the macro's name (UNITY_END() calling UnityEnd). A site
// of another file, read at the same line and column here, fails that
// unless it falls exactly on such a token.
func CallSiteThere(text string, r Range, callee string) bool {
	lines := lineSource{s: text}
	line, ok := lines.lineAt(r.Start.Line)
	if !ok || int(r.Start.Character) > utf16Len(line) {
		return false
	}
	if r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Character < r.Start.Character) {
		return false
	}
	start := byteOffsetOfColumn(line, int(r.Start.Character))
	site := line[start:]
	single := r.End.Line == r.Start.Line
	if single {
		if int(r.End.Character) > utf16Len(line) {
			return false
		}
		site = line[start:byteOffsetOfColumn(line, int(r.End.Character))]
	} else if last, ok := lines.lineAt(r.End.Line); !ok || int(r.End.Character) > utf16Len(last) {
		return false
	} else {
		// A range over lines is an expression's: typescript-language-
		// server's site of `[\n {…},\n].filter(Boolean)` starts at the
		// `[` and ends after `filter`, which only its last line names.
		site = multiLineSite(lines, r, site, last)
	}
	if name := calleeIdentifier(callee); name != "" && HasIdentifier(site, name) {
		return true
	}
	id, col := identifierAt(line, int(r.Start.Character))
	if id == "" || col != int(r.Start.Character) {
		return false
	}
	// One whole identifier: the range is the token, or empty at its start.
	return !single || site == "" || site == id
}

// maxSiteLines bounds the lines of a multi-line site read whole; past it
// its first and last lines stand for it.
const maxSiteLines = 200

// multiLineSite is the text of the multi-line site r: first (the first
// line from r's start) through last (its last line) up to r's end; the
// lines between are read when there are at most maxSiteLines.
func multiLineSite(lines lineSource, r Range, first, last string) string {
	parts := []string{first}
	if r.End.Line-r.Start.Line <= maxSiteLines {
		for n := r.Start.Line + 1; n < r.End.Line; n++ {
			l, _ := lines.lineAt(n)
			parts = append(parts, l)
		}
	}
	return strings.Join(append(parts, last[:byteOffsetOfColumn(last, int(r.End.Character))]), "\n")
}

// calleeIdentifier is the identifier a call of the hierarchy item named
// name spells: the last identifier of the name before any parameter list
// ("bar" of "Foo::bar", "bar(int)", "Foo.bar" or "(*T).bar"); "" when it
// has none.
func calleeIdentifier(name string) string {
	if i := strings.LastIndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		name = name[:i]
	}
	fields := strings.FieldsFunc(name, func(r rune) bool { return !identChar(r) })
	if len(fields) == 0 {
		return ""
	}
	return fields[len(fields)-1]
}
