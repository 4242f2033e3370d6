// Package lspseam is the Go API of lspseam: the seam's core logic, run from
// the embedded WebAssembly module (core.wasm) through wazero, and the
// provider registry that routes a query to the language server provider
// that owns the file's extension.
//
// Two types make up the API:
//
//   - Core runs the core module. Create one per process with NewCore (it
//     compiles the module once, and keeps the machine code in
//     DefaultCacheDir so the next process only loads it), call its methods from any goroutine, and
//     Close it when done. Every method is the typed form of one ABI method;
//     Call is the raw form. A long-lived host that is mostly idle can have
//     it give its memory back between bursts (WithIdleRelease) and bound
//     what an instance keeps after a large answer (WithMaxInstanceMemory).
//   - Service is the provider registry: RegisterProvider reserves an id and
//     extensions atomically, Query selects a provider per query and calls
//     it.
//
// This package owns no processes and reads no files; the local stdio
// provider that runs language servers lives in the shim's packages.
//
// Errors returned by this package for seam failures are *Error values with
// a stable Code; use errors.As to read them.
package lspseam
