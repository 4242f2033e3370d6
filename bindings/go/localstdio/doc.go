// Package localstdio is lspseam's local stdio provider: it runs configured
// language servers as child processes on this host, speaks LSP to them over
// stdin/stdout, reads source files from the host filesystem, and serves
// seam queries through them. cmd/shim and Go harnesses share it.
//
// It owns processes, JSON-RPC framing, the source-file boundary and the
// per-workspace queues. It owns no seam logic: argument rules, request
// shapes, capability negotiation, payload translation and server-request
// answers all come from the core module through lspseam.Core, so every
// host behaves the same.
//
// Security boundary: configured servers are trusted programs. They run with
// the shim's user, filesystem and network access, in the canonical
// workspace (or project root) as their working directory, with an
// allowlisted environment (env.go); lspseam does not sandbox them. What
// lspseam itself sends them is bounded: the source file of each query and
// the open documents it re-verifies, only when each is a regular, UTF-8
// file inside the canonical workspace (opened beneath it with openat2)
// and within maxDocumentBytes. The file watcher lists and stats the
// workspace; it sends nothing of what it reads.
//
// Process lifetime: each server runs in its own process group under a
// supervisor that kills the group when the program exits, even by SIGKILL
// (supervise.go). The supervisor is the program's own executable,
// re-executed with LSPSEAM_SUPERVISOR set: this package's init function
// then runs the supervisor and exits, so a program linking localstdio
// must not depend on side effects of other packages' init functions
// being absent in that process.
package localstdio
