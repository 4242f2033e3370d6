package localstdio

import (
	"errors"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// codeOf is err's seam code, or "".
func codeOf(err error) lspseam.Code {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) {
		return lerr.Code
	}
	return ""
}
