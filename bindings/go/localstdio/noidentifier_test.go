package localstdio

import (
	"errors"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A server's error for a position with no identifier (gopls' references
// inside a string) says what hover says there, in the caller's terms.
func TestExplainNoIdentifier(t *testing.T) {
	gopls := lspseam.Errorf(lspseam.CodeServerError, `language server "gopls" answered textDocument/references with error 0: no identifier found`)
	const subject = "No identifier at line 4, column 11: `\tx := \"😀\"`"
	pos := lspseam.Position{Line: 3, Character: 10}
	for _, tc := range []struct {
		name    string
		err     error
		subject string
		terms   lspseam.PositionTerms
		want    []string // "" entries: unchanged
	}{
		{"one-based (the lsp tool)", gopls, subject, lspseam.OneBasedTerms, []string{"No identifier at line 4, column 11: `\tx := \"😀\"`", "Check the cursor: put it on a name", "one-based", "no identifier found"}},
		{"zero-based (serve)", gopls, subject, lspseam.ZeroBasedTerms, []string{"No identifier at line 3, character 10: `", "zero-based, as sent", "no identifier found"}},
		{"an identifier there: unchanged", gopls, "`x` at line 4, column 2:", lspseam.OneBasedTerms, nil},
		{"another code: unchanged", lspseam.Errorf(lspseam.CodeTimeout, "late"), subject, lspseam.OneBasedTerms, nil},
		{"not a seam error: unchanged", errors.New("boom"), subject, lspseam.OneBasedTerms, nil},
	} {
		got := explainNoIdentifier(tc.err, tc.subject, pos, tc.terms)
		if tc.want == nil {
			if got != tc.err {
				t.Errorf("%s: changed to %v", tc.name, got)
			}
			continue
		}
		var lerr *lspseam.Error
		if !errors.As(got, &lerr) || lerr.Code != lspseam.CodeServerError {
			t.Fatalf("%s: got %v", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(lerr.Message, w) {
				t.Errorf("%s: message lacks %q: %s", tc.name, w, lerr.Message)
			}
		}
	}
}
