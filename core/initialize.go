package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The initialize handshake: what lspseam tells a server it can do
// (InitializeParams) and what it concludes from the server's answer
// (Negotiate).

// ClientName is sent as clientInfo.name.
const ClientName = "lspseam"

// Version is lspseam's version, sent as clientInfo.version.
const Version = "0.1.0"

// clientCapabilities is the capability set lspseam advertises, kept as one
// reviewed literal. It is the seed's baseline plus window.workDoneProgress,
// which lets servers report loading and indexing progress so the shim can
// tell a complete answer from one given while the project is still loading,
// and workspace.didChangeWatchedFiles, so a long-lived server can ask to
// hear about files changing on disk (see watch.go). That is the only
// capability with dynamic registration: its registrations are honoured
// (FileWatchers), with relative patterns; registrations for anything else
// are acknowledged and ignored (ServerRequest). (pyright pulls only when
// diagnostics may be registered dynamically, but then floods the client
// with workspace/diagnostic/refresh and slows down by minutes on a burst
// of new files, so lspseam takes its pushed reports, waiting longer for
// them to settle: Readiness.DiagnosticsQuietMs.) publishDiagnostics
// declares relatedInformation: without it clangd appends each note to its
// diagnostic's message ("\n\n/abs/a.h:1:5:\nnote: 'f' declared here") and
// publishes the notes in the file again as separate diagnostics, so a
// note whose target moved (prototype → definition) made every unchanged
// call error "introduced" and "resolved" in the delta; with it, the notes
// come as relatedInformation, which the problems leave out. The catalog adds what its requests need
// (coderequest.go): hierarchical document symbols, workspace symbols, type
// definition and declaration links, signature help with parameter offsets,
// call and type hierarchy, inlay hints, and diagnostics (published with
// the document version they are for, or pulled).
const clientCapabilities = `{"general":{"positionEncodings":["utf-16"]},` +
	`"workspace":{"workspaceFolders":true,"configuration":true,"symbol":{"dynamicRegistration":false},` +
	`"workspaceEdit":{"documentChanges":true,"resourceOperations":["create","rename","delete"],"failureHandling":"abort"},"fileOperations":{"willRename":true},` +
	`"didChangeWatchedFiles":{"dynamicRegistration":true,"relativePatternSupport":true}},` +
	`"textDocument":{` +
	`"synchronization":{"dynamicRegistration":false,"didSave":true},` +
	`"hover":{"dynamicRegistration":false,"contentFormat":["markdown","plaintext"]},` +
	`"definition":{"dynamicRegistration":false,"linkSupport":true},` +
	`"references":{"dynamicRegistration":false},` +
	`"implementation":{"dynamicRegistration":false,"linkSupport":true},` +
	`"typeDefinition":{"dynamicRegistration":false,"linkSupport":true},` +
	`"declaration":{"dynamicRegistration":false,"linkSupport":true},` +
	`"documentSymbol":{"dynamicRegistration":false,"hierarchicalDocumentSymbolSupport":true},` +
	`"signatureHelp":{"dynamicRegistration":false,"signatureInformation":{"documentationFormat":["markdown","plaintext"],` +
	`"parameterInformation":{"labelOffsetSupport":true},"activeParameterSupport":true}},` +
	`"callHierarchy":{"dynamicRegistration":false},` +
	`"typeHierarchy":{"dynamicRegistration":false},` +
	`"inlayHint":{"dynamicRegistration":false},` +
	`"publishDiagnostics":{"versionSupport":true,"relatedInformation":true},` +
	`"diagnostic":{"dynamicRegistration":false,"relatedDocumentSupport":false},` +
	`"rename":{"dynamicRegistration":false,"prepareSupport":true},` +
	`"formatting":{"dynamicRegistration":false},` +
	`"rangeFormatting":{"dynamicRegistration":false},` +
	`"codeAction":{"dynamicRegistration":false,"isPreferredSupport":true,"disabledSupport":true,"dataSupport":true,` +
	`"resolveSupport":{"properties":["edit"]},"codeActionLiteralSupport":{"codeActionKind":{"valueSet":` +
	`["","quickfix","refactor","refactor.extract","refactor.inline","refactor.rewrite","source","source.organizeImports","source.fixAll"]}}}},` +
	`"window":{"workDoneProgress":true}}`

// InitializeParamsValue is the LSP InitializeParams lspseam sends.
type InitializeParamsValue struct {
	WorkspaceURI          string
	WorkspaceName         string
	InitializationOptions RawJSON // "" when absent
}

func (p InitializeParamsValue) appendJSON(b []byte) []byte {
	b = append(b, `{"processId":null,"clientInfo":{"name":`...)
	b = appendString(b, ClientName)
	b = append(b, `,"version":`...)
	b = appendString(b, Version)
	b = append(b, `},"locale":"en","rootUri":`...)
	b = appendString(b, p.WorkspaceURI)
	b = append(b, `,"workspaceFolders":[{"uri":`...)
	b = appendString(b, p.WorkspaceURI)
	b = append(b, `,"name":`...)
	b = appendString(b, p.WorkspaceName)
	b = append(b, `}],"capabilities":`...)
	b = append(b, clientCapabilities...)
	if p.InitializationOptions != "" {
		b = append(b, `,"initializationOptions":`...)
		b = p.InitializationOptions.appendJSON(b)
	}
	return append(b, '}')
}

// InitializeParams builds the initialize request for a workspace, given as
// the file: URI of its canonical directory. processId is null because the
// client and server may live in different process namespaces.
func InitializeParams(workspaceURI string, initializationOptions RawJSON) (InitializeParamsValue, *Error) {
	path, ok := WorkspacePath(workspaceURI)
	if !ok {
		return InitializeParamsValue{}, Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of an absolute directory (file:///path/to/workspace), got %q", clip(workspaceURI, 200))
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	if name == "" {
		name = path // "/", or a Windows drive's root "C:/"
	}
	return InitializeParamsValue{WorkspaceURI: workspaceURI, WorkspaceName: name, InitializationOptions: initializationOptions}, nil
}

// Negotiation is what lspseam concluded from a server's InitializeResult.
type Negotiation struct {
	PositionEncoding string `json:"positionEncoding"`
	TransientOpen    bool   `json:"transientOpen"`
	// ChangeSync is the server's TextDocumentSyncKind for didChange: 0
	// (None: the server takes no changes, so a host that must update an
	// open document closes and reopens it), 1 (Full) or 2 (Incremental;
	// a full-text change is valid there too, so hosts send full text for
	// both).
	ChangeSync int64 `json:"changeSync"`
	// Save: the server asks to be told when a document is saved
	// (textDocumentSync.save): a host that syncs a document to bytes it
	// read from the disk sends didSave after the didChange. Some servers
	// rebuild the files that include a saved file only then (clangd, for
	// a header's includers).
	Save       bool               `json:"save"`
	Operations map[Operation]bool `json:"operations"`
	// Methods says which of the catalog's LSP methods (coderequest.go)
	// the server offers, by method name.
	Methods   map[string]bool `json:"methods"`
	Readiness Readiness       `json:"readiness"`
}

func (n Negotiation) appendJSON(b []byte) []byte {
	b = append(b, `{"positionEncoding":`...)
	b = appendString(b, n.PositionEncoding)
	b = append(b, `,"transientOpen":`...)
	b = appendBool(b, n.TransientOpen)
	b = append(b, `,"changeSync":`...)
	b = appendInt(b, n.ChangeSync)
	b = append(b, `,"save":`...)
	b = appendBool(b, n.Save)
	b = append(b, `,"operations":{`...)
	for i, op := range Operations {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, string(op))
		b = append(b, ':')
		b = appendBool(b, n.Operations[op])
	}
	b = append(b, `},"methods":{`...)
	for i, m := range codeMethods {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m.method)
		b = append(b, ':')
		b = appendBool(b, n.Methods[m.method])
	}
	b = append(b, `},"readiness":`...)
	b = n.Readiness.appendJSON(b)
	return append(b, '}')
}

// operationCapability names the server capability behind each operation.
var operationCapability = map[Operation]string{
	OpDefinition:     "definitionProvider",
	OpReferences:     "referencesProvider",
	OpImplementation: "implementationProvider",
	OpHover:          "hoverProvider",
}

// Negotiate reads a server's InitializeResult. The server's capabilities
// are authoritative: an operation is supported when its provider capability
// is true or an options object. The position encoding must be UTF-16 (or
// absent, which means UTF-16); anything else is a protocol error because
// lspseam only asked for UTF-16. transientOpen tells whether the server
// accepts the didOpen/didClose pair every query uses (CheckOperation turns
// false into LSP_UNSUPPORTED_SYNC). serverCommand, the configured command
// (may be empty), helps choose the readiness policy (see readiness.go).
func Negotiate(initializeResult gjson.Result, serverCommand string) (Negotiation, *Error) {
	if !initializeResult.IsObject() {
		return Negotiation{}, Errorf(CodeProtocolError, "the server's initialize result must be an object, got %s", describe(initializeResult))
	}
	caps := get(initializeResult, "capabilities")
	if !caps.IsObject() {
		return Negotiation{}, Errorf(CodeProtocolError, "the server's initialize result has no capabilities object (got %s)", describe(caps))
	}
	n := Negotiation{PositionEncoding: "utf-16", Operations: map[Operation]bool{}, Methods: map[string]bool{}}
	switch enc := get(caps, "positionEncoding"); {
	case !enc.Exists() || enc.Type == gjson.Null:
	case enc.Type == gjson.String && enc.Str == "utf-16":
	default:
		chosen := describe(enc)
		if enc.Type == gjson.String {
			chosen = strconv.Quote(clip(enc.Str, 40))
		}
		return Negotiation{}, Errorf(CodeProtocolError, "the server chose position encoding %s, but lspseam offers only utf-16; configure the server to use UTF-16 positions", chosen)
	}
	sync := get(caps, "textDocumentSync")
	switch {
	case sync.Type == gjson.Number:
		kind, _ := integer(sync, 0, maxUint31)
		n.TransientOpen = kind == 1 || kind == 2
		n.ChangeSync = syncKind(sync)
	case sync.IsObject():
		n.TransientOpen = get(sync, "openClose").Type == gjson.True
		n.ChangeSync = syncKind(get(sync, "change"))
		save := get(sync, "save")
		n.Save = save.Type == gjson.True || save.IsObject()
	}
	for _, op := range Operations {
		v := get(caps, operationCapability[op])
		n.Operations[op] = v.Type == gjson.True || v.IsObject()
	}
	n.Methods = map[string]bool{}
	for _, m := range codeMethods {
		v := get(caps, m.capability)
		n.Methods[m.method] = v.Type == gjson.True || v.IsObject()
	}
	n.Readiness = ReadinessFor(initializeResult, serverCommand)
	return n, nil
}

// syncKind reads a TextDocumentSyncKind: 0, 1 or 2; anything else
// (absent, out of range, not an integer) is 0, None, the safe reading.
func syncKind(v gjson.Result) int64 {
	kind, _ := integer(v, 0, 2)
	return kind
}

// CheckOperation says whether a negotiated server can serve an operation
// with lspseam's transient-open lifecycle, before anything is sent.
func CheckOperation(n Negotiation, op Operation) *Error {
	if !n.TransientOpen {
		return Errorf(CodeUnsupportedSync, "the language server does not accept didOpen/didClose notifications (its textDocumentSync is absent, None, or has openClose false), which every lsp query needs; use a text search (grep) and read instead")
	}
	if !op.valid() {
		return Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %q", clip(string(op), 40))
	}
	if !n.Operations[op] {
		return Errorf(CodeUnsupportedOperation, "the language server for this file does not support %s (its %s capability is absent); try another operation or use a text search (grep) and read", op, operationCapability[op])
	}
	return nil
}
