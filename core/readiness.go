package core

import (
	"path"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Readiness: when a fresh server's answers can be trusted.
//
// LSP has no "project loaded" signal, and many servers answer before they
// have loaded the project — silently partially (see testdata/workspaces/
// README.md, "Readiness"). What a server does instead differs per server,
// so the policy is chosen here, from what the server says about itself
// (serverInfo.name) and the command that runs it, and the provider applies
// it to the first query on a fresh process: after that query's didOpen it
// waits until no work-done progress is active and either a loading signal
// was seen or SettleMs passed, then sends the request. Later queries only
// wait for active progress to end.
//
// The table, measured on the fixture workspaces:
//
//	gopls                       blocks requests until its workspace is loaded: no settle;
//	                            its workspace/symbol answers at most 100 matches;
//	                            it loads a package in a new directory only once a file
//	                            of it is opened (v0.23 reloads only same-directory
//	                            packages on file events), so one is opened
//	typescript-language-server  answers from a syntax-only server until the progress
//	                            "Initializing JS/TS language features" (which begins
//	                            0.05–2.5 s after the first didOpen) has ended; its
//	                            workspace/symbol searches the projects of its last
//	                            document only
//	                            pushed diagnostics carry no version and may be the
//	                            previous text's, so they are asked of tsserver through
//	                            its typescript.tsserverRequest command (DiagnosticsCommand)
//	pyright                     searches only the files it has enumerated until it logs
//	                            "Found N source files" (12–16 s after the first didOpen
//	                            on 162 files under load: the opened file is checked
//	                            first, so an answer that waited 15 s may still be exact
//	                            — it is marked only when read before that log); a created or deleted file reaches
//	                            its program only when a reanalysis timer fires (250 ms
//	                            after the last interaction, later under load) and it
//	                            enumerates the files again, logging "Found N source
//	                            files" once more: a request sent before misses it
//	clangd                      indexes in the background (progress "indexing") from the
//	                            first didOpen; clangd 14 registers no file watchers and
//	                            ignores workspace/didChangeWatchedFiles for sources, so
//	                            its index keeps files it has not opened as they were
//	                            when indexed: a change to one means a restart (a fresh
//	                            clangd re-indexes files whose content changed)
//	                            (clangd 22.1.1 measured the same; its callees come
//	                            from its own answer to outgoingCalls, not this table);
//	                            it parses a file's headers from the disk, not from
//	                            their open documents, so a preview cannot show a
//	                            header's new text to the files that include it
//	                            (headersFromDisk)
//	intelephense                answers empty lists while it indexes the workspace and
//	                            its stubs (progress "... indexing", then the log
//	                            "Indexer: Indexing finished"); re-indexes a created or
//	                            edited file it has not opened after answering the next
//	                            request, logging that line again (changeSettleEdits)
//	fortls                      parses the workspace while initializing; ignores file
//	                            events (a restart)
//	anything else               a short settle, so loading progress that begins right
//	                            after didOpen is waited for, and file events trusted only
//	                            where the server registered watchers (else a restart)
//
// The policy of each server lives in its entry of servers.json
// ("behaviour"); this table is the why.

// Readiness is the policy for one server.
type Readiness struct {
	// Server names the known server the policy is for ("" for others).
	Server string `json:"server"`
	// SettleMs bounds the wait after the first didOpen for a loading
	// signal: a work-done progress that begins and ends, or ReadyLog.
	SettleMs int64 `json:"settleMs"`
	// ReadyLog is a regular expression (RE2) a window/logMessage text
	// matches when the server has loaded the project (it may arrive before
	// the first didOpen). The server writes it in order with its answers:
	// an answer read after it was computed on the loaded project, so a
	// wait for it that ends first marks only the answers read before it.
	ReadyLog string `json:"readyLog,omitempty"`
	// ExpectSignal: this server reliably signals the end of loading, so a
	// settle that ends without the signal may have given a partial answer
	// and the result is marked incomplete.
	ExpectSignal bool `json:"expectSignal"`
	// ChangeSettleMs, when positive, says the server applies created and
	// deleted files later than its next request: after telling it of such
	// changes, wait until it logs ReadyLog again, at most ChangeSettleMs,
	// else mark the answer incomplete. 0: the server applies watched-file
	// events before its next request.
	ChangeSettleMs int64 `json:"changeSettleMs,omitempty"`
	// ChangeSettleEdits: ChangeSettleMs applies to edits of files of the
	// server's languages that it has not opened too, not only to created
	// and deleted files (intelephense re-indexes an edited file after
	// answering the next request, and logs ReadyLog when it has). Such a
	// server applies an open document's didChange to other files' answers
	// late as well, without a signal, so the host closes an open document
	// that changed on disk and sends the change as a file event instead.
	ChangeSettleEdits bool `json:"changeSettleEdits,omitempty"`
	// IgnoresWatchedFiles: the server does not act on watched-file events,
	// so once a file it has not opened changes, only a fresh process
	// answers from the disk.
	IgnoresWatchedFiles bool `json:"ignoresWatchedFiles,omitempty"`
	// OpenNewDirectories: the server finds the files of a directory created
	// after it started only once one of them is opened, so the host opens
	// one (see FileChangesInput.OpenNewDirectories).
	OpenNewDirectories bool `json:"openNewDirectories,omitempty"`
	// EventsNeedRegistration: file events are trusted only for the files
	// the server's own watcher registrations cover (it said it watches
	// them); a change to another file of its languages is treated as
	// IgnoresWatchedFiles. Servers whose behaviour was not measured get it.
	EventsNeedRegistration bool `json:"eventsNeedRegistration,omitempty"`
	// DiagnosticsQuietMs, when positive, is how long a pushed diagnostics
	// report must stand before it is taken as the server's last word on a
	// version (0: the host's default, 250 ms). pyright publishes an interim
	// report for a new version (none, or the previous problems) and the
	// checked one 130–350 ms later, with the same version.
	DiagnosticsQuietMs int64 `json:"diagnosticsQuietMs,omitempty"`
	// NoDiagnostics: the server reports no diagnostics (it publishes none
	// and offers no textDocument/diagnostic), so asking for them is an
	// unsupported operation rather than a wait that ends stale.
	NoDiagnostics bool `json:"noDiagnostics,omitempty"`
	// WatchExtensions are extensions of other languages' files the server
	// reads from disk (ServerBehaviour.WatchExtensions): where it
	// registered no watchers, the host matches changes against them as
	// well as against the server's own extensions.
	WatchExtensions []string `json:"watchExtensions,omitempty"`
	// SymbolSearch says how far the server's workspace/symbol searches:
	// "" the whole workspace (its project root), or SymbolSearchTsserver:
	// only the projects of the document it handled last
	// (typescript-language-server sends tsserver's navto with its most
	// recently opened or queried file; with no file open tsserver answers
	// "No Project"). For such a server a host makes the document it means
	// the last one (a documentSymbol request on it) before asking, asks
	// once per project, and learns which files a document's projects hold
	// from tsserver's projectInfo (the typescript.tsserverRequest command).
	SymbolSearch string `json:"symbolSearch,omitempty"`
	// SymbolCap, when positive, is the most matches the server's
	// workspace/symbol answers with, dropping the rest without saying so
	// (gopls: 100, measured: a one-letter query answers exactly 100). An
	// answer that reaches it is marked incomplete.
	SymbolCap int64 `json:"symbolCap,omitempty"`
	// DiagnosticsCommand, when set, names the workspace/executeCommand
	// command through which the server's checker is asked for a document's
	// diagnostics (commandDiagnosticsRequests): the server's pushed reports
	// cannot be told to be on the current text, and it offers no
	// textDocument/diagnostic (see commanddiagnostics.go).
	DiagnosticsCommand string `json:"diagnosticsCommand,omitempty"`
	// SearchNeeds, when set, are files (slash paths) one of which must be
	// in a file's directory or one of its parents for the server's
	// searches from that file (references, implementations) to cover the
	// project: without one it has no index and searches only the files it
	// has opened (clangd: compile_commands.json, or build/ beside it, lists
	// the files it indexes; compile_flags.txt alone gives flags, not
	// files). A host then marks such answers incomplete, with
	// SearchNeedsHint (how to make one) in the notice.
	SearchNeeds     []string `json:"searchNeeds,omitempty"`
	SearchNeedsHint string   `json:"searchNeedsHint,omitempty"`
	// SearchesOneFile, when set, says the server's searches (references,
	// renames) cover only the document asked about, by design, and lists
	// the extensions of the other files that may use what such a document
	// declares (vscode-css-language-server: other stylesheets, markup).
	// A host marks such answers incomplete when the root holds one of
	// them besides the file searched from: "no other file uses it" is
	// then not something the server looked at.
	SearchesOneFile []string `json:"searchesOneFile,omitempty"`
	// ModuleSearch, when set, names how the server's searches depend on
	// what it has decoded: ModuleSearchTerraform, terraform-ls, which
	// decodes a module's uses only once one of its files was opened (or an
	// opened module calls it), and a resource's or data source's arguments
	// only with its provider's schema. A host opens a file of each module
	// of the root before a search and marks the answer incomplete when the
	// server finds no use inside such arguments.
	ModuleSearch string `json:"moduleSearch,omitempty"`
	// ProjectInclude, when set, names how the server's configuration
	// limits the files it analyzes: ProjectIncludePyright, the include of
	// pyrightconfig.json, else of pyproject.toml's [tool.pyright] (or
	// [tool.basedpyright]). A search from a file finds uses only in those
	// files and the open ones, so a host marks it incomplete when files of
	// the root lie outside them.
	ProjectInclude string `json:"projectInclude,omitempty"`
	// ConcurrentRequests: the server answers independent requests asked
	// at once (the outlines of an answer's files) as it answers them one
	// by one, so a host may have several in flight. Measured per server:
	// intelephense answered an outline asked beside others without a
	// promoted constructor property in about half the runs, and a cached
	// outline then made the same question answer differently; a server
	// not known to be safe is asked one request at a time.
	ConcurrentRequests bool `json:"concurrentRequests,omitempty"`
	// HeadersFromDisk are the extensions of files the server reads from
	// the disk, not from its open documents, when it parses the files
	// that include them (clangd without --use-dirty-headers, which clangd
	// 14 lacks: a header's unsaved text is seen by the header's own
	// diagnostics only). A speculative check of a change to such a file
	// cannot show its new text to the files that include it, so a host
	// leaves those out rather than report them against the old text.
	HeadersFromDisk []string `json:"headersFromDisk,omitempty"`
	// ReportsUnopened: the server validates whole modules, publishing
	// reports for files it has not opened, and publishes nothing new when
	// one of them is then opened with the content it read (terraform-ls).
	// A report on a file that came after every notification sent before
	// the file's didOpen, the didOpen carrying the file's bytes on disk,
	// is then its word on the opened document; waiting for another would
	// wait out the budget and call the report stale.
	ReportsUnopened bool `json:"reportsUnopened,omitempty"`
	// SignalNeeds, when set, are files (slash paths) one of which must be
	// in a file's directory or one of its parents for ExpectSignal to
	// hold for that file: the server signals the end of loading a
	// configured project only. typescript-language-server reports
	// tsserver's loading of a tsconfig.json or jsconfig.json project as
	// progress; a file under neither is put in an inferred project of the
	// open files and what they import, built as it is opened, with no
	// progress at all: a first query on a lone .js file waited out the
	// 15 s settle and was called incomplete. A host waits for the signal
	// only for a file under one of these.
	SignalNeeds []string `json:"signalNeeds,omitempty"`
	// CleanConfirmedBy, when set, is a request (an LSP method taking a
	// textDocument) whose answer for a document comes only after the
	// server has validated every change it was sent before the request,
	// for a server that publishes nothing for a document that was clean
	// and still is. terraform-ls publishes a module's reports only when
	// the module had or has a problem, and its documentSymbol handler
	// waits for the document directory's pending jobs, validation
	// included. A host waiting for a report on a document whose last
	// report is empty (or who has none) asks this request; its answer
	// with no report after it, within the quiet window, confirms the
	// document clean.
	CleanConfirmedBy string `json:"cleanConfirmedBy,omitempty"`
	// ReportsOnlySynced: the server checks a document, and publishes for
	// it, only when that document is opened or changed; a change to a
	// file it imports leaves its report as it was (buf). A host syncs
	// such a document again, with the same text, before awaiting its
	// report when the server has been told of a content change since.
	ReportsOnlySynced bool `json:"reportsOnlySynced,omitempty"`
	// ReportsSettleWithProgress: the server's pushed reports are interim
	// while work-done progress it announced is under way. pyright
	// publishes a freshly opened file's parse-only report (often none),
	// then checks the open files one after another under a progress
	// ("N files to analyze"), publishing each file's checked report in
	// turn, seconds later for the last of twenty, and ends the progress
	// when none is left. A host takes a pushed report as the server's
	// word only once no progress the server created
	// (window/workDoneProgress/create) or began is still running.
	ReportsSettleWithProgress bool `json:"reportsSettleWithProgress,omitempty"`
	// FailureLog is a regular expression (RE2) a window/logMessage or
	// window/showMessage text matches when the server has lost what
	// answers for it and stays up answering nothing:
	// typescript-language-server logs "[tsserver] Exited. Code: …
	// Signal: …" (an error) when its tsserver child dies — killed, or out
	// of memory — and then answers every request empty (tsserver's
	// NoServer), never starting another. A host treats such a message as
	// the server's crash: the instance is stopped, a request in flight
	// and every answer read after the message fail with
	// LSP_SERVER_FAILED naming it, and the next query starts a fresh
	// server. The message is matched on the LSP stream, in order with the
	// answers, so an answer read before it stands.
	FailureLog string `json:"failureLog,omitempty"`
}

// ReadsFromDisk reports whether the server reads file from
// the disk, not from its open document, when it parses the files that
// include it: its extension is one of HeadersFromDisk.
func (r Readiness) ReadsFromDisk(file string) bool {
	return slices.Contains(r.HeadersFromDisk, strings.ToLower(path.Ext(file)))
}

// ProjectIncludePyright is Readiness.ProjectInclude for pyright and its
// forks.
const ProjectIncludePyright = "pyright"

// ModuleSearchTerraform is Readiness.ModuleSearch for terraform-ls.
const ModuleSearchTerraform = "terraform"

// SymbolSearchTsserver is Readiness.SymbolSearch for a server whose
// workspace/symbol searches the tsserver projects of its last document.
const SymbolSearchTsserver = "tsserverProjects"

func (r Readiness) appendJSON(b []byte) []byte {
	b = append(b, `{"server":`...)
	b = appendString(b, r.Server)
	b = append(b, `,"settleMs":`...)
	b = appendInt(b, r.SettleMs)
	if r.ReadyLog != "" {
		b = append(b, `,"readyLog":`...)
		b = appendString(b, r.ReadyLog)
	}
	b = append(b, `,"expectSignal":`...)
	b = appendBool(b, r.ExpectSignal)
	if r.ChangeSettleMs != 0 {
		b = append(b, `,"changeSettleMs":`...)
		b = appendInt(b, r.ChangeSettleMs)
	}
	if r.ChangeSettleEdits {
		b = append(b, `,"changeSettleEdits":true`...)
	}
	if r.IgnoresWatchedFiles {
		b = append(b, `,"ignoresWatchedFiles":true`...)
	}
	if r.OpenNewDirectories {
		b = append(b, `,"openNewDirectories":true`...)
	}
	if r.EventsNeedRegistration {
		b = append(b, `,"eventsNeedRegistration":true`...)
	}
	if r.DiagnosticsQuietMs > 0 {
		b = append(b, `,"diagnosticsQuietMs":`...)
		b = appendInt(b, r.DiagnosticsQuietMs)
	}
	if r.NoDiagnostics {
		b = append(b, `,"noDiagnostics":true`...)
	}
	if len(r.WatchExtensions) > 0 {
		b = append(b, `,"watchExtensions":`...)
		b = appendStrings(b, r.WatchExtensions)
	}
	if r.SymbolSearch != "" {
		b = append(b, `,"symbolSearch":`...)
		b = appendString(b, r.SymbolSearch)
	}
	if r.SymbolCap > 0 {
		b = append(b, `,"symbolCap":`...)
		b = appendInt(b, r.SymbolCap)
	}
	if r.DiagnosticsCommand != "" {
		b = append(b, `,"diagnosticsCommand":`...)
		b = appendString(b, r.DiagnosticsCommand)
	}
	if len(r.SearchNeeds) > 0 {
		b = append(b, `,"searchNeeds":`...)
		b = appendStrings(b, r.SearchNeeds)
		b = append(b, `,"searchNeedsHint":`...)
		b = appendString(b, r.SearchNeedsHint)
	}
	if len(r.SearchesOneFile) > 0 {
		b = append(b, `,"searchesOneFile":`...)
		b = appendStrings(b, r.SearchesOneFile)
	}
	if r.ModuleSearch != "" {
		b = append(b, `,"moduleSearch":`...)
		b = appendString(b, r.ModuleSearch)
	}
	if r.ProjectInclude != "" {
		b = append(b, `,"projectInclude":`...)
		b = appendString(b, r.ProjectInclude)
	}
	if r.ConcurrentRequests {
		b = append(b, `,"concurrentRequests":true`...)
	}
	if len(r.HeadersFromDisk) > 0 {
		b = append(b, `,"headersFromDisk":`...)
		b = appendStrings(b, r.HeadersFromDisk)
	}
	if r.ReportsUnopened {
		b = append(b, `,"reportsUnopened":true`...)
	}
	if len(r.SignalNeeds) > 0 {
		b = append(b, `,"signalNeeds":`...)
		b = appendStrings(b, r.SignalNeeds)
	}
	if r.CleanConfirmedBy != "" {
		b = append(b, `,"cleanConfirmedBy":`...)
		b = appendString(b, r.CleanConfirmedBy)
	}
	if r.ReportsOnlySynced {
		b = append(b, `,"reportsOnlySynced":true`...)
	}
	if r.ReportsSettleWithProgress {
		b = append(b, `,"reportsSettleWithProgress":true`...)
	}
	if r.FailureLog != "" {
		b = append(b, `,"failureLog":`...)
		b = appendString(b, r.FailureLog)
	}
	return append(b, '}')
}

// defaultSettleMs is the settle of a server whose table entry does not
// set one: loading progress that begins right after didOpen is waited for.
const defaultSettleMs = 500

// pyrightEnumerated matches what pyright (1.1.414's file enumerator,
// _finish) logs once it has enumerated the project's files: "Found N
// source file(s)", or "No source files found." — and not "Searching for
// source files", which it logs at the start (at log level Trace). It is
// the readyLog of pyright's and basedpyright's entries in servers.json
// (checked by a test).
const pyrightEnumerated = `^(Found [0-9]+ source files?|No source files found)`

// ReadinessFor chooses the policy from the server table (servertable.go):
// the entry found by the InitializeResult's serverInfo.name, else by the
// server's command (its path or name; only the base name is used). A
// server the table does not know gets the conservative policy: a short
// settle, and file events trusted only for the files its own watcher
// registrations cover.
func ReadinessFor(initializeResult gjson.Result, command string) Readiness {
	name := get(get(initializeResult, "serverInfo"), "name").Str
	entry, ok := KnownServer(name, command)
	if !ok && offersCommand(initializeResult, "_typescript.applyRenameFile") {
		// typescript-language-server sends no serverInfo and is often run
		// through npx: its own commands name it.
		entry, ok = KnownServer("typescript-language-server", "")
	}
	if !ok {
		return Readiness{SettleMs: defaultSettleMs, EventsNeedRegistration: true}
	}
	b := entry.Behaviour
	r := Readiness{
		Server:                    entry.Name,
		SettleMs:                  defaultSettleMs,
		ReadyLog:                  b.ReadyLog,
		ExpectSignal:              b.ExpectSignal,
		ChangeSettleMs:            b.ChangeSettleMs,
		ChangeSettleEdits:         b.ChangeSettleEdits,
		OpenNewDirectories:        b.OpenNewDirectories,
		DiagnosticsQuietMs:        b.DiagnosticsQuietMs,
		NoDiagnostics:             b.Diagnostics == DiagnosticsNone,
		WatchExtensions:           b.WatchExtensions,
		SymbolSearch:              b.SymbolSearch,
		SymbolCap:                 b.SymbolCap,
		SearchNeeds:               b.SearchNeeds,
		SearchNeedsHint:           b.SearchNeedsHint,
		SearchesOneFile:           b.SearchesOneFile,
		ModuleSearch:              b.ModuleSearch,
		ProjectInclude:            b.ProjectInclude,
		ConcurrentRequests:        b.ConcurrentRequests,
		HeadersFromDisk:           b.HeadersFromDisk,
		ReportsUnopened:           b.ReportsUnopened,
		SignalNeeds:               b.SignalNeeds,
		CleanConfirmedBy:          b.CleanConfirmedBy,
		ReportsOnlySynced:         b.ReportsOnlySynced,
		ReportsSettleWithProgress: b.ReportsSettleWithProgress,
		FailureLog:                b.FailureLog,
	}
	if b.DiagnosticsCommand != "" && offersCommand(initializeResult, b.DiagnosticsCommand) {
		r.DiagnosticsCommand = b.DiagnosticsCommand
	}
	if b.SettleMs != nil {
		r.SettleMs = *b.SettleMs
	}
	switch b.FileEvents {
	case FileEventsApplies:
	case FileEventsIgnores:
		r.IgnoresWatchedFiles = true
	default:
		r.EventsNeedRegistration = true
	}
	return r
}

// offersCommand: the server lists command in executeCommandProvider.
func offersCommand(initializeResult gjson.Result, command string) bool {
	found := false
	get(get(get(initializeResult, "capabilities"), "executeCommandProvider"), "commands").ForEach(func(_, c gjson.Result) bool {
		found = c.Type == gjson.String && c.Str == command
		return !found
	})
	return found
}
