package core

import "github.com/tidwall/gjson"

// Stub: replaced by editText.

func editTextCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "editText is not built yet")
}
