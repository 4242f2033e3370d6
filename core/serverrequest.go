package core

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Answers to requests a server sends to lspseam. lspseam is a read-only
// client: it answers configuration from the server's static config, refuses
// edits, never executes commands, acknowledges progress and registration
// requests so servers keep working, and answers everything else with
// MethodNotFound, as JSON-RPC prescribes.

// JSON-RPC error codes used in answers.
const (
	jsonrpcInvalidParams  = -32602
	jsonrpcMethodNotFound = -32601
)

// ServerReply is the response to send back: Result (raw JSON, "null" when
// empty) or Error.
type ServerReply struct {
	Result RawJSON         `json:"result,omitempty"`
	Error  *ServerReplyErr `json:"error,omitempty"`
}

// ServerReplyErr is a JSON-RPC error object.
type ServerReplyErr struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (r ServerReply) appendJSON(b []byte) []byte {
	if r.Error != nil {
		b = append(b, `{"error":{"code":`...)
		b = appendInt(b, r.Error.Code)
		b = append(b, `,"message":`...)
		b = appendString(b, r.Error.Message)
		return append(b, "}}"...)
	}
	b = append(b, `{"result":`...)
	b = r.Result.appendJSON(b)
	return append(b, '}')
}

// ServerRequest answers a server-to-client request. configuration is the
// server's static configuration ("" when none); workspaceURI, when given,
// answers workspace/workspaceFolders.
func ServerRequest(method string, params gjson.Result, configuration RawJSON, workspaceURI string) ServerReply {
	switch method {
	case "workspace/configuration":
		items := get(params, "items")
		if !items.IsArray() {
			return ServerReply{Error: &ServerReplyErr{Code: jsonrpcInvalidParams, Message: "workspace/configuration params must have an items array"}}
		}
		conf := gjson.Parse(string(configuration))
		b := []byte{'['}
		first := true
		items.ForEach(func(_, item gjson.Result) bool {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = configurationItem(b, conf, configuration != "", get(item, "section"))
			return true
		})
		b = append(b, ']')
		return ServerReply{Result: RawJSON(b)}
	case "workspace/applyEdit":
		return ServerReply{Result: `{"applied":false,"failureReason":"lspseam applies a server's edit only while a command it approved runs (code_actions); this one came outside any"}`}
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability", "window/showMessageRequest", "window/showDocument",
		// Refresh requests ask the client to pull again: lspseam pulls at
		// every read anyway. (pyright exits when refused one.)
		"workspace/diagnostic/refresh", "workspace/inlayHint/refresh", "workspace/semanticTokens/refresh", "workspace/codeLens/refresh",
		// typescript-language-server asks the client to start an
		// interactive rename of what an extract refactoring named; there is
		// no one to type the name, and refusing would fail the refactoring.
		"_typescript.rename":
		if method == "window/showDocument" {
			return ServerReply{Result: `{"success":false}`}
		}
		return ServerReply{Result: "null"}
	case "workspace/workspaceFolders":
		if workspaceURI == "" {
			return ServerReply{Result: "null"}
		}
		init, err := InitializeParams(workspaceURI, "")
		if err != nil {
			return ServerReply{Result: "null"}
		}
		b := append([]byte(`[{"uri":`), appendString(nil, init.WorkspaceURI)...)
		b = append(b, `,"name":`...)
		b = appendString(b, init.WorkspaceName)
		return ServerReply{Result: RawJSON(append(b, "}]"...))}
	}
	return ServerReply{Error: &ServerReplyErr{Code: jsonrpcMethodNotFound, Message: "lspseam does not handle " + clip(method, 100)}}
}

// configurationItem appends the answer to one ConfigurationItem: the whole
// configuration without a section, the value at the dotted section path
// ("python.analysis") with one, null when absent.
func configurationItem(b []byte, conf gjson.Result, have bool, section gjson.Result) []byte {
	if !have {
		return append(b, "null"...)
	}
	if section.Type != gjson.String || section.Str == "" {
		return appendCompact(b, conf)
	}
	v := conf
	for _, part := range strings.Split(section.Str, ".") {
		if !v.IsObject() {
			return append(b, "null"...)
		}
		var found gjson.Result
		v.ForEach(func(k, val gjson.Result) bool {
			if k.Str == part {
				found = val
				return false
			}
			return true
		})
		if !found.Exists() {
			return append(b, "null"...)
		}
		v = found
	}
	return appendCompact(b, v)
}
