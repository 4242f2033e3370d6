package core

import (
	"path"
	"strings"
)

// Whether a change of a C, C++ or Objective-C source file stays inside
// one function's body (CChangeInsideBody), the C family's counterpart of
// GoChangeInsideBody (gobody.go). A C compiler reads one translation unit:
// the source file and what it #includes. What another file compiles
// against is a header's declarations, never a source file's function
// body, so a change between a function's braces in a source file cannot
// change another file's compile errors — unless a file #includes that
// source file, which the host checks (cincluders.go) before it relies on
// this. A header is never proven: its inline and static functions, its
// macros and templates are compiled into every file that includes it.
//
// The proof is lexical, as for Go, over the function's lines from the
// line of its name to the line of its closing brace, before and after
// the change:
//
//   - the body's opening brace is the first "{" outside parentheses and
//     brackets after the name, on a line before the change's first line
//     (a constructor's member initializer `a{1}` comes first, and its
//     "}" not ending the function makes the proof fail: never wrong,
//     only unproven);
//   - before the change its matching "}" is the last token of the
//     function's last line, and the changed lines lie between the two
//     braces' lines; after the change the same "{" matches a "}" that is
//     the last token of the line the last line moved to.
//
// Comments, strings, character literals, C++ raw strings and numbers
// (with their digit separators) are skipped as the C and C++ lexers do.
// Not proven: a preprocessor line in the change (a #define inside a body
// lives on past it, an #include brings declarations) and a conditional
// one (#if, #ifdef, #else, …) anywhere in the function, whose branches
// may hold unbalanced braces; a line ending in a backslash outside a
// directive (it continues a // comment or a string); digraphs and
// trigraphs for braces; a text that does not lex. Other directives the
// function holds unchanged (#pragma, #undef, a #define) are skipped
// whole, with their continuation lines.

// cSourceExtensions are the C family's source files (lower-cased
// extensions). Headers (.h, .hh, .hpp, .hxx, .inl, .inc, .ipp, .tcc and
// extensionless ones) are not among them.
var cSourceExtensions = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".m": true, ".mm": true}

// CSourceFile reports whether path names a C, C++ or Objective-C source
// file (not a header).
func CSourceFile(p string) bool {
	return cSourceExtensions[strings.ToLower(path.Ext(p))]
}

// CFamilyFile reports whether path names a file clangd serves: a C, C++
// or Objective-C source file or header (any case).
func CFamilyFile(p string) bool { return isCFamilyPath(p) }

// CChangeInsideBody reports whether the change from before to after of
// the C-family source file at path (lines split as SplitLines does) stays
// inside the body of the function whose definition spans before's lines
// [nameLine, endLine] (zero-based: the line of its name and of its
// closing brace). Always false for a header.
func CChangeInsideBody(p string, before, after []string, nameLine, endLine int) bool {
	if !CSourceFile(p) || nameLine < 0 || endLine < nameLine || endLine >= len(before) {
		return false
	}
	from, beforeEnd, afterEnd := changedLineRange(before, after)
	if from == beforeEnd && from == afterEnd {
		return false // no change
	}
	if from <= nameLine || beforeEnd > endLine || from > endLine {
		return false
	}
	open, ok := matchBodyBraces(&cSyntax, before, nameLine, endLine, from, beforeEnd)
	if !ok || from <= open {
		return false
	}
	moved := endLine + (afterEnd - beforeEnd)
	if moved < from || moved >= len(after) {
		return false
	}
	openAfter, ok := matchBodyBraces(&cSyntax, after, nameLine, moved, from, afterEnd)
	return ok && openAfter == open
}

// cSyntax is the C family's lexical forms for the brace matcher
// (bracematch.go): C++ raw strings and digit separators, $ in
// identifiers, the preprocessor, digraphs and trigraphs.
var cSyntax = braceSyntax{prefixedRaw: true, ppNumbers: true, dollarInWords: true, preprocessor: true, digraphs: true}
