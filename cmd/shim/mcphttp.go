package main

// `lspseam mcp --http ADDR`: the MCP server over streamable HTTP, for
// clients that connect to a URL rather than spawn a process, and for
// several clients sharing one set of language servers.
//
// Security model. Anything that can reach the port can read and (with the
// refactor and fs toolsets) write the workspace, so:
//   - every request carries a bearer token (httpauth.go): 32 random bytes
//     kept in a 0600 file, printed once when generated;
//   - the server listens on loopback only unless --allow-remote says
//     otherwise, since the token would otherwise cross the network (in
//     the clear without --tls-cert); an SSH tunnel keeps it local;
//   - on loopback, a Host header that is not a loopback name is refused
//     (DNS rebinding: a web page whose name resolves to 127.0.0.1), and so
//     is any request a browser marks with a non-loopback Origin, before the
//     token is even looked at.
// Each HTTP session gets its own mcpTool and MCP server (previews,
// approvals, roots stay that client's), over one shared host.

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/jsonbound"
)

// mcpHTTPPath is the endpoint of the streamable HTTP transport.
const mcpHTTPPath = "/mcp"

// mcpHTTPFlags are the flags of `lspseam mcp` that choose HTTP.
type mcpHTTPFlags struct {
	addr           string
	allowRemote    bool
	tlsCert        string
	tlsKey         string
	tokenFile      string
	rotateToken    bool
	sessionTimeout time.Duration
	maxSessions    int
}

func (f *mcpHTTPFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "http", "", "serve MCP over streamable HTTP at HOST:PORT (path /mcp) instead of stdio")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "with --http, allow a non-loopback address")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "with --http, serve HTTPS with this certificate (PEM; needs --tls-key)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "with --http, the private key of --tls-cert (PEM)")
	fs.StringVar(&f.tokenFile, "token-file", "", "with --http, the bearer token's file")
	fs.BoolVar(&f.rotateToken, "rotate-token", false, "with --http, replace the token with a new one and print it")
	fs.DurationVar(&f.sessionTimeout, "session-timeout", 30*time.Minute, "with --http, close a session idle this long (0: never)")
	fs.IntVar(&f.maxSessions, "max-sessions", defaultMaxHTTPSessions, "with --http, the most sessions open at once: a new one closes the least recently used idle one (0: no limit)")
}

// wantsHTTP reports whether the command line asks for HTTP, even when its
// parse failed before reaching --http: such a command line is refused at
// once instead of being served over a stdin nobody writes to.
func (f *mcpHTTPFlags) wantsHTTP(args []string) bool {
	if f.addr != "" {
		return true
	}
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "http" {
			return true
		}
	}
	return false
}

// check validates the HTTP flags without touching the network or files.
// It returns whether the address is loopback-only.
func (f *mcpHTTPFlags) check(fs *flag.FlagSet) (loopback bool, err error) {
	if f.addr == "" {
		var stray []string
		fs.Visit(func(fl *flag.Flag) {
			switch fl.Name {
			case "allow-remote", "tls-cert", "tls-key", "token-file", "rotate-token", "session-timeout", "max-sessions":
				stray = append(stray, "--"+fl.Name)
			}
		})
		if len(stray) > 0 {
			return false, usageError{fmt.Errorf("%s only apply with --http ADDR", strings.Join(stray, ", "))}
		}
		return false, nil
	}
	host, _, err := net.SplitHostPort(f.addr)
	if err != nil {
		return false, usageError{fmt.Errorf("--http %q: want HOST:PORT, such as 127.0.0.1:8787 (port 0: any free port)", f.addr)}
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return false, usageError{errors.New("--tls-cert and --tls-key go together: give both or neither")}
	}
	if f.maxSessions < 0 {
		return false, usageError{fmt.Errorf("--max-sessions %d: want a number of sessions (0: no limit)", f.maxSessions)}
	}
	if f.sessionTimeout < 0 {
		return false, usageError{fmt.Errorf("--session-timeout %s: want a duration such as 30m (0: never)", f.sessionTimeout)}
	}
	// An empty host is every interface; a name other than localhost may
	// resolve anywhere.
	loopback = host != "" && loopbackHost(host)
	if !loopback && !f.allowRemote {
		return false, usageError{fmt.Errorf("--http %q is not a loopback address: anyone who can reach it would see the bearer token cross the network; "+
			"listen on 127.0.0.1 and reach it from elsewhere through an SSH tunnel (ssh -L 8787:127.0.0.1:8787 HOST), or add --allow-remote (with --tls-cert and --tls-key)", f.addr)}
	}
	return loopback, nil
}

// runMCPHTTP serves MCP over HTTP until ctx ends (SIGTERM, SIGINT).
// Unlike stdio, a start problem is not served: the user who started it is
// at a terminal (or reading a service log), and a client that cannot
// connect says so. startErr is the command line's problem, if any.
func runMCPHTTP(ctx context.Context, startErr error, common commonFlags, hf mcpHTTPFlags, fs *flag.FlagSet, opts mcpSessionOptions, stderr io.Writer) int {
	fail := func(err error) int {
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "lspseam mcp: %s\nrun 'lspseam mcp --help' for usage\n", u.err)
			return exitUsage
		}
		// The core's errors (config, --workspace) keep their code; the
		// rest (token file, listening) are plain problems, not LSP_INTERNAL.
		var lerr *lspseam.Error
		if errors.As(err, &lerr) {
			fmt.Fprintf(stderr, "lspseam mcp: %s: %s\n", lerr.Code, lerr.Message)
		} else {
			fmt.Fprintf(stderr, "lspseam mcp: %v\n", err)
		}
		return exitError
	}
	if startErr != nil {
		return fail(startErr)
	}
	if hf.addr == "" {
		return fail(usageError{errors.New("--http needs HOST:PORT, such as 127.0.0.1:8787")})
	}
	loopback, err := hf.check(fs)
	if err != nil {
		return fail(err)
	}
	var tlsConfig *tls.Config
	if hf.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(hf.tlsCert, hf.tlsKey)
		if err != nil {
			return fail(fmt.Errorf("--tls-cert/--tls-key: %v", err))
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	tokenFile := hf.tokenFile
	if tokenFile == "" {
		tokenFile = defaultTokenFile()
	}
	token, err := loadToken(tokenFile, hf.rotateToken, stderr)
	if err != nil {
		return fail(fmt.Errorf("the HTTP token: %v", err))
	}

	h, err := startHost(ctx, common, stderr, true)
	if err != nil {
		return fail(err)
	}
	defer h.close() // after the HTTP server: no session outlives its language servers
	if err := checkMCPStart(ctx, h, opts.workspace, opts.toolsets); err != nil {
		return fail(err)
	}

	ln, err := net.Listen("tcp", hf.addr)
	if err != nil {
		return fail(fmt.Errorf("--http: %v", err))
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tlsConfig)
	}
	sessions := newMCPHTTPSessions(ctx, h, opts, newDrain(h.log))
	sessions.max = hf.maxSessions
	handler := mcp.NewStreamableHTTPHandler(sessions.getServer, &mcp.StreamableHTTPOptions{
		SessionTimeout: hf.sessionTimeout,
		Logger:         sdkLogger(h.log),
	})
	mux := http.NewServeMux()
	mux.Handle(mcpHTTPPath, sessions.track(handler))
	srv := &http.Server{
		Handler: newHTTPGuard(token, loopback, mux),
		// Headers come at once from a real client; a connection that
		// trickles them is holding a slot. No write timeout: a call's
		// answer and the session's event stream may take long.
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelInfo),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	if !loopback && tlsConfig == nil {
		fmt.Fprintf(stderr, "lspseam mcp: warning: --allow-remote without --tls-cert: the bearer token travels in the clear to %s\n", hf.addr)
	}
	// The one line a user (or a test) reads to find the server: with
	// port 0, the port is the one the system chose.
	fmt.Fprintf(stderr, "lspseam mcp: serving MCP over HTTP at %s://%s%s\n", scheme, ln.Addr(), mcpHTTPPath)
	h.log.Info("serving MCP over HTTP", "pid", os.Getpid(), "addr", ln.Addr().String(), "loopback", loopback, "tls", tlsConfig != nil)

	select {
	case err := <-served:
		return fail(fmt.Errorf("the HTTP server stopped: %v", err))
	case <-ctx.Done():
	}
	// The calls in flight finish and their answers go out first, the
	// server still listening: a new call is answered that lspseam is
	// stopping (drain.go). Then closing the sessions ends their event
	// streams, which an HTTP shutdown alone would wait for, and the
	// shutdown waits for the requests that then end.
	sessions.drain.stop("SIGTERM or SIGINT")
	cut := sessions.drain.settle()
	closed := sessions.closeAll()
	shutdown, cancel := context.WithTimeout(context.Background(), drainCutWait)
	defer cancel()
	srv.Shutdown(shutdown)
	srv.Close()
	// Said on stderr like the start: an operator (and the tests) can tell
	// sessions closed once their calls had answered from requests cut off
	// after the grace (the log names those).
	msg := "lspseam mcp: stopped: closed " + plural(closed, "open session")
	if cut > 0 {
		msg += "; requests still in flight after " + drainGrace.String() + " were cut off"
	}
	fmt.Fprintln(stderr, msg)
	return exitOK
}

// mcpHTTPSessions makes an MCP server per HTTP session and keeps the live
// sessions, to close them at shutdown.
//
// The SDK's handler calls getServer on every request (for the protocol
// versions the server accepts), and again when a POST without
// Mcp-Session-Id creates a session. So a server is made only for such a
// POST, once per request (a slot in the request's context), and is never
// handed to a second session: each session's previews, approvals and roots
// stay its own. Other requests get nil, which the SDK answers with its
// default versions (the ones these servers have) or, for an unknown
// session, 404.
type mcpHTTPSessions struct {
	ctx   context.Context
	host  *host
	opts  mcpSessionOptions
	drain *drain // the process's stop: tools/call requests count as answers to deliver

	max int // the most sessions open at once (0: no limit; mcphttplimit.go)

	mu   sync.Mutex
	live map[*mcp.ServerSession]*sessionUse
}

func newMCPHTTPSessions(ctx context.Context, h *host, opts mcpSessionOptions, d *drain) *mcpHTTPSessions {
	return &mcpHTTPSessions{ctx: ctx, host: h, opts: opts, drain: d, live: map[*mcp.ServerSession]*sessionUse{}}
}

type serverSlotKey struct{}

// serverSlot is the server made for one request, if any.
type serverSlot struct {
	once   sync.Once
	server *mcp.Server
}

func (s *mcpHTTPSessions) getServer(r *http.Request) *mcp.Server {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		return nil
	}
	slot, _ := r.Context().Value(serverSlotKey{}).(*serverSlot)
	if slot == nil {
		return nil // not through track: never
	}
	slot.once.Do(func() {
		// The process's context, not the request's: the session outlives
		// the request that began it.
		t := newMCPTool(s.ctx, s.host, s.opts, s.drain)
		server, err := newMCPServer(s.ctx, t, s.host.log)
		if err != nil {
			s.host.log.Error("cannot make an MCP server for a new HTTP session", "reason", err)
			return // nil: the SDK answers 400
		}
		slot.server = server
	})
	return slot.server
}

// track gives each request its server slot and, once a request has
// created a session, keeps the session until it ends. A tools/call
// request counts as an answer to deliver until its response is written
// (the drain waits for it); once lspseam is stopping, no new session
// starts.
func (s *mcpHTTPSessions) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if r.Header.Get("Mcp-Session-Id") == "" && s.drain.isStopping() {
				http.Error(w, lspError(s.drain.stoppingError()).Message, http.StatusServiceUnavailable)
				return
			}
			if r.Header.Get("Mcp-Session-Id") == "" {
				if msg, ok := s.makeRoom(); !ok {
					http.Error(w, msg, http.StatusServiceUnavailable)
					return
				}
			}
			body := &callSniffer{ReadCloser: r.Body, drain: s.drain}
			r.Body = body
			defer body.done()
		}
		if r.Method == http.MethodPost {
			// A POST is a request; a GET is the session's standing
			// event stream, open all its life, not a use.
			defer s.using(r.Header.Get("Mcp-Session-Id"))()
		}
		slot := &serverSlot{}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), serverSlotKey{}, slot)))
		if slot.server == nil {
			return
		}
		// A failed initialize leaves no session (the SDK closes it).
		for ss := range slot.server.Sessions() {
			s.mu.Lock()
			s.live[ss] = &sessionUse{last: time.Now()}
			s.mu.Unlock()
			go func() {
				ss.Wait()
				s.mu.Lock()
				delete(s.live, ss)
				s.mu.Unlock()
			}()
		}
	})
}

// closeAll closes every live session.
func (s *mcpHTTPSessions) closeAll() int {
	s.mu.Lock()
	live := make([]*mcp.ServerSession, 0, len(s.live))
	for ss := range s.live {
		live = append(live, ss)
	}
	s.mu.Unlock()
	for _, ss := range live {
		ss.Close()
	}
	return len(live)
}

// callSniffer is a POST's body as the SDK reads it: once its top-level
// method shows it is a tools/call, the drain counts an answer to deliver,
// until done (the handler has written the response). Other requests
// (subscriptions/listen parks for the session's life) are not waited for.
type callSniffer struct {
	io.ReadCloser
	drain   *drain
	scan    jsonbound.Scanner
	decided bool
	counted bool
}

func (c *callSniffer) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if !c.decided {
		c.scan.Write(p[:n])
		if method, ok := c.scan.Method(); ok {
			c.decided = true
			if string(method) == `"tools/call"` {
				c.counted = true
				c.drain.asked()
			}
		} else if err != nil {
			c.decided = true
		}
	}
	return n, err
}

// done is called once the request's handler has returned.
func (c *callSniffer) done() {
	if c.counted {
		c.drain.answered(1)
	}
}
