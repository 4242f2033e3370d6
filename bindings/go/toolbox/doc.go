// Package toolbox runs the tools a harness offers a model — the lsp tool,
// the code-intelligence catalog, the fs tools and the refactor tools — by
// name, with the model's raw arguments, and answers as a model reads them
// (Toolbox.Call: a text and a structured value).
//
// What it owns: each tool's script over the core's pure methods
// (lspseam.Core) and one Session on the file's language server
// (lspseam.Service.Session), one file per tool (tool_*.go); the
// workspace-edit applier and its previews, approval and apply hints
// (applier.go); the edit plan of a server's WorkspaceEdit (editplan.go);
// server commands of code actions (command.go); pages of cut answers
// (pages.go); the workspace census (census.go); the per-version outline
// cache (outline.go, symbolcache.go).
//
// What it must not touch: it starts no process and speaks no LSP framing
// (the provider does, through Session); it opens, reads and writes
// workspace files only through bindings/go/internal/workspacefs, which
// decides what a path may reach (the census lists directories and reads
// no file); and it decides nothing the core decides — target resolution,
// request building, rendering and the text of every answer are the
// core's.
//
// A Toolbox is safe for concurrent use. It owns nothing it is given: the
// caller keeps the Core and the Service and closes them.
package toolbox
