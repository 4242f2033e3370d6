package core

import "github.com/tidwall/gjson"

// Stub: replaced by the code_hover translator.

func codeHoverCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "codeHover is not built yet")
}
