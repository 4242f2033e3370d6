package core

// Whether a change of a C-family file may declare a name anew
// (CChangeMayDeclare), for the Toolbox's cross-file impact. A header, or a
// source file another unit #includes (cJSON's tests/common.h does
// `#include "../cJSON.c"`), is compiled into every unit that includes it:
// a function, variable, type or macro it declares anew may collide with
// one of an includer's own (`redefinition of 'assert_print_number'` in
// tests/print_number.c), and no reference leads there — the name was not
// declared before the change, so "asked before the change" found nothing
// and the answer said "none refer to what changed" while the build broke.
// The includers are the dependents of such a change, whatever names they
// use; this says when to check them.
//
// Lexical and over-approximate, never missing a new name: a hunk of the
// change (ChangedSpans' runs) may declare when it writes a word (an
// identifier or keyword outside comments, strings and character literals)
// that the lines it replaced did not hold, or when it adds or removes a
// preprocessor line (a #define, an #include that brings declarations, an
// #if or #endif whose removal uncovers code). A pure deletion of other
// lines declares nothing; nor does a change of comments, of string
// literals, or one that rearranges the words already there (punctuation,
// numbers). A new parameter's name counts too: the cost is a check of the
// includers that was not needed, not a missed collision.

// CChangeMayDeclare returns the spans of before's lines (as ChangedSpans
// gives them: an insertion is the empty span at its line) whose change
// may declare a name anew (see above), in order; none when no hunk may.
func CChangeMayDeclare(before, after []string) []ChangedSpan {
	var out []ChangedSpan
	for _, h := range lineHunks(before, after) {
		if len(h.After) > 0 && cHunkMayDeclare(h) || cHasDirective(h.Before) {
			out = append(out, ChangedSpan{h.First, h.First + len(h.Before)})
		}
	}
	return out
}

// CNewWords lists the words the change of the file at path writes that
// the lines each hunk replaced did not hold (see above), once each, in
// after's order, without the language's keywords and the preprocessor's
// directive names: the names it may declare anew among them. The host
// checks first the includers that spell one, where a collision is
// likeliest.
func CNewWords(path string, before, after []string) []string {
	var out []string
	seen := map[string]bool{}
	for w := range keywordsFor(path) {
		seen[w] = true
	}
	for _, w := range []string{"define", "defined", "include", "include_next", "import", "ifdef", "ifndef", "elif", "endif", "undef", "pragma", "error", "warning", "line"} {
		seen[w] = true
	}
	for _, h := range lineHunks(before, after) {
		for _, w := range cHunkNewWords(h) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// cHunkMayDeclare reports whether h's new lines hold a word its old lines
// do not, or a preprocessor line.
func cHunkMayDeclare(h LineHunk) bool {
	return cHasDirective(h.After) || len(cHunkNewWords(h)) > 0
}

// cHunkNewWords lists the words of h's new lines its old lines do not
// hold.
func cHunkNewWords(h LineHunk) []string {
	had := map[string]bool{}
	for _, w := range cWords(h.Before) {
		had[w] = true
	}
	var out []string
	for _, w := range cWords(h.After) {
		if !had[w] {
			had[w] = true
			out = append(out, w)
		}
	}
	return out
}

// cHasDirective reports whether one of lines is a preprocessor line.
func cHasDirective(lines []string) bool {
	for _, l := range lines {
		if _, ok := cDirective(l); ok {
			return true
		}
	}
	return false
}

// cWords lists the words of lines outside comments, strings and character
// literals (numbers are not words). A line the lexer cannot read (a
// literal that does not end on it) is taken word by word as it is: more
// words, never fewer.
func cWords(lines []string) []string {
	var out []string
	lx := braceLexer{syn: &cSyntax}
	for _, line := range lines {
		for i := 0; i < len(line); {
			in := lx.inBlock || lx.inRaw
			_, next, bad := lx.next(line, i)
			if bad {
				lx = braceLexer{syn: &cSyntax}
				out = append(out, cRawWords(line[i:])...)
				break
			}
			if !in && cSyntax.wordByte(line[i]) && !(line[i] >= '0' && line[i] <= '9') && next > i {
				w := line[i:next]
				for k := 0; k < len(w); k++ {
					if !cSyntax.wordByte(w[k]) {
						w = w[:k] // a raw string's prefix read with its string
						break
					}
				}
				out = append(out, w)
			}
			if next <= i {
				next = i + 1
			}
			i = next
		}
	}
	return out
}

// cRawWords splits s into its runs of word bytes that do not start with a
// digit.
func cRawWords(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !cSyntax.wordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && cSyntax.wordByte(s[j]) {
			j++
		}
		if !(s[i] >= '0' && s[i] <= '9') {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}
