package localstdio

import (
	"errors"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// explainNoIdentifier turns a server's error for a position with no
// identifier into the advice hover gives there. Asked for the references
// or definition of whitespace, a string or an emoji, a server answers with
// an error of its own (gopls: "no identifier found"), where for hover it
// answers null and the answer names the position, quotes the line and
// says to check the cursor; the caller should read the same thing either
// way. subject is the core's subject line for the position: "No identifier
// at line L, column C: `…`" (one-based) when the core found no identifier
// there. The message speaks the caller's terms. Other errors pass
// unchanged, and the code stays LSP_SERVER_ERROR: the server did refuse.
func explainNoIdentifier(err error, subject string, pos lspseam.Position, terms lspseam.PositionTerms) error {
	var lerr *lspseam.Error
	const prefix = "No identifier at "
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeServerError || !strings.HasPrefix(subject, prefix) {
		return err
	}
	where, quoted, ok := strings.Cut(strings.TrimPrefix(subject, prefix), ": ")
	if !ok {
		return err
	}
	convention := "line and column are one-based, and column counts UTF-16 code units (an emoji counts as 2)"
	if terms != lspseam.OneBasedTerms {
		where = "line " + strconv.FormatUint(uint64(pos.Line), 10) + ", character " + strconv.FormatUint(uint64(pos.Character), 10)
		convention = "line and character are zero-based, as sent, and character counts UTF-16 code units (an emoji counts as 2)"
	}
	return lspseam.Errorf(lerr.Code, "No identifier at %s: %s; the server has nothing to answer for there (%s). Check the cursor: put it on a name; %s", where, quoted, lerr.Message, convention)
}
