package lspseam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/lspseam/lspseam/core"
)

// The typed form of every ABI method. Each marshals its input, runs the
// method in the module and decodes the envelope: a seam failure comes back
// as an *Error with the module's code and message.

// envelope is the module's error answer.
type envelope struct {
	Error *Error `json:"error"`
}

// Invoke is the JSON form of Call: it runs method on in (marshalled to
// JSON) and decodes the ok value into out (skipped when out is nil); a
// seam failure is the module's *Error. The typed methods are Invoke with
// their own input and output types; a host running a method that has no
// typed form here (the Toolbox's catalog methods) calls Invoke.
func (c *Core) Invoke(ctx context.Context, method string, in any, out any) error {
	input, err := json.Marshal(in)
	if err != nil {
		return Errorf(CodeInvalidArgument, "%s: cannot encode the input: %v", method, err)
	}
	return c.invokeRaw(ctx, method, input, out)
}

func (c *Core) invokeRaw(ctx context.Context, method string, input []byte, out any) error {
	raw, err := c.Call(ctx, method, input)
	if err != nil {
		return err
	}
	// The core writes exactly {"ok":VALUE} or {"error":{…}} (core/envelope.go),
	// so the ok value is decoded straight from its bytes, without decoding
	// the envelope around it first.
	if value, ok := bytes.CutPrefix(raw, []byte(`{"ok":`)); ok && bytes.HasSuffix(value, []byte("}")) {
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(value[:len(value)-1], out); err != nil {
			return fmt.Errorf("lspseam: %s: unexpected ok value from the core module: %w", method, err)
		}
		return nil
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil || env.Error == nil {
		return fmt.Errorf("lspseam: %s: undecodable envelope from the core module: %.200s (%v)", method, raw, err)
	}
	return env.Error
}

// ToolDefinition returns the model-facing tool: name, prompt guidance and
// JSON Schema.
func (c *Core) ToolDefinition(ctx context.Context) (ToolDefinition, error) {
	var v ToolDefinition
	return v, c.invokeRaw(ctx, "toolDefinition", []byte("{}"), &v)
}

// ParseToolArgs validates a model's raw arguments (a JSON object with
// one-based coordinates) and returns the zero-based tool call.
func (c *Core) ParseToolArgs(ctx context.Context, args []byte) (ToolCall, error) {
	var v ToolCall
	return v, c.invokeRaw(ctx, "parseToolArgs", args, &v)
}

// Present returns the UI card for a model's raw arguments.
func (c *Core) Present(ctx context.Context, args []byte) (Card, error) {
	var v Card
	return v, c.invokeRaw(ctx, "present", args, &v)
}

// NormalizeProvider validates a registration and normalizes its extensions.
func (c *Core) NormalizeProvider(ctx context.Context, p ProviderSpec) (ProviderSpec, error) {
	var v ProviderSpec
	return v, c.Invoke(ctx, "normalizeProvider", p, &v)
}

// CheckProviders normalizes a set of registrations and rejects conflicts.
func (c *Core) CheckProviders(ctx context.Context, providers []ProviderSpec) ([]ProviderSpec, error) {
	var v struct {
		Providers []ProviderSpec `json:"providers"`
	}
	err := c.Invoke(ctx, "checkProviders", map[string]any{"providers": nonNil(providers)}, &v)
	return v.Providers, err
}

// SelectProvider picks the provider owning filePath's final extension.
func (c *Core) SelectProvider(ctx context.Context, filePath string, providers []ProviderSpec) (Selection, error) {
	var v Selection
	return v, c.Invoke(ctx, "selectProvider", map[string]any{"filePath": filePath, "providers": nonNil(providers)}, &v)
}

// InitializeParams returns the LSP InitializeParams for a workspace's
// file: URI. initializationOptions may be nil.
func (c *Core) InitializeParams(ctx context.Context, workspaceURI string, initializationOptions json.RawMessage) (json.RawMessage, error) {
	in := map[string]any{"workspaceUri": workspaceURI}
	if len(initializationOptions) > 0 {
		in["initializationOptions"] = initializationOptions
	}
	var v json.RawMessage
	return v, c.Invoke(ctx, "initializeParams", in, &v)
}

// Negotiate reads a server's InitializeResult. serverCommand (the
// configured command, may be empty) helps choose the readiness policy.
func (c *Core) Negotiate(ctx context.Context, initializeResult json.RawMessage, serverCommand string) (Negotiation, error) {
	var v Negotiation
	return v, c.Invoke(ctx, "negotiate", map[string]any{"initializeResult": initializeResult, "serverCommand": serverCommand}, &v)
}

// CheckOperation returns LSP_UNSUPPORTED_SYNC or LSP_UNSUPPORTED_OPERATION
// when a negotiated server cannot serve op.
func (c *Core) CheckOperation(ctx context.Context, n Negotiation, op Operation) error {
	return c.Invoke(ctx, "checkOperation", map[string]any{"negotiation": n, "operation": op}, nil)
}

// LSPRequest is a request ready to send to a server. Subject, set by
// RequestInText, names what is at the position (the first line of the
// answer's text); copy it into the Result.
type LSPRequest struct {
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Subject string          `json:"subject,omitempty"`
}

// Request builds the LSP request for op at a zero-based position.
func (c *Core) Request(ctx context.Context, op Operation, uri string, pos Position) (LSPRequest, error) {
	var v LSPRequest
	return v, c.Invoke(ctx, "request", map[string]any{"operation": op, "uri": uri, "position": pos}, &v)
}

// RequestInText builds the request like Request after checking pos against
// the document's text (what the host sends in didOpen): a line past the end
// of the text or a column past the end of its line is LSP_INVALID_ARGUMENT
// quoting pos as sent (zero-based), before anything reaches the server. The
// request's Subject names the identifier at pos.
func (c *Core) RequestInText(ctx context.Context, op Operation, uri string, pos Position, text string) (LSPRequest, error) {
	return c.RequestInTextAs(ctx, op, uri, pos, text, ZeroBasedTerms)
}

// RequestInTextAs is RequestInText whose position errors speak terms: a
// provider passes its query's PositionTerms, so that the lsp tool's model
// reads its own one-based numbers and a seam caller the ones it sent.
func (c *Core) RequestInTextAs(ctx context.Context, op Operation, uri string, pos Position, text string, terms PositionTerms) (LSPRequest, error) {
	var v LSPRequest
	// Only the line asked about crosses into the module; a line past the
	// end sends the text, which the error describes (its last line).
	if line, ok := core.NthLine(text, pos.Line); ok {
		in := struct {
			Operation Operation     `json:"operation"`
			URI       string        `json:"uri"`
			Position  Position      `json:"position"`
			Terms     PositionTerms `json:"positionTerms,omitempty"`
			Line      string        `json:"line"`
		}{op, uri, pos, terms, line}
		return v, c.Invoke(ctx, "request", in, &v)
	}
	// The text goes last, so the module finds the other fields without
	// scanning past it.
	in := struct {
		Operation Operation     `json:"operation"`
		URI       string        `json:"uri"`
		Position  Position      `json:"position"`
		Terms     PositionTerms `json:"positionTerms,omitempty"`
		Text      string        `json:"text"`
	}{op, uri, pos, terms, text}
	return v, c.Invoke(ctx, "request", in, &v)
}

// Translate normalizes a server's raw result for op. A nil result means the
// response had no result member (malformed); pass json.RawMessage("null")
// for a null result.
func (c *Core) Translate(ctx context.Context, op Operation, result json.RawMessage) (Result, error) {
	in := map[string]any{"operation": op}
	if result != nil {
		in["result"] = result
	}
	var v Result
	return v, c.Invoke(ctx, "translate", in, &v)
}

// Render renders a result as model-facing text for the workspace with the
// given file: URI. Zero limits take the defaults.
func (c *Core) Render(ctx context.Context, r Result, workspaceURI string, limits Limits) (Rendered, error) {
	in := map[string]any{"result": r, "workspaceUri": workspaceURI}
	if limits.MaxLocations != 0 {
		in["maxLocations"] = limits.MaxLocations
	}
	if limits.MaxResultChars != 0 {
		in["maxResultChars"] = limits.MaxResultChars
	}
	var v Rendered
	return v, c.Invoke(ctx, "render", in, &v)
}

// TranslateRender is Translate then Render in one call into the module:
// the result translated for op, with what a provider sets on it (a
// locations result's WorkspaceURI is workspaceURI; subject and incomplete
// as given), and its text for workspaceURI within limits. The two are the
// same as Translate and Render give.
func (c *Core) TranslateRender(ctx context.Context, op Operation, result json.RawMessage, workspaceURI, subject, incomplete string, limits Limits) (Result, Rendered, error) {
	in := struct {
		Operation      Operation       `json:"operation"`
		WorkspaceURI   string          `json:"workspaceUri"`
		Subject        string          `json:"subject,omitempty"`
		Incomplete     string          `json:"incomplete,omitempty"`
		MaxLocations   int             `json:"maxLocations,omitempty"`
		MaxResultChars int             `json:"maxResultChars,omitempty"`
		Result         json.RawMessage `json:"result,omitempty"`
	}{op, workspaceURI, subject, incomplete, limits.MaxLocations, limits.MaxResultChars, result}
	var v struct {
		Result   Result   `json:"result"`
		Rendered Rendered `json:"rendered"`
	}
	err := c.Invoke(ctx, "translateRender", in, &v)
	return v.Result, v.Rendered, err
}

// ServerRequest answers a server-to-client request. configuration (the
// server's static workspace/configuration answer) and workspaceURI may be
// empty.
func (c *Core) ServerRequest(ctx context.Context, method string, params, configuration json.RawMessage, workspaceURI string) (ServerReply, error) {
	in := map[string]any{"method": method}
	if len(params) > 0 {
		in["params"] = params
	}
	if len(configuration) > 0 {
		in["configuration"] = configuration
	}
	if workspaceURI != "" {
		in["workspaceUri"] = workspaceURI
	}
	var v ServerReply
	return v, c.Invoke(ctx, "serverRequest", in, &v)
}

// ValidateConfig validates a configuration (JSON) and fills in defaults.
func (c *Core) ValidateConfig(ctx context.Context, config []byte) (Config, error) {
	var v Config
	return v, c.invokeRaw(ctx, "validateConfig", config, &v)
}

// FileWatchers reads a server's client/registerCapability or
// client/unregisterCapability params (method names which) and returns the
// watched-file registrations to add, the ids to remove and the watchers it
// skipped. Registrations for other methods are ignored.
func (c *Core) FileWatchers(ctx context.Context, method string, params json.RawMessage) (WatchUpdate, error) {
	in := map[string]any{"method": method}
	if len(params) > 0 {
		in["params"] = params
	}
	var v WatchUpdate
	return v, c.Invoke(ctx, "fileWatchers", in, &v)
}

// FileChanges turns a host's recorded file changes into the
// workspace/didChangeWatchedFiles notifications for one server and the open
// documents to re-read. in.Registrations nil means the server registered no
// watchers (changes match by extension).
func (c *Core) FileChanges(ctx context.Context, in FileChangesInput) (FileChangesResult, error) {
	var v FileChangesResult
	return v, c.Invoke(ctx, "fileChanges", in, &v)
}

// CommandDiagnosticsRequests are the requests that ask a server for a
// document's diagnostics through command (a negotiation's
// Readiness.DiagnosticsCommand), to send in order.
func (c *Core) CommandDiagnosticsRequests(ctx context.Context, command, uri string) ([]LSPRequest, error) {
	var v struct {
		Requests []LSPRequest `json:"requests"`
	}
	return v.Requests, c.Invoke(ctx, "commandDiagnosticsRequests", map[string]any{"command": command, "uri": uri}, &v)
}

// CommandDiagnostics turns the server's results to CommandDiagnosticsRequests
// (in their order) into the LSP Diagnostic[] it would publish.
func (c *Core) CommandDiagnostics(ctx context.Context, command string, answers []json.RawMessage) (json.RawMessage, error) {
	var v struct {
		Diagnostics json.RawMessage `json:"diagnostics"`
	}
	return v.Diagnostics, c.Invoke(ctx, "commandDiagnostics", map[string]any{"command": command, "answers": answers}, &v)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
