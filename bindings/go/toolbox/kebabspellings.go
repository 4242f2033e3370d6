package toolbox

import (
	"strings"
	"unicode"
)

// A name spelled in kebab case.
//
// Vue templates spell a prop `isActive` as the attribute `:is-active=`
// and a component `ScreenFull` as the tag `<screen-full>`; the Vue
// plugin lists those as uses of the name and its rename rewrites them.
// The check of the uses a rename leaves (renamecheck.go) took a listed
// use on a line that does not spell the name for one through a C macro's
// expansion and said so (findings s27 #5). A line that spells the kebab
// form is a spelling of the name: renamed when the rename rewrote it
// there, a use left when it did not.

// kebabName is name in kebab case (`is-active` of isActive and of
// IsActive), "" when it has no second word (its kebab form is no other
// spelling of it).
func kebabName(name string) string {
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	if k := kebabCase(name); strings.Contains(k, "-") {
		return k
	}
	return ""
}

// kebabSpellings counts the kebab spellings of name on line: kebabName's
// text as a whole word of letters, digits, `_` and `-`.
func kebabSpellings(line, name string) int {
	k := kebabName(name)
	if k == "" {
		return 0
	}
	word := func(b byte) bool {
		return b == '-' || b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
	}
	n := 0
	for i := 0; ; {
		j := strings.Index(line[i:], k)
		if j < 0 {
			return n
		}
		at, end := i+j, i+j+len(k)
		if (at == 0 || !word(line[at-1])) && (end == len(line) || !word(line[end])) {
			n++
		}
		i = end
	}
}
