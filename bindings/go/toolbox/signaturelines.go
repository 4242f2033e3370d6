package toolbox

import "strings"

// The lines of a declaration's signature: a parameter added on its own
// line of a signature written over several (httpx's `async def send(`,
// then `self,`, `request: Request,`, `*,`, …) changes the declaration
// as much as a change of its name's line, and its references are asked
// first, within the call's budget (impact.go, namedBudget). A tester's
// `trace: bool` added there answered "not asked (out of time)" while
// pyright was still checking the 2,000-line file.

// signatureLastLine works in any language by brackets alone, to the
// line; typeusers.go's signatureEnd finds a TypeScript signature's end
// to the column (its body's `{` or `=>`), to tell a reference in it.

// maxSignatureLines bounds the lines a signature is followed over.
const maxSignatureLines = 64

// opensParameters says whether rest, a line's text after a declaration's
// name, opens its parameter list: `(`, after spaces and type parameters
// (`<T>`, `[T any]`). `var width = len(` opens a call in its value, not
// a signature: a change of its second line is the value's.
func opensParameters(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if rest != "" && (rest[0] == '<' || rest[0] == '[') {
		open, depth := rest[0], 0
		close := map[byte]byte{'<': '>', '[': ']'}[open]
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case open:
				depth++
			case close:
				depth--
			}
			if depth == 0 {
				rest = strings.TrimLeft(rest[i+1:], " \t")
				break
			}
		}
	}
	return strings.HasPrefix(rest, "(")
}

// signatureLastLine is the last line (zero-based) of the signature starting
// at line name of lines: the line where the brackets opened from there
// close, name itself when none stays open at its end. Brackets inside
// quotes ('…', "…", `…`) do not count; a string spanning lines is not
// followed.
func signatureLastLine(lines []string, name int) int {
	if name < 0 || name >= len(lines) {
		return name
	}
	depth := 0
	for i := name; i < len(lines) && i < name+maxSignatureLines; i++ {
		var quote byte
		l := lines[i]
		for k := 0; k < len(l); k++ {
			c := l[k]
			switch {
			case quote != 0:
				if c == '\\' {
					k++
				} else if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"' || c == '`':
				quote = c
			case c == '#' && depth >= 0 && (k == 0 || l[k-1] == ' ' || l[k-1] == '\t'):
				k = len(l) // a Python or shell comment
			case c == '(' || c == '[':
				depth++
			case c == ')' || c == ']':
				depth--
			}
		}
		if depth <= 0 {
			return i
		}
	}
	return name
}
