package localstdio

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
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

// errChangesLost means the instance cannot be brought up to date and must
// be replaced by a fresh server, which reads the disk itself.
type errChangesLost struct{ why string }

func (e errChangesLost) Error() string { return "file changes were lost: " + e.why }

// catchUp delivers the changes recorded since the last query. It runs with
// the workspace turn held, after the watcher's barrier.
func (in *instance) catchUp(ctx context.Context) error {
	regs := in.watches.list()
	within := ""
	if regs == nil {
		// The extension fallback covers the server's own project only.
		within = in.root.Path
	}
	changes, lost := in.sub.take(within)
	if lost != "" {
		return errChangesLost{lost}
	}
	if len(changes) == 0 {
		return nil
	}
	exts := make([]string, 0, len(in.server.Config.ExtensionToLanguage))
	for ext := range in.server.Config.ExtensionToLanguage {
		exts = append(exts, ext)
	}
	plan, err := in.core.FileChanges(ctx, lspseam.FileChangesInput{
		Changes:       changes,
		Registrations: regs,
		Extensions:    exts,
		Root:          in.root.Path,
		OpenDocuments: in.docs.paths(),
		MaxBatch:      maxChangesPerNotification,
	})
	if err != nil {
		return err
	}
	for _, path := range plan.Reverify {
		if err := in.reverify(ctx, path); err != nil {
			return err
		}
	}
	structural := false // a file appeared or disappeared
	for _, batch := range plan.Batches {
		if err := in.notify(ctx, "workspace/didChangeWatchedFiles", batch); err != nil {
			return err
		}
		for _, c := range batch.Changes {
			structural = structural || c.Type != lspseam.FileChanged
		}
	}
	if settle := in.neg.Readiness.ChangeSettleMs; structural && settle > 0 {
		// The server applies created and deleted files on a timer of its
		// own (see core/readiness.go): give it that long.
		in.log.Debug("waiting for the server to apply file changes", "ms", settle)
		timer := time.NewTimer(time.Duration(settle) * time.Millisecond)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-in.dead:
			return in.deadErr
		case <-ctx.Done():
			return ctxError(ctx, "waiting for the language server to apply file changes")
		}
	}
	if plan.Matched > 0 {
		in.log.Debug("file changes delivered", "matched", plan.Matched, "ignored", plan.Ignored, "reverified", len(plan.Reverify))
	}
	return nil
}

// registrationRequest records a client/registerCapability or
// client/unregisterCapability request's file watchers before it is
// answered, so no change is matched against a stale set.
func (in *instance) registrationRequest(ctx context.Context, method string, params json.RawMessage) {
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
	}
}
