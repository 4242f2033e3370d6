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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/expiring"
	"github.com/lspseam/lspseam/internal/jsonbound"
)

// `lspseam mcp`: a Model Context Protocol server over stdio (newline-
// delimited JSON-RPC) with one tool, the core's `lsp` tool. A call runs
// exactly the tool path of `query` (host.toolCall): the core validates the
// model's arguments, the service queries within the budget, the core
// renders. Every seam error is a tool result with isError and the text
// "CODE: message", never a protocol error, so the model can correct itself.
//
// The workspace is --workspace, else the first file:// root the client
// lists (roots/list), else the current directory. notifications/cancelled
// cancels the call (the language server gets $/cancelRequest); with a
// progress token the client gets notifications/progress when the call
// reaches a language server, every second while it runs and when it ends.
// A command line, configuration or --workspace that keeps lspseam from
// starting is logged, and the session is served anyway with every call
// answering it (startproblem.go).
//
// With --http the same servers are served over streamable HTTP, one per
// client session, behind a bearer token (mcphttp.go, httpauth.go).

// mcpHeartbeat is the interval of progress notifications while a call runs.
var mcpHeartbeat = time.Second

// mcpFlushTimeout bounds the wait for the client's answer to the ping that
// follows a call's final progress notification; a client that does not
// answer one gets its response that much later, once: its session is not
// pinged again.
const mcpFlushTimeout = 2 * time.Second

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	workspace := fs.String("workspace", "", "workspace root (default: the client's first root, else the current directory)")
	toolsets := fs.String("tools", strings.Join(toolbox.DefaultToolsets, ","), "comma-separated toolsets to offer, or all")
	approval := approvalFlag(fs)
	profile := profileFlag(fs)
	daemonMode := daemonFlag(fs, daemonAuto)
	var hf mcpHTTPFlags
	hf.register(fs)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	common.longLived = true

	// A bad command line, like a bad config, is served and reported
	// (startproblem.go); only --help exits at once.
	var h *host
	var startErr error
	positionals, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printSubcommandHelp(stdout, "mcp", fs)
		return exitOK
	case err != nil:
		startErr = usageError{err}
	case len(positionals) > 0:
		startErr = usageError{fmt.Errorf("unexpected argument %q; usage: lspseam mcp [--config FILE] [--workspace DIR] [--tools LIST] [--profile standard|compact] [--approval MODE] [--daemon auto|require|off] [--log-level LEVEL] [--timeout MS] [--http HOST:PORT [--allow-remote] [--tls-cert FILE --tls-key FILE] [--token-file FILE] [--rotate-token] [--session-timeout DURATION] [--max-sessions N]]", positionals[0])}
	default:
		startErr = checkApprovalFlag("mcp", *approval)
		if startErr == nil {
			startErr = checkProfileFlag(*profile)
		}
		if startErr == nil {
			startErr = checkDaemonFlag(*daemonMode)
		}
	}
	cwd, _ := os.Getwd()
	opts := mcpSessionOptions{workspace: *workspace, toolsets: toolsetList(*toolsets), profile: mcpProfile(*profile), approval: *approval, timeoutFlag: common.timeout > 0, cwd: cwd}
	if hf.wantsHTTP(args) {
		return runMCPHTTP(ctx, startErr, common, hf, fs, opts, stderr)
	}
	if startErr == nil && *daemonMode != daemonOff {
		if code, relayed := relaySession(ctx, daemonOpMCP, *daemonMode, common, relayOptions(*workspace, *toolsets, *profile, *approval, common.timeout), stdin, stdout, stderr); relayed {
			return code
		}
	}
	if startErr == nil {
		_, startErr = hf.check(fs) // HTTP flags without --http
	}
	if startErr == nil {
		h, startErr = startHost(ctx, common, stderr, true)
	}
	if startErr == nil {
		startErr = checkMCPStart(ctx, h, *workspace, toolsetList(*toolsets))
		if startErr != nil {
			h.close()
			h = nil
		}
	}
	log, err := newLogger(common.logLevel, stderr)
	if err != nil { // a bad --log-level is the start problem; log at the default level
		log, _ = newLogger("warn", stderr)
	}
	var t *mcpTool
	if h != nil {
		log = h.log
	}
	drain := newDrain(log)
	if h != nil {
		// However the session ends (stdin closed, client gone, signal), the
		// language servers are shut down before the process exits.
		defer h.close()
		t = newMCPTool(ctx, h, opts, drain)
	} else {
		t = newMCPTool(ctx, nil, opts, drain)
		t.startProblem = newStartProblem("mcp", startErr, stderr)
	}
	server, err := newMCPServer(ctx, t, log)
	if err != nil {
		lerr := lspError(err)
		fmt.Fprintf(stderr, "lspseam mcp: %s: %s\n", lerr.Code, lerr.Message)
		return exitError
	}
	// Input reaches the SDK bounded (mcpinput.go): a message over
	// jsonbound's size or nesting limit is answered without the SDK and
	// the session goes on. The SDK's own line limit stays as a backstop
	// above ours, which it never reaches.
	ledger := newAnswerLedger(drain)
	out := &lockedWriter{w: stdout, ledger: ledger}
	in := newMCPInput(stdin, out, log)
	in.ledger = ledger
	transport := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: out, MaxLineLength: jsonbound.MaxMessageBytes + 1<<20}
	// A signal does not end the session at once: the calls in flight
	// finish and their answers are written first (drain.go), then the
	// session is closed.
	session, endSession := context.WithCancel(context.WithoutCancel(ctx))
	defer endSession()
	go func() {
		select {
		case <-ctx.Done():
		case <-session.Done():
			return
		}
		drain.stop("SIGTERM or SIGINT")
		drain.settle()
		endSession()
	}()
	log.Info("serving MCP", "pid", os.Getpid())
	// The SDK ends the session on a line within the limits that is not
	// JSON-RPC (it has no way to answer it and go on); that is the
	// client's error, so it is reported at error level and the exit
	// status says so. A closed stdin or a signal is a normal end.
	err = server.Run(session, transport)
	ledger.close()
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		log.Error("the MCP session ended on a message that is not JSON-RPC", "reason", err)
		return exitError
	}
	if t.startProblem != nil {
		return t.startProblem.exit
	}
	return exitOK
}

// checkMCPStart checks what a started host cannot check itself: that
// --workspace can be the workspace, and that --tools names toolsets. The
// core's message for an unknown toolset lists those it has.
func checkMCPStart(ctx context.Context, h *host, workspace string, toolsets []string) error {
	if workspace != "" {
		if _, err := localstdio.CanonicalWorkspace(workspace); err != nil {
			lerr := lspError(err)
			return lspseam.Errorf(lerr.Code, "--workspace %q cannot be the workspace: %s; fix the arguments of the mcp server", workspace, lerr.Message)
		}
	}
	if _, err := h.core.ToolDefinitions(ctx, toolsets); err != nil {
		return usageError{fmt.Errorf("--tools: %s", lspError(err).Message)}
	}
	return nil
}

// mcpSessionOptions are what one MCP client chose on its command line:
// the process's own flags for a standalone `lspseam mcp`, the relay's for
// a session of the daemon (daemon.go).
type mcpSessionOptions struct {
	workspace   string     // --workspace, or ""
	toolsets    []string   // --tools
	profile     mcpProfile // --profile (a bad one is the start problem, listed as standard)
	approval    string     // --approval ("": the config's)
	timeoutMs   int64      // --timeout for this client (0: the host's budget)
	timeoutFlag bool       // the budget came from --timeout
	// cwd is the client's working directory: the workspace when the
	// client lists no root.
	cwd string
}

// mcpTool serves the tools of one MCP server, whose sessions share its
// Toolbox: stdio has one session; the daemon and --http make one mcpTool
// per client session, so that previews, observations, approvals and
// roots stay the client's own while the host (core, language servers)
// is shared.
type mcpTool struct {
	mcpSessionOptions
	host         *host         // nil when startProblem is set
	startProblem *startProblem // why lspseam could not start (command line, config, --workspace); every call answers it
	notices      []string      // warnings about the workspace, for the handshake's instructions (workspaceNotices)
	mode         string        // the approval mode: --approval, else the config's (core.ApprovalElicit: see elicit.go)
	toolbox      *toolbox.Toolbox
	pending      *expiring.Store[pendingApproval] // approvals asked through input requests (newPendingApprovals)
	drain        *drain                           // the process's stop: new calls refused, those in flight let finish
	label        string                           // the session in the log when its SDK session has no id (the daemon's)

	mu     sync.Mutex
	roots  map[*mcp.ServerSession]string // the workspace from roots/list, per session
	noPing map[*mcp.ServerSession]bool   // sessions whose client did not answer a ping

	// languages is the census of the workspace at start (nil when
	// lspseam could not start): the handshake's instructions and the
	// tools' descriptions say which languages are served.
	languages *workspaceLanguages
}

// newMCPTool is the tools of one MCP server over h (nil when lspseam
// could not start: the caller sets startProblem).
func newMCPTool(ctx context.Context, h *host, opts mcpSessionOptions, d *drain) *mcpTool {
	t := &mcpTool{mcpSessionOptions: opts, pending: newPendingApprovals(), host: h, drain: d, roots: map[*mcp.ServerSession]string{}, noPing: map[*mcp.ServerSession]bool{}}
	if h != nil {
		t.notices = workspaceNotices(t.fallbackWorkspace(), opts.workspace != "", h.log)
		t.languages = mcpCensus(ctx, h, t.fallbackWorkspace())
		t.startMainServer(ctx) // mcpprestart.go
	}
	return t
}

// fallbackWorkspace is the workspace of calls when the client lists no
// root: --workspace, else the client's working directory.
func (t *mcpTool) fallbackWorkspace() string {
	if t.workspace != "" {
		return t.workspace
	}
	return t.cwd
}

// budget is the time a call may take: the client's --timeout, else the
// host's.
func (t *mcpTool) budget() int64 {
	if t.timeoutMs > 0 {
		return t.timeoutMs
	}
	return t.host.timeout
}

// newMCPServer builds the MCP server with the core's lsp tool, registered
// with the core's own input schema.
func newMCPServer(ctx context.Context, t *mcpTool, log *slog.Logger) (*mcp.Server, error) {
	c := (*lspseam.Core)(nil)
	if t.host != nil {
		c = t.host.core
	} else {
		// lspseam could not start, but the client should still list the
		// tools it expects and read why they fail.
		var err error
		// Lazily: the definitions are the generated ones, and no call
		// ever needs the module.
		if c, err = lspseam.NewCore(ctx, append(coreOptions(log), lspseam.WithLazyCompile())...); err != nil {
			return nil, err
		}
		defer c.Close(ctx)
	}
	defs, err := c.ToolDefinitions(ctx, t.toolsets)
	if err != nil && t.host == nil {
		// --tools itself may be the problem: list the default tools,
		// which answer it.
		defs, err = c.ToolDefinitions(ctx, toolbox.DefaultToolsets)
	}
	if err != nil {
		return nil, err
	}
	if t.host != nil {
		if t.toolbox, err = toolbox.NewToolbox(ctx, c, t.host.service, t.toolsets...); err != nil {
			return nil, err
		}
		t.toolbox.SetLogger(t.host.log)
		t.mode = t.host.approvalMode(t.approval, true)
		if err := setApproval(t.toolbox, t.mode); err != nil {
			return nil, fmt.Errorf("--approval: %s", lspError(err).Message)
		}
	}
	instructions, toolNote := strings.Join(t.notices, "\n\n"), ""
	if t.startProblem != nil {
		instructions = "lspseam could not start, so every tool answers every call with this error: " + string(t.startProblem.err.Code) + ": " + t.startProblem.err.Message
	}
	if t.languages != nil {
		instructions = strings.TrimSpace(instructions + "\n\n" + t.languages.summary())
		toolNote = t.languages.toolNote()
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "lspseam", Title: "lspseam", Version: version()}, &mcp.ServerOptions{
		Logger:       sdkLogger(log),
		Instructions: instructions,
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) {
			t.mu.Lock()
			delete(t.roots, req.Session)
			t.mu.Unlock()
		},
	})
	for _, def := range defs {
		handler := t.call
		if def.Name != toolbox.ToolLSP {
			handler = t.codeHandler(def.Name)
		}
		note := ""
		if def.Toolset != core.ToolsetFS {
			// The census is the same for every tool that asks a language
			// server: the first of them says it.
			note, toolNote = toolNote, ""
		}
		server.AddTool(t.profile.tool(def, note), handler)
	}
	return server, nil
}

// codeHandler is a catalog tool's handler: the Toolbox's answer, its text
// as content and its structured value as structuredContent.
func (t *mcpTool) codeHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if t.startProblem != nil {
			return codeResult(toolbox.ErrorResult(t.startProblem.err)), nil
		}
		ctx, inFlight, err := t.drain.begin(ctx, name, req.Params.Arguments, t.sessionLabel(req))
		if err != nil {
			return codeResult(toolbox.ErrorResult(err)), nil
		}
		defer inFlight.end()
		// Cut off by a stop, the call is answered so at once (drain.go).
		res, cut := runCut(inFlight, func() *mcp.CallToolResult { return t.codeCall(ctx, req, name) })
		if cut != nil {
			return codeResult(toolbox.ErrorResult(cut)), nil
		}
		return res, nil
	}
}

// codeCall runs a catalog tool's call, admitted by the drain.
func (t *mcpTool) codeCall(ctx context.Context, req *mcp.CallToolRequest, name string) *mcp.CallToolResult {
	ws, ask, err := t.workspaceFor(ctx, req)
	if err != nil {
		return codeResult(toolbox.ErrorResult(err))
	}
	if ask != nil {
		return ask
	}
	args := json.RawMessage(req.Params.Arguments)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	// elicit: the user approves every change (elicit.go).
	elicit := t.mode == core.ApprovalElicit && clientCanElicit(req.Session)
	if elicit {
		args = withoutPreviewID(args)
		if res, ok := t.approvalRetry(ctx, req, name, args, ws); ok {
			return res
		}
	}
	progress := t.progress(ctx, req)
	res := t.host.callTool(lspseam.WithQueuedHook(ctx, progress.start), t.toolbox, name, args, ws, budgetSource(t.timeoutFlag, false), t.budget())
	if res.IsError {
		progress.finish("failed")
	} else {
		progress.finish("done")
	}
	if elicit && previewIDOf(res) != "" {
		return t.approve(ctx, req, name, args, ws, res)
	}
	return codeResult(res)
}

// sessionLabel names a call's session in the drain's log: the daemon's
// session number, an HTTP session's id, nothing for stdio's one session.
func (t *mcpTool) sessionLabel(req *mcp.CallToolRequest) string {
	if t.label != "" || req.Session == nil {
		return t.label
	}
	return req.Session.ID()
}

func codeResult(res toolbox.ToolResult) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: res.Text}},
		StructuredContent: res.Structured,
		IsError:           res.IsError,
	}
}

// call is the lsp tool handler. ctx is cancelled by the SDK on
// notifications/cancelled and when the session ends.
func (t *mcpTool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if t.startProblem != nil {
		return toolError(t.startProblem.err), nil
	}
	ctx, inFlight, err := t.drain.begin(ctx, toolbox.ToolLSP, req.Params.Arguments, t.sessionLabel(req))
	if err != nil {
		return toolError(err), nil
	}
	defer inFlight.end()
	// Cut off by a stop, the call is answered so at once (drain.go).
	res, cut := runCut(inFlight, func() *mcp.CallToolResult { return t.lspCall(ctx, req) })
	if cut != nil {
		return toolError(cut), nil
	}
	return res, nil
}

// lspCall runs an lsp tool call, admitted by the drain.
func (t *mcpTool) lspCall(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	ws, ask, err := t.workspaceFor(ctx, req)
	if err != nil {
		return toolError(err)
	}
	if ask != nil {
		return ask
	}
	// Progress starts when the query joins a language server's queue:
	// a call refused before (bad arguments, no server for the file) has
	// nothing to report progress on.
	progress := t.progress(ctx, req)
	args := []byte(req.Params.Arguments)
	if len(args) == 0 {
		args = []byte("{}") // the core then names every missing argument
	}
	answer, err := t.host.toolCall(lspseam.WithQueuedHook(ctx, progress.start), args, ws, t.budget(), t.timeoutFlag)
	if err != nil {
		progress.finish("failed")
		return toolError(err)
	}
	progress.finish("done")
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: answer.rendered.Text}},
		StructuredContent: structuredResult(answer),
		Meta:              mcp.Meta{seamResultMeta: answer.result},
	}
}

// seamResultMeta is the _meta key of the zero-based seam result (LSP
// coordinates), for harnesses that work with the seam's types. Clients do
// not show _meta to the model; structuredContent is one-based like the
// text and the tool's arguments.
const seamResultMeta = "lspseam/seamResult"

// mcpLocation is a location as the model reads it: the path of the text
// and one-based line and character (UTF-16), the values the lsp tool takes.
// The end is exclusive.
type mcpLocation struct {
	Path         string `json:"path,omitempty"`
	Line         uint64 `json:"line"`
	Character    uint64 `json:"character"`
	EndLine      uint64 `json:"endLine"`
	EndCharacter uint64 `json:"endCharacter"`
}

type mcpHover struct {
	Contents string `json:"contents"`
	mcpRange
}

// mcpRange is a hover's optional one-based range.
type mcpRange struct {
	Line         uint64 `json:"line,omitempty"`
	Character    uint64 `json:"character,omitempty"`
	EndLine      uint64 `json:"endLine,omitempty"`
	EndCharacter uint64 `json:"endCharacter,omitempty"`
}

// mcpResult is the structuredContent of a successful call: what the text
// says, as data. Locations are in the text's order (grouped by file) and
// only those the text shows; omitted counts the rest.
type mcpResult struct {
	Kind       string        `json:"kind"`
	Subject    string        `json:"subject,omitempty"` // the text's first line: what the answer is for
	Locations  []mcpLocation `json:"locations,omitempty"`
	Omitted    int           `json:"omitted,omitempty"`
	Hover      *mcpHover     `json:"hover,omitempty"`
	Incomplete string        `json:"incomplete,omitempty"`
}

func structuredResult(a toolAnswer) mcpResult {
	res := a.result
	out := mcpResult{Kind: string(res.Kind), Subject: res.Subject, Incomplete: res.Incomplete}
	if res.Kind == lspseam.KindHover {
		if res.Hover != nil {
			out.Hover = &mcpHover{Contents: res.Hover.Contents}
			if r := res.Hover.Range; r != nil {
				out.Hover.mcpRange = mcpRange{oneBased(r.Start.Line), oneBased(r.Start.Character), oneBased(r.End.Line), oneBased(r.End.Character)}
			}
		}
		return out
	}
	wsPath, _ := core.WorkspacePath(a.workspaceURI)
	out.Locations = []mcpLocation{}
	for _, l := range groupedByPath(res.Locations, wsPath) {
		if len(out.Locations) == a.rendered.Shown {
			break
		}
		r := l.loc.Range
		out.Locations = append(out.Locations, mcpLocation{l.path, oneBased(r.Start.Line), oneBased(r.Start.Character), oneBased(r.End.Line), oneBased(r.End.Character)})
	}
	out.Omitted = a.rendered.Omitted
	return out
}

func oneBased(n uint32) uint64 { return uint64(n) + 1 }

type pathLocation struct {
	path string
	loc  lspseam.Location
}

// groupedByPath orders locations as the rendered text does (core's
// render): grouped by displayed path in first-seen order, otherwise in the
// server's order; a path is displayed by the core's rule (core.DisplayPath
// for the workspace path wsPath, core.WorkspacePath's): relative to the
// workspace inside it ("." for the workspace itself), absolute outside it,
// and a URI that is not a local file stays verbatim.
func groupedByPath(locs []lspseam.Location, wsPath string) []pathLocation {
	var order []string
	groups := map[string][]lspseam.Location{}
	for _, l := range locs {
		p := core.DisplayPath(l.URI, wsPath)
		if _, seen := groups[p]; !seen {
			order = append(order, p)
		}
		groups[p] = append(groups[p], l)
	}
	out := make([]pathLocation, 0, len(locs))
	for _, p := range order {
		for _, l := range groups[p] {
			out = append(out, pathLocation{p, l})
		}
	}
	return out
}

// toolError is a seam error as the model sees it.
func toolError(err error) *mcp.CallToolResult {
	lerr := lspError(err)
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: string(lerr.Code) + ": " + lerr.Message}},
		IsError: true,
	}
}

// callProgress sends notifications/progress for one call when the client
// gave a token: from start (when the query reaches a language server),
// every mcpHeartbeat while it runs, and a final one from finish.
type callProgress struct {
	ctx     context.Context
	tool    *mcpTool
	session *mcp.ServerSession
	token   any // nil: the client asked for no progress
	log     *slog.Logger

	startOnce, finishOnce sync.Once
	mu                    sync.Mutex
	n                     float64
	started               bool
	stop                  chan struct{}
	wg                    sync.WaitGroup
}

func (t *mcpTool) progress(ctx context.Context, req *mcp.CallToolRequest) *callProgress {
	p := &callProgress{ctx: ctx, tool: t, session: req.Session, log: t.host.log, stop: make(chan struct{})}
	if req.Session != nil {
		p.token = req.Params.GetProgressToken()
	}
	return p
}

func (p *callProgress) send(msg string, final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	params := &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg}
	if final {
		params.Total = p.n // progress == total: the call is over
	}
	// Best effort: a client that has gone away just misses it.
	_ = p.session.NotifyProgress(context.WithoutCancel(p.ctx), params)
}

// start sends the first notification and starts the heartbeat. It is the
// query's queued hook, so it may be called more than once.
func (p *callProgress) start() {
	if p.token == nil {
		return
	}
	p.startOnce.Do(func() {
		p.mu.Lock()
		p.started = true
		p.mu.Unlock()
		p.send("querying language server", false)
		began := time.Now()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			tick := time.NewTicker(mcpHeartbeat)
			defer tick.Stop()
			for {
				select {
				case <-p.stop:
					return
				case <-p.ctx.Done():
					return
				case <-tick.C:
					p.send(fmt.Sprintf("waiting for language server (%ds)", int(time.Since(began).Seconds())), false)
				}
			}
		}()
	})
}

// finish ends the heartbeat and sends the final notification of a started
// call, then makes sure the client has read it before the response goes
// out: a client may drop progress for a request it already has the
// response to (the TypeScript SDK handles a notification a microtask late
// and removes the request's progress handler when its response arrives).
// A ping answered by the client was read after the notification, so its
// answer means the notification has been handled.
func (p *callProgress) finish(msg string) {
	p.finishOnce.Do(func() {
		p.mu.Lock()
		started := p.started
		p.mu.Unlock()
		if !started {
			return
		}
		close(p.stop)
		p.wg.Wait()
		if p.ctx.Err() != nil {
			return // cancelled: no response follows
		}
		p.send(msg, true)
		t := p.tool
		t.mu.Lock()
		skip := t.noPing[p.session]
		t.mu.Unlock()
		if skip {
			return
		}
		ctx, cancel := context.WithTimeout(p.ctx, mcpFlushTimeout)
		defer cancel()
		if err := p.session.Ping(ctx, nil); err != nil && p.ctx.Err() == nil {
			p.log.Info("the client did not answer a ping after a call's final progress; not pinging it again", "reason", err)
			t.mu.Lock()
			t.noPing[p.session] = true
			t.mu.Unlock()
		}
	})
}

// workspaceNotices warns, in the log and the handshake's instructions,
// about the workspace known at start: --workspace (already checked to be
// one), else the current directory, the workspace of calls when the client
// lists no root. A current directory that cannot be a workspace (/ or the
// home directory, as an MCP client's working directory often is) is not a
// start problem, since the client's roots may name the project; the notice
// says what the calls will answer if they do not. A large workspace is
// served, with the warning (localstdio.WatchWarning).
func workspaceNotices(dir string, fromFlag bool, log *slog.Logger) []string {
	from := "--workspace"
	if !fromFlag {
		if dir == "" {
			return nil
		}
		from = "the current directory (the workspace when the client lists no root)"
	}
	ws, err := localstdio.CanonicalWorkspace(dir)
	if err != nil && fromFlag {
		return nil // a start problem (checkMCPStart)
	}
	if err != nil {
		lerr := lspError(err)
		notice := fmt.Sprintf("lspseam mcp was started without --workspace, in %s: unless the client lists a project directory as its first root, every call answers %s: %s", dir, lerr.Code, lerr.Message)
		log.Warn(notice)
		return []string{notice}
	}
	if warning := localstdio.WatchWarning(ws); warning != "" {
		log.Warn(warning, "from", from)
		return []string{"Warning: " + warning + "."}
	}
	return nil
}

// rootsInput is the id of the roots/list input request (SEP-2322).
const rootsInput = "lspseam/roots"

// multiRoundTripVersion is the first protocol version in which a server may
// not send roots/list itself while serving a call, and asks for the roots
// as an input request of its result instead.
const multiRoundTripVersion = "2026-07-28"

// workspaceFor returns the workspace root of a call: --workspace, else the
// first file:// root of the client (asked once per session, again after
// notifications/roots/list_changed), else the current directory. On
// protocol 2026-07-28 and later the roots are asked for with an input
// request: then ask is the result to return, and the client calls again
// with the roots.
func (t *mcpTool) workspaceFor(ctx context.Context, req *mcp.CallToolRequest) (ws string, ask *mcp.CallToolResult, err error) {
	if t.workspace != "" {
		return t.workspace, nil, nil
	}
	ss := req.Session
	if ss == nil || !clientHasRoots(ss) {
		return t.currentDir()
	}
	t.mu.Lock()
	root, ok := t.roots[ss]
	t.mu.Unlock()
	if !ok {
		var roots *mcp.ListRootsResult
		if r, given := req.Params.InputResponses[rootsInput]; given {
			roots, _ = r.(*mcp.ListRootsResult)
		} else if ss.InitializeParams().ProtocolVersion >= multiRoundTripVersion {
			return "", &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsInput: &mcp.ListRootsParams{}}}, nil
		} else {
			// Roots are deprecated from protocol 2026-07-28 on; this
			// session's older protocol still has server-sent roots/list.
			roots, err = ss.ListRoots(ctx, nil)
			if ctx.Err() != nil {
				return "", nil, lspseam.Errorf(lspseam.CodeCancelled, "the call was cancelled while asking the client for its roots")
			}
			if err != nil {
				t.host.log.Info("roots/list failed; using the current directory", "reason", err)
			}
		}
		root = firstFileRoot(roots)
		t.mu.Lock()
		t.roots[ss] = root
		t.mu.Unlock()
	}
	if root != "" {
		return root, nil, nil
	}
	return t.currentDir()
}

// currentDir is the workspace of a call whose client lists no root: the
// client's working directory.
func (t *mcpTool) currentDir() (string, *mcp.CallToolResult, error) {
	if t.cwd == "" {
		return "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "the client lists no root and lspseam has no current directory; start lspseam mcp with --workspace DIR")
	}
	return t.cwd, nil, nil
}

func clientHasRoots(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// firstFileRoot returns the local path of the first file:// root, or "".
func firstFileRoot(res *mcp.ListRootsResult) string {
	if res == nil {
		return ""
	}
	for _, r := range res.Roots {
		if p, ok := fileURIPath(r.URI); ok {
			return p
		}
	}
	return ""
}

// fileURIPath is the local path a client's file:// root names, read by the
// core's rule for this OS (the one every host encodes by:
// testdata/uri/fileuri.json).
func fileURIPath(uri string) (string, bool) { return hostPaths.URIPath(uri) }
