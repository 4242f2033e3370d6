package core

import "github.com/tidwall/gjson"

// Stub: replaced by the code_symbols translator.

func codeSymbolsCall(in gjson.Result) (jsonAppender, *Error) {
	return nil, Errorf(CodeInternal, "codeSymbols is not built yet")
}
