package core

import "github.com/tidwall/gjson"

// Stub: replaced by planWorkspaceEdit (issue 13).

func planWorkspaceEditCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "planWorkspaceEdit is not built yet")
}
