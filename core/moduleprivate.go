package core

import "strings"

// Which TypeScript and JavaScript declarations no other file can name.
//
// tsserver searches the files of the project it loaded for a file, and
// lspseam says so when files of the workspace lie outside that project
// or are of kinds it never reads (MDX, Svelte): their uses of the
// searched symbol may be missing. That cannot be true of a declaration
// private to an ES module: a name the module does not export cannot be
// imported, so every use of it is in its own file, which the search
// always covers. In colinhacks/zod (a root tsconfig.json and the
// package's own, as in most monorepos) code_delete of a non-exported
// function that tsserver itself reported unused (TS6133) was refused
// because "55 files outside the project may import this file"; the same
// caveat closed every references and rename answer of such a symbol.
//
// The text is scanned, not parsed, and every doubt answers "not private"
// (the caveat stays): a text the scanner cannot follow to its end with
// its brackets balanced (JSX text with a quote, a regular expression it
// took for a division), a declaration not at the file's top level (a
// namespace's member, a class's member: an instance escapes through any
// exported function's return value, and TypeScript lets element access,
// obj["name"], reach a `private` member, which is how tests call them),
// a script (no top-level import or export: its top-level names are
// global), a file that assigns CommonJS exports, a declaration file.
// The one member that is private is an ECMAScript #name: nothing outside
// its class body can spell it.

// ModulePrivate says whether the identifier at pos (zero-based, UTF-16
// columns) of text, the file at path, is the name of a declaration no
// other file can name: an ECMAScript private member (#name), or a
// top-level declaration (function, class, enum, interface, type,
// namespace, const, let, var) of an ES module (a .mts/.mjs file, or one
// with a top-level import or export) that the module does not export:
// no `export` on any declaration of that name, not in an `export { … }`
// list, not `export default NAME` nor `export = NAME`, not a shorthand
// property of an object literal (`{ NAME }`, which tsserver's references
// follow to the property's uses, as in `export default { NAME }`), in a
// file that assigns no CommonJS exports. Anything else, or a text it
// cannot follow, is false.
func ModulePrivate(path, text string, pos Position) bool {
	kind := moduleFileKind(path)
	if kind == scriptNone {
		return false
	}
	toks, ok := lexScript(text, kind == scriptJSX)
	if !ok {
		return false
	}
	off, ok := byteOffsetAt(text, pos)
	if !ok {
		return false
	}
	at := -1
	for i, t := range toks {
		if t.ident && t.start <= off && off < t.end {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	name := toks[at].text
	if strings.HasPrefix(name, "#") {
		return true
	}
	if toks[at].depth != 0 {
		return false
	}
	if exported, declared := declarationHead(toks, at); !declared || exported {
		return false
	}
	if kind != scriptModule && !hasModuleSyntax(toks) {
		return false
	}
	for k, t := range toks {
		if !t.ident {
			continue
		}
		if isCommonJSExports(toks, k) {
			return false
		}
		if t.text == name && k != at && exportsName(toks, k) {
			return false
		}
	}
	return true
}

// scriptKind is what moduleFileKind says of a path.
type scriptKind int

const (
	scriptNone   scriptKind = iota // not a TypeScript or JavaScript source
	scriptFile                     // a module only with import or export
	scriptJSX                      // the same, with JSX
	scriptModule                   // always an ES module (.mts, .mjs)
)

// moduleFileKind classifies path by its extension. A declaration file is
// none: its top-level declarations may be ambient and global.
func moduleFileKind(path string) scriptKind {
	base := strings.ToLower(path[strings.LastIndexAny(path, `/\`)+1:])
	switch {
	case strings.HasSuffix(base, ".d.ts"), strings.HasSuffix(base, ".d.mts"), strings.HasSuffix(base, ".d.cts"):
		return scriptNone
	case strings.HasSuffix(base, ".mts"), strings.HasSuffix(base, ".mjs"):
		return scriptModule
	case strings.HasSuffix(base, ".tsx"), strings.HasSuffix(base, ".jsx"):
		return scriptJSX
	case strings.HasSuffix(base, ".ts"), strings.HasSuffix(base, ".cts"), strings.HasSuffix(base, ".js"), strings.HasSuffix(base, ".cjs"):
		return scriptFile
	}
	return scriptNone
}

// isScriptDeclarationKeyword: a top-level declaration's name may follow
// word. (Switches, not maps: a package-level map is built at every start
// of the module, and the module never calls ModulePrivate.)
func isScriptDeclarationKeyword(word string) bool {
	switch word {
	case "function", "class", "enum", "interface", "type", "namespace", "module", "const", "let", "var":
		return true
	}
	return false
}

// isScriptDeclarationModifier: word may stand between `export` and a
// declaration's keyword.
func isScriptDeclarationModifier(word string) bool {
	switch word {
	case "async", "declare", "abstract", "default", "const":
		return true
	}
	return false
}

// declarationHead says whether toks[at] is the name a declaration keyword
// declares (`function NAME`, `function* NAME`, `const NAME`, …), and
// whether `export` begins that declaration.
func declarationHead(toks []scriptToken, at int) (exported, declared bool) {
	j := at - 1
	generator := j >= 0 && toks[j].text == "*"
	if generator {
		j--
	}
	if j < 0 || !toks[j].ident || !isScriptDeclarationKeyword(toks[j].text) || (generator && toks[j].text != "function") {
		return false, false
	}
	if j > 0 && toks[j-1].text == "." {
		return false, false // a property, not a keyword
	}
	// type, namespace and module are keywords only before what they
	// declare: `import type NAME from` imports.
	next := ""
	if at+1 < len(toks) {
		next = toks[at+1].text
	}
	switch toks[j].text {
	case "type":
		if next != "=" && next != "<" {
			return false, false
		}
	case "namespace", "module":
		if next != "{" && next != "." {
			return false, false
		}
	}
	for j--; j >= 0 && toks[j].ident && isScriptDeclarationModifier(toks[j].text); j-- {
	}
	return j >= 0 && toks[j].text == "export" && toks[j].ident, true
}

// hasModuleSyntax says whether a top-level import or export makes the
// file an ES module (a dynamic import() or import.meta does not count:
// a script may hold them).
func hasModuleSyntax(toks []scriptToken) bool {
	for i, t := range toks {
		if !t.ident || t.depth != 0 || (t.text != "import" && t.text != "export") {
			continue
		}
		if i > 0 && toks[i-1].text == "." {
			continue
		}
		if t.text == "import" && i+1 < len(toks) && (toks[i+1].text == "(" || toks[i+1].text == ".") {
			continue
		}
		return true
	}
	return false
}

// isCommonJSExports says whether toks[k] is `exports` as CommonJS names
// it (module.exports, or exports itself, not another object's property).
func isCommonJSExports(toks []scriptToken, k int) bool {
	if toks[k].text != "exports" {
		return false
	}
	if k+1 < len(toks) && toks[k+1].text == ":" {
		return false // an object's key ({ exports: … }), or a parameter's name
	}
	if k == 0 || toks[k-1].text != "." {
		return true
	}
	return k >= 2 && toks[k-2].text == "module"
}

// exportsName says whether the occurrence toks[k] of a name exports it,
// or lets tsserver's references leave the file from it.
func exportsName(toks []scriptToken, k int) bool {
	prev := func(n int) string {
		if k-n < 0 {
			return ""
		}
		return toks[k-n].text
	}
	next := ""
	if k+1 < len(toks) {
		next = toks[k+1].text
	}
	switch {
	case prev(1) == "default" && prev(2) == "export", // export default NAME
		prev(1) == "=" && prev(2) == "export",                        // export = NAME
		prev(1) == "=" && prev(3) == "import" && prev(4) == "export": // export import A = NAME
		return true
	}
	if exported, declared := declarationHead(toks, k); declared && exported {
		return true // another declaration of the name (an overload, a merge) is exported
	}
	open := toks[k].open
	if open < 0 || toks[open].text != "{" {
		return false
	}
	if o := open - 1; o >= 0 && (toks[o].text == "export" || (toks[o].text == "type" && o > 0 && toks[o-1].text == "export")) {
		return true // export { NAME }, export { NAME as other }, export type { NAME }
	}
	// { NAME } or { a, NAME, b }: a shorthand property.
	return (prev(1) == "{" || prev(1) == ",") && (next == "}" || next == ",")
}

// scriptToken is one token of lexScript: an identifier or keyword (ident;
// an ECMAScript private name keeps its #), a punctuation character, or a
// literal (text ""). depth is the number of brackets open around it, open
// the index of the innermost one's token (-1 at the top level).
type scriptToken struct {
	start, end int
	text       string
	ident      bool
	depth      int
	open       int
}

// regexAfterKeyword: after word, a slash starts a regular expression,
// not a division.
func regexAfterKeyword(word string) bool {
	switch word {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
		return true
	}
	return false
}

// lexScript splits TypeScript or JavaScript text into tokens, comments
// and white space left out; ok is false when the text does not end with
// every bracket, string, template, comment and regular expression closed
// (then the tokens may be wrong). jsx reads `</` as the start of a
// closing tag.
func lexScript(text string, jsx bool) (toks []scriptToken, ok bool) {
	// stack holds the open brackets' token indexes; a template's ${ is
	// the index of a "${" token.
	var stack []int
	i := 0
	if strings.HasPrefix(text, "#!") {
		i = strings.IndexByte(text, '\n')
		if i < 0 {
			return nil, true
		}
	}
	emit := func(start, end int, s string, ident bool) {
		open := -1
		if len(stack) > 0 {
			open = stack[len(stack)-1]
		}
		toks = append(toks, scriptToken{start: start, end: end, text: s, ident: ident, depth: len(stack), open: open})
	}
	// template scans a template literal's text from i (just past ` or
	// }); it returns past the closing ` (inTemplate false) or past a ${.
	template := func(i int) (int, bool, bool) {
		for i < len(text) {
			switch text[i] {
			case '\\':
				i += 2
			case '`':
				return i + 1, false, true
			case '$':
				if i+1 < len(text) && text[i+1] == '{' {
					return i + 2, true, true
				}
				i++
			default:
				i++
			}
		}
		return i, false, false
	}
	regexAllowed := func() bool {
		if len(toks) == 0 {
			return true
		}
		t := toks[len(toks)-1]
		switch {
		case t.ident:
			return regexAfterKeyword(t.text)
		case t.text == "": // a literal
			return false
		case t.text == "!" && len(toks) > 1: // TypeScript's non-null x! / y: a division
			if p := toks[len(toks)-2]; p.end == t.start && (p.ident || p.text == ")" || p.text == "]") {
				return false
			}
		}
		return t.text != ")" && t.text != "]" && t.text != "}"
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			n := strings.IndexAny(text[i:], "\r\n")
			if n < 0 {
				return toks, len(stack) == 0
			}
			i += n
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			n := strings.Index(text[i+2:], "*/")
			if n < 0 {
				return toks, false
			}
			i += n + 4
		case c == '\'' || c == '"':
			end, closed := quoted(text, i)
			if !closed {
				return toks, false
			}
			emit(i, end, "", false)
			i = end
		case c == '`':
			start := i
			end, expr, closed := template(i + 1)
			if !closed {
				return toks, false
			}
			if expr {
				emit(start, end, "${", false)
				stack = append(stack, len(toks)-1)
			} else {
				emit(start, end, "", false)
			}
			i = end
		case c == '/' && jsx && len(toks) > 0 && toks[len(toks)-1].text == "<" && toks[len(toks)-1].end == i:
			emit(i, i+1, "/", false) // </tag>
			i++
		case c == '/' && regexAllowed():
			end, closed := regexEnd(text, i)
			if !closed {
				return toks, false
			}
			emit(i, end, "", false)
			i = end
		case isScriptNameStart(c) || (c == '#' && i+1 < len(text) && isScriptNameStart(text[i+1])):
			end := i + 1
			for end < len(text) && isScriptNamePart(text[end]) {
				end++
			}
			emit(i, end, text[i:end], true)
			i = end
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9'):
			end := i + 1
			for end < len(text) && (isScriptNamePart(text[end]) || text[end] == '.') {
				end++
			}
			emit(i, end, "", false)
			i = end
		case c == '{' || c == '(' || c == '[':
			emit(i, i+1, text[i:i+1], false)
			stack = append(stack, len(toks)-1)
			i++
		case c == '}' || c == ')' || c == ']':
			if len(stack) == 0 {
				return toks, false
			}
			top := toks[stack[len(stack)-1]].text
			if top == "${" && c == '}' {
				stack = stack[:len(stack)-1]
				end, expr, closed := template(i + 1)
				if !closed {
					return toks, false
				}
				if expr {
					emit(i, end, "${", false)
					stack = append(stack, len(toks)-1)
				} else {
					emit(i, end, "", false) // the template's end: a literal
				}
				i = end
				continue
			}
			if (c == '}' && top != "{") || (c == ')' && top != "(") || (c == ']' && top != "[") {
				return toks, false
			}
			stack = stack[:len(stack)-1]
			emit(i, i+1, text[i:i+1], false)
			i++
		default:
			emit(i, i+1, text[i:i+1], false)
			i++
		}
	}
	return toks, len(stack) == 0
}

// quoted is the end of the string literal starting at text[i] (its
// quote); closed is false when a line ends or the text does before it.
func quoted(text string, i int) (end int, closed bool) {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++ // also a line continuation
		case q:
			return j + 1, true
		case '\n', '\r':
			return j, false
		}
	}
	return len(text), false
}

// regexEnd is the end of the regular expression literal starting at
// text[i] (its slash), flags included; closed is false when a line ends
// or the text does before it.
func regexEnd(text string, i int) (end int, closed bool) {
	class := false
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(text) && isScriptNamePart(text[j]) {
					j++
				}
				return j, true
			}
		case '\n', '\r':
			return j, false
		}
	}
	return len(text), false
}

func isScriptNameStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isScriptNamePart(c byte) bool {
	return isScriptNameStart(c) || c >= '0' && c <= '9'
}

// byteOffsetAt is the byte offset in text of pos (a zero-based line, as
// LSP splits lines, and a UTF-16 column within it); ok is false past the
// line's end or the text's.
func byteOffsetAt(text string, pos Position) (int, bool) {
	src := lineSource{s: text}
	start := 0
	for n := uint32(0); n < pos.Line; n++ {
		_, after := src.next(start)
		if after >= len(text) {
			return 0, false
		}
		start = after
	}
	end, _ := src.next(start)
	u := 0
	for i, r := range text[start:end] {
		if u == int(pos.Character) {
			return start + i, true
		}
		u++
		if r >= 0x10000 {
			u++
		}
	}
	return 0, false
}
