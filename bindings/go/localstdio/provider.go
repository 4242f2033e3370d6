package localstdio

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Provider serves seam queries with one configured language server: one
// process per (canonical workspace, project root), started lazily by the
// first query, replaced after any failure and stopped after idleTimeoutMs
// without queries, and one abortable FIFO queue per process that
// serializes catch-up → read-source → start → open/verify → request.
// Different workspaces and roots run in parallel.
//
// Before each query's request the server is brought up to date with the
// disk (see watcher.go, freshness.go and documents.go), so an answer never
// comes from bytes older than the query's turn.
//
// Provider is safe for concurrent use. Close disposes of it: later queries
// fail with LSP_DISPOSED, active ones are cancelled, and every server is
// shut down and awaited before Close returns.
type Provider struct {
	server   *Server
	core     *lspseam.Core
	log      *slog.Logger
	watchers *watcherSet
	ownSet   bool // watchers is this provider's own (not a Host's)

	ctx    context.Context // cancelled by Close: reaches every active query
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	slots   map[string]*slot // by canonical workspace path + "\x00" + root path
	active  sync.WaitGroup   // queries inside Query, idle reapers
	closeMu sync.Mutex       // serializes Close
}

// slot is one (workspace, root)'s queue and its current instance.
type slot struct {
	ws    Workspace // the session's workspace: the source boundary
	root  Workspace // the project root: the server's cwd and rootUri
	turns turnQueue // FIFO: one query at a time, in the order they joined

	// Guarded by the turn:
	inst     *instance
	reopen   []string // files the replaced server missed: the next one opens them first
	lastUsed time.Time
	idle     *time.Timer
}

// Option configures a Provider.
type Option func(*Provider)

// WithLogger sets the logger for lifecycle events (default: discard).
func WithLogger(l *slog.Logger) Option { return func(p *Provider) { p.log = l } }

// withWatchers shares a host's workspace watchers between its providers.
func withWatchers(set *watcherSet) Option { return func(p *Provider) { p.watchers = set } }

// NewProvider returns a provider for one server of a loaded table.
func NewProvider(core *lspseam.Core, server Server, opts ...Option) *Provider {
	p := &Provider{
		server: &server,
		core:   core,
		log:    slog.New(slog.DiscardHandler),
		slots:  map[string]*slot{},
	}
	for _, o := range opts {
		o(p)
	}
	if p.watchers == nil {
		p.watchers = newWatcherSet(p.log)
		p.ownSet = true
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return p
}

// Registration returns the lspseam.Registration that publishes p in a
// Service under its server id.
func (p *Provider) Registration() lspseam.Registration {
	return lspseam.Registration{ID: p.server.ID, ExtensionToLanguage: p.server.Config.ExtensionToLanguage, FileNameToLanguage: p.server.Config.FileNameToLanguage, Provider: p}
}

func (p *Provider) disposed() error {
	return lspseam.Errorf(lspseam.CodeDisposed, "the %q language server provider was shut down; no further queries are accepted", p.server.ID)
}

// Query implements lspseam.Provider.
func (p *Provider) Query(ctx context.Context, q lspseam.ProviderQuery) (lspseam.Result, error) {
	var res lspseam.Result
	err := p.withTurn(ctx, q, string(q.Operation), func(ctx context.Context, s *slot) (err error) {
		res, err = p.run(ctx, s, q)
		return err
	})
	return res, err
}

// withTurn checks q's source, joins the queue of q's (workspace, root)
// and runs fn with the turn held. phase names the work in errors.
func (p *Provider) withTurn(ctx context.Context, q lspseam.ProviderQuery, phase string, fn func(context.Context, *slot) error) error {
	ws, err := CanonicalWorkspace(q.WorkspaceRoot)
	if err != nil {
		return err
	}
	// A query bound to be refused for its source is refused now, before it
	// joins a queue; the source is read, and checked again, at its turn.
	if err := CheckSource(ws, q.FilePath, p.server.Config.MaxDocumentBytes); err != nil {
		return err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return p.disposed()
	}
	root := projectRoot(ws, q.FilePath, p.server.Config.RootMarkers)
	key := ws.Path + "\x00" + root.Path
	s := p.slots[key]
	if s == nil {
		s = &slot{ws: ws, root: root}
		p.slots[key] = s
	}
	p.active.Add(1)
	p.mu.Unlock()
	defer p.active.Done()

	// Close cancels every query through p.ctx, whatever its caller's ctx.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(p.ctx, func() { cancel(p.disposed()) })
	defer stop()

	ticket := s.turns.join()
	lspseam.Queued(ctx) // the caller may let the next query join now
	if err := ticket.wait(ctx); err != nil {
		return p.ctxErr(ctx, "waiting for earlier queries on this workspace")
	}
	defer s.turns.release()
	return fn(ctx, s)
}

// prepare is the start of every turn: a dead instance is cleared, a live
// one caught up with the disk, the source read (never earlier than the
// turn, so a queued query sees the file as it is now, and rejected before
// any server starts) and the server started if none runs. notice is set
// when the server did not confirm it applied changes.
func (p *Provider) prepare(ctx context.Context, s *slot, filePath string) (src Source, notice string, err error) {
	if s.inst != nil && s.inst.isDead() {
		s.inst.awaitStopped() // bounded termination before anything is reused
		s.inst = nil
	}
	if s.inst != nil {
		if notice, err = p.catchUp(ctx, s); err != nil {
			return Source{}, "", err
		}
	}
	if src, err = ReadSource(s.ws, filePath, p.server.Config.MaxDocumentBytes); err != nil {
		return Source{}, "", err
	}
	if s.inst == nil {
		inst, err := startInstance(ctx, p.server, p.core, p.log, s.ws, s.root, p.watchers)
		if err != nil {
			if ctx.Err() != nil {
				return Source{}, "", p.ctxErr(ctx, "starting the language server")
			}
			return Source{}, "", err
		}
		s.inst = inst
		if len(s.reopen) > 0 {
			reopen := s.reopen
			s.reopen = nil
			if err := p.reopenChanged(ctx, inst, s, reopen); err != nil {
				return Source{}, "", err
			}
		}
	}
	return src, notice, nil
}

// maxReopen bounds the files a restarted server is made to open first.
const maxReopen = 20

// reopenChanged opens, in a server started to replace one that missed file
// changes, the files that changed, and waits for its report on each (at
// most 2 s in all). A fresh clangd reads the disk, but its on-disk index
// still holds those files as they were until it re-indexes them, and for a
// moment it answers from that: a file it holds open answers from the
// current text, which it has parsed once it reports on it.
func (p *Provider) reopenChanged(ctx context.Context, in *instance, s *slot, paths []string) error {
	wait, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for i, path := range paths {
		if i == maxReopen {
			break
		}
		src, err := ReadSource(s.ws, path, p.server.Config.MaxDocumentBytes)
		if err != nil {
			continue // gone again, or refused by the source rules
		}
		lang, _ := p.server.Config.LanguageOf(src.Path)
		if err := in.ensureOpen(ctx, src, lang); err != nil {
			if ctx.Err() != nil {
				return p.ctxErr(ctx, "opening the changed files in the restarted language server")
			}
			return err
		}
		if wait.Err() == nil {
			in.diagnostics(wait, lspseam.SourceFile(src), lspseam.DiagnosticsOptions{})
		}
	}
	return nil
}

// run is one query's turn: everything here happens with the queue held, so
// the server sees one document lifecycle at a time.
func (p *Provider) run(ctx context.Context, s *slot, q lspseam.ProviderQuery) (lspseam.Result, error) {
	defer p.armIdle(s)
	src, notice, err := p.prepare(ctx, s, q.FilePath)
	if err != nil {
		return lspseam.Result{}, err
	}
	res, err := s.inst.query(ctx, q, src, notice)
	if err != nil && ctx.Err() != nil {
		if s.inst.isDead() {
			s.inst.awaitStopped()
		}
		return lspseam.Result{}, p.ctxErr(ctx, string(q.Operation))
	}
	return res, err
}

// catchUp passes the freshness barrier and brings the running server up to
// date with the disk. A server that cannot be (changes were lost, or it
// failed while being told) is replaced: a fresh one reads the disk itself.
func (p *Provider) catchUp(ctx context.Context, s *slot) (notice string, err error) {
	in := s.inst
	// Before the barrier, so the directories outside the workspace that
	// the server reads are covered by it (outside.go).
	unwatched := outsideNotice(p.server.ID, in.watchOutside())
	if err := in.sub.w.sync(ctx); err != nil {
		return "", p.ctxErr(ctx, "waiting for file events to be read")
	}
	epoch := in.diags.currentEpoch()
	in.caughtUpWork = in.progress.workMark()
	notice, err = in.catchUp(ctx)
	in.caughtUp = 0
	if in.diags.currentEpoch() != epoch {
		in.caughtUp = in.diags.caughtUpMark()
	}
	if err == nil {
		return joinNotices(notice, unwatched), nil
	}
	if ctx.Err() != nil {
		if in.isDead() {
			in.awaitStopped()
			s.inst = nil
		}
		return "", p.ctxErr(ctx, "telling the language server about file changes")
	}
	var lost errChangesLost
	if !errors.As(err, &lost) && !in.isDead() {
		return "", err
	}
	p.log.Info("restarting the language server so it re-reads the disk", "server", p.server.ID, "root", s.root.Path, "reason", err)
	if len(lost.changed) > 0 {
		s.reopen = lost.changed
	}
	in.invalidate(lspseam.Errorf(lspseam.CodeServerFailed, "language server %q was restarted: %v", p.server.ID, err))
	in.awaitStopped()
	s.inst = nil
	return "", nil
}

// armIdle records the end of a query and (re)starts the slot's idle timer.
// It runs with the turn held.
func (p *Provider) armIdle(s *slot) {
	s.lastUsed = time.Now()
	d := time.Duration(p.server.Config.IdleTimeoutMs) * time.Millisecond
	if s.idle == nil {
		s.idle = time.AfterFunc(d, func() { p.reapIdle(s) })
		return
	}
	s.idle.Reset(d)
}

// reapIdle stops the slot's server when it has had no query for
// idleTimeoutMs. A query holding the turn re-arms the timer when it ends,
// so a busy slot is left alone; the next query restarts the server.
func (p *Provider) reapIdle(s *slot) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.active.Add(1)
	p.mu.Unlock()
	defer p.active.Done()
	if !s.turns.tryAcquire() {
		return
	}
	defer s.turns.release()
	d := time.Duration(p.server.Config.IdleTimeoutMs) * time.Millisecond
	if idle := time.Since(s.lastUsed); idle < d {
		s.idle.Reset(d - idle)
		return
	}
	if s.inst == nil {
		return
	}
	p.log.Info("stopping an idle language server", "server", p.server.ID, "root", s.root.Path, "idleMs", p.server.Config.IdleTimeoutMs)
	s.inst.shutdown(time.Duration(p.server.Config.ShutdownTimeoutMs) * time.Millisecond)
	s.inst = nil
}

// ctxErr reports a context that ended: disposal, the caller's deadline or
// the caller's cancellation.
func (p *Provider) ctxErr(ctx context.Context, phase string) error {
	cause := context.Cause(ctx)
	var lerr *lspseam.Error
	if errors.As(cause, &lerr) && lerr.Code == lspseam.CodeDisposed {
		return lerr
	}
	return ctxError(ctx, phase)
}

// Close disposes of the provider: it rejects new queries, cancels active
// ones, shuts every server down (shutdown/exit within shutdownTimeoutMs,
// then SIGTERM → killGraceMs → SIGKILL) and waits until every process has
// been reaped. ctx bounds nothing that could leave a process behind; it is
// accepted for symmetry with other Close methods.
func (p *Provider) Close(ctx context.Context) error {
	p.closeMu.Lock()
	defer p.closeMu.Unlock()
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.active.Wait() // every query has returned, so no turn is held
	p.mu.Lock()
	slots := p.slots
	p.slots = map[string]*slot{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range slots {
		if s.idle != nil {
			s.idle.Stop()
		}
		if s.inst == nil {
			continue
		}
		wg.Add(1)
		go func(in *instance) {
			defer wg.Done()
			in.shutdown(time.Duration(p.server.Config.ShutdownTimeoutMs) * time.Millisecond)
		}(s.inst)
	}
	wg.Wait()
	if p.ownSet {
		p.watchers.wait()
	}
	return nil
}
