package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/echo"
)

// `lspseam serve`: JSON-RPC 2.0 over stdin/stdout with LSP's Content-Length
// framing, for harnesses in other languages (bindings/js drives it).
//
// Requests:
//
//	lsp/query  {operation, filePath, position:{line, character}, workspaceRoot}
//	           zero-based seam request → seam result
//	shutdown   → null; then the exit notification ends the process
//
// Notifications: $/cancelRequest {id} cancels a query; exit ends serve.
// Errors carry the seam error in data: {"code": -32001, "message": "…",
// "data": {"code": "LSP_…", "message": "…"}}. Queries run concurrently;
// each has the config's timeoutMs budget unless the request has its own
// "timeoutMs". A command line or config that keeps serve from starting is
// written to stderr, and every request but shutdown then answers it as a
// seam error (startproblem.go).

// codeSeamError is the JSON-RPC error code of every seam error.
const codeSeamError = -32001

// replySeamError answers a request with err as a seam error: the code
// codeSeamError, the message, and the structured error as its data.
func replySeamError(ctx context.Context, conn *jsonrpc2.Conn, id jsonrpc2.ID, err error) {
	lerr := lspError(err)
	data := json.RawMessage(mustJSON(lerr))
	conn.ReplyWithError(ctx, id, &jsonrpc2.Error{Code: codeSeamError, Message: lerr.Message, Data: &data})
}

// replyCut answers a request with what answer returns, or, when a stop
// cuts the call off first, with the cut's error at once (drain.go).
func replyCut(ctx context.Context, conn *jsonrpc2.Conn, id jsonrpc2.ID, c *drainCall, answer func() (any, error)) {
	type reply struct {
		res any
		err error
	}
	r, cut := runCut(c, func() reply {
		res, err := answer()
		return reply{res, err}
	})
	if cut != nil {
		r.err = cut
	}
	if r.err != nil {
		replySeamError(ctx, conn, id, r.err)
		return
	}
	conn.Reply(ctx, id, r.res)
}

// maxTimeoutMs bounds a request's own timeoutMs, as the config's timers
// are bounded (a larger value would overflow a time.Duration).
const maxTimeoutMs = 2_147_483_647

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	approval := approvalFlag(fs)
	daemonMode := daemonFlag(fs, daemonOff)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	common.longLived = true

	// A bad command line or config is served and reported
	// (startproblem.go): a harness gets a structured error, not a dead
	// pipe. Only --help exits at once.
	var h *host
	var startErr error
	positionals, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printSubcommandHelp(stdout, "serve", fs)
		return exitOK
	case err != nil:
		startErr = usageError{err}
	case len(positionals) > 0:
		startErr = usageError{fmt.Errorf("unexpected argument %q; usage: lspseam serve [--config FILE] [--approval MODE] [--daemon auto|require|off] [--log-level LEVEL] [--timeout MS]", positionals[0])}
	default:
		startErr = checkApprovalFlag("serve", *approval)
		if startErr == nil {
			startErr = checkDaemonFlag(*daemonMode)
		}
	}
	if startErr == nil && *daemonMode != daemonOff {
		if code, relayed := relaySession(ctx, daemonOpServe, *daemonMode, common, relayOptions("", "", "", *approval, common.timeout), stdin, stdout, stderr); relayed {
			return code
		}
	}
	if startErr == nil {
		h, startErr = startHost(ctx, common, stderr, true)
	}
	s := newServeSession(h, common.timeout > 0, nil)
	maxRequestBytes := int64(core.DefaultMaxRequestBytes)
	if h != nil {
		defer h.close()
		if err := setApproval(h.toolbox, h.approvalMode(*approval, false)); err != nil {
			fmt.Fprintf(stderr, "lspseam serve: --approval: %s\n", lspError(err).Message)
			return exitUsage
		}
		s.toolbox = h.toolbox
		s.log = h.log
		maxRequestBytes = h.maxRequestBytes
	} else {
		s.startProblem = newStartProblem("serve", startErr, stderr)
		if s.log, err = newLogger(common.logLevel, stderr); err != nil {
			s.log, _ = newLogger("warn", stderr)
		}
	}
	s.drain = newDrain(s.log)
	s.log.Info("serving", "pid", os.Getpid())
	code := s.run(ctx, stdioConn{stdin, stdout}, maxRequestBytes)
	if code == exitOK && s.startProblem != nil {
		code = s.startProblem.exit
	}
	return code
}

// newServeSession is one serve client's session over h: the process's
// own client, or one of the daemon's (daemon.go), whose stop is d.
func newServeSession(h *host, timeoutFlag bool, d *drain) *server {
	return &server{host: h, timeoutFlag: timeoutFlag, drain: d, inflight: map[jsonrpc2.ID]context.CancelFunc{}, gates: map[string]chan struct{}{}, exit: make(chan struct{})}
}

// run serves the session on rw until the client sends exit or goes away,
// or ctx ends; it cancels what is still running before it returns. When
// ctx ends, the queries in flight first get to finish and answer
// (drain.go), unless the daemon has already let them (its drain ends ctx).
func (s *server) run(ctx context.Context, rw io.ReadWriteCloser, maxRequestBytes int64) int {
	codec := localstdio.NewClientCodec(maxRequestBytes)
	stream := jsonrpc2.NewBufferedStream(rw, codec)
	conn := jsonrpc2.NewConn(ctx, stream, s, jsonrpc2.SetLogger(slogPrintf{s.log}))
	code := exitOK
	select {
	case <-s.exit:
	case <-conn.DisconnectNotify(): // stdin closed (the harness is gone), or its framing broke
		if err := codec.Failure(); err != nil {
			s.log.Error("the client broke the message framing; stopping", "err", strings.Replace(err.Error(), "the server", "the client", 1))
			code = exitError
		}
	case <-ctx.Done():
		if s.drain.stop("SIGTERM or SIGINT") {
			s.drain.settle()
		}
	}
	s.cancelAll()
	s.wg.Wait()
	conn.Close()
	return code
}

type server struct {
	host         *host            // nil when startProblem is set
	toolbox      *toolbox.Toolbox // the session's tools: every toolset
	startProblem *startProblem    // why lspseam could not start; every query, call and tools/list answers it
	log          *slog.Logger
	timeoutFlag  bool   // the default budget came from --timeout
	timeoutMs    int64  // the session's default budget (0: the host's)
	drain        *drain // the process's stop: new queries refused, those in flight let finish
	label        string // the session in the drain's log (the daemon's sessions)

	mu       sync.Mutex
	inflight map[jsonrpc2.ID]context.CancelFunc
	shutDown bool                     // shutdown was received: later queries are invalid
	gates    map[string]chan struct{} // per workspace root: closed when the last query read has joined its queue
	wg       sync.WaitGroup
	exitOnce sync.Once
	exit     chan struct{}
}

// budget is a query's default budget: the session's --timeout, else the
// host's.
func (s *server) budget() int64 {
	if s.timeoutMs > 0 {
		return s.timeoutMs
	}
	return s.host.timeout
}

// queryParams is lsp/query's request.
type queryParams struct {
	lspseam.QueryRequest
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

func (s *server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	switch req.Method {
	case "$/cancelRequest":
		// The id as the client wrote it: ClientID maps it to the one its
		// request was read with (negative and huge integers are marked).
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if req.Params != nil && json.Unmarshal(*req.Params, &p) == nil {
			id, ok := localstdio.ClientID(p.ID)
			s.mu.Lock()
			cancel := s.inflight[id]
			s.mu.Unlock()
			if ok && cancel != nil {
				cancel()
			}
		}
		if !req.Notif { // sent as a request: it still gets an answer
			conn.Reply(ctx, req.ID, nil)
		}
		return
	case "exit":
		s.exitOnce.Do(func() { close(s.exit) })
		return
	case localstdio.RefusedMethod:
		// A message the codec refused (too large, or not JSON): answer it
		// if its id could be read, and go on.
		var p struct {
			Message string `json:"message"`
		}
		if req.Params != nil {
			json.Unmarshal(*req.Params, &p)
		}
		s.log.Warn("refused a client message", "reason", p.Message)
		if !req.Notif {
			lerr := lspseam.Errorf(lspseam.CodeInvalidArgument, "%s", p.Message)
			data := json.RawMessage(mustJSON(lerr))
			conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: lerr.Message, Data: &data})
		}
		return
	}
	if req.Notif {
		return
	}
	if s.startProblem != nil && req.Method != "shutdown" {
		data := json.RawMessage(mustJSON(s.startProblem.err))
		conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: codeSeamError, Message: s.startProblem.err.Message, Data: &data})
		return
	}
	// Every error carries its seam error as data, as the others do: a
	// client maps data.code, never the JSON-RPC code alone.
	replyError := func(rpcCode int64, lerr *lspseam.Error) {
		data := json.RawMessage(mustJSON(lerr))
		conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: rpcCode, Message: lerr.Message, Data: &data})
	}
	switch req.Method {
	case "lsp/query", "tools/call":
		qctx, cancel := context.WithCancel(context.Background())
		s.mu.Lock()
		_, duplicate := s.inflight[req.ID]
		shutDown := s.shutDown
		if !duplicate && !shutDown {
			s.inflight[req.ID] = cancel
		}
		s.mu.Unlock()
		switch {
		case shutDown:
			cancel()
			replyError(jsonrpc2.CodeInvalidRequest, lspseam.Errorf(lspseam.CodeDisposed, "lspseam serve is shutting down: no queries after shutdown (start a new lspseam serve)"))
			return
		case duplicate:
			cancel()
			replyError(jsonrpc2.CodeInvalidRequest, lspseam.Errorf(lspseam.CodeInvalidArgument, "request id %s is already in flight; use a new id for each request", localstdio.ShowID(req.ID)))
			return
		}
		// The params are read here, in the read loop, because the
		// workspace orders the query: queries on one workspace join its
		// queue in the order they were read, so this one may call the
		// provider only once the previous one has joined (or ended).
		var p queryParams
		var tp toolCallParams
		var badParams bool
		workspaceRoot := ""
		if req.Method == "lsp/query" {
			badParams = req.Params == nil || json.Unmarshal(*req.Params, &p) != nil
			workspaceRoot = p.WorkspaceRoot
		} else {
			badParams = req.Params == nil || json.Unmarshal(*req.Params, &tp) != nil
			workspaceRoot = tp.WorkspaceRoot
		}
		// A query read once lspseam is stopping is answered so, and runs
		// nothing; one admitted runs on through a stop (drain.go).
		name, args := req.Method, []byte(nil)
		if req.Method == "tools/call" {
			name, args = tp.Name, tp.Arguments
		} else if req.Params != nil {
			args = *req.Params
		}
		qctx, inFlight, err := s.drain.begin(qctx, name, args, s.label)
		if err != nil {
			s.mu.Lock()
			delete(s.inflight, req.ID)
			s.mu.Unlock()
			cancel()
			replySeamError(ctx, conn, req.ID, err)
			return
		}
		prev, queued := s.gate(workspaceRoot)
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.inflight, req.ID)
				s.mu.Unlock()
				cancel()
				inFlight.end() // its answer is written
			}()
			defer queued()
			if prev != nil {
				select {
				case <-prev:
				case <-qctx.Done():
				}
			}
			qctx := lspseam.WithQueuedHook(qctx, queued)
			// Cut off by a stop, the query is answered so at once
			// (drain.go).
			// The reply is written with a fresh context: qctx may be the
			// cancelled one of a cut-off call.
			answer := func() (any, error) { return s.query(qctx, p, badParams) }
			if req.Method == "tools/call" {
				answer = func() (any, error) { return s.toolCall(qctx, tp, badParams) }
			}
			replyCut(context.Background(), conn, req.ID, inFlight, answer)
		}()
	case "tools/list":
		var p struct {
			Toolsets []string `json:"toolsets"`
		}
		if req.Params != nil && json.Unmarshal(*req.Params, &p) != nil {
			replyError(jsonrpc2.CodeInvalidRequest, lspseam.Errorf(lspseam.CodeInvalidArgument, "tools/list params must be {toolsets?: [name]}"))
			return
		}
		defs, err := s.host.core.ToolDefinitions(ctx, p.Toolsets)
		if err != nil {
			replySeamError(ctx, conn, req.ID, err)
			return
		}
		conn.Reply(ctx, req.ID, map[string]any{"tools": defs})
	case "shutdown":
		s.mu.Lock()
		s.shutDown = true
		s.mu.Unlock()
		s.cancelAll()
		s.wg.Wait()
		conn.Reply(ctx, req.ID, nil)
	default:
		replyError(jsonrpc2.CodeMethodNotFound, lspseam.Errorf(lspseam.CodeUnknownMethod, "lspseam serve has lsp/query, tools/list, tools/call, $/cancelRequest, shutdown and exit; not %s", echo.Clip(req.Method)))
	}
}

// gate returns the channel closed when the previous query on the same
// workspace root has joined its queue (nil if there is none in flight),
// and the function that announces this query has joined (idempotent).
// Called in the read loop, so gates chain in arrival order.
func (s *server) gate(workspaceRoot string) (prev <-chan struct{}, queued func()) {
	mine := make(chan struct{})
	s.mu.Lock()
	prevCh := s.gates[workspaceRoot] // nil when none is in flight
	s.gates[workspaceRoot] = mine
	s.mu.Unlock()
	var once sync.Once
	queued = func() {
		once.Do(func() {
			close(mine)
			s.mu.Lock()
			if s.gates[workspaceRoot] == mine {
				delete(s.gates, workspaceRoot)
			}
			s.mu.Unlock()
		})
	}
	return prevCh, queued
}

// query runs an lsp/query with the params read from the request (bad:
// they were missing or not the expected object).
func (s *server) query(ctx context.Context, p queryParams, bad bool) (lspseam.Result, error) {
	if bad {
		return lspseam.Result{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "lsp/query params must be {operation, filePath, position:{line, character}, workspaceRoot} with a zero-based position")
	}
	if err := s.host.waitStarted(ctx); err != nil {
		return lspseam.Result{}, err
	}
	timeout := s.budget()
	switch {
	case p.TimeoutMs > maxTimeoutMs || p.TimeoutMs < 0:
		return lspseam.Result{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "timeoutMs must be a positive number of milliseconds at most %d (or absent for the session's %d), got %d", maxTimeoutMs, s.budget(), p.TimeoutMs)
	case p.TimeoutMs > 0:
		timeout = p.TimeoutMs
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(timeout)*time.Millisecond)
	defer cancel()
	res, err := s.host.service.Query(ctx, p.QueryRequest)
	return res, explainTimeout(err, timeout, budgetSource(s.timeoutFlag, p.TimeoutMs > 0))
}

// toolCallParams is tools/call's request: a tool's name and the model's
// arguments, the session's workspace root and an optional budget.
type toolCallParams struct {
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments"`
	WorkspaceRoot string          `json:"workspaceRoot"`
	TimeoutMs     int64           `json:"timeoutMs,omitempty"`
}

// toolCallResult is tools/call's answer, shaped like an MCP tool result:
// the text for the model, the structured answer, and whether it failed.
type toolCallResult struct {
	Content           []toolContent   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

type toolContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// toolCall runs a tools/call. A tool's failure is an answer (isError); a
// request that cannot be a tool call at all is a JSON-RPC error.
func (s *server) toolCall(ctx context.Context, p toolCallParams, bad bool) (toolCallResult, error) {
	if bad || p.Name == "" {
		return toolCallResult{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "tools/call params must be {name, arguments, workspaceRoot, timeoutMs?}; tools/list lists the names")
	}
	timeout := s.budget()
	switch {
	case p.TimeoutMs > maxTimeoutMs || p.TimeoutMs < 0:
		return toolCallResult{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "timeoutMs must be a positive number of milliseconds at most %d (or absent for the session's %d), got %d", maxTimeoutMs, s.budget(), p.TimeoutMs)
	case p.TimeoutMs > 0:
		timeout = p.TimeoutMs
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	res := s.host.callTool(ctx, s.toolbox, p.Name, args, p.WorkspaceRoot, budgetSource(s.timeoutFlag, p.TimeoutMs > 0), timeout)
	return toolCallResult{Content: []toolContent{{"text", res.Text}}, StructuredContent: res.Structured, IsError: res.IsError}, nil
}

func (s *server) cancelAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.inflight {
		cancel()
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// stdioConn joins stdin and stdout into the ReadWriteCloser jsonrpc2 wants.
type stdioConn struct {
	r io.Reader
	w io.Writer
}

func (c stdioConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c stdioConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c stdioConn) Close() error                { return nil }

// slogPrintf routes jsonrpc2's log lines to serve's logger.
type slogPrintf struct{ log *slog.Logger }

func (l slogPrintf) Printf(format string, args ...any) {
	l.log.Debug(oneLine(fmt.Sprintf(format, args...)))
}
