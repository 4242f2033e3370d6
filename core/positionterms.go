package core

import (
	"strconv"

	"github.com/tidwall/gjson"
)

// PositionTerms is the coordinates a caller spoke, which a position error
// restates. Every position the core checks is zero-based; what differs is
// whom the error is for. The lsp tool's model wrote one-based lines and
// columns (parseToolArgs converted them), so its errors say those numbers
// back. A seam caller (serve's lsp/query, ShimClient.query, the Go
// Service.Query, the npm core's request) sent the zero-based position
// itself: its error must quote the numbers it sent and say "zero-based",
// or a harness author who follows the error's advice shifts every
// position by one and gets answers about the next line, with no error.
type PositionTerms string

const (
	// ZeroBasedTerms (also the empty value): the position as sent.
	ZeroBasedTerms PositionTerms = "zero-based"
	// OneBasedTerms: the position the lsp tool's model wrote, one-based.
	OneBasedTerms PositionTerms = "one-based"
)

// decodePositionTerms reads an input's optional positionTerms.
func decodePositionTerms(v gjson.Result) (PositionTerms, *Error) {
	if !v.Exists() || v.Type == gjson.Null {
		return ZeroBasedTerms, nil
	}
	if v.Type == gjson.String {
		switch PositionTerms(v.Str) {
		case ZeroBasedTerms, OneBasedTerms:
			return PositionTerms(v.Str), nil
		case "":
			return ZeroBasedTerms, nil
		}
	}
	return "", Errorf(CodeInvalidArgument, "positionTerms must be \"zero-based\" (the default: the position as sent) or \"one-based\" (the position came from a model's one-based line and column, which errors restate), got %s", describe(v))
}

// oneBased reports whether errors restate positions one-based.
func (t PositionTerms) oneBased() bool { return t == OneBasedTerms }

// number is coordinate n (zero-based) as the caller wrote it.
func (t PositionTerms) number(n uint64) string {
	if t.oneBased() {
		return strconv.FormatUint(toOneBased(uint32(n)), 10)
	}
	return strconv.FormatUint(n, 10)
}

// convention ends every position error.
func (t PositionTerms) convention() string {
	if t.oneBased() {
		return "Line and character are one-based; character counts UTF-16 code units (an emoji counts as 2)."
	}
	return "Line and character are zero-based, as sent (LSP positions: the first line is 0, the first character 0); character counts UTF-16 code units (an emoji counts as 2)."
}

// lineError is the error for line (zero-based) past the end of a text of n
// lines whose last line is last.
func (t PositionTerms) lineError(line uint32, n int, last string) *Error {
	msg := "line " + t.number(uint64(line)) + " is past the end of the file, "
	switch {
	case n == 0:
		msg += "which is empty: there is nothing to ask about"
	case t.oneBased():
		msg += "which has " + strconv.Itoa(n) + " " + plural(n, "line", "lines") + "; its last line, " + strconv.Itoa(n) + ", is " + quoteLine(last)
	default:
		msg += "which has " + strconv.Itoa(n) + " " + plural(n, "line", "lines") + ", so valid lines are 0 to " + strconv.Itoa(n-1) + "; its last line, " + strconv.Itoa(n-1) + ", is " + quoteLine(last)
	}
	return &Error{Code: CodeInvalidArgument, Message: msg + ". " + t.convention()}
}

// columnError is the error for pos's character past the end of its line,
// which is width UTF-16 code units long.
func (t PositionTerms) columnError(line string, width int, pos Position) *Error {
	msg := "character " + t.number(uint64(pos.Character)) + " is past the end of line " + t.number(uint64(pos.Line))
	switch {
	case width == 0 && t.oneBased():
		msg += ", which is empty: column 1 is its only column"
	case width == 0:
		msg += ", which is empty: character 0 is its only position"
	case t.oneBased():
		msg += ", which has " + strconv.Itoa(width) + " " + plural(width, "character", "characters") + " (the last column is " +
			strconv.Itoa(width) + ", and " + strconv.Itoa(width+1) + " is just after it): " + quoteLine(line)
	default:
		msg += ", which has " + strconv.Itoa(width) + " " + plural(width, "character", "characters") + ", so valid characters are 0 to " +
			strconv.Itoa(width) + " (" + strconv.Itoa(width) + " is just after the last one): " + quoteLine(line)
	}
	return &Error{Code: CodeInvalidArgument, Message: msg + ". " + t.convention()}
}
