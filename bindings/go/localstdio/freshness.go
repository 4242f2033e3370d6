package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// Bringing a running server up to date with the disk before a query: the
// changes its subscription recorded become workspace/didChangeWatchedFiles
// notifications (matched against what the server registered, decided by
// the core) and re-verifications of its open documents.

// maxChangesPerNotification bounds one didChangeWatchedFiles notification,
// so a burst (a git checkout touching thousands of files) reaches the
// server as a few bounded messages rather than one huge one.
const maxChangesPerNotification = 1000

// watchRegistrations holds a server's workspace/didChangeWatchedFiles
// registrations, by registration id. The connection's handler updates it
// while queries read it.
type watchRegistrations struct {
	mu   sync.Mutex
	any  bool // the server registered at least once
	byID map[string]lspseam.WatchRegistration
	seq  []string // ids in registration order, for a deterministic input
}

// apply records a register or unregister update.
func (r *watchRegistrations) apply(u lspseam.WatchUpdate) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[string]lspseam.WatchRegistration{}
	}
	for _, reg := range u.Register {
		r.any = true
		if _, ok := r.byID[reg.ID]; !ok {
			r.seq = append(r.seq, reg.ID)
		}
		r.byID[reg.ID] = reg
	}
	for _, id := range u.Unregister {
		delete(r.byID, id)
	}
}

// list returns the registrations, or nil when the server never registered
// (then the core falls back to the server's configured extensions).
func (r *watchRegistrations) list() []lspseam.WatchRegistration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.any {
		return nil
	}
	out := []lspseam.WatchRegistration{}
	kept := r.seq[:0]
	for _, id := range r.seq {
		if reg, ok := r.byID[id]; ok {
			out = append(out, reg)
			kept = append(kept, id)
		}
	}
	r.seq = kept
	return out
}

// withoutTransient leaves out the paths that neither existed before nor
// exist now (created, then deleted: a writer's temporary file, lspseam's
// own atomic writes included), unless a server holds them open: the core
// tells a server nothing of them (fileChanges counts them ignored), and
// without them an agent's repeated edits of one file are the same input
// each time (changesMemo).
func withoutTransient(changes []lspseam.PathChange, open []string) []lspseam.PathChange {
	kept := changes[:0:0]
	for _, c := range changes {
		if c.First == "created" && c.Last == "deleted" && !slices.Contains(open, c.Path) {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// changedSources is the files of the server's languages that changes
// leave on disk (their last raw change is not a deletion): what a fresh
// server replacing one that missed them opens first (reopenChanged).
func (in *instance) changedSources(changes []lspseam.PathChange) []string {
	var out []string
	for _, c := range changes {
		if _, ok := in.server.Config.LanguageOf(c.Path); ok && c.Last != "deleted" {
			out = append(out, c.Path)
		}
	}
	return out
}

// errChangesLost means the instance cannot be brought up to date and must
// be replaced by a fresh server, which reads the disk itself.
type errChangesLost struct {
	why string
	// changed are the files a server that ignores file events missed
	// (present on disk, of its languages): the fresh server opens them
	// before its first answer (provider.go, reopenChanged).
	changed []string
}

func (e errChangesLost) Error() string { return "file changes were lost: " + e.why }

// catchUp delivers the changes recorded since the last query. It runs with
// the workspace turn held, after the watcher's barrier. A non-empty
// incomplete says the server did not confirm it applied the changes.
func (in *instance) catchUp(ctx context.Context) (incomplete string, err error) {
	regs := in.watches.list()
	within := ""
	if regs == nil {
		// The extension fallback covers the server's own project only.
		within = in.root.Path
	}
	changes, lost := in.sub.take(within)
	if lost != "" {
		return "", errChangesLost{why: lost}
	}
	if len(changes) == 0 {
		return "", nil
	}
	open := in.docs.paths()
	if changes = withoutTransient(changes, open); len(changes) == 0 {
		return "", nil
	}
	// Sorted: the same server's input is then the same bytes every time
	// (changesMemo).
	exts := slices.Sorted(maps.Keys(in.server.Config.ExtensionToLanguage))
	// Files of other languages it reads from disk (a YAML server's JSON
	// schemas) count as its own.
	exts = append(exts, in.neg.Readiness.WatchExtensions...)
	// A server the table does not know (or whose behaviour was not
	// measured) is trusted with file events only when it registered
	// watchers: it then said it acts on them. Otherwise it is treated like
	// one that ignores them.
	ignores := in.neg.Readiness.IgnoresWatchedFiles || (in.neg.Readiness.EventsNeedRegistration && regs == nil)
	names := slices.Sorted(maps.Keys(in.server.Config.FileNameToLanguage))
	if regs != nil {
		// The project's trees outside the workspace that the server did
		// not register (gopls loads a replace directory without watching
		// it) are announced to it as if it had: it applies events of any
		// file it loaded (outside.go).
		markers := slices.Concat(names, in.server.Config.RootMarkers)
		if reg, ok := outsideRegistration(in.outsideProject, exts, markers); ok {
			regs = append(slices.Clone(regs), reg)
		}
	}
	if ignores {
		// Nor does it read its project's configuration again — the files
		// that mark its root, clangd's compile_commands.json and
		// compile_flags.txt — which it read when it started: one that
		// changed counts as its own file, so the fresh process reads it
		// (clangd kept reporting a header's C++-only errors as fresh
		// after compile_flags.txt said C).
		names = append(names, in.server.Config.RootMarkers...)
	}
	input := lspseam.FileChangesInput{
		Changes:       changes,
		Registrations: regs,
		Extensions:    exts,
		FileNames:     names,
		Root:          in.root.Path,
		OpenDocuments: open,
		MaxBatch:      maxChangesPerNotification,

		OpenNewDirectories: in.neg.Readiness.OpenNewDirectories,
	}
	if !toWatchPaths(hostPaths, &input) {
		// A Windows network share's paths have no form the core matches
		// (fileChanges); a fresh server reads the disk instead.
		return "", errChangesLost{why: "files changed in a workspace on a network share (a UNC path), whose changes lspseam cannot name to the server"}
	}
	plan, err := in.changes.fileChanges(ctx, in.core, input)
	if err != nil {
		return "", err
	}
	fromWatchPaths(hostPaths, &plan)
	if plan.Matched > 0 && ignores {
		// Telling this server would change nothing: it keeps answering from
		// what it indexed. A fresh process reads the disk.
		why := "this server ignores file change events"
		if !in.neg.Readiness.IgnoresWatchedFiles {
			why = "this server registered no file watchers, so lspseam cannot rely on it acting on file change events"
		}
		return "", errChangesLost{fmt.Sprintf("%d file(s) it has not opened changed on disk, and %s", plan.Matched, why), in.changedSources(changes)}
	}
	if len(plan.Uncovered) > 0 {
		// Files of its own kinds that its watcher registrations leave out
		// (terraform-ls watches only .terraform/): told nothing, it would
		// keep answering from what it read, so a fresh process reads the
		// disk instead.
		return "", errChangesLost{fmt.Sprintf("%d file(s) it has not opened changed on disk (%s), and its file watcher registrations do not cover them", len(plan.Uncovered), filepath.Base(plan.Uncovered[0])), in.changedSources(changes)}
	}
	mark := in.progress.logMark()
	// A server that applies edits late (ChangeSettleEdits) applies an open
	// document's didChange to other files' answers late too, and says
	// nothing when it has (intelephense answered the next definition from
	// another file with the old line): its changed open documents are
	// closed and announced as changed files instead, which it re-indexes
	// from the disk and then logs its ready signal for.
	var reindex []lspseam.FileEvent
	for _, path := range plan.Reverify {
		if in.neg.Readiness.ChangeSettleEdits {
			ev, ok, err := in.closeChanged(ctx, path)
			if err != nil {
				return "", err
			}
			if ok {
				reindex = append(reindex, ev)
				continue
			}
		}
		if err := in.reverify(ctx, path); err != nil {
			return "", err
		}
	}
	structural := false // a file the server reads appeared or disappeared
	reread := false     // one appeared or disappeared where the server does not look
	scope := in.unlookedPaths()
	edited := false // a source file (of the server's languages) changed
	if len(reindex) > 0 {
		plan.Batches = append(plan.Batches, lspseam.FileChangeBatch{Changes: reindex})
	}
	for _, batch := range plan.Batches {
		if err := in.notify(ctx, "workspace/didChangeWatchedFiles", batch); err != nil {
			return "", err
		}
		for _, c := range batch.Changes {
			switch {
			case c.Type == lspseam.FileChanged:
				if _, ok := in.server.Config.LanguageOf(c.URI); ok {
					edited = true
				}
			case !in.readsFile(c.URI):
				// Nothing to wait for (readsFile).
			case scope.ignores(c.URI):
				reread = true
			default:
				structural = true
			}
		}
	}
	for _, path := range plan.Open {
		// The server learns of a new directory's files only from an open
		// one (see core/readiness.go); one that fails the source rules is
		// simply not opened.
		lang, ok := in.server.Config.LanguageOf(path)
		if !ok {
			continue // a file it reads but does not serve (WatchExtensions)
		}
		src, err := ReadSource(in.ws, path, in.server.Config.MaxDocumentBytes)
		if err != nil {
			continue
		}
		if err := in.ensureOpen(ctx, src, lang); err != nil {
			return "", err
		}
		// Opening is not enough: gopls loads an open file's package when a
		// request needs it, not before the next request on another file.
		// A hover at the file's start needs it; its answer is not used.
		req, err := in.core.Request(ctx, lspseam.OpHover, src.URI, lspseam.Position{})
		if err != nil {
			return "", err
		}
		var ignored json.RawMessage
		if err := in.call(ctx, req.Method, req.Params, &ignored); err != nil && (in.isDead() || ctx.Err() != nil) {
			return "", err
		}
		in.log.Debug("opened a file of a new directory", "path", path)
	}
	if reread {
		// Told to read its settings again, pyright applies its
		// configuration anew: it enumerates its files, resolves every
		// import again and logs the signal awaited below. settings is
		// null: they are pulled (workspace/configuration) as at the start.
		if err := in.notify(ctx, "workspace/didChangeConfiguration", map[string]any{"settings": nil}); err != nil {
			return "", err
		}
		structural = true
	}
	if structural || (edited && in.neg.Readiness.ChangeSettleEdits) {
		if incomplete, err := in.awaitChangesApplied(ctx, mark); incomplete != "" || err != nil {
			return incomplete, err
		}
	}
	if plan.OpenOmitted > 0 {
		return fmt.Sprintf("%d new directories appeared since the last query, more than language server %q is shown at once (%d); it may not know the files in %d of them yet — ask again", len(plan.Open)+plan.OpenOmitted, in.server.ID, len(plan.Open), plan.OpenOmitted), nil
	}
	if plan.Matched > 0 {
		in.log.Debug("file changes delivered", "matched", plan.Matched, "ignored", plan.Ignored, "reverified", len(plan.Reverify))
	}
	return "", nil
}

// readsFile reports whether the server reads the file at uri from disk:
// a file of its languages, of the other files it reads (WatchExtensions),
// or a root marker (its project's configuration). No other file's
// appearing or disappearing changes its answers — nor a directory's,
// whose files come as changes of their own — and a server that signals
// when it has applied such a change signals nothing for them: after a
// notes.txt was created, pyright's next answer waited out 5 s and
// intelephense's 10 s, both then marked as not confirmed.
func (in *instance) readsFile(uri string) bool {
	if _, ok := in.server.Config.LanguageOf(uri); ok {
		return true
	}
	if slices.Contains(in.neg.Readiness.WatchExtensions, core.FinalExtension(uri)) {
		return true
	}
	return slices.Contains(in.server.Config.RootMarkers, core.BaseName(uri))
}

// unlookedPaths is the paths the server does not look at when they are
// created or deleted, until it is made to read its project again
// (pyrightscope.go), for one catch-up's changes.
func (in *instance) unlookedPaths() *unlooked { return &unlooked{in: in} }

type unlooked struct {
	in      *instance
	read    bool          // pyright's configuration was read (at the first created or deleted path)
	pyright *pyrightScope // nil: not a pyright
}

// ignores reports whether the server does not look at the file at uri
// (one it reads: readsFile) when it is created or deleted.
func (u *unlooked) ignores(uri string) bool {
	if !u.read {
		u.read = true
		u.pyright = u.in.pyrightScopeOf()
	}
	if u.pyright == nil {
		return false
	}
	path, ok := hostPaths.URIPath(uri)
	return ok && u.pyright.ignores(path)
}

// closeChanged closes the open document at path when its bytes on disk
// differ from what the server holds, and returns the file event that
// tells the server to read it from the disk; ok is false when the document
// is not open, unchanged or unreadable (reverify deals with those).
func (in *instance) closeChanged(ctx context.Context, path string) (ev lspseam.FileEvent, ok bool, err error) {
	d := in.docs.get(path)
	if d == nil {
		return ev, false, nil
	}
	src, err := ReadSource(in.ws, path, in.server.Config.MaxDocumentBytes)
	if err != nil || in.docs.hashOf(src.Text) == d.hash {
		return ev, false, nil
	}
	if err := in.closeDocument(ctx, d); err != nil {
		return ev, false, err
	}
	return lspseam.FileEvent{URI: d.uri, Type: lspseam.FileChanged}, true, nil
}

// awaitChangesApplied waits, for a server whose readiness policy says it
// applies created and deleted files (with ChangeSettleEdits, also edited
// ones) later (core/readiness.go), until it logs the policy's signal again
// after mark, at most ChangeSettleMs.
func (in *instance) awaitChangesApplied(ctx context.Context, mark int) (incomplete string, err error) {
	policy := in.neg.Readiness
	if policy.ChangeSettleMs <= 0 || policy.ReadyLog == "" {
		return "", nil
	}
	deadline := time.NewTimer(time.Duration(policy.ChangeSettleMs) * time.Millisecond)
	defer deadline.Stop()
	start := time.Now()
	for {
		_, changed := in.progress.snapshot()
		if in.progress.readySeenAfter(mark) {
			in.log.Debug("server applied the file changes", "waited", time.Since(start))
			return "", nil
		}
		select {
		case <-changed:
		case <-deadline.C:
			// The signal may still come before the answer (see awaitLog).
			in.log.Info("server did not confirm it applied file changes", "waited", time.Since(start))
			in.awaitLog(fmt.Sprintf("language server %q did not confirm within %d ms that it had applied the files changed on disk since the last query; the answer may not reflect them — ask again", in.server.ID, policy.ChangeSettleMs), mark)
			return "", nil
		case <-in.dead:
			return "", in.deadErr
		case <-ctx.Done():
			return "", ctxError(ctx, "waiting for the language server to apply file changes")
		}
	}
}

// registrationRequest records a client/registerCapability or
// client/unregisterCapability request's file watchers before it is
// answered, so no change is matched against a stale set.
func (in *instance) registrationRequest(ctx context.Context, method string, params json.RawMessage) {
	in.pullRegistration(method, params)
	u, err := in.core.FileWatchers(ctx, method, params)
	if err != nil {
		in.log.Debug("registration not understood", "method", method, "err", err)
		return
	}
	for _, p := range u.Problems {
		in.log.Info("file watcher ignored", "problem", p)
	}
	if len(u.Register) > 0 || len(u.Unregister) > 0 {
		in.watches.apply(u)
		in.log.Debug("file watchers updated", "registered", len(u.Register), "unregistered", len(u.Unregister))
		if registersOutside(in.ws.Path, u) {
			in.watchRegisteredOutside()
		}
	}
}

// pullRegistration notes a server registering (or unregistering) pull
// diagnostics dynamically, as pyright does: it pulls only for a client
// that registers it, and its pushed reports include interim ones for a new
// version (an empty list, or the old problems) before the checked one.
func (in *instance) pullRegistration(method string, params json.RawMessage) {
	type reg struct{ ID, Method string }
	var p struct {
		Registrations   []reg `json:"registrations"`
		Unregistrations []reg `json:"unregisterations"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	in.pullMu.Lock()
	defer in.pullMu.Unlock()
	if in.pullIDs == nil {
		in.pullIDs = map[string]bool{}
	}
	// By id: pyright registers anew, then unregisters the old one.
	for _, r := range p.Registrations {
		if r.Method == "textDocument/diagnostic" && method == "client/registerCapability" {
			in.pullIDs[r.ID] = true
		}
	}
	for _, r := range p.Unregistrations {
		if r.Method == "textDocument/diagnostic" && method == "client/unregisterCapability" {
			delete(in.pullIDs, r.ID)
		}
	}
	in.dynamicPull.Store(len(in.pullIDs) > 0)
	in.log.Debug("pull diagnostics registrations", "count", len(in.pullIDs))
}
