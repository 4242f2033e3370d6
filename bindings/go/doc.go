// Package lspseam is the Go API of lspseam: the seam's core logic, run from
// the embedded WebAssembly module (core.wasm) through wazero, the provider
// registry that routes a query to the language server provider that owns
// the file's extension, and the seam's types a provider implements.
//
// What this package owns:
//
//   - Core runs the core module. Create one per process with NewCore (it
//     compiles the module once, and keeps the machine code in
//     DefaultCacheDir so the next process only loads it), call its methods from any goroutine, and
//     Close it when done. Every typed method is the typed form of one ABI
//     method; Invoke is their JSON form and Call the raw one. A long-lived
//     host that is mostly idle can have it give its memory back between
//     bursts (WithIdleRelease) and bound what an instance keeps after a
//     large answer (WithMaxInstanceMemory).
//   - Service is the provider registry: RegisterProvider reserves an id and
//     extensions atomically, Query selects a provider per query and calls
//     it, Session gives a caller a turn on the server that owns a file.
//   - The seam's types: Provider, SessionProvider and Session (what a
//     provider implements), and the core's wire types (types.go,
//     catalog.go).
//
// What it must not touch: it owns no processes and reads no files. The
// packages beside it do:
//
//   - toolbox: the tools a harness offers a model (Toolbox), the
//     workspace-edit applier and the previews;
//   - localstdio: the local stdio provider — language-server processes,
//     LSP framing, readiness, the file watcher;
//   - bindings/go/internal/workspacefs: what a workspace path may
//     reach, for source reads and for every write.
//
// Errors returned by this package for seam failures are *Error values with
// a stable Code; use errors.As to read them.
package lspseam
