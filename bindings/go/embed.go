package lspseam

import _ "embed"

// coreWasm is the core module built by `make wasm` from core/ and cmd/wasm.
// cmd/wasm's freshness test fails when it is not exactly what the current
// sources build, so the embedded bytes are never stale.
//
//go:embed core.wasm
var coreWasm []byte

// CoreModule returns a copy of the embedded core module's bytes, for hosts
// that load it with another WebAssembly runtime.
func CoreModule() []byte { return append([]byte(nil), coreWasm...) }
