package lspseam

import (
	"context"
	"encoding/json"
	"time"
)

// SessionProvider is a Provider that can also run the catalog's tools
// (Toolbox), which send several requests to one server in one turn:
// document symbols, then the request at the resolved target, then
// document symbols of the files in the answer, or a call graph's
// expansions.
//
// Session holds the provider's turn for q's workspace for as long as fn
// runs: the server is started if needed and caught up with the disk
// before fn is called, and nothing else reaches the server until fn
// returns. q.FilePath is the file the tool is about (it chooses the server
// and its project root); q.Operation and q.Position are unused. fn's
// Session must not be used after fn returns. Like Query, Session returns
// promptly once ctx is done, with LSP_CANCELLED or LSP_TIMEOUT.
type SessionProvider interface {
	Provider
	Session(ctx context.Context, q ProviderQuery, fn func(context.Context, Session) error) error
	// Running reports whether a server already runs for q's workspace and
	// project root, so a workspace-wide read can skip servers it would
	// otherwise start just to learn they know nothing.
	Running(q ProviderQuery) bool
	// ProjectRoot is the absolute directory whose server would serve
	// q.FilePath: its project root (the workspace when the provider runs
	// one server per workspace). A workspace-wide read groups files by it,
	// to ask each project's server once.
	ProjectRoot(q ProviderQuery) string
}

// Session is one turn on a language server, for one goroutine (but for
// Request: see there).
type Session interface {
	// Server is the server's configured id, for messages.
	Server() string
	// WorkspaceURI is the canonical workspace's file: URI: the source
	// boundary and the base of relative paths in answers.
	WorkspaceURI() string
	// Methods says which of the catalog's LSP methods the server offers
	// (Negotiation.Methods).
	Methods() map[string]bool
	// Policy is the server's behaviour policy (core/readiness.go): how it
	// signals readiness, and how far its workspace/symbol searches.
	Policy() Readiness
	// Open reads path under the source rules and makes the server hold
	// exactly those bytes as an open document. The session's first Open
	// also waits, within the budget, until the server's answers can be
	// trusted (Notice says when they may be partial). A file whose
	// extension the server is not configured for is LSP_UNAVAILABLE.
	Open(ctx context.Context, path string) (SourceFile, error)
	// Read reads path under the source rules without telling the server.
	Read(path string) (SourceFile, error)
	// Request sends one request and returns its raw result ("null" for
	// none). A server that does not implement the method (MethodNotFound)
	// is LSP_UNSUPPORTED_OPERATION. Unlike the other methods, Request may
	// be called from several goroutines at once, for requests that do not
	// depend on each other, when Policy().ConcurrentRequests says the
	// server answers them as it would one by one.
	Request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// Diagnostics returns the server's diagnostics for f, a document this
	// session opened (Open), for f's current content when the server
	// reports on it in time (see DiagnosticReport.Fresh).
	Diagnostics(ctx context.Context, f SourceFile, opts DiagnosticsOptions) (DiagnosticReport, error)
	// Check opens every path (as Open) and returns the diagnostics of
	// each, in paths' order: all the documents are synced before any
	// report is awaited (a change's files are only right together), and
	// the reports are awaited together, within one wait (opts.Wait) and
	// the budget, not one after another. A file whose report does not
	// come in time has the latest report the server sent, not Fresh; a
	// file that cannot be opened or asked has its own Err. The error is
	// non-nil only when the session cannot go on (the context ended, the
	// server died); the checks made until then are returned with it.
	Check(ctx context.Context, paths []string, opts DiagnosticsOptions) ([]FileCheck, error)
	// Speculate shows the server texts that are not on disk — what a
	// previewed change would write — and checks them as Check does, the
	// files in also checked beside them as they are on disk; checks are in
	// changed's order, then also's. Before it returns, whatever happened,
	// every document it changed holds the disk's bytes again (a server
	// that cannot be given them back is stopped), so no later answer comes
	// from the speculative text, and none can meanwhile: the session holds
	// the server's turn. Only files that exist can be shown; a change's
	// created or deleted files are the caller's to leave out. At most as
	// many files as the provider keeps open at once (LSP_INVALID_ARGUMENT
	// beyond).
	Speculate(ctx context.Context, changed []SpeculativeText, also []string, opts DiagnosticsOptions) ([]FileCheck, error)
	// ExecuteCommand runs a server command (workspace/executeCommand
	// params) the caller has approved, and returns its result. Every
	// workspace/applyEdit the server sends while it runs goes to
	// applyEdit, and its error (nil: applied) is the server's answer; the
	// call returns only after those edits are done. At any other time a
	// server's applyEdit is refused.
	ExecuteCommand(ctx context.Context, params json.RawMessage, applyEdit func(ctx context.Context, edit json.RawMessage) error) (json.RawMessage, error)
	// DocumentVersions maps the file: URI of each document the server
	// holds open to the version lspseam last sent it, so that an edit the
	// server made for another version is refused.
	DocumentVersions() map[string]int64
	// OpenDocuments lists the canonical paths of the documents the server
	// holds open (those Diagnostics can report on without opening more).
	OpenDocuments() []string
	// Notice is non-empty when the server had not confirmed it was ready
	// (still loading, or file changes not confirmed): answers may be
	// incomplete, and the tool's answer says so.
	Notice() string
}

// SymbolicLinkLister is an optional interface of a Session that knows
// the workspace's symbolic links without walking it (the local provider
// keeps them from its file watcher). An answer about a declaration's uses
// must say when the declaration's file is also reached through a link, a
// second file to a server; the toolbox walks the workspace to find out
// when the Session is not a SymbolicLinkLister.
type SymbolicLinkLister interface {
	// SymbolicLinks returns the absolute paths of the workspace's
	// symbolic links as of the session's start (its freshness barrier),
	// and false when it cannot list them all (the caller then looks for
	// itself). Like Session's other methods, only while the session is
	// held; the slice is the caller's.
	SymbolicLinks() ([]string, bool)
}

// UnsearchedFilesLister is an optional interface of a Session whose
// Notice can be only that its server did not search some source files of
// the workspace (clangd searches only the files its compilation database
// lists, and the database leaves some out). code_delete then searches
// those files itself for the name instead of refusing every deletion of
// a project that vendors code its build does not list.
type UnsearchedFilesLister interface {
	// UnsearchedFiles returns the absolute paths of the source files the
	// session's Notice says its server did not search, and true only when
	// that is all the Notice says (no readiness doubt, no stale report)
	// and the list is complete. Like Session's other methods, only while
	// the session is held; the slice is the caller's.
	UnsearchedFiles() ([]string, bool)
}

// SourceFile is a file read under the source rules: its canonical
// absolute path, file: URI and text.
type SourceFile struct {
	Path string
	URI  string
	Text string
}

// SpeculativeText is a file's text as a change would leave it, for
// Session.Speculate: Path as Open takes it.
type SpeculativeText struct {
	Path string
	Text string
}

// DiagnosticsOptions bound a Diagnostics call.
type DiagnosticsOptions struct {
	// Wait is the longest wait for a push server's report on the
	// document's current content (0: 3 s); it is always bounded by the
	// context's deadline, less a reserve for the answer.
	Wait time.Duration
	// Synced, when set, is called by Check once every file is synced to
	// the server (or could not be opened), before the reports still to
	// come are awaited, with the checks as they are then (File or Err,
	// no Report): work that must follow the sync may overlap the wait.
	// Diagnostics does not call it.
	Synced func(checks []FileCheck)
	// AfterSync, for Check: a pushed report is fresh only when it came
	// after the change was synced, not only after its own document's
	// sync — for files checked with a change that did not touch them (the
	// files that use what it changed), whose reports from before it are
	// not reports on it. The change is the first Changed paths (0: every
	// path), and its sync is the last of theirs.
	AfterSync bool
	// Changed, for Check with AfterSync: how many of the paths, from the
	// first, are the change's own files. A changed file's report that
	// came before a later path was opened is still a report on the
	// change; counted from the last sync of every path, it would wait out
	// the whole wait and answer stale.
	Changed int
	// Landing, for Speculate: the texts are not a preview but a change
	// being written to disk as they are checked. They are shown as saved
	// (didSave too, for a server that asks for saves: the disk is about
	// to hold them), and Landing is called once the checks are made, to
	// return when the write is done (before the texts are shown, for a
	// change to a file the server reads from the disk when it parses
	// others, Readiness.HeadersFromDisk; at most once either way). Then the documents are given the
	// disk's bytes as after any speculation: nothing to do once the write
	// landed, the old text if it failed. The write's wait and the
	// server's check overlap instead of following each other.
	Landing func()
}

// FileCheck is one file's part of Session.Check: the file as opened and
// its report, or why there is none.
type FileCheck struct {
	File   SourceFile
	Report DiagnosticReport
	Err    error
}

// DiagnosticReport is a server's diagnostics for one document.
type DiagnosticReport struct {
	URI string
	// Diagnostics is the LSP Diagnostic[] ("[]" when none).
	Diagnostics json.RawMessage
	// Version is the document version they are for, when known.
	Version *int
	// How is "pull" (asked: textDocument/diagnostic, or the server's
	// diagnostics command, Readiness.DiagnosticsCommand) or "push"
	// (publishDiagnostics).
	How string
	// Fresh: known to be for the document's current content (pulled, or
	// published after its last change and, when versioned, for its
	// version). A report that is not fresh is the latest the server sent.
	Fresh bool
	// Waited is how long the call waited for the report.
	Waited time.Duration
}

// ComponentGapper is an optional interface of a Session whose server
// does not read the component files of another language that can import
// the files it serves (typescript-language-server and .svelte files):
// its searches leave those files out, and its Notice says so, one gap per
// kind of file. Another server that reads them (svelte-language-server)
// can be asked the same question; the caller then says, search by search,
// that it covered a gap, or what precisely it left out instead.
type ComponentGapper interface {
	// ComponentGaps returns the gaps of the session's last search: the
	// component files of the workspace its server did not read, by kind.
	// Like Session's other methods, only while the session is held.
	ComponentGaps() []ComponentGap
	// CoverComponentGap records that the session's last search's gap of
	// files with extension ext was searched by another server: with
	// instead "", completely (the Notice no longer names it for that
	// search); else instead is what that search left out, which the
	// Notice says in the gap's place.
	CoverComponentGap(ext, instead string)
}

// ComponentGap is one kind of component file a search left out.
type ComponentGap struct {
	Ext   string   // ".svelte"
	Kind  string   // "Svelte"
	Files []string // absolute paths, sorted
}
