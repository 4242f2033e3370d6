// Package core is lspseam's pure seam logic: everything between a model's
// tool call and the text the model reads back that does not need a process,
// a file or a clock.
//
// It owns the model-facing tool schema and argument validation, the
// one-based ↔ zero-based coordinate convention, provider normalization and
// selection, LSP request construction, capability negotiation, translation
// of raw server payloads, hover normalization, rendering with limits,
// presentation, config validation and the answers to server-to-client
// requests. For the code-intelligence catalog it defines the tools
// (tooldefs.go) and checks their arguments (codeargs.go), builds their
// requests (coderequest.go), resolves targets (target.go, symbols.go),
// plans and renders code locations with snippets (codelocation.go),
// translates symbols, hovers and inlay hints (symboltree.go, hovertext.go,
// inlayhints.go) and steps call and type hierarchy traversals
// (hierarchy.go); catalog.go holds the location methods' envelopes.
//
// It must not touch anything outside its inputs: no I/O, no goroutines, no
// clocks, no randomness, no global mutable state. Every function is
// deterministic, so the same input gives the same bytes whether core runs
// natively or inside the WebAssembly module built by cmd/wasm. That module
// is the product; the native build exists for tests and for the parity check
// that proves the two agree.
//
// Two layers live here:
//
//   - typed functions (ParseToolArgs, Translate, Render, …) over the Go types
//     in types.go, and
//   - the JSON envelope layer (Call), which decodes a method's JSON input
//     with gjson, calls the typed function and encodes
//     {"ok": VALUE} or {"error": {"code", "message"}}. Call is exactly what
//     the module's lspseam_call export runs.
package core
