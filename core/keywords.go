package core

import (
	"strings"
	"unicode/utf8"
)

// A target by line alone points at the name the outline declares on the
// line (target.go), else at the line's first identifier that is not a
// keyword of the file's language: `await this.#retry(…)`, `return
// total(xs)`, `def area(self):` name what the line is about by their
// second word, and a server asked at `await` or `return` answers about
// the keyword or nothing (ky's line 970 resolved to `await`). Without one
// (a line of punctuation, or a language without a list here) it is the
// first non-blank character, as before.

// keywordSets are the reserved words by file extension; a name that is a
// keyword in some contexts only is listed when a line holding it almost
// always uses it as one (TypeScript's `type`, `declare`), and left out
// when it is a common name (`get`, `set`, `of`, Python's `match`, C's
// `error`).
var keywordSets = func() map[string]map[string]bool {
	set := func(words string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(words) {
			m[w] = true
		}
		return m
	}
	golang := set("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var")
	js := set("abstract async await break case catch class const continue debugger declare default delete do else enum export extends false finally for function if implements import in instanceof interface keyof let namespace new null override private protected public readonly return satisfies static super switch this throw true try type typeof var void while with yield")
	py := set("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield")
	c := set("alignas alignof auto bool break case catch char class const constexpr continue default define defined delete do double elif else endif enum explicit extern false float for friend goto if ifdef ifndef include inline int long mutable namespace new noexcept nullptr operator pragma private protected public register restrict return short signed sizeof static static_assert struct switch template this throw true try typedef typename undef union unsigned using virtual void volatile while")
	out := map[string]map[string]bool{".go": golang, ".py": py, ".pyi": py}
	for _, x := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		out[x] = js
	}
	for _, x := range []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".mm"} {
		out[x] = c
	}
	return out
}()

// keywordsFor is the keyword set of a path's language (nil: unknown).
func keywordsFor(path string) map[string]bool {
	i := strings.LastIndexAny(path, "/.")
	if i < 0 || path[i] != '.' {
		return nil
	}
	return keywordSets[strings.ToLower(path[i:])]
}

// firstNonKeyword is the byte offset of the first identifier on line that
// is not a keyword (a private #name counts with its '#'); false when
// there is none. A comment's words count too: a line that is only a
// comment is rarely a target, and its first word is what the line shows.
func firstNonKeyword(line, path string) (int, bool) {
	keywords := keywordsFor(path)
	if keywords == nil {
		return 0, false
	}
	hash := identRulesFor(path).hashPrefix
	for i := 0; i < len(line); {
		r, w := utf8.DecodeRuneInString(line[i:])
		if !identChar(r) {
			i += w
			continue
		}
		start := i
		for i < len(line) {
			r, w := utf8.DecodeRuneInString(line[i:])
			if !identChar(r) {
				break
			}
			i += w
		}
		word := line[start:i]
		if word[0] >= '0' && word[0] <= '9' || keywords[word] {
			continue
		}
		if hash && start > 0 && line[start-1] == '#' {
			start--
		}
		return start, true
	}
	return 0, false
}
