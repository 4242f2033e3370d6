package core

import "strings"

// Inserted text in the file's indentation unit (code_insert, code_replace).
//
// Re-indenting a model's text (reindent) swaps its common indentation for
// the target's and keeps the rest: the levels inside it. A model writes
// those levels in spaces whatever the file uses, so a Python method
// inserted into a class indented with tabs came out `\t    if x:` — a tab
// for the class's level, four spaces for the method's — and pyright
// reported "Inconsistent use of tabs and spaces" (and a style-checked repo
// was mixed). So the levels inside the text are converted to the file's
// unit as well: in a file indented with tabs, each step of the text's
// space indentation becomes a tab (spaces short of a step, a continuation
// line's alignment, stay spaces after the tabs); in a file indented with
// spaces, each leading tab of the text's becomes the file's step. Lines
// whose indentation inside the text already mixes tabs and spaces are left
// as written: there is no reading of them that is surely right.

// fileIndentUnit is the unit a file indents with, as seen from a target
// at indentation indent: the target's own kind when it is indented, else
// the kind most of the file's indented lines start with; "\t", or the
// narrowest step of its space indentation; "" when the file indents
// nothing (the text is then left as written).
func fileIndentUnit(lines []string, indent string) string {
	tabs, spaces, narrowest := 0, 0, 0
	for _, l := range lines {
		in := indentOf(l)
		switch {
		case in == "" || strings.TrimSpace(l) == "":
		case in[0] == '\t':
			tabs++
		default:
			spaces++
			if n := len(in) - len(strings.TrimLeft(in, " ")); n > 0 && (narrowest == 0 || n < narrowest) {
				narrowest = n
			}
		}
	}
	useTabs := tabs > spaces
	switch {
	case indent != "":
		useTabs = indent[0] == '\t'
	case tabs == 0 && spaces == 0:
		return ""
	}
	if useTabs {
		return "\t"
	}
	if narrowest == 0 {
		narrowest = 4
	}
	return strings.Repeat(" ", narrowest)
}

// toIndentUnit rewrites the indentation of ls, lines relative to the
// text's own common indentation, in unit (see above).
func toIndentUnit(ls []string, unit string) {
	if unit == "" {
		return
	}
	if unit != "\t" {
		for i, l := range ls {
			in := indentOf(l)
			tabs := len(in) - len(strings.TrimLeft(in, "\t"))
			if tabs > 0 && !strings.Contains(in[tabs:], "\t") {
				ls[i] = strings.Repeat(unit, tabs) + l[tabs:]
			}
		}
		return
	}
	step := spaceStep(ls)
	if step == 0 {
		return
	}
	for i, l := range ls {
		in := indentOf(l)
		if in == "" || strings.Contains(in, "\t") || strings.TrimSpace(l) == "" {
			continue
		}
		ls[i] = strings.Repeat("\t", len(in)/step) + strings.Repeat(" ", len(in)%step) + l[len(in):]
	}
}

// spaceStep is the width of one level of ls's space indentation: the
// first increase after a line that opens a block (ends with ':', '{', '('
// or '['), else the narrowest space indentation; 0 when it has none.
func spaceStep(ls []string) int {
	opener, narrowest := "", 0 // opener: the indentation of a line opening a block just before
	open := false
	for _, l := range ls {
		if strings.TrimSpace(l) == "" {
			continue
		}
		in := indentOf(l)
		if strings.Contains(in, "\t") {
			open = false
			continue
		}
		if in != "" && (narrowest == 0 || len(in) < narrowest) {
			narrowest = len(in)
		}
		if open && len(in) > len(opener) {
			return len(in) - len(opener)
		}
		t := strings.TrimRight(l, " \t\r\n")
		open, opener = strings.ContainsAny(t[len(t)-1:], ":{(["), in
	}
	return narrowest
}

// writtenInUnit is a text written at the target's column (writtenAtRange:
// its first line bare, the others starting with indent, the target's) with
// the levels past indent in unit; its line breaks stay as they are.
func writtenInUnit(text, indent, unit string) string {
	ls := strings.SplitAfter(text, "\n")
	rel := make([]string, len(ls))
	for i, l := range ls {
		if i > 0 {
			l = strings.TrimPrefix(l, indent)
		}
		rel[i] = l
	}
	toIndentUnit(rel, unit)
	for i := 1; i < len(rel); i++ {
		if rel[i] != strings.TrimPrefix(ls[i], indent) {
			ls[i] = indent + rel[i]
		}
	}
	return strings.Join(ls, "")
}
