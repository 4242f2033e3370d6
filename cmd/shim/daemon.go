package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/jsonbound"
)

// `lspseam daemon`: one process per user (and per executable, config and
// PATH: daemonaddr.go) that serves MCP sessions to every `lspseam mcp`
// relaying to it (relay.go). The host — the core, the language servers,
// their freshness barrier, per-workspace queue and readiness — is one and
// shared: four agents on one repository run one gopls. What belongs to an
// agent is one per session: an mcpTool each, so previews and their ids,
// observations, approval mode, toolsets, roots and budget are the
// client's own, and a client that goes away cancels its own calls only.
//
// The daemon exits after --idle with no client (default 30 minutes), on
// `lspseam daemon stop`, or on SIGTERM/SIGINT; the language servers are
// shut down first. Killed outright, it takes its servers with it: each
// server's supervisor watches its parent (supervise.go), and the lock the
// daemon held is the kernel's to release.

// defaultDaemonIdle is how long a daemon stays up with no client.
const defaultDaemonIdle = 30 * time.Minute

// daemonIdleDefault is $LSPSEAM_DAEMON_IDLE (a Go duration), else
// defaultDaemonIdle: a daemon a relay starts inherits the relay's
// environment, so an MCP client's configuration can set it.
func daemonIdleDefault() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("LSPSEAM_DAEMON_IDLE")); err == nil && d >= 0 {
		return d
	}
	return defaultDaemonIdle
}

// errLockHeld: another process holds the lock (tryLockFile); for the
// daemon's own lock, another daemon runs on its socket.
var errLockHeld = errors.New("the lock is held by another process")

func runDaemon(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case daemonOpStatus, daemonOpStop:
			return runDaemonControl(args[0], args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	var common commonFlags
	common.register(fs)
	socket := fs.String("socket", "", "the Unix socket to listen on (default: the user's socket for this lspseam, --config and PATH)")
	idle := fs.Duration("idle", daemonIdleDefault(), "exit after this long with no client (0: never; default: $LSPSEAM_DAEMON_IDLE, else 30m)")
	logFile := fs.String("log-file", "", "append the log to this file (default: stderr)")
	positionals, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printSubcommandHelp(stdout, "daemon", fs)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "lspseam daemon: %v\n", err)
		return exitUsage
	case len(positionals) > 0:
		fmt.Fprintf(stderr, "lspseam daemon: unexpected argument %q; usage: lspseam daemon [status|stop] [--config FILE] [--socket PATH] [--idle DURATION] [--log-file FILE] [--log-level LEVEL] [--timeout MS]\n", positionals[0])
		return exitUsage
	case *idle < 0:
		fmt.Fprintf(stderr, "lspseam daemon: --idle must not be negative, got %v\n", *idle)
		return exitUsage
	}
	if !daemonSupported {
		fmt.Fprintln(stderr, "lspseam daemon: the daemon runs on Linux and macOS only; lspseam mcp serves in its own process here (--daemon off)")
		return exitError
	}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "lspseam daemon: --log-file: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		stderr = f
	}
	addr, err := daemonAddressOf(common.config, *socket)
	if err != nil {
		fmt.Fprintf(stderr, "lspseam daemon: %s\n", lspError(err).Message)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	common.longLived = true
	d, err := startDaemon(ctx, addr, common, *idle, stderr)
	if errors.Is(err, errLockHeld) {
		fmt.Fprintf(stderr, "lspseam daemon: already running on %s\n", addr.socket)
		return exitOK
	}
	if err != nil {
		lerr := lspError(err)
		fmt.Fprintf(stderr, "lspseam daemon: %s: %s\n", lerr.Code, lerr.Message)
		return exitError
	}
	d.serve(ctx)
	return exitOK
}

// daemonAddressOf is --socket's daemon, else the user's for configPath.
func daemonAddressOf(configPath, socket string) (daemonAddress, error) {
	if socket != "" {
		a := daemonAddressAt(socket)
		if err := checkPrivateDir(a.dir); err != nil {
			return daemonAddress{}, err
		}
		return a, nil
	}
	return daemonAddressFor(configPath)
}

// daemon is a running `lspseam daemon`.
type daemon struct {
	addr    daemonAddress
	host    *host
	log     *slog.Logger
	ln      *net.UnixListener
	lock    *os.File
	idle    time.Duration
	config  string
	key     string // daemonKey of its executable, config and environment
	started time.Time
	stop    context.CancelFunc // ends serve: a stop request, the idle timer
	drain   *drain             // the stop: new calls refused, those in flight let finish (drain.go)

	mu        sync.Mutex
	sessions  int
	served    int
	idleSince time.Time
	idleTimer *time.Timer
	stopWhy   string         // what asked the daemon to stop ("": a signal)
	wg        sync.WaitGroup // the connections' goroutines
}

// startDaemon takes the daemon's lock, starts the host and listens.
func startDaemon(ctx context.Context, addr daemonAddress, common commonFlags, idle time.Duration, stderr io.Writer) (*daemon, error) {
	key, err := daemonKey(common.config)
	if err != nil {
		return nil, err
	}
	lock, err := tryLockFile(addr.lock)
	if err != nil {
		return nil, err
	}
	h, err := startHost(ctx, common, stderr, true)
	if err != nil {
		lock.Close()
		return nil, err
	}
	// The lock says no other daemon listens here: a socket left by one
	// that died is removed.
	os.Remove(addr.socket)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: addr.socket, Net: "unix"})
	if err != nil {
		h.close()
		lock.Close()
		return nil, lspseam.Errorf(lspseam.CodeInternal, "cannot listen on %s: %v", addr.socket, err)
	}
	ln.SetUnlinkOnClose(true)
	// The directory is the user's alone; the socket is too, in case the
	// directory was given with --socket and is shared by mistake later.
	if err := os.Chmod(addr.socket, 0o600); err != nil {
		ln.Close()
		h.close()
		lock.Close()
		return nil, lspseam.Errorf(lspseam.CodeInternal, "cannot make %s private: %v", addr.socket, err)
	}
	d := &daemon{addr: addr, host: h, log: h.log, ln: ln, lock: lock, idle: idle, config: common.config, key: key, started: time.Now(), drain: newDrain(h.log)}
	d.idleSince = d.started
	return d, nil
}

// serve accepts clients until ctx ends, a client asks the daemon to
// stop, or it has been idle for d.idle; then it lets the calls in flight
// finish and answer (drain.go), and closes every session and the host.
func (d *daemon) serve(ctx context.Context) {
	ctx, d.stop = context.WithCancel(ctx)
	defer d.stop()
	// The sessions outlive the stop until their calls have answered.
	sessions, endSessions := context.WithCancel(context.WithoutCancel(ctx))
	defer endSessions()
	d.mu.Lock()
	d.armIdleLocked()
	d.mu.Unlock()
	d.log.Info("daemon listening", "socket", d.addr.socket, "pid", os.Getpid(), "idle", d.idle)
	go func() {
		<-ctx.Done()
		d.ln.Close()
	}()
	for {
		conn, err := d.ln.AcceptUnix()
		if err != nil {
			if ctx.Err() == nil {
				d.log.Error("the daemon's socket failed; exiting", "reason", err)
			}
			break
		}
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.handle(ctx, sessions, conn)
		}()
	}
	d.stop()
	stopping := time.Now()
	d.mu.Lock()
	why := d.stopWhy
	d.mu.Unlock()
	if why == "" {
		why = "SIGTERM or SIGINT"
	}
	d.drain.stop(why)
	d.drain.settle()
	endSessions()
	if !within(daemonShutdownBound, func() {
		d.wg.Wait()
		d.host.close()
	}) {
		// A daemon asked to stop stops: what still runs is named in the
		// log, and the supervisor ends the language servers once this
		// process is gone (localstdio/internal/supervisor), as after a kill.
		var stacks strings.Builder
		pprof.Lookup("goroutine").WriteTo(&stacks, 1)
		d.log.Error("the daemon's sessions and servers had not ended after the bound; exiting anyway (the supervisor stops the servers)", "bound", daemonShutdownBound, "goroutines", stacks.String())
	}
	d.lock.Close()
	// How long the sessions and servers took to end: what `daemon stop`
	// waited for.
	d.log.Info("daemon stopped", "sessionsServed", d.served, "shutdown", time.Since(stopping).Round(time.Millisecond))
}

// daemonShutdownBound bounds the daemon's wait for its sessions and
// servers to end once it stops: each server gets its shutdown grace
// (shutdownTimeoutMs) and is then killed, so a longer wait is something
// stuck, and `daemon stop` waits longer than this (daemonStopWait).
const daemonShutdownBound = 45 * time.Second

// within runs f and reports whether it returned within bound; f goes on
// running when it did not.
func within(bound time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// stopFor stops the daemon, saying why in the drain's answers.
func (d *daemon) stopFor(why string) {
	d.mu.Lock()
	if d.stopWhy == "" {
		d.stopWhy = why
	}
	d.mu.Unlock()
	d.stop()
}

// handle serves one connection: checks its peer, reads its hello and
// serves what it asks for. ctx ends when the daemon stops, sessions once
// the calls in flight have answered.
func (d *daemon) handle(ctx, sessions context.Context, conn *net.UnixConn) {
	defer conn.Close()
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		d.log.Warn("refused a connection from another user", "uid", uid, "reason", err)
		return
	}
	// A client that connects and says nothing does not hold a goroutine
	// for ever.
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	var hello daemonHello
	if err := readJSONLine(r, &hello); err != nil {
		d.log.Info("a client's first line was not a hello", "reason", err)
		writeJSONLine(conn, daemonReply{Error: lspseam.Errorf(lspseam.CodeInvalidArgument, "the daemon expects a JSON hello line first: %v", err)})
		return
	}
	conn.SetReadDeadline(time.Time{})
	if hello.Protocol != daemonProtocol {
		writeJSONLine(conn, daemonReply{Error: lspseam.Errorf(lspseam.CodeInvalidArgument, "this daemon speaks protocol %d, the client %d; start the client with --daemon off or stop the daemon (lspseam daemon stop)", daemonProtocol, hello.Protocol)})
		return
	}
	if (hello.Op == daemonOpMCP || hello.Op == daemonOpServe) && hello.Key != d.key {
		d.log.Warn("refused a session: the client's executable, config or environment differs from the daemon's", "clientKey", hello.Key, "key", d.key)
		writeJSONLine(conn, daemonReply{Error: lspseam.Errorf(lspseam.CodeUnavailable, "the daemon on %s runs with another executable, config or environment (key %s) than this client (key %s), so its servers could answer otherwise; start it as the clients do, or let a client start it", d.addr.socket, d.key, hello.Key)})
		return
	}
	switch hello.Op {
	case daemonOpStatus:
		writeJSONLine(conn, daemonReply{OK: true, Status: d.status()})
	case daemonOpStop:
		d.log.Info("stop requested by a client")
		writeJSONLine(conn, daemonReply{OK: true, Status: d.status()})
		d.stopFor("lspseam daemon stop")
	case daemonOpMCP:
		if ctx.Err() != nil {
			return // stopping: the client finds the socket dead and starts another
		}
		d.serveMCP(sessions, conn, r, hello.Session)
	case daemonOpServe:
		if ctx.Err() != nil {
			return
		}
		d.serveJSONRPC(sessions, conn, r, hello.Session)
	default:
		writeJSONLine(conn, daemonReply{Error: lspseam.Errorf(lspseam.CodeInvalidArgument, "unknown op %q; the daemon serves mcp, serve, status and stop", hello.Op)})
	}
}

// serveMCP serves one client's MCP session over conn, r holding what the
// client sent after its hello.
func (d *daemon) serveMCP(ctx context.Context, conn *net.UnixConn, r *bufio.Reader, so *daemonSessionOptions) {
	opts, err := d.sessionOptions(ctx, so)
	log, label, end, ok := d.admit(conn, err, so)
	if !ok {
		return
	}
	defer end()
	log.Info("session started", "workspace", opts.workspace, "cwd", opts.cwd)
	// The session's calls end with it: a client that goes away cancels
	// its own calls (the language server gets $/cancelRequest) and no one
	// else's.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		conn.Close() // the daemon stops: end the session's read
	}()
	t := newMCPTool(ctx, d.host, opts, d.drain)
	t.label = label
	server, err := newMCPServer(ctx, t, log)
	if err != nil {
		log.Error("the session could not start", "reason", err)
		return
	}
	ledger := newAnswerLedger(d.drain)
	defer ledger.close()
	out := &lockedWriter{w: conn, ledger: ledger}
	in := newMCPInput(r, out, log)
	in.ledger = ledger
	transport := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: out, MaxLineLength: jsonbound.MaxMessageBytes + 1<<20}
	if err := server.Run(ctx, transport); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		log.Warn("the session ended on an error", "reason", err)
	}
	if ctx.Err() == nil {
		conn.Write([]byte(sessionEnd))
	}
	log.Info("session ended")
}

// serveJSONRPC serves one `lspseam serve` client's session over conn,
// with its own Toolbox (previews, observations, approval) over the shared
// host; shutdown and exit end the session, not the daemon.
func (d *daemon) serveJSONRPC(ctx context.Context, conn *net.UnixConn, r *bufio.Reader, so *daemonSessionOptions) {
	if so == nil {
		so = &daemonSessionOptions{}
	}
	toolbox, err := d.serveToolbox(ctx, so)
	log, label, end, ok := d.admit(conn, err, so)
	if !ok {
		return
	}
	defer end()
	log.Info("serve session started")
	s := newServeSession(d.host, so.TimeoutMs > 0, d.drain)
	s.toolbox, s.timeoutMs, s.log, s.label = toolbox, so.TimeoutMs, log, label
	if s.run(ctx, readerConn{r, conn}, d.host.maxRequestBytes) == exitOK && ctx.Err() == nil {
		conn.Write([]byte(sessionEnd))
	}
	log.Info("serve session ended")
}

// serveToolbox is a serve session's Toolbox (every toolset) with the
// client's approval mode, after checking its options as serve checks its
// flags.
func (d *daemon) serveToolbox(ctx context.Context, so *daemonSessionOptions) (*toolbox.Toolbox, error) {
	if err := checkApprovalFlag("serve", so.Approval); err != nil {
		return nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "%v", err)
	}
	if so.TimeoutMs < 0 || so.TimeoutMs > maxTimeoutMs {
		return nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "--timeout must be a positive number of milliseconds at most %d, got %d", maxTimeoutMs, so.TimeoutMs)
	}
	toolbox, err := toolbox.NewToolbox(ctx, d.host.core, d.host.service, core.Toolsets...)
	if err != nil {
		return nil, err
	}
	toolbox.SetLogger(d.log)
	return toolbox, setApproval(toolbox, d.host.approvalMode(so.Approval, false))
}

// admit answers a client's hello: the error that keeps its session from
// starting (refused), or ok. An admitted session counts as connected (no
// idle exit) until end is called; log names it, and so does label.
func (d *daemon) admit(conn net.Conn, refused error, so *daemonSessionOptions) (log *slog.Logger, label string, end func(), ok bool) {
	if refused != nil {
		writeJSONLine(conn, daemonReply{Error: lspError(refused)})
		return nil, "", nil, false
	}
	if err := writeJSONLine(conn, daemonReply{OK: true}); err != nil {
		return nil, "", nil, false
	}
	n := d.sessionStarted()
	return d.log.With("session", n, "clientPid", so.ClientPID), fmt.Sprintf("%d (client pid %d)", n, so.ClientPID), d.sessionEnded, true
}

// readerConn is conn read through r, which holds what the client sent
// after its hello.
type readerConn struct {
	r    io.Reader
	conn net.Conn
}

func (c readerConn) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c readerConn) Write(p []byte) (int, error) { return c.conn.Write(p) }

// Close leaves the connection open: the daemon writes the session's end
// mark after the session, then closes it (handle).
func (c readerConn) Close() error { return nil }

// sessionOptions checks a client's options as a standalone `lspseam mcp`
// checks its flags.
func (d *daemon) sessionOptions(ctx context.Context, so *daemonSessionOptions) (mcpSessionOptions, error) {
	if so == nil {
		return mcpSessionOptions{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "an mcp hello needs its session options")
	}
	opts := mcpSessionOptions{workspace: so.Workspace, toolsets: so.Tools, profile: mcpProfile(so.Profile), approval: so.Approval, timeoutMs: so.TimeoutMs, timeoutFlag: so.TimeoutMs > 0, cwd: so.Cwd}
	if len(opts.toolsets) == 0 {
		opts.toolsets = toolbox.DefaultToolsets
	}
	if opts.profile == "" {
		opts.profile = profileStandard
	}
	if err := checkApprovalFlag("mcp", opts.approval); err != nil {
		return opts, lspseam.Errorf(lspseam.CodeInvalidArgument, "%v", err)
	}
	if err := checkProfileFlag(string(opts.profile)); err != nil {
		return opts, lspseam.Errorf(lspseam.CodeInvalidArgument, "%v", err)
	}
	if opts.timeoutMs < 0 || opts.timeoutMs > maxTimeoutMs {
		return opts, lspseam.Errorf(lspseam.CodeInvalidArgument, "--timeout must be a positive number of milliseconds at most %d, got %d", maxTimeoutMs, opts.timeoutMs)
	}
	if err := checkMCPStart(ctx, d.host, opts.workspace, opts.toolsets); err != nil {
		return opts, lspseam.Errorf(lspseam.CodeInvalidArgument, "%s", lspError(err).Message)
	}
	return opts, nil
}

// sessionStarted counts a session in and stops the idle timer; it
// returns the session's number.
func (d *daemon) sessionStarted() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sessions++
	d.served++
	if d.idleTimer != nil {
		d.idleTimer.Stop()
		d.idleTimer = nil
	}
	d.idleSince = time.Time{}
	return d.served
}

// sessionEnded counts a session out and arms the idle timer when it was
// the last.
func (d *daemon) sessionEnded() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sessions--
	if d.sessions == 0 {
		d.idleSince = time.Now()
		d.armIdleLocked()
	}
}

func (d *daemon) armIdleLocked() {
	if d.idle == 0 || d.idleTimer != nil {
		return
	}
	d.idleTimer = time.AfterFunc(d.idle, func() {
		d.mu.Lock()
		idle := d.sessions == 0
		d.mu.Unlock()
		if idle {
			d.log.Info("no client for the idle period; exiting", "idle", d.idle)
			d.stopFor("no client for the idle period")
		}
	})
}

func (d *daemon) status() *daemonStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	idle := "never"
	if d.idle > 0 {
		idle = d.idle.String()
	}
	return &daemonStatus{PID: os.Getpid(), Version: version(), Socket: d.addr.socket, Log: d.addr.log, Config: d.config, Started: d.started, Sessions: d.sessions, SessionsServed: d.served, IdleExit: idle, IdleSince: d.idleSince}
}
