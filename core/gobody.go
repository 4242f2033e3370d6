package core

// Whether a change of a Go file stays inside one function's body
// (GoChangeInsideBody): the cross-file impact of a change (diagimpact.go)
// follows the references of the declarations it touched into the files
// that use them, and a Go function's body is not part of what any other
// file compiles against — its signature is, and no return type or
// exception is inferred from the body. So a change proven to stay inside
// a body cannot change another file's compile errors, and the host need
// not ask for the function's references and check its callers. (Analyzer
// findings built on facts about a body, a printf wrapper's callers for
// one, can still change; the delta says the other files were not
// checked, it does not call them unaffected.)
//
// The proof is lexical, over the function's text from the line of its
// name to the line of its closing brace, before and after the change:
//
//   - the body's opening brace is the first "{" outside parentheses and
//     brackets that does not open a struct or interface type, and it is
//     on a line before the change's first line;
//   - before the change, its matching "}" is the last token of the
//     function's last line, and the change's lines lie between the two
//     braces' lines;
//   - after the change, the same "{" (its line is unchanged) matches a
//     "}" that is the last token of the line the function's last line
//     moved to.
//
// The text outside the function is the same before and after, so the
// declaration's extent is the same, and whatever the change wrote is
// between the body's braces: statements, never a declaration of the
// package. Comments, interpreted and raw strings and runes are skipped as
// Go's lexer does; a text that does not lex (an unterminated string or
// comment) is not proven, and neither is anything unusual — the answer is
// only ever "proven" or "check the other files".

// GoChangeInsideBody reports whether the change from before to after (Go
// source, lines split as SplitLines does) stays inside the body of the
// function whose declaration spans before's lines [nameLine, endLine]
// (zero-based: the line of its name and of its closing brace).
func GoChangeInsideBody(before, after []string, nameLine, endLine int) bool {
	if nameLine < 0 || endLine < nameLine || endLine >= len(before) {
		return false
	}
	from, beforeEnd, afterEnd := changedLineRange(before, after)
	if from == beforeEnd && from == afterEnd {
		return false // no change
	}
	open, ok := matchBodyBraces(&goSyntax, before, nameLine, endLine, 0, 0)
	if !ok || from <= open || beforeEnd > endLine || from > endLine {
		return false
	}
	moved := endLine + (afterEnd - beforeEnd)
	if moved < from || moved >= len(after) {
		return false
	}
	openAfter, ok := matchBodyBraces(&goSyntax, after, nameLine, moved, 0, 0)
	return ok && openAfter == open
}

// goSyntax is Go's lexical forms for the brace matcher (bracematch.go):
// raw strings in backquotes, and the "{" of a struct or interface type
// (in a result type) that is not the body's.
var goSyntax = braceSyntax{backtickRaw: true, typeWords: []string{"struct", "interface"}}
