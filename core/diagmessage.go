package core

import (
	"sort"
	"strings"
)

// comparableMessage is a diagnostic's message as the delta compares it,
// never as it is shown: inside each quoted part ('…' or "…"), the members
// of a union (" | ") and of an intersection (" & ") in sorted order, at
// every level of brackets. TypeScript prints a union in the order its
// checker happens to hold the members, which can change from one check to
// the next with no change to the code ('URL | RequestInfo', then
// 'RequestInfo | URL'): compared as written, six unchanged errors in
// another file were "6 introduced, 6 resolved". Two messages that differ
// only in that order are the same problem; nothing else is rewritten, and
// a quoted part whose brackets do not balance, longer than
// maxSortedTypeBytes or nested deeper than maxSortedTypeDepth, or a message
// longer than maxComparableBytes, is compared as written (the work stays
// bounded).
//
// A message also compares without the notes a compiler-style server
// appends to it (withoutAppendedNotes): the note is context, not the
// problem, and it changes when the thing it points at moves.
//
// maxSortedTypeBytes and maxSortedTypeDepth bound the quoted parts
// comparableMessage sorts (each level of brackets scans its part again),
// maxComparableBytes the messages.
const (
	maxSortedTypeBytes = 8192
	maxSortedTypeDepth = 16
	maxComparableBytes = 64 << 10
)

func comparableMessage(msg string) string {
	msg = withoutAppendedNotes(msg)
	if len(msg) > maxComparableBytes || (!strings.Contains(msg, " | ") && !strings.Contains(msg, " & ")) {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		q := msg[i]
		if q != '\'' && q != '"' {
			b.WriteByte(q)
			i++
			continue
		}
		end := strings.IndexByte(msg[i+1:], q)
		if end < 0 {
			b.WriteString(msg[i:])
			break
		}
		b.WriteByte(q)
		b.WriteString(sortedTypeText(msg[i+1 : i+1+end]))
		b.WriteByte(q)
		i += end + 2
	}
	return b.String()
}

// sortedTypeText is a type's text with the members of each union and
// intersection sorted, at every level of brackets; s itself when its
// brackets do not balance.
func sortedTypeText(s string) string {
	if len(s) > maxSortedTypeBytes || !balancedBrackets(s) {
		return s
	}
	return sortMembers(s, 0)
}

// sortMembers sorts within each of the top-level fields of s (the parts
// between ",", ";" and ":", as in "{ a: B | A; b: C }" or "Map<K, B | A>"):
// no member moves across a field.
func sortMembers(s string, depth int) string {
	if depth > maxSortedTypeDepth {
		return s
	}
	var b strings.Builder
	nest, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch bracketAt(s, i) {
		case 1:
			nest++
		case -1:
			nest--
		default:
			if nest == 0 && strings.IndexByte(",;:", s[i]) >= 0 {
				b.WriteString(sortField(s[start:i], depth))
				b.WriteByte(s[i])
				start = i + 1
			}
		}
	}
	b.WriteString(sortField(s[start:], depth))
	return b.String()
}

// sortField sorts a field's union, each member's intersection, and each
// member's bracketed parts; the field's surrounding spaces stay.
func sortField(f string, depth int) string {
	core := strings.TrimSpace(f)
	if core == "" {
		return f
	}
	lead := strings.Index(f, core)
	return f[:lead] + sortSeparated(core, " | ", func(m string) string {
		return sortSeparated(m, " & ", func(m string) string { return sortInsideBrackets(m, depth) })
	}) + f[lead+len(core):]
}

// sortSeparated splits s at sep outside brackets, rewrites each part with
// inner, and sorts the parts when there are several.
func sortSeparated(s, sep string, inner func(string) string) string {
	parts := splitTopLevel(s, sep)
	for i, p := range parts {
		parts[i] = inner(strings.TrimSpace(p))
	}
	if len(parts) > 1 {
		sort.Strings(parts)
	}
	return strings.Join(parts, sep)
}

// sortInsideBrackets sorts the members inside each top-level bracketed
// part of s: "Array<B | A>" → "Array<A | B>".
func sortInsideBrackets(s string, depth int) string {
	var b strings.Builder
	nest, open := 0, 0
	for i := 0; i < len(s); i++ {
		switch bracketAt(s, i) {
		case 1:
			if nest == 0 {
				b.WriteString(s[open : i+1])
				open = i + 1
			}
			nest++
		case -1:
			nest--
			if nest == 0 {
				b.WriteString(sortMembers(s[open:i], depth+1))
				open = i
			}
		}
	}
	b.WriteString(s[open:])
	return b.String()
}

// splitTopLevel splits s at sep outside brackets.
func splitTopLevel(s, sep string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch bracketAt(s, i) {
		case 1:
			depth++
		case -1:
			depth--
		default:
			if depth == 0 && strings.HasPrefix(s[i:], sep) {
				parts = append(parts, s[start:i])
				start = i + len(sep)
				i += len(sep) - 1
			}
		}
	}
	return append(parts, s[start:])
}

// bracketAt is 1 for an opening bracket at s[i], -1 for a closing one, 0
// otherwise; the ">" of an arrow ("=>") is no bracket.
func bracketAt(s string, i int) int {
	switch s[i] {
	case '(', '[', '{', '<':
		return 1
	case ')', ']', '}':
		return -1
	case '>':
		if i > 0 && s[i-1] == '=' {
			return 0
		}
		return -1
	}
	return 0
}

// balancedBrackets: every closing bracket closes an open one and none is
// left open (the kinds are not told apart: only the nesting matters).
func balancedBrackets(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		depth += bracketAt(s, i)
		if depth < 0 {
			return false
		}
	}
	return depth == 0
}

// withoutAppendedNotes is msg up to the first of the notes clangd appends
// to a message when the client takes no relatedInformation (lspseam
// declares it, but a server may not heed it): each is a paragraph of its
// own, "\n\n" then a compiler location and level, as in
// "\n\n/abs/tests/../a.h:1:5:\nnote: 'f' declared here" or "\n\na.c:2:22:
// error: …" (the main problem, in a note's own diagnostic). When a
// prototype's definition changes to match it, the note of every call's
// unchanged error moves from the prototype to the definition: compared
// with its notes, each call was "introduced" and "resolved" at once.
// Paragraphs that do not start so stay part of the message.
func withoutAppendedNotes(msg string) string {
	for i := 0; ; {
		j := strings.Index(msg[i:], "\n\n")
		if j < 0 {
			return msg
		}
		j += i
		if isCompilerNoteHead(msg[j+2:]) {
			return msg[:j]
		}
		i = j + 2
	}
}

// isCompilerNoteHead says whether s starts "PATH:LINE:COL:" then a space
// or a line break, then a level ("note", "error", "warning", "remark",
// "fatal error") and ": " — clang's printed diagnostic head.
func isCompilerNoteHead(s string) bool {
	end := strings.IndexAny(s, " \n")
	if end < 0 {
		return false
	}
	loc := s[:end]
	if !strings.HasSuffix(loc, ":") {
		return false
	}
	// PATH:LINE:COL: — the last two fields numeric, the path not empty.
	fields := strings.Split(loc[:len(loc)-1], ":")
	if len(fields) < 3 || fields[0] == "" && len(fields) == 3 {
		return false
	}
	for _, f := range fields[len(fields)-2:] {
		if f == "" || strings.Trim(f, "0123456789") != "" {
			return false
		}
	}
	rest := s[end+1:]
	for _, level := range []string{"note: ", "error: ", "warning: ", "remark: ", "fatal error: "} {
		if strings.HasPrefix(rest, level) {
			return true
		}
	}
	return false
}
