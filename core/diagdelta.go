package core

import "github.com/tidwall/gjson"

// Stub: replaced by diagnosticsDelta.

func diagnosticsDeltaCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "diagnosticsDelta is not built yet")
}
