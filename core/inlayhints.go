package core

import "github.com/tidwall/gjson"

// Stub: replaced by the inlay hints translator.

func inlayHintsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "inlayHints is not built yet")
}
