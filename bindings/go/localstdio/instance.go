package localstdio

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// One running language server for one (provider, workspace, project root):
// the process, the JSON-RPC connection, the negotiated capabilities, its
// open documents, its file-watch registrations and its subscription to the
// workspace's file changes. An instance serves one query at a time (its
// queue guarantees that); once anything goes wrong with the process or the
// protocol it is invalidated — terminated and never reused — and the next
// query starts a fresh one.

type instance struct {
	server *Server
	core   *lspseam.Core
	log    *slog.Logger
	ws     Workspace // the session's workspace: the source boundary, results' base
	root   Workspace // the project root: cwd, rootUri and workspace folder

	sub     *subscription      // the workspace's file changes since the last query
	docs    *documentCache     // open documents (guarded by the turn)
	watches watchRegistrations // what the server asked to be told about

	proc  *process
	codec *frameCodec
	conn  *jsonrpc2.Conn
	neg   lspseam.Negotiation

	progress        *progressTracker
	failures        failureLog                  // the policy's FailureLog: the server can no longer answer
	edits           editHook                    // the approved command's applyEdit, while it runs
	diags           diagnosticStore             // published and pulled diagnostics
	current         atomic.Pointer[string]      // the method being written or awaited, for failure messages
	checked         map[lspseam.Operation]error // CheckOperation's answers for this server (guarded by the workspace turn)
	changes         changesMemo                 // fileChanges' last answers (guarded by the workspace turn)
	commandRequests commandRequestsMemo         // the requests of the server's diagnostics command, by file
	settled         bool                        // the first query's readiness wait is done (guarded by the workspace turn)
	// caughtUp is the report mark when the server had all the changes
	// made outside lspseam this turn's catch-up told it of (0: it told it
	// none): a pushed report numbered at or below it may predate them
	// (catchupreports.go). Guarded by the workspace turn.
	caughtUp uint64
	// caughtUpWork is the server's work mark (progressTracker.workMark)
	// when this turn's catch-up began: work started after it may be the
	// server applying the changes (catchupreports.go).
	caughtUpWork int
	// unconfirmed: a wait for the policy's ReadyLog ended without it
	// (see readiness.go); the reason stands for every answer read before
	// the log (guarded by the workspace turn).
	unconfirmed string
	// unconfirmedMark: the log message after which ReadyLog confirms;
	// awaitingLog: unconfirmed is set; earlyAnswers counts the responses
	// read while the log was awaited — all three read on the read loop.
	unconfirmedMark atomic.Int64
	awaitingLog     atomic.Bool
	earlyAnswers    atomic.Int64
	// dynamicPull: the server registered textDocument/diagnostic
	// (client/registerCapability), so diagnostics are pulled.
	dynamicPull atomic.Bool
	pullMu      sync.Mutex
	pullIDs     map[string]bool // the registrations' ids (guarded by pullMu)
	nextID      atomic.Uint64
	missing     sync.Map // response ids that carried neither result nor error
	// scopeWalks: the last walk of the root for files outside a
	// tsconfig.json's project (projectscope.go).
	scopeWalks scopeWalks
	// importerWalks: the last walk of the workspace for files that import
	// TypeScript but that tsserver does not read (unsearchedimporters.go).
	importerWalks scopeWalks
	// imports: outside files' import specifiers (importscan.go).
	imports importScans
	// compileDB: the files of the last compilation database read, by its
	// stamp (compiledb.go).
	compileDB compileDBFiles
	// install is the server's installation, never watched; outsideProject
	// the directories outside the workspace its project's files name, as
	// of the last turn (outside.go), and outsideMemo what it was found
	// from (outsidememo.go), written with outsideMu held, which also
	// serializes the turn's and the registrations' watchOutside.
	install        string
	outsideMu      sync.Mutex
	outsideProject []outsideDir
	outsideMemo    projectOutsideMemo

	deadOnce sync.Once
	dead     chan struct{} // closed on invalidation
	deadErr  error         // why; set before dead is closed
	stopped  chan struct{} // closed once the process has been terminated and awaited
}

// startInstance spawns the server and runs initialize/initialized. ctx
// bounds the start; when it ends first, the process is terminated and
// awaited before startInstance returns.
//
// The instance subscribes to the workspace's changes before the process
// starts, so a change the server's own first scan misses is delivered at
// the next query.
func startInstance(ctx context.Context, s *Server, core *lspseam.Core, log *slog.Logger, ws, root Workspace, watchers *watcherSet) (*instance, error) {
	sub := watchers.subscribe(ws.Path)
	// What the project reads outside the workspace is watched before the
	// server reads it, as the workspace is.
	install := serverInstallation(s.Path)
	var memo projectOutsideMemo
	project := memo.find(func() ([]outsideDir, []string) { return projectOutsideDirs(s, ws, root, install) })
	sub.w.watchOutside(sub, project)
	proc, err := startProcess(processSpec{
		path: s.Path, args: s.Config.Args, env: s.Env, dir: root.Path,
		maxStderrBytes: s.Config.MaxStderrBytes,
	})
	if err != nil {
		sub.close()
		return nil, lspseam.Errorf(lspseam.CodeServerFailed, "could not start language server %q (%s): %v", s.ID, s.Path, err)
	}
	in := &instance{
		server:         s,
		core:           core,
		log:            log.With("server", s.ID, "pid", proc.pid),
		ws:             ws,
		root:           root,
		sub:            sub,
		docs:           newDocumentCache(int(s.Config.MaxOpenDocuments), hostPaths),
		proc:           proc,
		codec:          &frameCodec{maxMessageBytes: s.Config.MaxMessageBytes},
		progress:       newProgressTracker(),
		outsideProject: project,
		outsideMemo:    memo,
		install:        install,
		dead:           make(chan struct{}),
		stopped:        make(chan struct{}),
	}
	in.log.Debug("language server started", "path", s.Path, "workspace", ws.Path, "root", root.Path)
	stream := jsonrpc2.NewBufferedStream(pipes{proc.stdout, proc.stdin}, in.codec)
	in.conn = jsonrpc2.NewConn(context.Background(), stream, handler{in},
		jsonrpc2.SetLogger(discardLogger{}),
		jsonrpc2.OnRecv(func(_ *jsonrpc2.Request, resp *jsonrpc2.Response) {
			if resp != nil && resp.Result == nil && resp.Error == nil {
				in.missing.Store(resp.ID, true)
			}
			if resp != nil {
				in.failures.received(resp.ID)
			}
			// On the read loop, so in the order the server wrote: a
			// response read before its loading signal was computed before.
			if resp != nil && in.awaitingLog.Load() && !in.progress.readySeenAfter(int(in.unconfirmedMark.Load())) {
				in.earlyAnswers.Add(1)
			}
		}))
	go in.watch()

	params, err := core.InitializeParams(ctx, root.URI, expandInitializationOptions(json.RawMessage(s.Config.InitializationOptions), s.Path))
	if err != nil {
		in.invalidate(err)
		in.awaitStopped()
		return nil, err
	}
	var result json.RawMessage
	if err := in.call(ctx, "initialize", params, &result); err != nil {
		in.invalidate(err)
		in.awaitStopped()
		return nil, err
	}
	in.log.Debug("initialize result", "result", clip(string(result), 300))
	neg, err := core.Negotiate(ctx, result, s.Config.Command)
	if err != nil {
		in.invalidate(err)
		in.awaitStopped()
		return nil, err
	}
	if s.Config.SettleMs != nil {
		neg.Readiness.SettleMs = *s.Config.SettleMs
	}
	in.neg = neg
	if neg.Readiness.FailureLog != "" {
		re, err := regexp.Compile(neg.Readiness.FailureLog)
		if err != nil {
			in.log.Warn("the readiness policy's failure log is not a regular expression", "failureLog", neg.Readiness.FailureLog, "err", err)
		} else {
			in.failures.watch(re)
			in.failureInKeptLogs() // before watchReadyLog drops them
		}
	}
	if neg.Readiness.ReadyLog != "" {
		re, err := regexp.Compile(neg.Readiness.ReadyLog)
		if err != nil {
			// Never seen: the policy's waits end at their bounds, and mark
			// what they could not confirm.
			in.log.Warn("the readiness policy's log signal is not a regular expression", "readyLog", neg.Readiness.ReadyLog, "err", err)
			re = regexp.MustCompile(`$.^`)
		}
		in.progress.watchReadyLog(re)
	}
	if err := in.notify(ctx, "initialized", struct{}{}); err != nil {
		// notify leaves the instance alive when ctx ended before it wrote
		// (the start was cancelled between initialize's answer and this):
		// stop it, or stopped never closes and the start waits for ever.
		in.invalidate(err)
		in.awaitStopped()
		return nil, err
	}
	in.log.Debug("language server initialized", "operations", neg.Operations, "transientOpen", neg.TransientOpen)
	in.ignoreServerCache() // servercache.go
	return in, nil
}

// watch invalidates the instance when the process exits or the connection
// breaks while nothing is waiting on it.
func (in *instance) watch() {
	select {
	case <-in.proc.done:
	case <-in.conn.DisconnectNotify():
	case <-in.dead:
		return
	}
	during := "while idle"
	if m := in.current.Load(); m != nil && *m != "" {
		during = "during " + *m
	}
	in.invalidate(in.failure(during))
}

// doing records the method in flight (for failure messages) until the
// returned function is called.
func (in *instance) doing(method string) func() {
	in.current.Store(&method)
	return func() { in.current.Store(nil) }
}

// failure describes why the connection or process is gone.
func (in *instance) failure(during string) error {
	// When the process exits, the reader may still be consuming its last
	// output: let it reach the end first, so a framing error it finds there
	// (a truncated message, say) is what gets reported.
	select {
	case <-in.conn.DisconnectNotify():
	case <-time.After(500 * time.Millisecond):
	}
	if f := in.codec.Failure(); f != nil {
		return lspseam.Errorf(lspseam.CodeProtocolError, "language server %q broke the protocol %s: %v", in.server.ID, during, f)
	}
	return lspseam.Errorf(lspseam.CodeServerFailed, "language server %q stopped %s: %s", in.server.ID, during, in.proc.exitDescription(time.Second))
}

// invalidate marks the instance unusable and terminates its process in the
// background; awaitStopped waits for that.
func (in *instance) invalidate(why error) {
	in.deadOnce.Do(func() {
		in.deadErr = why
		close(in.dead)
		in.log.Debug("language server instance invalidated", "reason", why)
		go func() {
			in.conn.Close()
			in.proc.terminate(time.Duration(in.server.Config.KillGraceMs) * time.Millisecond)
			in.sub.close()
			close(in.stopped)
		}()
	})
}

func (in *instance) isDead() bool {
	select {
	case <-in.dead:
		return true
	default:
		return false
	}
}

func (in *instance) awaitStopped() { <-in.stopped }

func (in *instance) killGrace() time.Duration {
	return time.Duration(in.server.Config.KillGraceMs) * time.Millisecond
}

// call sends a request and waits for its answer. If ctx ends first, the
// server is sent $/cancelRequest and given killGraceMs to answer; a server
// that does not is unresponsive and is invalidated.
func (in *instance) call(ctx context.Context, method string, params, result any) error {
	if in.isDead() {
		return in.deadErr
	}
	if ctx.Err() != nil {
		return ctxError(ctx, method) // nothing written: the instance stays healthy
	}
	defer in.doing(method)()
	id := jsonrpc2.ID{Num: in.nextID.Add(1)}
	waiter, err := in.dispatch(ctx, method, params, id)
	if err != nil {
		return err
	}
	// Waiting here, not in a helper goroutine, saves a hand-off per query.
	// A closed connection (the instance was invalidated, or the server's
	// output ended) ends the wait with ErrClosed.
	err = waiter.Wait(ctx, result)
	if ctx.Err() == nil || (!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)) {
		if err == nil && in.failures.readAfter(id) {
			return in.deadErr // read after the server said it can no longer answer
		}
		if err == nil && in.wasMissing(id) {
			if raw, ok := result.(*json.RawMessage); ok {
				*raw = nil // no result member at all: the core calls that malformed
			}
		}
		if err != nil && in.isDead() {
			return in.deadErr
		}
		return in.callError(method, id, err)
	}
	// Cancelled: ask the server to stop, then give it killGraceMs.
	in.log.Debug("cancelling request", "method", method, "id", id.Num)
	go in.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id.Num})
	grace, cancel := context.WithTimeout(context.Background(), in.killGrace())
	defer cancel()
	if err := waiter.Wait(grace, nil); errors.Is(err, context.DeadlineExceeded) {
		in.invalidate(lspseam.Errorf(lspseam.CodeServerFailed, "language server %q did not answer %s within killGraceMs (%d ms) after $/cancelRequest; it was terminated", in.server.ID, method, in.server.Config.KillGraceMs))
	}
	return ctxError(ctx, method)
}

// dispatch writes a request (see write).
func (in *instance) dispatch(ctx context.Context, method string, params any, id jsonrpc2.ID) (jsonrpc2.Waiter, error) {
	var w jsonrpc2.Waiter
	err := in.write(ctx, method, func() (err error) {
		w, err = in.conn.DispatchCall(context.Background(), method, params, jsonrpc2.PickID(id))
		return err
	})
	return w, err
}

// notify writes a notification (see write).
func (in *instance) notify(ctx context.Context, method string, params any) error {
	return in.send(ctx, method, params, false)
}

// send writes a notification; fromDisk says it changes no content the
// server knows (the didOpen of a document with its bytes on disk), so a
// report made before it may still stand (Readiness.ReportsUnopened).
func (in *instance) send(ctx context.Context, method string, params any, fromDisk bool) error {
	if in.isDead() {
		return in.deadErr
	}
	if ctx.Err() != nil {
		return ctxError(ctx, method) // nothing written: the instance stays healthy
	}
	defer in.doing(method)()
	if changesReports(method) {
		in.diags.bump(!fromDisk)
	}
	return in.write(ctx, method, func() error { return in.conn.Notify(context.Background(), method, params) })
}

// write runs one write to the server in the calling goroutine. A caller
// whose ctx ends meanwhile does not cut it short: the server is shared by
// every session of the workspace (the daemon's clients too), and a
// message cut short would leave half of it in the stream, so the write
// gets killGraceMs to finish — a request so written is then cancelled by
// call like any other. Only a write still blocked after that (a server
// that stopped reading) invalidates the instance, which closes the pipe
// and ends the write. A failed write invalidates the instance too.
// (Invalidating at once killed the server of every client when one
// client was killed while its request was being written.)
func (in *instance) write(ctx context.Context, method string, write func() error) error {
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		grace := time.NewTimer(in.killGrace())
		defer grace.Stop()
		select {
		case <-done:
		case <-grace.C:
			in.invalidate(lspseam.Errorf(lspseam.CodeCancelled, "the %s write to language server %q was cancelled and did not finish within killGraceMs (%d ms): the server stopped reading, and was stopped", method, in.server.ID, in.server.Config.KillGraceMs))
		}
	})
	err := write()
	close(done)
	stop()
	if err != nil {
		if in.isDead() {
			return in.deadErr
		}
		err = in.failure("while receiving " + method)
		in.invalidate(err)
		return err
	}
	return nil
}

// callError turns a Wait error into a seam error.
func (in *instance) callError(method string, id jsonrpc2.ID, err error) error {
	if err == nil {
		return nil
	}
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		switch rpcErr.Code {
		case -32800: // RequestCancelled
			return lspseam.Errorf(lspseam.CodeCancelled, "language server %q cancelled %s", in.server.ID, method)
		case -32601: // MethodNotFound
			return lspseam.Errorf(lspseam.CodeUnsupportedOperation, "language server %q does not implement %s (it answered: %s)", in.server.ID, method, rpcErr.Message)
		}
		return lspseam.Errorf(lspseam.CodeServerError, "language server %q answered %s with error %d: %s", in.server.ID, method, rpcErr.Code, rpcErr.Message)
	}
	failure := in.failure("during " + method)
	in.invalidate(failure)
	return failure
}

// wasMissing reports (once) whether the response to id had no result.
func (in *instance) wasMissing(id jsonrpc2.ID) bool {
	_, ok := in.missing.LoadAndDelete(id)
	return ok
}

// ctxError is the seam error for a context that ended during method.
func ctxError(ctx context.Context, method string) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return lspseam.Errorf(lspseam.CodeTimeout, "the query's time budget ran out during %s; the language server may still be loading the project — try again, or use a text search (grep) and read", method)
	}
	return lspseam.Errorf(lspseam.CodeCancelled, "the query was cancelled during %s", method)
}

// query runs one query on a source that was read at the start of this
// query's turn: the document is opened, or verified against the bytes the
// server has, then the request is sent. The document stays open. notice
// (the server did not confirm it applied changes) is the answer's
// incomplete notice when it has no other.
func (in *instance) query(ctx context.Context, q lspseam.ProviderQuery, src Source, notice string) (lspseam.Result, error) {
	if err := in.checkOperation(ctx, q.Operation); err != nil {
		return lspseam.Result{}, err
	}
	// The position is checked against the bytes just read, before the
	// server sees anything of this query.
	req, err := in.core.RequestInTextAs(ctx, q.Operation, src.URI, q.Position, src.Text, q.PositionTerms)
	if err != nil {
		return lspseam.Result{}, err
	}
	began, ended := in.progress.counts()
	opened := time.Now()
	if err := in.ensureOpen(ctx, src, q.LanguageID); err != nil {
		return lspseam.Result{}, err
	}
	incomplete, err := in.awaitReady(ctx, src.Path, opened, began, ended)
	if err != nil {
		return lspseam.Result{}, err
	}

	moduleNotice := ""
	if scopedOperation(q.Operation) {
		moduleNotice = in.prepareModuleSearch(ctx)
	}
	var raw json.RawMessage
	early := in.earlyAnswers.Load()
	if err := in.call(ctx, req.Method, req.Params, &raw); err != nil {
		return lspseam.Result{}, explainNoIdentifier(err, req.Subject, q.Position, q.PositionTerms)
	}
	if incomplete == "" {
		incomplete = in.answerUnconfirmed(early)
	}
	if incomplete == "" && scopedOperation(q.Operation) && !in.privateSearch(src.Path, src.Text, q.Position) {
		incomplete = in.projectScopeNotice(ctx, src.Path, q.Operation == lspseam.OpImplementation)
	}
	if incomplete == "" {
		incomplete = moduleNotice
	}
	if scopedOperation(q.Operation) { // said beside any other reason: asking again does not clear it
		if n := in.linkedUsesNotice(ctx, src.Path); n != "" && incomplete != "" {
			incomplete += "; " + n
		} else if n != "" {
			incomplete = n
		}
	}
	if incomplete == "" {
		incomplete = notice
	}
	// A caller that will render the answer gets it rendered in the same
	// call into the module (see lspseam.WithRendering).
	if r := lspseam.RenderingOf(ctx); r != nil {
		res, text, err := in.core.TranslateRender(ctx, q.Operation, raw, in.ws.URI, req.Subject, incomplete, r.Limits())
		if err != nil {
			return lspseam.Result{}, err
		}
		r.Set(res, in.ws.URI, text)
		return res, nil
	}
	res, err := in.core.Translate(ctx, q.Operation, raw)
	if err != nil {
		return lspseam.Result{}, err
	}
	if res.Kind == lspseam.KindLocations {
		res.WorkspaceURI = in.ws.URI
	}
	res.Incomplete = incomplete
	res.Subject = req.Subject
	return res, nil
}

// checkOperation asks the core once per operation: the negotiation never
// changes for the life of an instance.
func (in *instance) checkOperation(ctx context.Context, op lspseam.Operation) error {
	if err, ok := in.checked[op]; ok {
		return err
	}
	err := in.core.CheckOperation(ctx, in.neg, op)
	var lerr *lspseam.Error
	if err == nil || errors.As(err, &lerr) { // cache answers, not failures to ask
		if in.checked == nil {
			in.checked = map[lspseam.Operation]error{}
		}
		in.checked[op] = err
	}
	return err
}

// shutdown asks the server to exit (shutdown, then exit) within timeout,
// then terminates whatever is left and waits for it.
func (in *instance) shutdown(timeout time.Duration) {
	if !in.isDead() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		if err := in.call(ctx, "shutdown", nil, nil); err == nil {
			_ = in.notify(ctx, "exit", nil)
			select {
			case <-in.proc.done:
			case <-ctx.Done():
			}
		}
		cancel()
	}
	in.invalidate(lspseam.Errorf(lspseam.CodeDisposed, "language server %q was shut down", in.server.ID))
	in.awaitStopped()
}

// pipes joins the server's stdout and stdin into the ReadWriteCloser
// jsonrpc2 wants.
type pipes struct {
	r *os.File
	w *os.File
}

func (p pipes) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipes) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipes) Close() error                { return errors.Join(p.w.Close(), p.r.Close()) }

// discardLogger silences jsonrpc2's own logging; failures reach callers
// as errors instead.
type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

// handler answers the server's requests through the core and follows its
// progress notifications.
type handler struct{ in *instance }

func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	in := h.in
	if in.log.Enabled(ctx, slog.LevelDebug) { // params are copied only when someone reads them
		in.log.Debug("server message", "method", req.Method, "notification", req.Notif, "params", rawString(req.Params))
	}
	if req.Notif {
		switch req.Method {
		case "$/progress":
			in.progress.update(req.Params)
		case "window/logMessage":
			in.serverMessage(req.Method, req.Params)
			if in.progress.logMessage(req.Params) {
				in.diags.readySignal() // on the read loop: in order with the reports
			}
		case "window/showMessage":
			in.serverMessage(req.Method, req.Params)
		case "textDocument/publishDiagnostics":
			in.diags.publish(in.log, req.Params)
		}
		return
	}
	if req.Method == "window/workDoneProgress/create" {
		in.progress.announce(req.Params) // on the read loop: in order with the reports
	}
	// Reply off the read loop: a reply is a write, and a write must never
	// block the goroutine that reads the server's output.
	go func() {
		var params json.RawMessage
		if req.Params != nil {
			params = *req.Params
		}
		if req.Method == "client/registerCapability" || req.Method == "client/unregisterCapability" {
			in.registrationRequest(context.Background(), req.Method, params)
		}
		if req.Method == "workspace/applyEdit" {
			if result, ok := in.answerApplyEdit(params); ok {
				in.log.Debug("answered server request", "method", req.Method, "result", string(result))
				conn.SendResponse(context.Background(), &jsonrpc2.Response{ID: req.ID, Result: &result})
				return
			}
		}
		reply, err := in.core.ServerRequest(context.Background(), req.Method, params, json.RawMessage(in.server.Config.Configuration), in.root.URI)
		if err != nil {
			conn.ReplyWithError(context.Background(), req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
			return
		}
		in.log.Debug("answered server request", "method", req.Method)
		if reply.Error != nil {
			conn.ReplyWithError(context.Background(), req.ID, &jsonrpc2.Error{Code: reply.Error.Code, Message: reply.Error.Message})
			return
		}
		raw := json.RawMessage(reply.Result)
		if len(raw) == 0 {
			raw = json.RawMessage("null")
		}
		conn.SendResponse(context.Background(), &jsonrpc2.Response{ID: req.ID, Result: &raw})
	}()
}

func rawString(m *json.RawMessage) string {
	if m == nil {
		return ""
	}
	return clip(string(*m), 500)
}
