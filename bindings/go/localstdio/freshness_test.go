package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Workspace state follows the disk, checked on the fake server's log: the
// open-document cache, watched-file delivery, registrations, restarts when
// changes were lost, idle shutdown and project roots.

var echoText = map[string]any{"methods": map[string]any{
	"textDocument/hover":      map[string]any{"result": "$echoText"},
	"textDocument/definition": map[string]any{"result": "$echoPosition"},
}}

// asKnown is script answering initialize as the server table's gopls,
// which applies file events before its next request without registering
// watchers for them: the extension fallback's case. (The fake's own name
// is unknown, and an unknown server without registrations is restarted on
// a change instead: TestUnknownServerWithoutWatchersRestarts.)
func asKnown(script map[string]any) map[string]any {
	out := maps.Clone(script)
	out["serverInfo"] = map[string]any{"name": "gopls", "version": "(fake)"}
	return out
}

func (f *fake) hoverText(file string) string {
	f.t.Helper()
	res, err := f.query(context.Background(), lspseam.OpHover, file)
	if err != nil {
		f.t.Fatalf("hover %s: %v", file, err)
	}
	if res.Hover == nil {
		f.t.Fatalf("hover %s: no hover", file)
	}
	return res.Hover.Contents
}

// notifications returns the params of every received notification with
// method, in order.
func (f *fake) notifications(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == method {
			out = append(out, e.Params)
		}
	}
	return out
}

type watchedChange struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

// watched returns every change delivered through didChangeWatchedFiles, as
// "base type".
func (f *fake) watched() []string {
	var out []string
	for _, p := range f.notifications("workspace/didChangeWatchedFiles") {
		var params struct {
			Changes []watchedChange `json:"changes"`
		}
		if err := json.Unmarshal(p, &params); err != nil {
			f.t.Fatal(err)
		}
		for _, c := range params.Changes {
			out = append(out, filepath.Base(c.URI)+" "+map[int]string{1: "created", 2: "changed", 3: "deleted"}[c.Type])
		}
	}
	return out
}

func TestOpenDocumentCache(t *testing.T) {
	g := baseline(t)
	f := newFake(t, asKnown(echoText), map[string]any{"maxOpenDocuments": 2})
	a := filepath.Join(f.ws, "a.go")

	if got := f.hoverText("a.go"); got != "package a\n\nfunc A() {}" { // hover text is trimmed
		t.Fatalf("first hover: %q", got)
	}
	// Unchanged bytes: nothing is sent.
	f.hoverText("a.go")
	if n, c := f.received("textDocument/didOpen"), f.received("textDocument/didChange"); n != 1 || c != 0 {
		t.Fatalf("after an unchanged query: %d didOpen, %d didChange; want 1 and 0", n, c)
	}
	// Changed bytes: one didChange, version 2, full text; no watched-file
	// event for an open document.
	write(t, a, "package a\n\nfunc A() { /* edited */ }\n")
	if got := f.hoverText("a.go"); !strings.Contains(got, "edited") {
		t.Fatalf("the server did not get the edit: %q", got)
	}
	changes := f.notifications("textDocument/didChange")
	if len(changes) != 1 || !strings.Contains(string(changes[0]), `"version":2`) {
		t.Fatalf("didChange: %s", changes)
	}
	if w := f.watched(); len(w) != 0 {
		t.Fatalf("an open document's change was also sent as a watched file: %q", w)
	}
	// LRU: a third document closes the least recently used (b.go).
	f.hoverText("b.go")
	f.hoverText("a.go")
	write(t, filepath.Join(f.ws, "c.go"), "package a\n\nfunc C() {}\n")
	f.hoverText("c.go")
	closes := f.notifications("textDocument/didClose")
	if len(closes) != 1 || !strings.Contains(string(closes[0]), "/b.go") {
		t.Fatalf("didClose after eviction: %s", closes)
	}
	// A deleted open document is closed before the next request, and its
	// deletion is delivered; a query on it is rejected.
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	f.hoverText("c.go")
	closes = f.notifications("textDocument/didClose")
	if len(closes) != 2 || !strings.Contains(string(closes[1]), "/a.go") {
		t.Fatalf("didClose after deletion: %s", closes)
	}
	if w := f.watched(); !slices.Equal(w, []string{"c.go created", "a.go deleted"}) {
		t.Fatalf("watched changes: %q", w)
	}
	if _, err := f.query(context.Background(), lspseam.OpHover, "a.go"); codeOf(err) != lspseam.CodeSourceRejected {
		t.Fatalf("query on a deleted file: %v", err)
	}
	if pids := f.pids(); len(pids) != 1 {
		t.Fatalf("the server was restarted: %v", pids)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestWatchedFilesBeforeRequest: a file created by another tool reaches the
// server before the next request, in the log's order.
func TestWatchedFilesBeforeRequest(t *testing.T) {
	g := baseline(t)
	f := newFake(t, asKnown(echoText), nil)
	f.mustQuery(lspseam.OpDefinition)
	write(t, filepath.Join(f.ws, "extra.go"), "package a\n\nfunc E() { A() }\n")
	write(t, filepath.Join(f.ws, "notes.md"), "# not Go\n")
	write(t, filepath.Join(f.ws, "b.go"), "package a\n\nfunc B() { A(); A() }\n")
	f.mustQuery(lspseam.OpDefinition)
	var order []string
	for _, e := range f.events() {
		if e.Event == "recv" && (e.Method == "workspace/didChangeWatchedFiles" || e.Method == "textDocument/definition") {
			order = append(order, e.Method)
		}
	}
	want := []string{"textDocument/definition", "workspace/didChangeWatchedFiles", "textDocument/definition"}
	if !slices.Equal(order, want) {
		t.Fatalf("order: %q, want %q", order, want)
	}
	// Without registrations, the server gets its configured extensions.
	if w := f.watched(); !slices.Equal(w, []string{"extra.go created", "b.go changed"}) {
		t.Fatalf("watched changes: %q", w)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestUnknownServerWithoutWatchersRestarts: a server the table does not
// know, which registered no watchers, is not trusted to act on file
// events: a file of its language created or changed while it runs means a
// fresh process, which reads the disk (the created file is opened for it),
// and the answer is not marked incomplete. A change to a file of another
// language keeps it running.
func TestUnknownServerWithoutWatchersRestarts(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echoText, nil)
	f.mustQuery(lspseam.OpDefinition)
	write(t, filepath.Join(f.ws, "notes.md"), "# not Go\n")
	f.mustQuery(lspseam.OpDefinition)
	if pids := f.pids(); len(pids) != 1 {
		t.Fatalf("restarted for a file of another language: %v", pids)
	}
	createdGoFileRestarts(t, f, 0)
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestWatchExtensions: a server that reads files of another language from
// disk (the table's yaml-language-server: JSON schemas) and registers no
// watchers hears of their changes like its own files', without a restart;
// a change to a file of neither kind is still not sent.
func TestWatchExtensions(t *testing.T) {
	g := baseline(t)
	script := maps.Clone(echoText)
	script["serverInfo"] = map[string]any{"name": "yaml-language-server", "version": "(fake)"}
	f := newFake(t, script, nil)
	f.mustQuery(lspseam.OpDefinition)
	write(t, filepath.Join(f.ws, "schema.json"), "{}\n")
	write(t, filepath.Join(f.ws, "notes.md"), "# neither\n")
	if res := f.mustQuery(lspseam.OpDefinition); res.Incomplete != "" {
		t.Fatalf("marked incomplete: %s", res.Incomplete)
	}
	if w := f.watched(); !slices.Equal(w, []string{"schema.json created"}) {
		t.Fatalf("file events %q, want the schema's creation only", w)
	}
	if pids := f.pids(); len(pids) != 1 {
		t.Fatalf("restarted: %v", pids)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestWatchRegistrations: a server that registers watchers gets what its
// globs and kinds select, and nothing after it unregisters.
func TestWatchRegistrations(t *testing.T) {
	g := baseline(t)
	register := map[string]any{"serverRequest": "client/registerCapability", "params": map[string]any{"registrations": []any{
		map[string]any{"id": "w1", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.{txt,mod}"},
			map[string]any{"globPattern": map[string]any{"baseUri": "$WS", "pattern": "gen/*.go"}, "kind": 4},
		}}},
	}}}
	unregister := map[string]any{"serverRequest": "client/unregisterCapability", "params": map[string]any{"unregisterations": []any{
		map[string]any{"id": "w1", "method": "workspace/didChangeWatchedFiles"},
	}}}
	script := map[string]any{"methods": map[string]any{
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
		"textDocument/hover":      map[string]any{"result": nil, "before": []any{unregister}},
		"initialized":             map[string]any{"action": "none", "after": []any{register}},
	}}
	f := newFake(t, script, nil)
	// Here before the server starts: its creation is a Go file the
	// registrations do not cover (TestUncoveredSourcesRestart), its
	// deletion one they do.
	write(t, filepath.Join(f.ws, "gen/z.go"), "package gen\n")
	ws, _ := filepath.EvalSymlinks(f.ws)
	data, _ := json.Marshal(script)
	if err := os.WriteFile(f.script, []byte(strings.ReplaceAll(string(data), "$WS", FileURI(ws))), 0o644); err != nil {
		t.Fatal(err)
	}
	f.mustQuery(lspseam.OpDefinition)
	if !waitFor(2*time.Second, func() bool { return countResponses(f, "client/registerCapability") > 0 }) {
		t.Fatal("the fake server did not register")
	}
	write(t, filepath.Join(f.ws, "notes.txt"), "x\n")
	write(t, filepath.Join(f.ws, "go.mod"), "module a\n")
	f.mustQuery(lspseam.OpDefinition)
	if err := os.Remove(filepath.Join(f.ws, "gen/z.go")); err != nil {
		t.Fatal(err)
	}
	f.mustQuery(lspseam.OpDefinition)
	if w := f.watched(); !slices.Equal(w, []string{"notes.txt created", "go.mod created", "z.go deleted"}) {
		t.Fatalf("watched changes: %q", w)
	}
	// After unregistering, nothing matches.
	if _, err := f.query(context.Background(), lspseam.OpHover, "a.go"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.ws, "more.txt"), "x\n")
	f.mustQuery(lspseam.OpDefinition)
	if w := f.watched(); len(w) != 3 {
		t.Fatalf("a change was delivered after unregistering: %q", w)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestUncoveredSourcesRestart: a server whose watcher registrations leave
// out files of its own language (terraform-ls registers watchers for
// .terraform/ only) would never hear of them: a file of its language
// created or changed outside them means a fresh process, which opens the
// created file, and the answer is not marked incomplete; a change its
// registrations do cover is still sent, without a restart.
func TestUncoveredSourcesRestart(t *testing.T) {
	g := baseline(t)
	register := map[string]any{"serverRequest": "client/registerCapability", "params": map[string]any{"registrations": []any{
		map[string]any{"id": "w1", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": "**/*.txt"},
		}}},
	}}}
	script := map[string]any{"methods": map[string]any{
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
		"initialized":             map[string]any{"action": "none", "after": []any{register}},
	}}
	f := newFake(t, script, nil)
	f.mustQuery(lspseam.OpDefinition)
	if !waitFor(2*time.Second, func() bool { return countResponses(f, "client/registerCapability") > 0 }) {
		t.Fatal("the fake server did not register")
	}
	write(t, filepath.Join(f.ws, "notes.txt"), "x\n")
	f.mustQuery(lspseam.OpDefinition)
	if w, pids := f.watched(), f.pids(); !slices.Equal(w, []string{"notes.txt created"}) || len(pids) != 1 {
		t.Fatalf("a covered change: watched %q, server processes %v; want it sent to the one server", w, pids)
	}
	createdGoFileRestarts(t, f, 1)
	f.noViolations()
	checkQuiescent(t, f, g)
}

// createdGoFileRestarts creates a Go file the fake server will not hear
// of, and checks that the next answer comes from a second server process,
// not marked incomplete, and that no event for it was sent (the server
// was sent events events in all).
func createdGoFileRestarts(t *testing.T, f *fake, events int) {
	t.Helper()
	write(t, filepath.Join(f.ws, "extra.go"), "package a\n\nfunc E() { A() }\n")
	if res := f.mustQuery(lspseam.OpDefinition); res.Incomplete != "" {
		t.Fatalf("marked incomplete: %s", res.Incomplete)
	}
	if pids := f.pids(); len(pids) != 2 {
		t.Fatalf("not restarted after a Go file it would not hear of was created: %v", pids)
	}
	if w := f.watched(); len(w) != events {
		t.Fatalf("file events %q, want %d: none for the Go file", w, events)
	}
}

func countResponses(f *fake, method string) int {
	n := 0
	for _, e := range f.events() {
		if e.Event == "recv" && e.ResponseTo == method {
			n++
		}
	}
	return n
}

// TestLostChangesRestartServer: when the watcher cannot know what changed
// (queue overflow), the server is replaced and the fresh one reads the disk.
func TestLostChangesRestartServer(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echoText, nil)
	f.hoverText("a.go")
	ws, _ := filepath.EvalSymlinks(f.ws)
	f.p.watchers.mu.Lock()
	w := f.p.watchers.byRoot[ws]
	f.p.watchers.mu.Unlock()
	if w == nil {
		t.Fatal("no watcher for the workspace")
	}
	w.mu.Lock()
	w.handleError(fsnotify.ErrEventOverflow)
	w.mu.Unlock()
	write(t, filepath.Join(f.ws, "a.go"), "package a // after overflow\n\nfunc A() {}\n")
	if got := f.hoverText("a.go"); !strings.Contains(got, "after overflow") {
		t.Fatalf("hover after overflow: %q", got)
	}
	if pids := f.pids(); len(pids) != 2 {
		t.Fatalf("want a restart after lost changes, got processes %v", pids)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestChangeSyncNoneReopens: a server whose change sync is None gets the
// new text by close and reopen.
func TestChangeSyncNoneReopens(t *testing.T) {
	g := baseline(t)
	script := map[string]any{
		"capabilities": map[string]any{"textDocumentSync": map[string]any{"openClose": true, "change": 0}, "hoverProvider": true},
		"methods":      map[string]any{"textDocument/hover": map[string]any{"result": "$echoText"}},
	}
	f := newFake(t, script, nil)
	f.hoverText("a.go")
	write(t, filepath.Join(f.ws, "a.go"), "package a // reopened\n\nfunc A() {}\n")
	if got := f.hoverText("a.go"); !strings.Contains(got, "reopened") {
		t.Fatalf("hover: %q", got)
	}
	if o, c, ch := f.received("textDocument/didOpen"), f.received("textDocument/didClose"), f.received("textDocument/didChange"); o != 2 || c != 1 || ch != 0 {
		t.Fatalf("%d didOpen, %d didClose, %d didChange; want 2, 1, 0", o, c, ch)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

func TestIdleShutdown(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echoText, map[string]any{"idleTimeoutMs": 200})
	f.hoverText("a.go")
	if !waitFor(testenv.StepBudget(t), func() bool { return liveFakes(t) == 0 }) {
		t.Fatal("the idle server was not stopped")
	}
	if f.received("shutdown") != 1 {
		t.Fatalf("an idle server is stopped gracefully: %d shutdown requests", f.received("shutdown"))
	}
	if got := f.hoverText("a.go"); !strings.HasPrefix(got, "package a") {
		t.Fatalf("hover after restart: %q", got)
	}
	if pids := f.pids(); len(pids) != 2 {
		t.Fatalf("want a lazy restart, got processes %v", pids)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestProjectRoots: with rootMarkers, each module of a workspace gets its
// own server, running in the module's directory.
func TestProjectRoots(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echo, map[string]any{"rootMarkers": []string{"go.mod"}})
	write(t, filepath.Join(f.ws, "m1/go.mod"), "module m1\n")
	write(t, filepath.Join(f.ws, "m1/x/x.go"), "package x\n\nfunc X() {}\n")
	write(t, filepath.Join(f.ws, "m2/go.mod"), "module m2\n")
	write(t, filepath.Join(f.ws, "m2/y.go"), "package m2\n\nfunc Y() {}\n")
	for _, file := range []string{"m1/x/x.go", "m2/y.go", "a.go", "m1/x/x.go"} {
		if _, err := f.query(context.Background(), lspseam.OpDefinition, file); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	ws, _ := filepath.EvalSymlinks(f.ws)
	var cwds []string
	for _, e := range f.events() {
		if e.Event == "start" {
			cwds = append(cwds, e.Cwd)
		}
	}
	want := []string{filepath.Join(ws, "m1"), filepath.Join(ws, "m2"), ws}
	if !slices.Equal(cwds, want) {
		t.Fatalf("server working directories %q, want %q", cwds, want)
	}
	var roots []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == "initialize" {
			var p struct {
				RootURI string `json:"rootUri"`
			}
			json.Unmarshal(e.Params, &p)
			roots = append(roots, p.RootURI)
		}
	}
	if !slices.Equal(roots, []string{FileURI(want[0]), FileURI(want[1]), FileURI(want[2])}) {
		t.Fatalf("rootUris %q", roots)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestChangesAppliedSignal: for a server whose policy applies created files
// later (pyright), the request waits until the server logs that it
// enumerated its files again.
func TestChangesAppliedSignal(t *testing.T) {
	g := baseline(t)
	found := func(n int) map[string]any {
		return map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 3, "message": fmt.Sprintf("Found %d source files", n)}}
	}
	script := map[string]any{
		"initialize": map[string]any{"result": map[string]any{
			"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true},
			"serverInfo":   map[string]any{"name": "pyright"},
		}},
		"methods": map[string]any{
			"textDocument/definition":         map[string]any{"result": "$echoPosition"},
			"initialized":                     map[string]any{"action": "none", "after": []any{found(2)}},
			"workspace/didChangeWatchedFiles": map[string]any{"action": "none", "after": []any{map[string]any{"sleepMs": 300}, found(3)}},
		},
	}
	f := newFake(t, script, map[string]any{"settleMs": nil})
	f.mustQuery(lspseam.OpDefinition)
	write(t, filepath.Join(f.ws, "c.go"), "package a\n")
	if res := f.mustQuery(lspseam.OpDefinition); res.Incomplete != "" {
		t.Fatalf("marked incomplete: %s", res.Incomplete)
	}
	// Order, not time: in the log, the second request comes after the
	// second "Found" (which the server sends only after its 300 ms, so a
	// request that did not wait for it would come first).
	var order []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == "textDocument/definition" {
			order = append(order, "request")
		}
		if e.Event == "send" && e.Method == "window/logMessage" {
			order = append(order, "found")
		}
	}
	if !slices.Equal(order, []string{"found", "request", "found", "request"}) {
		t.Fatalf("order %q", order)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestChangesAppliedSignalEdits: for a server whose policy applies edited
// files later too (intelephense: changeSettleEdits), a request after an
// edit of a file it has not opened waits for its ready log; an open
// document that changed on disk is closed and announced as a changed file
// (not sent as didChange, which intelephense applies late and silently),
// and the request waits for the log that follows.
func TestChangesAppliedSignalEdits(t *testing.T) {
	g := baseline(t)
	indexed := map[string]any{"notification": "window/logMessage", "params": map[string]any{"type": 3, "message": "Indexer: Indexing finished. 1 of 1 files indexed in 0.3 s."}}
	script := map[string]any{
		"initialize": map[string]any{"result": map[string]any{
			"capabilities": map[string]any{"textDocumentSync": 2, "definitionProvider": true},
			"serverInfo":   map[string]any{"name": "intelephense"},
		}},
		"methods": map[string]any{
			"textDocument/definition": map[string]any{"result": "$echoPosition"},
			"initialized": map[string]any{"action": "none", "after": []any{
				map[string]any{"serverRequest": "client/registerCapability", "params": map[string]any{"registrations": []any{map[string]any{
					"id": "w", "method": "workspace/didChangeWatchedFiles",
					"registerOptions": map[string]any{"watchers": []any{map[string]any{"globPattern": "**/*", "kind": 7}}}}}}},
				indexed,
			}},
			"workspace/didChangeWatchedFiles": map[string]any{"action": "none", "after": []any{map[string]any{"sleepMs": 300}, indexed}},
		},
	}
	f := newFake(t, script, map[string]any{"settleMs": nil})
	f.mustQuery(lspseam.OpDefinition) // opens a.go
	write(t, filepath.Join(f.ws, "b.go"), "package a // edited, not open\n\nfunc B() { A() }\n")
	if res := f.mustQuery(lspseam.OpDefinition); res.Incomplete != "" {
		t.Fatalf("after editing b.go: marked incomplete: %s", res.Incomplete)
	}
	write(t, filepath.Join(f.ws, "a.go"), "package a // edited while open\n\nfunc A() {}\n")
	if res := f.mustQuery(lspseam.OpDefinition); res.Incomplete != "" {
		t.Fatalf("after editing a.go: marked incomplete: %s", res.Incomplete)
	}
	// Order, not time: each request after an edit comes after the log the
	// server sends 300 ms after the event; the open a.go is closed, its
	// change announced as a file event and opened again, never changed.
	var order []string
	for _, e := range f.events() {
		switch {
		case e.Event == "recv" && e.Method == "textDocument/definition":
			order = append(order, "request")
		case e.Event == "send" && e.Method == "window/logMessage":
			order = append(order, "indexed")
		case e.Event == "recv" && strings.HasPrefix(e.Method, "textDocument/did"):
			order = append(order, strings.TrimPrefix(e.Method, "textDocument/"))
		case e.Event == "recv" && e.Method == "workspace/didChangeWatchedFiles":
			order = append(order, "event")
		}
	}
	// (The first didOpen and the first log race: skip to the first request.)
	if i := slices.Index(order, "request"); i >= 0 {
		order = order[i:]
	}
	want := []string{"request", "event", "indexed", "request", "didClose", "event", "indexed", "didOpen", "request"}
	if !slices.Equal(order, want) {
		t.Fatalf("order %q, want %q", order, want)
	}
	if w := f.watched(); !slices.Equal(w, []string{"b.go changed", "a.go changed"}) {
		t.Fatalf("watched changes: %q", w)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// TestPollingFallbackStaysFresh: with inotify unavailable, each query
// rescans the workspace, and the server is told of every change.
func TestPollingFallbackStaysFresh(t *testing.T) {
	g := baseline(t)
	f := newFake(t, asKnown(echoText), nil)
	watchModes[1].setup(f.p.watchers) // inotify fails: polling
	f.hoverText("a.go")
	write(t, filepath.Join(f.ws, "extra.go"), "package a\n")
	write(t, filepath.Join(f.ws, "b.go"), "package a // edited\n")
	write(t, filepath.Join(f.ws, "a.go"), "package a // open and edited\n\nfunc A() {}\n")
	if got := f.hoverText("a.go"); !strings.Contains(got, "open and edited") {
		t.Fatalf("hover: %q", got)
	}
	if w := f.watched(); !slices.Equal(slices.Sorted(slices.Values(w)), []string{"b.go changed", "extra.go created"}) {
		t.Fatalf("watched changes: %q", w)
	}
	f.p.watchers.mu.Lock()
	polling := false
	for _, w := range f.p.watchers.byRoot {
		polling = w.polling
	}
	f.p.watchers.mu.Unlock()
	if !polling {
		t.Fatal("the watcher was not polling")
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}

// withoutTransient leaves out only what neither existed before nor exists
// now, and keeps even that when a server holds the path open.
func TestWithoutTransient(t *testing.T) {
	c := func(path, first, last string) lspseam.PathChange {
		return lspseam.PathChange{Path: path, First: first, Last: last}
	}
	changes := []lspseam.PathChange{
		c("/w/.a.go.lspseam-1.tmp", "created", "deleted"),
		c("/w/a.go", "changed", "changed"),
		c("/w/b.go", "created", "changed"),
		c("/w/c.go", "deleted", "created"),
		c("/w/d.go", "changed", "deleted"),
		c("/w/open.go", "created", "deleted"),
	}
	got := withoutTransient(slices.Clone(changes), []string{"/w/open.go"})
	want := slices.Concat(changes[1:5], changes[5:])
	if !slices.Equal(got, want) {
		t.Errorf("withoutTransient = %v, want %v", got, want)
	}
	if got := withoutTransient(changes[:1], nil); len(got) != 0 {
		t.Errorf("a temporary file alone: %v, want nothing", got)
	}
}

// TestConfigurationChangeRestarts: a server that does not act on file
// events read its project's configuration (its root markers: clangd's
// compile_flags.txt) when it started; one created or changed while it runs
// means a fresh process, as a change to a source of its language does.
func TestConfigurationChangeRestarts(t *testing.T) {
	g := baseline(t)
	f := newFake(t, echoText, map[string]any{"rootMarkers": []string{"compile_flags.txt"}})
	f.mustQuery(lspseam.OpDefinition)
	write(t, filepath.Join(f.ws, "compile_flags.txt"), "-xc\n")
	f.mustQuery(lspseam.OpDefinition)
	if pids := f.pids(); len(pids) != 2 {
		t.Fatalf("not restarted after its configuration was created: %v", pids)
	}
	write(t, filepath.Join(f.ws, "compile_flags.txt"), "-xc\n-std=c99\n")
	f.mustQuery(lspseam.OpDefinition)
	if pids := f.pids(); len(pids) != 3 {
		t.Fatalf("not restarted after its configuration changed: %v", pids)
	}
	if w := f.watched(); len(w) != 0 {
		t.Fatalf("file events sent to a server that registered no watchers: %q", w)
	}
	f.noViolations()
	checkQuiescent(t, f, g)
}
