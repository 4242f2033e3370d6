package core

import (
	"path"
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

// keywordSets are, by SourceLanguage's names, the words a line target
// skips: the language's keywords and its statement words (newname.go's
// table, the one list of each language's keywords).
var keywordSets = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for name, lang := range identLanguages {
		m := map[string]bool{}
		for _, w := range lang.keywords {
			m[w] = true
		}
		for _, w := range lang.statementWords {
			m[w] = true
		}
		out[name] = m
	}
	return out
}()

// keywordsFor is the keyword set of a path's language (nil: unknown).
func keywordsFor(filePath string) map[string]bool {
	return keywordSets[SourceLanguage(path.Ext(filePath))]
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
