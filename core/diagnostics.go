package core

import "github.com/tidwall/gjson"

// Stub: replaced by diagnostics.

func diagnosticsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "diagnostics is not built yet")
}
