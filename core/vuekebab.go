package core

import (
	"strings"
	"unicode/utf8"
)

// In a Vue template, attribute and tag names are kebab-case spellings of
// script names (:is-active is the prop isActive, @toggle-click the event
// toggleClick, <screen-full> the component ScreenFull), so the subject of
// a position inside one is the whole name, not the word before its first
// '-'. In the <script> '-' is subtraction, so a run joined by '-' is a
// name only where the template's syntax puts one: followed by '=' (an
// attribute with its value), after '<' or '</' (a tag), or after a
// directive's '@', ':' or '#' (an event, a binding, a slot) followed by a
// modifier's '.' — none of which a script expression can be.

// kebabAround widens the identifier run [start, end) of line across
// '-'-joined runs when the widened name stands where a Vue template puts
// an attribute or tag name; otherwise it returns start, end.
func kebabAround(line string, start, end int) (int, int) {
	s, e := start, end
	for e+1 < len(line) && line[e] == '-' {
		r, _ := utf8.DecodeRuneInString(line[e+1:])
		if !identChar(r) {
			break
		}
		e++
		for e < len(line) {
			r, w := utf8.DecodeRuneInString(line[e:])
			if !identChar(r) {
				break
			}
			e += w
		}
	}
	for s >= 2 && line[s-1] == '-' {
		r, _ := utf8.DecodeLastRuneInString(line[:s-1])
		if !identChar(r) {
			break
		}
		s--
		for s > 0 {
			r, w := utf8.DecodeLastRuneInString(line[:s])
			if !identChar(r) {
				break
			}
			s -= w
		}
	}
	if s == start && e == end {
		return start, end
	}
	before, rest := line[:s], strings.TrimLeft(line[e:], " \t")
	directive := strings.HasSuffix(before, "@") || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "#")
	switch {
	case strings.HasPrefix(rest, "="),
		strings.HasSuffix(before, "<") || strings.HasSuffix(before, "</"),
		directive && strings.HasPrefix(rest, "."):
		return s, e
	}
	return start, end
}

// kebabIdentifierAt is identifierAt for a line of a .vue file: a
// template's kebab-case name whole.
func kebabIdentifierAt(line string, col int) (string, int) {
	id, at := identifierAt(line, col)
	if id == "" {
		return id, at
	}
	s := byteOffsetOfColumn(line, at)
	ks, ke := kebabAround(line, s, s+len(id))
	if ks == s && ke == s+len(id) {
		return id, at
	}
	return line[ks:ke], columnOfByteOffset(line, ks)
}
