package core

import "github.com/tidwall/gjson"

// Stub.

func parseCodeArgsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "parseCodeArgs is not built yet")
}
