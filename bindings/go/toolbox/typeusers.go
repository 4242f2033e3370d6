package toolbox

import (
	"slices"
	"strings"
	"unicode"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The users of a changed TypeScript type that never name it, for
// findDependents (issue 26; findings s28 F1, F3).
//
// A props or options type is used by other files through the function
// or component whose parameter it types: `<ContentLayout title=…>` and
// `useDiscussion({ … })` never name `ContentLayoutProps` or
// `UseDiscussionOptions`, so the type's references stay in its own file
// while a required member added to it breaks every caller. The
// declarations whose signature (parameter list, return type, a
// variable's annotation) names the type are followed one level: their
// references are dependents too (signatureUsers).
//
// A member of an object type the outline does not list (typescript-
// language-server lists none for a type alias's literal, nor for one
// inside a generic argument, `Entity<{ body: string }>`) is used through
// `x.body` by files that get the type inferred and never name it: the
// changed lines inside a type's body that declare a member are asked for
// that member's references (typeMembers).

// tsTypeFile reports whether rel is a TypeScript file, where a type's
// users may reach it structurally, without naming it.
func tsTypeFile(rel string) bool {
	switch strings.ToLower(extOf(rel)) {
	case ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// isTypeDeclaration reports whether outline entry e of a TypeScript file
// (lines, its text) declares a type alias or an interface: the word
// before its name is `type` or `interface` (typescript-language-server
// calls a type alias a variable, so its kind cannot tell).
func isTypeDeclaration(lines []string, e lspseam.OutlineEntry) bool {
	line := int(e.SelectionRange.Start.Line)
	if line >= len(lines) {
		return false
	}
	text := lines[line]
	before := strings.TrimRightFunc(text[:byteOffsetOfUTF16(text, int(e.SelectionRange.Start.Character))], unicode.IsSpace)
	for _, kw := range []string{"type", "interface"} {
		if rest, ok := strings.CutSuffix(before, kw); ok && (rest == "" || !isIdentByte(rest[len(rest)-1])) {
			return true
		}
	}
	return false
}

// typeMemberName is the member a line of a type's body declares — `name:`,
// `name?:`, `readonly name:`, a method signature `name(` or `name<T>(` —
// and the byte column of its name; ok false for any other line (a
// closing brace, an index signature, a comment, a quoted name).
func typeMemberName(line string) (name string, col int, ok bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	if rest, found := strings.CutPrefix(line[i:], "readonly "); found {
		i = len(line) - len(strings.TrimLeft(rest, " \t"))
	}
	j := i
	for j < len(line) && isIdentByte(line[j]) {
		j++
	}
	if j == i || line[i] >= '0' && line[i] <= '9' {
		return "", 0, false
	}
	k := j
	if k < len(line) && line[k] == '?' {
		k++
	}
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k < len(line) && (line[k] == ':' || line[k] == '(' || line[k] == '<') {
		return line[i:j], i, true
	}
	return "", 0, false
}

// typeMembers is the members of type declaration typ declared on the
// lines a hunk of the change replaced (spans, in before's lines), which
// the outline does not list, as outline entries to ask the references of
// (at the member's name, before the change).
func typeMembers(outline []lspseam.OutlineEntry, typ lspseam.OutlineEntry, before []string, spans []core.ChangedSpan) []lspseam.OutlineEntry {
	var out []lspseam.OutlineEntry
	for _, sp := range spans {
		for line := max(sp.Start, int(typ.SelectionRange.Start.Line)+1); line < sp.End && line <= int(typ.Range.End.Line) && line < len(before); line++ {
			name, col, ok := typeMemberName(before[line])
			if !ok {
				continue
			}
			listed := func(e lspseam.OutlineEntry) bool {
				return int(e.SelectionRange.Start.Line) == line && declaredName(e.Name) == name
			}
			if slices.ContainsFunc(outline, listed) || slices.ContainsFunc(out, listed) {
				continue
			}
			start := lspseam.Position{Line: uint32(line), Character: uint32(core.ColumnOfByteOffset(before[line], col))}
			end := lspseam.Position{Line: uint32(line), Character: start.Character + uint32(core.ColumnOfByteOffset(name, len(name)))}
			out = append(out, lspseam.OutlineEntry{Name: name, Kind: symbolKindProperty, Container: typ.Name,
				Range:          lspseam.Range{Start: start, End: lspseam.Position{Line: uint32(line), Character: uint32(core.ColumnOfByteOffset(before[line], len(before[line])))}},
				SelectionRange: lspseam.Range{Start: start, End: end}})
		}
	}
	return out
}

const symbolKindProperty = 7

// signatureUsers is the declarations of a file's outline (for lines, its
// text) whose signature holds one of refs (references, in that file, to
// changed type typ): the innermost function, method, property or
// variable around each reference, not a local of a function, not a type
// itself (one level: a type built from the changed one is not
// followed), when the reference comes before the declaration's body
// (signatureEnd).
func signatureUsers(outline []lspseam.OutlineEntry, lines []string, typ lspseam.OutlineEntry, refs []lspseam.Position) []lspseam.OutlineEntry {
	const method, property, field, constructor, function, variable, constant = 6, 7, 8, 9, 12, 13, 14
	// A declaration inside a function or a variable's initializer is
	// local to it: its references are there.
	isLocalScope := func(k int) bool {
		return k == method || k == constructor || k == function || k == variable || k == constant
	}
	var out []lspseam.OutlineEntry
	for _, p := range refs {
		var in *lspseam.OutlineEntry
		for i, e := range outline {
			if !contains(e.Range, p) || (in != nil && !contains(in.Range, e.Range.Start)) {
				continue
			}
			in = &outline[i] // document order: an entry inside the one found comes after it
		}
		if in == nil || *in == typ || contains(in.Range, typ.SelectionRange.Start) {
			continue // the type's own declaration
		}
		switch in.Kind {
		case method, property, field, constructor, function, variable, constant:
		default:
			continue
		}
		e := *in
		local := func(o lspseam.OutlineEntry) bool {
			return isLocalScope(o.Kind) && o.Range != e.Range && contains(o.Range, e.Range.Start) && !after(e.Range.End, o.Range.End)
		}
		if isTypeDeclaration(lines, e) || slices.ContainsFunc(outline, local) {
			continue
		}
		endLine, endCol := signatureEnd(lines, e)
		line, col := int(p.Line), 0
		if line < len(lines) {
			col = byteOffsetOfUTF16(lines[line], int(p.Character))
		}
		if (line < endLine || line == endLine && col < endCol) && !slices.ContainsFunc(out, func(o lspseam.OutlineEntry) bool { return o == e }) {
			out = append(out, e)
		}
	}
	return out
}

// contains reports whether position p lies in r (its end excluded).
func contains(r lspseam.Range, p lspseam.Position) bool {
	return !after(r.Start, p) && after(r.End, p)
}

// after reports whether position a comes after b.
func after(a, b lspseam.Position) bool {
	return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
}

// signatureEnd is where the signature of declaration e (lines, its
// file's text) ends, as a line and byte column: the start of its body —
// the first `{` or `=>` outside brackets after its parameter list, or a
// `;` or a closing bracket outside them — scanned from its name to the
// end of its range, past strings and comments. A declaration with no
// parameter list (`const x: T = …`) is signature to its end, and so is
// one wrapped in a call (`forwardRef<R, P>((props, ref) => …)`): more
// followed than needed, never less.
func signatureEnd(lines []string, e lspseam.OutlineEntry) (int, int) {
	last := min(int(e.Range.End.Line), len(lines)-1)
	line := int(e.SelectionRange.End.Line)
	if line > last {
		return last + 1, 0
	}
	col := byteOffsetOfUTF16(lines[line], int(e.SelectionRange.End.Character))
	var stack []byte
	params := false  // a parenthesized group closed outside brackets
	prev := byte(0)  // the last character that is not a space
	quote := byte(0) // inside a string with this quote
	comment := false // inside /* */
	for ; line <= last; line, col = line+1, 0 {
		text := lines[line]
		for ; col < len(text); col++ {
			c := text[col]
			switch {
			case comment:
				if c == '*' && col+1 < len(text) && text[col+1] == '/' {
					comment = false
					col++
				}
				continue
			case quote != 0:
				if c == '\\' {
					col++
				} else if c == quote {
					quote = 0
				}
				continue
			}
			switch c {
			case '"', '\'', '`':
				quote = c
			case '/':
				if col+1 < len(text) && text[col+1] == '/' {
					col = len(text)
					continue
				}
				if col+1 < len(text) && text[col+1] == '*' {
					comment = true
					col++
					continue
				}
			case '(', '[', '<':
				stack = append(stack, c)
			case '{':
				if len(stack) == 0 && params && prev != ':' {
					return line, col
				}
				stack = append(stack, c)
			case '>':
				if prev == '=' && (col == 0 || text[col-1] == '=') {
					if len(stack) == 0 && params {
						return line, col - 1
					}
					break
				}
				if len(stack) > 0 && stack[len(stack)-1] == '<' {
					stack = stack[:len(stack)-1]
				}
			case ')', ']', '}':
				open := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
				for len(stack) > 0 && stack[len(stack)-1] != open {
					stack = stack[:len(stack)-1] // a `<` that was a comparison
				}
				if len(stack) == 0 {
					return line, col
				}
				stack = stack[:len(stack)-1]
				if c == ')' && len(stack) == 0 {
					params = true
				}
			case ';':
				if len(stack) == 0 {
					return line, col
				}
			}
			if c != ' ' && c != '\t' {
				prev = c
			}
		}
		if quote != '`' {
			quote = 0
		}
	}
	return last + 1, 0
}
