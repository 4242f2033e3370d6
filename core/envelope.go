package core

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// The JSON envelope layer: the ABI's lspseam_call, method by method.
//
// Every method takes one JSON value and answers {"ok": VALUE} or
// {"error": {"code": "LSP_…", "message": "…"}}; an error with candidates
// (resolveTarget's) adds "candidates" after the message. Call never panics: a
// recovered panic becomes LSP_INTERNAL_ERROR, so a bug cannot trap the
// module and take its host instance down.

// ABIVersion is returned by lspseam_abi_version. It changes only when a
// listed method's input or output shape changes incompatibly; adding
// methods or optional fields does not change it.
const ABIVersion = 1

// Call runs one ABI method on a JSON input and returns the envelope.
func Call(method string, input []byte) (envelope []byte) {
	defer func() {
		if p := recover(); p != nil {
			envelope = errorEnvelope(Errorf(CodeInternal, "lspseam core failed in %s: %v; this is a bug in lspseam, please report it with the input", clip(method, 40), p))
		}
	}()
	if value, err, ok := fastCall(method, inputView(input)); ok {
		return envelopeOf(value, err, len(input))
	}
	v, err := parseInput(input)
	if err != nil {
		return errorEnvelope(err)
	}
	value, err := dispatch(method, v)
	return envelopeOf(value, err, len(input))
}

// envelopeOf encodes a method's answer; inputLen sizes the buffer.
func envelopeOf(value jsonAppender, err *Error, inputLen int) []byte {
	if err != nil {
		return errorEnvelope(err)
	}
	// The answer is usually about as large as the input (a translated
	// result is its payload reshaped): sized so, the envelope is written
	// without the doublings that were most of translate's bytes. A value
	// that knows its size better (rendered text is a fraction of its
	// input) says so.
	size := 256 + inputLen
	if s, ok := value.(jsonSizer); ok {
		size = s.jsonSize() + len(`{"ok":}`)
	}
	b := make([]byte, 0, size)
	b = append(b, `{"ok":`...)
	b = value.appendJSON(b)
	return append(b, '}')
}

func errorEnvelope(err *Error) []byte {
	b := append(make([]byte, 0, 64+len(err.Message)), `{"error":{"code":`...)
	b = appendString(b, string(err.Code))
	b = append(b, `,"message":`...)
	b = appendString(b, err.Message)
	if len(err.Candidates) > 0 {
		b = append(b, `,"candidates":`...)
		b = appendArray(b, err.Candidates)
	}
	if len(err.Problems) > 0 {
		b = append(b, `,"problems":`...)
		b = appendArray(b, err.Problems)
	}
	for _, f := range [...]struct{ key, value string }{{`,"field":`, err.Field}, {`,"instead":`, err.Instead}, {`,"reason":`, err.Reason}} {
		if f.value != "" {
			b = appendString(append(b, f.key...), f.value)
		}
	}
	return append(b, "}}"...)
}

func dispatch(method string, in gjson.Result) (jsonAppender, *Error) {
	m, ok := methodByName(method)
	if !ok {
		return nil, unknownMethod(method)
	}
	if !m.AnyInput {
		if err := requireObject(in, "the "+method+" input"); err != nil {
			return nil, err
		}
	}
	return m.run(in)
}

// The methods' handlers: each decodes its input and calls the function
// that does the work. ABIMethods names them.

func parseToolArgsCall(in gjson.Result) (jsonAppender, *Error) { return wrap(ParseToolArgs(in)) }

func presentCall(in gjson.Result) (jsonAppender, *Error) { return wrap(Present(in)) }

func validateConfigCall(in gjson.Result) (jsonAppender, *Error) { return wrap(ValidateConfig(in)) }

func toolDefinitionCall(in gjson.Result) (jsonAppender, *Error) {
	return ToolDefinition(), nil
}

func normalizeProviderCall(in gjson.Result) (jsonAppender, *Error) {
	spec, err := decodeProviderSpec(in, "provider")
	if err != nil {
		return nil, err
	}
	return wrap(NormalizeProvider(spec))
}

func checkProvidersCall(in gjson.Result) (jsonAppender, *Error) {
	providers, err := decodeProviderList(get(in, "providers"))
	if err != nil {
		return nil, err
	}
	list, err := CheckProviders(providers)
	if err != nil {
		return nil, err
	}
	return ProviderList{Providers: list}, nil
}

func selectProviderCall(in gjson.Result) (jsonAppender, *Error) {
	fp := get(in, "filePath")
	if fp.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "filePath must be a string, got %s", describe(fp))
	}
	providers, err := decodeProviderList(get(in, "providers"))
	if err != nil {
		return nil, err
	}
	return wrap(SelectProvider(fp.Str, providers))
}

func initializeParamsCall(in gjson.Result) (jsonAppender, *Error) {
	ws := get(in, "workspaceUri")
	if ws.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "workspaceUri must be a string, got %s", describe(ws))
	}
	var opts RawJSON
	if o := get(in, "initializationOptions"); o.Exists() && o.Type != gjson.Null {
		opts = RawJSON(o.Raw)
	}
	return wrap(InitializeParams(ws.Str, opts))
}

func negotiateCall(in gjson.Result) (jsonAppender, *Error) {
	cmd := get(in, "serverCommand")
	if cmd.Exists() && cmd.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "serverCommand must be a string, got %s", describe(cmd))
	}
	return wrap(Negotiate(get(in, "initializeResult"), cmd.Str))
}

func checkOperationCall(in gjson.Result) (jsonAppender, *Error) {
	n, err := decodeNegotiation(get(in, "negotiation"))
	if err != nil {
		return nil, err
	}
	op, err := decodeOperation(get(in, "operation"))
	if err != nil {
		return nil, err
	}
	if err := CheckOperation(n, op); err != nil {
		return nil, err
	}
	return rawValue("{}"), nil
}

func requestCall(in gjson.Result) (jsonAppender, *Error) {
	op, err := decodeOperation(get(in, "operation"))
	if err != nil {
		return nil, err
	}
	uri := get(in, "uri")
	if uri.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "uri must be a string, got %s", describe(uri))
	}
	pos, problem := positionOf(get(in, "position"), at{"", -1}, "position", "")
	if problem != "" {
		return nil, Errorf(CodeInvalidArgument, "%s (zero-based)", problem)
	}
	terms, err := decodePositionTerms(get(in, "positionTerms"))
	if err != nil {
		return nil, err
	}
	if line := get(in, "line"); line.Exists() && line.Type != gjson.Null {
		// The host sent only the line asked about (it found the line
		// in the document; past the end it sends text, for the error).
		if line.Type != gjson.String || strings.ContainsAny(line.Str, "\r\n") {
			return nil, Errorf(CodeInvalidArgument, "line must be the text of the line at position.line, without its terminator, got %s", describe(line))
		}
		r, err := Request(op, uri.Str, pos)
		if err == nil {
			r.Subject, err = checkColumn(line.Str, pos, terms, identRulesFor(uri.Str))
		}
		return wrap(r, err)
	}
	if text := get(in, "text"); text.Exists() && text.Type != gjson.Null {
		if text.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "text must be the document's text as a string, got %s", describe(text))
		}
		// The raw literal, not text.Str: only the line asked about is
		// decoded (see lineSource).
		return wrap(requestIn(op, uri.Str, pos, terms, lineSource{s: text.Raw[1 : len(text.Raw)-1], raw: true}))
	}
	return wrap(Request(op, uri.Str, pos))
}

func translateCall(in gjson.Result) (jsonAppender, *Error) {
	op, err := decodeOperation(get(in, "operation"))
	if err != nil {
		return nil, err
	}
	return wrap(Translate(op, get(in, "result")))
}

func renderMethod(in gjson.Result) (jsonAppender, *Error) {
	// One pass over the members: a get of a field after the result
	// (encoding/json sorts workspaceUri last) would walk it again.
	f := fields(in, "result", "workspaceUri", "maxLocations", "maxResultChars")
	r, err := decodeResult(f[0])
	if err != nil {
		return nil, err
	}
	ws := f[1]
	if ws.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "workspaceUri must be a string, got %s", describe(ws))
	}
	limits, err := renderLimits(f[2], f[3])
	if err != nil {
		return nil, err
	}
	return wrap(Render(r, ws.Str, limits))
}

func serverRequestCall(in gjson.Result) (jsonAppender, *Error) {
	m := get(in, "method")
	if m.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "method must be a string, got %s", describe(m))
	}
	var conf RawJSON
	if c := get(in, "configuration"); c.Exists() && c.Type != gjson.Null {
		conf = RawJSON(c.Raw)
	}
	ws := get(in, "workspaceUri")
	return ServerRequest(m.Str, get(in, "params"), conf, ws.Str), nil
}

func fileWatchersCall(in gjson.Result) (jsonAppender, *Error) {
	m := get(in, "method")
	if m.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "method must be a string (client/registerCapability or client/unregisterCapability), got %s", describe(m))
	}
	return FileWatchers(m.Str, get(in, "params")), nil
}

func fileChangesCall(in gjson.Result) (jsonAppender, *Error) {
	fc, err := decodeFileChangesInput(in)
	if err != nil {
		return nil, err
	}
	return wrap(FileChanges(fc))
}

func unknownMethod(method string) *Error {
	return Errorf(CodeUnknownMethod, "unknown method %q; this module has: %s", clip(method, 60), strings.Join(Methods, ", "))
}

// renderLimits reads render's optional maxLocations and maxResultChars
// (absent or null: the default).
func renderLimits(maxLocations, maxResultChars gjson.Result) (Limits, *Error) {
	var limits Limits
	for _, f := range []struct {
		name string
		v    gjson.Result
		dst  *int
	}{{"maxLocations", maxLocations, &limits.MaxLocations}, {"maxResultChars", maxResultChars, &limits.MaxResultChars}} {
		v := f.v
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		n, ok := integer(v, 1, maxUint31)
		if !ok {
			return Limits{}, Errorf(CodeInvalidArgument, "%s must be a positive integer at most %d, got %s", f.name, maxUint31, describe(v))
		}
		*f.dst = int(n)
	}
	return limits, nil
}

// wrap adapts a typed function's (value, error) pair to dispatch.
func wrap[T jsonAppender](v T, err *Error) (jsonAppender, *Error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

type rawValue string

func (r rawValue) appendJSON(b []byte) []byte { return append(b, r...) }

func decodeOperation(v gjson.Result) (Operation, *Error) {
	if v.Type != gjson.String || !Operation(v.Str).valid() {
		return "", Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %s", describe(v))
	}
	return Operation(v.Str), nil
}

func decodeNegotiation(v gjson.Result) (Negotiation, *Error) {
	if !v.IsObject() {
		return Negotiation{}, Errorf(CodeInvalidArgument, "negotiation must be the object negotiate returned, got %s", describe(v))
	}
	n := Negotiation{PositionEncoding: get(v, "positionEncoding").Str, TransientOpen: get(v, "transientOpen").Type == gjson.True,
		ChangeSync: syncKind(get(v, "changeSync")), Save: get(v, "save").Type == gjson.True, Operations: map[Operation]bool{}}
	ops := get(v, "operations")
	for _, op := range Operations {
		n.Operations[op] = get(ops, string(op)).Type == gjson.True
	}
	return n, nil
}

func decodeProviderList(list gjson.Result) ([]ProviderSpec, *Error) {
	if !list.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "providers must be an array of {id, extensionToLanguage}, got %s", describe(list))
	}
	providers := []ProviderSpec{}
	var err *Error
	list.ForEach(func(_, p gjson.Result) bool {
		var spec ProviderSpec
		spec, err = decodeProviderSpec(p, fmt.Sprintf("providers[%d]", len(providers)))
		providers = append(providers, spec)
		return err == nil
	})
	return providers, err
}
