package core

import "github.com/tidwall/gjson"

// Stub: replaced by the hierarchy traversal.

func hierarchyCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "hierarchy is not built yet")
}
