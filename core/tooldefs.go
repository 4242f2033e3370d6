package core

import "github.com/tidwall/gjson"

// Stub.

func toolDefinitionsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "toolDefinitions is not built yet")
}
