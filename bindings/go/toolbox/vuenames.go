package toolbox

import "strings"

// Spellings of the names of Vue components and events: Vue matches a
// PascalCase or camelCase name to its kebab-case form in templates
// (`<ScreenFull>`, `<screen-full>`; `toggleClick`, `@toggle-click`).

// identifierIn reports whether text spells word as a whole identifier.
func identifierIn(text, word string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], word)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(word)
		if (at == 0 || !isIdentByte(text[at-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return true
		}
		i = at + 1
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// kebabCase is a camelCase or PascalCase name in kebab-case (toggleClick:
// toggle-click, ScreenFull: screen-full), as Vue hyphenates it.
func kebabCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 && s[i-1] != '-' && s[i-1] != ':' {
				b.WriteByte('-')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// camelCase is a kebab-case name in camelCase (toggle-click: toggleClick).
func camelCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z' {
			b.WriteByte(s[i+1] - ('a' - 'A'))
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
