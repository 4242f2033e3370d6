package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Diagnostics asked of a server's own checker through a command.
//
// typescript-language-server pushes diagnostics without a version, from
// tsserver's asynchronous check (geterr), which it starts 300–800 ms after
// a change and which tsserver abandons when the text changes again: after
// a didChange it still publishes what the previous text's check had left
// (seen on a first edit of zod's util.ts as "no problems" 0.02–0.5 s after
// the change, the real errors ~0.75 s later), and it publishes nothing
// when a file's diagnostics stay empty. No push report can be told to be
// on the current text. Its typescript.tsserverRequest command passes a
// request to tsserver, which answers requests in order, after the changes
// sent before: the synchronous syntactic, semantic and suggestion requests
// answer on exactly the text the server holds, like a pull — the three
// passes its geterr pushes. Readiness.DiagnosticsCommand names the
// command when the server offers it.

// TSServerRequestCommand is typescript-language-server's command that
// passes a request to tsserver and answers with tsserver's response.
const TSServerRequestCommand = "typescript.tsserverRequest"

// tsserverDiagnosticPasses are the requests whose answers make up what
// typescript-language-server publishes for a file, in its order.
var tsserverDiagnosticPasses = []string{"syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"}

// CommandDiagnosticsRequests are the requests that ask the server for
// uri's diagnostics through command.
func CommandDiagnosticsRequests(command, uri string) ([]CodeRequestValue, *Error) {
	if command != TSServerRequestCommand {
		return nil, Errorf(CodeInvalidArgument, "command must be a diagnostics command this module knows (%s), got %q", TSServerRequestCommand, clip(command, 80))
	}
	if _, ok := WorkspacePath(uri); !ok {
		return nil, Errorf(CodeInvalidArgument, "uri must be a file: URI, got %q", clip(uri, 200))
	}
	out := make([]CodeRequestValue, 0, len(tsserverDiagnosticPasses))
	for _, pass := range tsserverDiagnosticPasses {
		b := append([]byte(`{"command":`), appendString(nil, command)...)
		b = append(b, `,"arguments":[`...)
		b = appendString(b, pass)
		b = append(b, `,{"file":`...)
		b = appendString(b, uri)
		b = append(b, `}]}`...)
		out = append(out, CodeRequestValue{Method: "workspace/executeCommand", Params: RawJSON(b)})
	}
	return out, nil
}

// DiagnosticList is an LSP Diagnostic[].
type DiagnosticList struct{ Diagnostics RawJSON }

func (d DiagnosticList) appendJSON(b []byte) []byte {
	b = append(b, `{"diagnostics":`...)
	b = d.Diagnostics.appendJSON(b)
	return append(b, '}')
}

// CommandDiagnostics turns the answers to CommandDiagnosticsRequests (in
// their order) into the LSP Diagnostic[] the server would publish:
// typescript-language-server's conversion (toDiagnostic), without tags, as
// the client advertises no tag support.
func CommandDiagnostics(command string, answers []gjson.Result) (DiagnosticList, *Error) {
	if command != TSServerRequestCommand {
		return DiagnosticList{}, Errorf(CodeInvalidArgument, "command must be a diagnostics command this module knows (%s), got %q", TSServerRequestCommand, clip(command, 80))
	}
	if len(answers) != len(tsserverDiagnosticPasses) {
		return DiagnosticList{}, Errorf(CodeInvalidArgument, "answers must be the %d answers to the requests commandDiagnosticsRequests gave, got %d", len(tsserverDiagnosticPasses), len(answers))
	}
	b := []byte{'['}
	for i, a := range answers {
		pass := tsserverDiagnosticPasses[i]
		malformed := func(why string) *Error {
			return Errorf(CodeMalformedResponse, "the language server answered %s %s with %s", command, pass, why)
		}
		if !a.IsObject() {
			return DiagnosticList{}, malformed("something that is not a tsserver response: " + describe(a))
		}
		if get(a, "success").Type != gjson.True {
			msg := get(a, "message").String()
			if msg == "" {
				msg = "no message"
			}
			return DiagnosticList{}, Errorf(CodeServerError, "tsserver failed %s: %s", pass, clip(msg, 300))
		}
		body := get(a, "body")
		if !body.IsArray() {
			return DiagnosticList{}, malformed("a body that is not an array of diagnostics: " + describe(body))
		}
		var problem string
		body.ForEach(func(_, d gjson.Result) bool {
			if len(b) > 1 {
				b = append(b, ',')
			}
			b, problem = appendTSServerDiagnostic(b, d)
			return problem == ""
		})
		if problem != "" {
			return DiagnosticList{}, malformed(problem)
		}
	}
	return DiagnosticList{Diagnostics: RawJSON(append(b, ']'))}, nil
}

// appendTSServerDiagnostic appends one tsserver diagnostic (one-based
// line and offset, a category) as an LSP Diagnostic.
func appendTSServerDiagnostic(b []byte, d gjson.Result) ([]byte, string) {
	if !d.IsObject() {
		return b, "a diagnostic that is not an object: " + describe(d)
	}
	start, ok1 := tsserverPosition(get(d, "start"))
	end, ok2 := tsserverPosition(get(d, "end"))
	text := get(d, "text")
	if !ok1 || !ok2 || text.Type != gjson.String {
		return b, "a diagnostic without a one-based start, end and text: " + clip(d.Raw, 200)
	}
	b = append(b, `{"range":`...)
	b = Range{Start: start, End: end}.appendJSON(b)
	b = append(b, `,"message":`...)
	b = appendString(b, text.Str)
	b = append(b, `,"severity":`...)
	b = strconv.AppendInt(b, tsserverSeverity(get(d, "category").Str), 10)
	if code := get(d, "code"); code.Type == gjson.Number || code.Type == gjson.String {
		b = append(b, `,"code":`...)
		b = appendCompact(b, code)
	}
	source := "typescript"
	if s := get(d, "source"); s.Type == gjson.String && s.Str != "" {
		source = s.Str
	}
	b = append(b, `,"source":`...)
	b = appendString(b, source)
	if rel := get(d, "relatedInformation"); rel.IsArray() {
		b = append(b, `,"relatedInformation":[`...)
		n := 0
		rel.ForEach(func(_, r gjson.Result) bool {
			span := get(r, "span")
			file := get(span, "file")
			start, ok1 := tsserverPosition(get(span, "start"))
			end, ok2 := tsserverPosition(get(span, "end"))
			if file.Type != gjson.String || !ok1 || !ok2 {
				return true // as the server: information without a span is dropped
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(b, `{"location":{"uri":`...)
			b = appendString(b, tsserverFileURI(file.Str))
			b = append(b, `,"range":`...)
			b = Range{Start: start, End: end}.appendJSON(b)
			b = append(b, `},"message":`...)
			b = appendString(b, get(r, "message").String())
			b = append(b, '}')
			return true
		})
		b = append(b, ']')
	}
	return append(b, '}'), ""
}

// tsserverPosition reads tsserver's {line, offset}, both one-based.
func tsserverPosition(v gjson.Result) (Position, bool) {
	line, ok1 := integer(get(v, "line"), 1, maxUint31)
	offset, ok2 := integer(get(v, "offset"), 1, maxUint31)
	if !ok1 || !ok2 {
		return Position{}, false
	}
	return Position{Line: uint32(line - 1), Character: uint32(offset - 1)}, true
}

// tsserverSeverity is typescript-language-server's mapping of a category
// (anything unknown, "message" included, is an error).
func tsserverSeverity(category string) int64 {
	switch category {
	case "warning":
		return 2
	case "suggestion":
		return 4
	}
	return 1
}

// commandDiagnosticsRequestsCall: {command, uri} → {requests:[{method, params}]}.
func commandDiagnosticsRequestsCall(in gjson.Result) (jsonAppender, *Error) {
	command, uri := get(in, "command"), get(in, "uri")
	if command.Type != gjson.String || uri.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "command and uri must be strings (the negotiation's readiness.diagnosticsCommand and the document's URI), got %s and %s", describe(command), describe(uri))
	}
	reqs, err := CommandDiagnosticsRequests(command.Str, uri.Str)
	if err != nil {
		return nil, err
	}
	return requestList(reqs), nil
}

type requestList []CodeRequestValue

func (l requestList) appendJSON(b []byte) []byte {
	b = append(b, `{"requests":`...)
	b = appendArray(b, []CodeRequestValue(l))
	return append(b, '}')
}

// commandDiagnosticsCall: {command, answers:[result…]} → {diagnostics}.
func commandDiagnosticsCall(in gjson.Result) (jsonAppender, *Error) {
	command, answers := get(in, "command"), get(in, "answers")
	if command.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "command must be a string (the negotiation's readiness.diagnosticsCommand), got %s", describe(command))
	}
	if !answers.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "answers must be an array of the server's results, in the order of the requests, got %s", describe(answers))
	}
	return wrap(CommandDiagnostics(command.Str, answers.Array()))
}

// tsserverFileURI is the URI of a path tsserver reports: a POSIX path's
// FileURI, or on a Windows host (tsserver writes C:/work/a.ts there) the
// drive path's WindowsFileURI (a path starting with / is POSIX's: a
// UNC path tsserver writes as //server/share is read as POSIX).
func tsserverFileURI(p string) string {
	if !strings.HasPrefix(p, "/") {
		if uri, ok := WindowsFileURI(p); ok {
			return uri
		}
	}
	return FileURI(p)
}
