package core

import "github.com/tidwall/gjson"

// Stub.

func codeRequestCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "codeRequest is not built yet")
}
