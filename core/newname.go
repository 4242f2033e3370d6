package core

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Whether a rename's newName can name a symbol in its language
// (NewNameProblem). Servers rename to whatever they are given: pyright
// previewed `def class(x: int)` and `from .helpers import two words` as a
// normal change, and only the diagnostics of the preview hinted that
// every renamed line was now a syntax error. So code_rename refuses a
// newName that is not an identifier of the target file's language, or is
// one of its keywords, before asking the server.
//
// The rules are data per language, for the languages lspseam is tested
// on; a file of another language (CSS, Rust, …) gets no refusal. They
// refuse only what the language never accepts as a declared name:
//
//   - Go: its 25 keywords; the predeclared names (string, len, nil) can be
//     shadowed and are allowed.
//   - Python: its hard keywords; the soft ones (match, case, type, _) are
//     names.
//   - TypeScript and JavaScript: the reserved words that are reserved in
//     every context, and only for a symbol that is not a member: a
//     method, property or enum member may be called delete or default
//     (Map.prototype.delete). A private name keeps its '#' (#retry). The
//     words reserved in strict code only (let, yield, await, interface)
//     are not refused.
//   - C: C11's keywords (a .h file is taken as C: C++'s class is a name in
//     C); C++: the keywords of C++20, not the contextual override and
//     final.

// identLanguage is a language's identifier rules and keywords.
type identLanguage struct {
	name     string
	keywords []string
	// start and part say which characters may start and continue a name.
	start, part func(r rune) bool
	// statementWords are not reserved, but a line whose code starts with
	// one almost always uses it as a keyword there (TypeScript's declare
	// and await, C's preprocessor directives and, in a header that may be
	// C++, C++'s class): a target by line alone skips them as it skips the
	// keywords (keywords.go). A word that is also a common name (get, set,
	// of, Python's match, C's error) is not one.
	statementWords []string
	// memberKeywords: a member (method, property, field, enum member)
	// may have a keyword's name.
	memberKeywords bool
	hashPrefix     bool // a private name, #x
}

func letterOr(extra string) func(r rune) bool {
	return func(r rune) bool { return unicode.IsLetter(r) || strings.ContainsRune(extra, r) }
}

func letterDigitOr(extra string) func(r rune) bool {
	return func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(extra, r)
	}
}

// pythonPart: letters, digits, '_', and the combining marks and connector
// punctuation PEP 3131 allows after the first character.
func pythonPart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc, unicode.Nl)
}

// jsPart: ECMAScript's IdentifierPart: letters, digits, '$', '_', marks,
// connector punctuation, ZWNJ and ZWJ.
func jsPart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '$' || r == '_' || r == '\u200c' || r == '\u200d' ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc, unicode.Nl)
}

var cKeywords = []string{"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "return", "short", "signed", "sizeof",
	"static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while"}

var jsLanguage = identLanguage{
	keywords: []string{"break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
		"else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
		"new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with"},
	statementWords: []string{"abstract", "async", "await", "declare", "implements", "interface", "keyof", "let", "namespace",
		"override", "private", "protected", "public", "readonly", "satisfies", "static", "type", "yield"},
	start: letterOr("$_"), part: jsPart, memberKeywords: true, hashPrefix: true,
}

// cPreprocessor are the directives (and defined) a C or C++ line starts
// with after its '#'.
var cPreprocessor = []string{"define", "defined", "elif", "endif", "ifdef", "ifndef", "include", "pragma", "undef"}

// identLanguages are the rules by SourceLanguage's names.
var identLanguages = map[string]identLanguage{
	"Go": {
		keywords: []string{"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
			"func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
			"switch", "type", "var"},
		start: letterOr("_"), part: letterDigitOr("_"),
	},
	"Python": {
		keywords: []string{"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
			"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
			"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"},
		start: func(r rune) bool { return unicode.IsLetter(r) || r == '_' || unicode.Is(unicode.Nl, r) }, part: pythonPart,
	},
	"TypeScript": jsLanguage,
	"JavaScript": jsLanguage,
	"C": {
		keywords: append(append([]string{}, cKeywords...), "restrict", "_Alignas", "_Alignof", "_Atomic", "_Bool",
			"_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local"),
		statementWords: append(append([]string{}, cPreprocessor...), "alignas", "alignof", "bool", "catch", "class",
			"constexpr", "delete", "explicit", "false", "friend", "mutable", "namespace", "new", "noexcept", "nullptr",
			"operator", "private", "protected", "public", "static_assert", "template", "this", "throw", "true", "try",
			"typename", "using", "virtual"),
		start: letterOr("_$"), part: letterDigitOr("_$"),
	},
	"C++": {
		keywords: append(append([]string{}, cKeywords...), "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor",
			"bool", "catch", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const_cast", "consteval",
			"constexpr", "constinit", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
			"explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
			"nullptr", "operator", "or", "or_eq", "private", "protected", "public", "reinterpret_cast", "requires",
			"static_assert", "static_cast", "template", "this", "thread_local", "throw", "true", "try", "typeid",
			"typename", "using", "virtual", "wchar_t", "xor", "xor_eq"),
		statementWords: cPreprocessor,
		start:          letterOr("_$"), part: letterDigitOr("_$"),
	},
}

// memberKinds are the symbol kinds that name a member, whose names may be
// keywords in TypeScript and JavaScript.
var memberKinds = map[string]bool{"method": true, "property": true, "field": true, "enumMember": true}

// NewNameProblem says why name cannot be the new name of a symbol of kind
// kind ("" when unknown) declared in the file at filePath, or "" when it
// can or the file's language has no rules here.
func NewNameProblem(filePath, name, kind string) string {
	langName := SourceLanguage(path.Ext(filePath))
	lang, ok := identLanguages[langName]
	if !ok {
		return ""
	}
	quoted := quoteCode(clip(name, maxQuotedLine))
	ident := name
	if lang.hashPrefix {
		ident = strings.TrimPrefix(ident, "#")
	}
	invalid := func(why string) string {
		return "newName " + quoted + " is not a valid " + langName + " identifier (" + why + "); give one name, as the code would spell it"
	}
	for i, r := range ident {
		switch {
		case i == 0 && !lang.start(r) && lang.part(r):
			return invalid("it starts with " + quoteCode(string(r)))
		case r == utf8.RuneError || (i == 0 && !lang.start(r)) || (i > 0 && !lang.part(r)):
			what := quoteCode(string(r))
			if unicode.IsSpace(r) {
				what = "a space"
			}
			return invalid("it has " + what + " at character " + strconv.Itoa(utf8.RuneCountInString(name[:len(name)-len(ident)+i])+1))
		}
	}
	if ident == "" {
		return invalid("it is empty")
	}
	if lang.memberKeywords && (kind == "" || memberKinds[kind]) {
		return "" // a member may be named by a keyword; an unknown kind may be one
	}
	for _, k := range lang.keywords {
		if name == k {
			return "newName " + quoted + " is a keyword in " + langName + ", so no declaration can have it; choose another name"
		}
	}
	return ""
}
