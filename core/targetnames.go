package core

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A symbol target whose name the server's outline does not list may still
// be in the file: outlines leave out what the servers do not count as a
// declaration of their own — pyright an imported or re-exported name
// (`from .utils import format_filename as format_filename`), clangd a
// macro (`#define SDS_HDR_VAR(T,s) …`), tsserver the members of a type
// alias (`type RetryOptions = {limit?: number}`) and parameters. "no
// symbol X" would then tell the model the name is not there. So the
// not-found error looks for the name (the query's last segment) as a
// whole identifier in the lines it has, and when it is there says where,
// with a target that works ({path, line, matchText}).
//
// It never resolves to such a line by itself: which of the occurrences is
// the one meant (an import or its uses, a member or a parameter of the
// same name, the alias's member or a nested object's) is a guess the
// outline cannot check, and a change must never act on a guess. The lines
// offered first are the likelier ones: inside the container's range for
// Container.member, then the ones that look like a declaration.
//
// The host sends, with the whole outline it sends for the nearest names,
// the lines holding the name (LinesNaming): the core reads no other.

// maxNameLines bounds the lines a host sends for a missing symbol's name,
// and maxOccurrencesShown the ones a message names.
const (
	maxNameLines        = 200
	maxOccurrencesShown = 3
)

// LinesNaming is the zero-based lines of text that hold the last segment
// of a symbol query as a substring (at most 200, in order): what the core
// reads to say where a name the outline lacks occurs.
func LinesNaming(text, query string) []LineSpan {
	name := lastSegment(query)
	if name == "" {
		return nil
	}
	var out []LineSpan
	for i, l := range SplitLines(text) {
		if strings.Contains(l, name) {
			out = append(out, LineSpan{Start: uint32(i), End: uint32(i)})
			if len(out) == maxNameLines {
				break
			}
		}
	}
	return out
}

// lastSegment is the member's name of a query ("limit" of
// "RetryOptions.limit").
func lastSegment(query string) string {
	segs := splitQuery(strings.TrimSpace(query))
	return strings.TrimSpace(segs[len(segs)-1])
}

// nameOccurrence is a line that holds a missing symbol's name as a whole
// identifier: the first such place on it.
type nameOccurrence struct {
	line        uint32
	col         int // zero-based UTF-16
	text        string
	declaration bool
	inContainer bool
	// byMatch: matchText (the name) finds this place; else the first
	// occurrence of the text on the line is inside a longer identifier,
	// and the target needs the column.
	byMatch bool
}

// eachLine calls fn with each line the file's input has, in order: all
// of the text, or the chunks a host sent.
func (f TargetFile) eachLine(fn func(n uint32, line string)) {
	if !f.Partial {
		for i, l := range SplitLines(f.Text) {
			fn(uint32(i), l)
		}
		return
	}
	for _, c := range f.Lines {
		for i, l := range c.Lines {
			fn(c.Start+uint32(i), l)
		}
	}
}

// nameOccurrences finds name's lines, the likelier first (see above);
// within is the container's range for a Container.member query.
func nameOccurrences(f TargetFile, name string, within *Range) []nameOccurrence {
	if !identifierLike(strings.TrimPrefix(name, "#")) {
		return nil
	}
	var out []nameOccurrence
	seen := map[uint32]bool{}
	f.eachLine(func(n uint32, line string) {
		if seen[n] {
			return
		}
		// The first whole-identifier occurrence that looks like a
		// declaration, else the first.
		var first *nameOccurrence
		for from := 0; from <= len(line); {
			col, ok := findIdentifier(line, name, from)
			if !ok {
				break
			}
			s := byteOffsetOfColumn(line, col)
			o := nameOccurrence{line: n, col: col, text: line, declaration: looksDeclared(line, s, s+len(name)),
				byMatch: strings.Index(line, name) == s}
			if first == nil || (o.declaration && !first.declaration) {
				first = &o
			}
			if first.declaration {
				break
			}
			from = s + len(name)
		}
		if first == nil {
			return
		}
		seen[n] = true
		first.inContainer = within != nil && within.Start.Line <= n && n <= within.End.Line
		out = append(out, *first)
	})
	rank := func(o nameOccurrence) int {
		r := 0
		if o.inContainer {
			r += 2
		}
		if o.declaration {
			r++
		}
		return -r
	}
	// A stable sort by rank keeps document order within a rank.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && rank(out[j]) < rank(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// declaringWords are the words after which a name is being declared, in
// the languages lspseam's servers cover (imports count: the name is
// bound in this file).
var declaringWords = map[string]bool{
	"def": true, "class": true, "function": true, "type": true, "interface": true, "const": true, "let": true, "var": true,
	"func": true, "struct": true, "enum": true, "union": true, "define": true, "import": true, "as": true, "namespace": true,
	"module": true, "fn": true, "typedef": true, "alias": true, "trait": true, "impl": true, "macro": true,
}

// looksDeclared: the name at line[s:e] follows a declaring word (`def f`,
// `#define F`, `import f`, `as f`), or opens the line's code and is
// followed by `:`, `?:` or `=` (a property `limit?: number`, a field, an
// assignment `X = 1`).
func looksDeclared(line string, s, e int) bool {
	before := strings.TrimRight(line[:s], " \t")
	if w := lastWord(before); declaringWords[w] {
		return true
	}
	after := strings.TrimLeft(line[e:], " \t")
	switch {
	case strings.HasPrefix(after, "?:"), strings.HasPrefix(after, ":") && !strings.HasPrefix(after, "::"),
		strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") && !strings.HasPrefix(after, "=>"):
	default:
		return false
	}
	// Only modifiers before it: `readonly limit?: number`, `export x = 1`.
	for _, w := range strings.Fields(before) {
		switch w {
		case "export", "readonly", "public", "private", "protected", "static", "declare", "abstract", "override", "pub", "self.", "this.":
		default:
			return false
		}
	}
	return true
}

// lastWord is the trailing run of identifier characters of s.
func lastWord(s string) string {
	end := len(s)
	start := end
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(s[:start])
		if !identChar(r) {
			break
		}
		start -= w
	}
	return s[start:end]
}

// missingNameOccurrences is where a missing symbol's name occurs, when
// those lines can be what the query means: for a Container.member whose
// container the outline has, the lines inside it; for a name the outline
// has under another container (a wrong Container.member), none: the
// nearest names say it better; else every line. container describes the
// container found, for the message.
func missingNameOccurrences(f TargetFile, segs []string) (occ []nameOccurrence, container string) {
	name := strings.TrimSpace(segs[len(segs)-1])
	if len(segs) > 1 {
		cq := strings.Join(segs[:len(segs)-1], ".")
		for _, s := range f.Symbols {
			if !symbolMatches(s, cq, splitQuery(cq)) {
				continue
			}
			r := s.Range
			container = quoteCode(s.QualifiedName()) + " (" + s.Kind.String() + ", lines " +
				strconv.FormatUint(toOneBased(r.Start.Line), 10) + "–" + strconv.FormatUint(toOneBased(r.End.Line), 10) + ")"
			for _, o := range nameOccurrences(f, name, &r) {
				if o.inContainer {
					occ = append(occ, o)
				}
			}
			return occ, container
		}
	}
	for _, s := range f.Symbols {
		if s.Name == name {
			return nil, ""
		}
	}
	return nameOccurrences(f, name, nil), ""
}

// occurrencesHint is the not-found message's part about the name's
// lines: where it occurs and a target for the first of them; "" when the
// name is on none.
func occurrencesHint(t Target, name string, occ []nameOccurrence, container string, noOutline bool) string {
	if len(occ) == 0 {
		if noOutline {
			return " Target by line with matchText (text on that line) instead."
		}
		return ""
	}
	var b strings.Builder
	if noOutline {
		b.WriteString(" The name occurs in the file: ")
	} else {
		b.WriteString(" The server's outline of it does not list ")
		b.WriteString(quoteCode(name))
		if container != "" {
			b.WriteString(" in " + container)
		}
		b.WriteString(", but the name occurs in the file: ")
	}
	for i, o := range occ[:min(len(occ), maxOccurrencesShown)] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString("line " + strconv.FormatUint(toOneBased(o.line), 10) + ", column " + strconv.Itoa(o.col+1) + " " + quoteLine(strings.TrimSpace(o.text)))
	}
	if len(occ) > maxOccurrencesShown {
		b.WriteString("; and on " + strconv.Itoa(len(occ)-maxOccurrencesShown) + " more line")
		if len(occ)-maxOccurrencesShown > 1 {
			b.WriteString("s")
		}
	}
	o := occ[0]
	b.WriteString(". To target it there, call again with target ")
	j := append([]byte(`{"path":`), nil...)
	j = appendString(j, t.Path)
	j = append(j, `,"line":`...)
	j = strconv.AppendUint(j, toOneBased(o.line), 10)
	if o.byMatch {
		j = append(j, `,"matchText":`...)
		j = appendString(j, name)
	} else {
		j = append(j, `,"column":`...)
		j = strconv.AppendInt(j, int64(o.col+1), 10)
	}
	j = append(j, '}')
	b.Write(j)
	b.WriteString(" (check the line is the one you mean).")
	return b.String()
}
