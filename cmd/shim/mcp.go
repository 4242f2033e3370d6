package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
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
// starts, every second while it runs and when it ends.

// mcpHeartbeat is the interval of progress notifications while a call runs.
var mcpHeartbeat = time.Second

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	workspace := fs.String("workspace", "", "workspace root (default: the client's first root, else the current directory)")
	positionals, code, ok := parseSubcommand("mcp", fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(positionals) > 0 {
		fmt.Fprintf(stderr, "lspseam mcp: unexpected argument %q; usage: lspseam mcp [--config FILE] [--workspace DIR] [--log-level LEVEL] [--timeout MS]\n", positionals[0])
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	h, code := startServing(ctx, "mcp", common, stderr)
	if h == nil {
		return code
	}
	// However the session ends (stdin closed, client gone, signal), the
	// language servers are shut down before the process exits.
	defer h.close()

	server, err := newMCPServer(ctx, h, *workspace)
	if err != nil {
		lerr := lspError(err)
		fmt.Fprintf(stderr, "lspseam mcp: %s: %s\n", lerr.Code, lerr.Message)
		return exitError
	}
	transport := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	h.log.Info("serving MCP", "pid", os.Getpid())
	// The SDK ends the session on a line that is not JSON-RPC (it has no
	// way to answer it and go on); that is the client's error, so it is
	// reported at error level and the exit status says so. A closed stdin
	// or a signal is a normal end.
	if err := server.Run(ctx, transport); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		h.log.Error("the MCP session ended on a message that is not JSON-RPC", "reason", err)
		return exitError
	}
	return exitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mcpTool serves the lsp tool for one MCP server (stdio has one session).
type mcpTool struct {
	host      *host
	workspace string // --workspace, or ""

	mu    sync.Mutex
	roots map[*mcp.ServerSession]string // the workspace from roots/list, per session
}

// newMCPServer builds the MCP server with the core's lsp tool, registered
// with the core's own input schema.
func newMCPServer(ctx context.Context, h *host, workspace string) (*mcp.Server, error) {
	def, err := h.core.ToolDefinition(ctx)
	if err != nil {
		return nil, err
	}
	t := &mcpTool{host: h, workspace: workspace, roots: map[*mcp.ServerSession]string{}}
	server := mcp.NewServer(&mcp.Implementation{Name: "lspseam", Version: version()}, &mcp.ServerOptions{
		Logger: h.log,
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) {
			t.mu.Lock()
			delete(t.roots, req.Session)
			t.mu.Unlock()
		},
	})
	server.AddTool(&mcp.Tool{
		Name:        def.Name,
		Description: def.Description,
		InputSchema: json.RawMessage(def.InputSchema),
	}, t.call)
	return server, nil
}

// call is the lsp tool handler. ctx is cancelled by the SDK on
// notifications/cancelled and when the session ends.
func (t *mcpTool) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ws, ask, err := t.workspaceFor(ctx, req)
	if err != nil {
		return toolError(err), nil
	}
	if ask != nil {
		return ask, nil
	}
	done := t.progress(ctx, req)
	args := []byte(req.Params.Arguments)
	if len(args) == 0 {
		args = []byte("{}") // the core then names every missing argument
	}
	res, text, err := t.host.toolCall(ctx, args, ws)
	if err != nil {
		done("failed")
		return toolError(err), nil
	}
	done("done")
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: res,
	}, nil
}

// toolError is a seam error as the model sees it.
func toolError(err error) *mcp.CallToolResult {
	lerr := lspError(err)
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: string(lerr.Code) + ": " + lerr.Message}},
		IsError: true,
	}
}

// progress sends notifications/progress when the client gave a token: now,
// every mcpHeartbeat while the call runs, and once more from the returned
// function, which ends the heartbeat.
func (t *mcpTool) progress(ctx context.Context, req *mcp.CallToolRequest) func(final string) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func(string) {}
	}
	var mu sync.Mutex
	n := 0.0
	send := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		n++
		// Best effort: a client that has gone away just misses it.
		_ = req.Session.NotifyProgress(context.WithoutCancel(ctx), &mcp.ProgressNotificationParams{ProgressToken: token, Progress: n, Message: msg})
	}
	send("querying language server")
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(mcpHeartbeat)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				send(fmt.Sprintf("waiting for language server (%ds)", int(time.Since(start).Seconds())))
			}
		}
	}()
	var once sync.Once
	return func(final string) {
		once.Do(func() {
			close(stop)
			wg.Wait()
			if ctx.Err() == nil {
				send(final)
			}
		})
	}
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
		ws, err = os.Getwd()
		return ws, nil, err
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
	ws, err = os.Getwd()
	return ws, nil, err
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

// fileURIPath converts a local file:// URI to a path.
func fileURIPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x → C:/x
	}
	return filepath.FromSlash(p), true
}
