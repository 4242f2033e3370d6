package core

import "strings"

// A Python property's accessors share one name: `@property def encoding`,
// then `@encoding.setter def encoding` (and `@encoding.deleter`).
// pyright's outline lists only the last of them, so a target by name
// (`Headers.encoding`) resolved to the setter, and a tester's
// code_replace meant for the property replaced the setter and left the
// getter (findings s28, httpx's Headers.encoding). The outline gets the
// earlier accessors back from the text, each an entry of the same name,
// kind and container: a target by name is then ambiguous and says which
// lines to choose from, as for any two symbols of one name.

// addAccessorGetters adds, for each symbol whose range opens with its own
// `@name.setter` or `@name.deleter` decorator, the earlier `def name` of
// the same class body (its container's) that the outline lacks.
func (f *flattener) addAccessorGetters() {
	if !f.checked {
		return
	}
	for _, s := range f.out {
		if !isAccessorDecorator(f.lineAt(s.Range.Start.Line), s.Name) {
			continue
		}
		class, ok := f.symbolNamed(s.Container)
		if !ok || class.Range.Start.Line >= s.Range.Start.Line {
			continue
		}
		indent := indentOf(f.lineAt(s.Selection.Start.Line))
		for _, a := range earlierAccessors(f.lines, int(class.Range.Start.Line)+1, int(s.Range.Start.Line), s.Name, indent) {
			a.Kind, a.Container = s.Kind, s.Container
			key := symbolKey{a.Name, a.Container, a.Selection.Start}
			if !f.seen[key] {
				f.seen[key] = true
				f.out = append(f.out, a)
			}
		}
	}
}

// symbolNamed is the symbol of that qualified name ("" has none).
func (f *flattener) symbolNamed(qualified string) (Symbol, bool) {
	for _, s := range f.out {
		if qualified != "" && s.QualifiedName() == qualified {
			return s, true
		}
	}
	return Symbol{}, false
}

func (f *flattener) lineAt(n uint32) string {
	if int64(n) < int64(len(f.lines)) {
		return f.lines[n]
	}
	return ""
}

// isAccessorDecorator: line is `@name.setter` or `@name.deleter`.
func isAccessorDecorator(line, name string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "@"+name+".")
	if !ok {
		return false
	}
	rest = strings.TrimRight(rest, " \t\r")
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = strings.TrimSpace(rest[:i])
	}
	return rest == "setter" || rest == "deleter"
}

// earlierAccessors are the `def name(` (or `async def`) indented indent
// in the lines from (the class body's first) up to before (zero-based,
// the accessor's first line), each with its decorators
// (declarationEnd says where it ends). Lines inside triple-quoted
// strings are not code.
func earlierAccessors(lines []string, from, before int, name, indent string) []Symbol {
	var out []Symbol
	var open string
	for i := from; i < before && i < len(lines); i++ {
		l := lines[i]
		inString := open != ""
		open = pythonStringAfter(l, open)
		if inString || indentOf(l) != indent {
			continue
		}
		col := defNameColumn(l, len(indent), name)
		if col < 0 {
			continue
		}
		start := i
		for start > from && indentOf(lines[start-1]) == indent && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "@") {
			start--
		}
		last := declarationEnd(lines, i, len(indent), before)
		nameAt := Position{Line: uint32(i), Character: uint32(columnOfByteOffset(l, col))}
		out = append(out, Symbol{
			Name:      name,
			Range:     Range{Start: Position{Line: uint32(start), Character: uint32(columnOfByteOffset(lines[start], len(indent)))}, End: Position{Line: uint32(last), Character: uint32(utf16Len(lines[last]))}},
			Selection: Range{Start: nameAt, End: Position{Line: uint32(i), Character: nameAt.Character + uint32(utf16Len(name))}},
		})
	}
	return out
}

// declarationEnd is the last non-blank line of the declaration whose
// `def` is line def, indented indent bytes: the line before the first
// one after it, outside a triple-quoted string, that is indented no more
// and is not a bracket closing the signature (`) -> str:`); at most
// limit-1.
func declarationEnd(lines []string, def, indent, limit int) int {
	last := def
	var open string // the triple quote a string spanning lines opened with
	for i := def + 1; i < limit; i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if open == "" && t != "" && !strings.HasPrefix(t, "#") && len(indentOf(l)) <= indent && !strings.ContainsAny(t[:1], ")]}") {
			break
		}
		outdentedComment := open == "" && strings.HasPrefix(t, "#") && len(indentOf(l)) <= indent
		if t != "" && !outdentedComment {
			last = i // a comment at the body's level is the next one's
		}
		open = pythonStringAfter(l, open)
	}
	return last
}

// pythonStringAfter is the triple-quoted string a line leaves open
// ("" for none), open being the one it started in (scanPythonLine).
func pythonStringAfter(line, open string) string {
	after, _ := scanPythonLine(line, open, func(int) bool { return false })
	return after
}

// defNameColumn is the byte offset of name in a line `def name(` or
// `async def name(` that starts at byte from, -1 when it is not one.
func defNameColumn(line string, from int, name string) int {
	rest := line[from:]
	k := from
	if r, ok := strings.CutPrefix(rest, "async"); ok && strings.TrimLeft(r, " \t") != r {
		trimmed := strings.TrimLeft(r, " \t")
		k += len(rest) - len(trimmed)
		rest = trimmed
	}
	r, ok := strings.CutPrefix(rest, "def")
	if !ok || strings.TrimLeft(r, " \t") == r {
		return -1
	}
	trimmed := strings.TrimLeft(r, " \t")
	k += len(rest) - len(trimmed)
	after, ok := strings.CutPrefix(trimmed, name)
	if !ok || !strings.HasPrefix(strings.TrimLeft(after, " \t"), "(") {
		return -1
	}
	return k
}
