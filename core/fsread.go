package core

import "github.com/tidwall/gjson"

// Stub: replaced by readView.

func readViewCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "readView is not built yet")
}
