package core

import "github.com/tidwall/gjson"

// Stub: replaced by applyTextEdits (issue 13).

func applyTextEditsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "applyTextEdits is not built yet")
}
