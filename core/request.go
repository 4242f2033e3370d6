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
	// Subject is the first line of the answer's text, naming what is at the
	// position (see subject.go); set when the request was built with the
	// document's text. Providers copy it into the Result.
	Subject string
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
	b = append(b, '}')
	if r.Subject != "" {
		b = append(b, `,"subject":`...)
		b = appendString(b, r.Subject)
	}
	return append(b, '}')
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

// RequestInText builds the request like Request after checking the
// position against the document's text (the text the host sends in
// didOpen): a position outside the text is LSP_INVALID_ARGUMENT in the
// caller's terms (see PositionTerms), and the request carries the answer's
// Subject.
func RequestInText(op Operation, uri string, pos Position, terms PositionTerms, text string) (RequestValue, *Error) {
	return requestIn(op, uri, pos, terms, lineSource{s: text})
}

func requestIn(op Operation, uri string, pos Position, terms PositionTerms, src lineSource) (RequestValue, *Error) {
	r, err := Request(op, uri, pos)
	if err != nil {
		return RequestValue{}, err
	}
	if r.Subject, err = checkPosition(src, pos, terms, identRulesFor(uri)); err != nil {
		return RequestValue{}, err
	}
	return r, nil
}
