package core

// LSP request construction for the four operations.

// Method is the LSP method behind each operation.
var Method = map[Operation]string{
	OpDefinition:     "textDocument/definition",
	OpReferences:     "textDocument/references",
	OpImplementation: "textDocument/implementation",
	OpHover:          "textDocument/hover",
}

// RequestValue is an LSP request ready to send.
type RequestValue struct {
	Method   string
	URI      string
	Position Position
	// IncludeDeclaration is set for references: lspseam always asks for the
	// declaration too, so impact analysis never misses the defining site.
	IncludeDeclaration bool
}

func (r RequestValue) appendJSON(b []byte) []byte {
	b = append(b, `{"method":`...)
	b = appendString(b, r.Method)
	b = append(b, `,"params":{"textDocument":{"uri":`...)
	b = appendString(b, r.URI)
	b = append(b, `},"position":`...)
	b = r.Position.appendJSON(b)
	if r.IncludeDeclaration {
		b = append(b, `,"context":{"includeDeclaration":true}`...)
	}
	return append(b, "}}"...)
}

// Request builds the LSP request for an operation on a document position.
func Request(op Operation, uri string, pos Position) (RequestValue, *Error) {
	if !op.valid() {
		return RequestValue{}, Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %q", clip(string(op), 40))
	}
	if uri == "" {
		return RequestValue{}, Errorf(CodeInvalidArgument, "uri must be the document's non-empty URI")
	}
	if pos.Line > maxUint31 || pos.Character > maxUint31 {
		return RequestValue{}, Errorf(CodeInvalidArgument, "position components must be at most %d", maxUint31)
	}
	return RequestValue{Method: Method[op], URI: uri, Position: pos, IncludeDeclaration: op == OpReferences}, nil
}
