package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// `lspseam mcp --daemon auto|require` (and serve's): the process the client
// started relays the session to the user's daemon (daemon.go), starting it when
// none listens, and loads no core and starts no server itself. Its stdin
// and stdout are copied to and from the daemon's socket unchanged; the
// daemon bounds and parses the messages as a standalone process would.
//
// auto (mcp's default on Linux and macOS) falls back to serving in this
// process when no daemon can be reached or started (the log says why);
// require fails instead; off (serve's default) never tries, nor does
// --http, whose process is itself shared by its clients.

const (
	daemonAuto    = "auto"
	daemonOff     = "off"
	daemonRequire = "require"
)

// daemonStartTimeout bounds the wait for a daemon this process started to
// listen: with --config it compiles the core to check the config, which a
// loaded machine with an empty cache takes tens of seconds to do.
const daemonStartTimeout = 2 * time.Minute

// daemonFlag is --daemon; $LSPSEAM_DAEMON, else def, is its default.
func daemonFlag(fs *flag.FlagSet, def string) *string {
	if env := os.Getenv("LSPSEAM_DAEMON"); env != "" {
		def = env
	}
	return fs.String("daemon", def, "auto: relay to the user's daemon, starting it when absent, else serve in this process; require: the daemon or fail; off: serve in this process (default: $LSPSEAM_DAEMON, else "+def+")")
}

func checkDaemonFlag(mode string) error {
	switch mode {
	case daemonAuto, daemonOff, daemonRequire:
		return nil
	}
	return usageError{fmt.Errorf("--daemon must be auto, require or off, got %q ($LSPSEAM_DAEMON sets the default)", mode)}
}

// relaySession relays the session on stdin and stdout (op: an MCP
// session, or serve's JSON-RPC) to the daemon. relayed is false when mode
// is auto and no daemon could serve the session: the caller serves it
// itself.
func relaySession(ctx context.Context, op, mode string, common commonFlags, so daemonSessionOptions, stdin io.Reader, stdout, stderr io.Writer) (code int, relayed bool) {
	log, err := newLogger(common.logLevel, stderr)
	if err != nil {
		log, _ = newLogger("warn", stderr)
	}
	conn, r, addr, err := openDaemonSession(ctx, op, common, so, log)
	if err != nil {
		if mode == daemonAuto {
			level := slog.LevelWarn
			if !daemonSupported {
				level = slog.LevelInfo // expected here: not worth a warning at every start
			}
			log.Log(ctx, level, "serving in this process: the daemon cannot serve this session", "reason", lspError(err).Message)
			return 0, false
		}
		lerr := lspError(err)
		fmt.Fprintf(stderr, "lspseam %s: --daemon require: %s: %s\n", op, lerr.Code, lerr.Message)
		return exitError, true
	}
	defer conn.Close()
	log.Info("relaying the session to the daemon", "op", op, "socket", conn.RemoteAddr())
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	// clientDone is closed when the client has closed stdin (the session
	// ends as it asked); a write that fails first means the daemon went.
	clientDone := make(chan struct{})
	go func() {
		if _, err := io.Copy(conn, stdin); err == nil {
			close(clientDone)
		}
		conn.CloseWrite()
	}()
	ended, copyErr := copySession(stdout, r)
	if ended || ctx.Err() != nil {
		return exitOK, true
	}
	select {
	case <-clientDone:
		return exitOK, true
	default:
	}
	// The daemon ended the session while the client was still there.
	fmt.Fprintf(stderr, "lspseam %s: the daemon closed the session (it stopped or crashed; its log: %s): %v; start lspseam %s again\n", op, addr.log, errOrEOF(copyErr), op)
	return exitError, true
}

// copySession copies the daemon's side of the session to w up to the
// sessionEnd mark; ended says whether the mark came (the session ended as
// the client asked) before the connection closed.
func copySession(w io.Writer, r io.Reader) (ended bool, err error) {
	buf := make([]byte, 32<<10)
	for {
		n, rerr := r.Read(buf)
		chunk := buf[:n]
		if i := bytes.IndexByte(chunk, 0); i >= 0 {
			chunk, ended = chunk[:i], true
		}
		if _, werr := w.Write(chunk); werr != nil {
			return false, werr
		}
		if ended {
			return true, nil
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return false, nil
			}
			return false, rerr
		}
	}
}

func errOrEOF(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// relayOptions are the session options a relay sends: its flags, paths
// made absolute, and its working directory.
func relayOptions(workspace, toolsets, profile, approval string, timeoutMs int) daemonSessionOptions {
	cwd, _ := os.Getwd()
	if workspace != "" && !filepath.IsAbs(workspace) && cwd != "" {
		workspace = filepath.Join(cwd, workspace)
	}
	return daemonSessionOptions{Workspace: workspace, Tools: toolsetList(toolsets), Profile: profile, Approval: approval, TimeoutMs: int64(timeoutMs), Cwd: cwd, ClientPID: os.Getpid()}
}

// openDaemonSession connects to the daemon (starting it when absent) and
// has it accept the session; r reads what the daemon sends after its
// reply, and the address names the daemon's files (its log).
func openDaemonSession(ctx context.Context, op string, common commonFlags, so daemonSessionOptions, log *slog.Logger) (*net.UnixConn, *bufio.Reader, daemonAddress, error) {
	if !daemonSupported {
		return nil, nil, daemonAddress{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "the daemon runs on Linux and macOS only")
	}
	addr, err := daemonAddressFor(common.config)
	if err != nil {
		return nil, nil, daemonAddress{}, err
	}
	// A daemon that dies as the client connects (killed, or stopping
	// for idleness) can leave its socket accepting for a moment: the
	// connection is then reset before the reply, and the next attempt
	// finds the socket dead and starts a new daemon.
	var conn *net.UnixConn
	var r *bufio.Reader
	var reply daemonReply
	for attempt := 1; ; attempt++ {
		if conn, err = connectDaemon(ctx, addr, common, log); err != nil {
			return nil, nil, daemonAddress{}, err
		}
		r, reply, err = daemonExchange(conn, daemonHello{Protocol: daemonProtocol, Op: op, Key: addr.key, Session: &so})
		if err == nil {
			break
		}
		conn.Close()
		if attempt == 3 || ctx.Err() != nil {
			return nil, nil, daemonAddress{}, err
		}
		log.Info("the daemon went away as this client connected; trying again", "reason", err)
		time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
	}
	if !reply.OK {
		conn.Close()
		if reply.Error != nil {
			return nil, nil, daemonAddress{}, reply.Error
		}
		return nil, nil, daemonAddress{}, lspseam.Errorf(lspseam.CodeInternal, "the daemon refused the session without saying why")
	}
	return conn, r, addr, nil
}

// daemonExchange sends hello and reads the daemon's reply.
func daemonExchange(conn *net.UnixConn, hello daemonHello) (*bufio.Reader, daemonReply, error) {
	var reply daemonReply
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	defer conn.SetDeadline(time.Time{})
	if err := writeJSONLine(conn, hello); err != nil {
		return nil, reply, lspseam.Errorf(lspseam.CodeUnavailable, "the daemon went away: %v", err)
	}
	r := bufio.NewReader(conn)
	if err := readJSONLine(r, &reply); err != nil {
		return nil, reply, lspseam.Errorf(lspseam.CodeUnavailable, "the daemon did not answer: %v", err)
	}
	return r, reply, nil
}

// dialDaemon connects to a listening daemon.
func dialDaemon(socket string) (*net.UnixConn, error) {
	return net.DialUnix("unix", nil, &net.UnixAddr{Name: socket, Net: "unix"})
}

// connectDaemon connects to the daemon at addr, starting one when none
// listens. Clients that find none take turns (the start lock): the first
// starts the daemon and the others find it listening. Should two daemons
// start anyway (a --socket of one's own), the daemon's lock lets one
// listen and the other exits at once.
func connectDaemon(ctx context.Context, addr daemonAddress, common commonFlags, log *slog.Logger) (*net.UnixConn, error) {
	if conn, err := dialDaemon(addr.socket); err == nil {
		return conn, nil
	}
	ctx, cancel := context.WithTimeout(ctx, daemonStartTimeout)
	defer cancel()
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		lock, err := tryLockFile(addr.start)
		if err == nil {
			defer lock.Close()
			break
		}
		if !errors.Is(err, errLockHeld) {
			return nil, lspseam.Errorf(lspseam.CodeInternal, "cannot take the daemon's start lock %s: %v", addr.start, err)
		}
		select {
		case <-ctx.Done():
			return nil, lspseam.Errorf(lspseam.CodeTimeout, "another client has been starting the daemon on %s for %v: %s", addr.socket, daemonStartTimeout, logTail(addr.log))
		case <-time.After(wait):
		}
	}
	if conn, err := dialDaemon(addr.socket); err == nil {
		return conn, nil // another client started it
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"daemon", "--socket", addr.socket, "--log-file", addr.log, "--log-level", common.logLevel}
	if common.config != "" {
		abs, err := filepath.Abs(common.config)
		if err != nil {
			return nil, err
		}
		args = append(args, "--config", abs)
	}
	var exited chan error // nil while the daemon this client started runs
	spawn := func() error {
		cmd := exec.Command(exe, args...)
		// The daemon outlives this client: its own session, no terminal,
		// no pipe of the client's (a client waiting for its server's
		// stdout to close would wait for the daemon).
		cmd.SysProcAttr = daemonProcAttr()
		cmd.Dir = "/"
		if err := cmd.Start(); err != nil {
			return lspseam.Errorf(lspseam.CodeInternal, "cannot start the daemon: %v", err)
		}
		log.Info("started the daemon", "pid", cmd.Process.Pid, "socket", addr.socket, "log", addr.log)
		exited = make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		return nil
	}
	if err := spawn(); err != nil {
		return nil, err
	}
	wait := 5 * time.Millisecond
	for {
		if conn, err := dialDaemon(addr.socket); err == nil {
			return conn, nil
		}
		select {
		case err := <-exited:
			if err != nil {
				return nil, lspseam.Errorf(lspseam.CodeUnavailable, "the daemon exited before listening (%v): %s", err, logTail(addr.log))
			}
			// Another daemon held the lock: one starting for another
			// client, or one stopping (idle) that has closed its socket.
			// Try again until one listens.
			time.Sleep(wait)
			if err := spawn(); err != nil {
				return nil, err
			}
		case <-ctx.Done():
			return nil, lspseam.Errorf(lspseam.CodeTimeout, "the daemon did not listen on %s within %v: %s", addr.socket, daemonStartTimeout, logTail(addr.log))
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// logTail is the last lines of the daemon's log, for an error message.
func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "no log at " + path
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return "the end of " + path + ": " + strings.Join(lines, " | ")
}

// runDaemonControl is `lspseam daemon status|stop`.
func runDaemonControl(op string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("daemon "+op, flag.ContinueOnError)
	config := fs.String("config", "", "the daemon of this server table (as given to lspseam mcp)")
	socket := fs.String("socket", "", "the daemon listening on this socket")
	positionals, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printSubcommandHelp(stdout, "daemon", fs)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "lspseam daemon %s: %v\n", op, err)
		return exitUsage
	case len(positionals) > 0:
		fmt.Fprintf(stderr, "lspseam daemon %s: unexpected argument %q; usage: lspseam daemon %s [--config FILE] [--socket PATH]\n", op, positionals[0], op)
		return exitUsage
	}
	var addrs []daemonAddress
	if *config == "" && *socket == "" {
		addrs, err = runningDaemons()
	} else {
		var a daemonAddress
		a, err = daemonAddressOf(*config, *socket)
		addrs = append(addrs, a)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lspseam daemon %s: %s\n", op, lspError(err).Message)
		return exitError
	}
	reached := 0
	for _, addr := range addrs {
		ok, err := controlDaemon(op, addr, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "lspseam daemon %s: %s: %s\n", op, addr.socket, lspError(err).Message)
			return exitError
		}
		if ok {
			reached++
		}
	}
	if reached == 0 {
		where := "in the runtime directory"
		if len(addrs) == 1 && (*config != "" || *socket != "") {
			where = "on " + addrs[0].socket
		}
		fmt.Fprintf(stdout, "no daemon is running %s\n", where)
		if op == daemonOpStatus {
			return exitError
		}
	}
	return exitOK
}

// controlDaemon asks the daemon at addr for its status or to stop;
// reached is false when none listens there.
func controlDaemon(op string, addr daemonAddress, stdout io.Writer) (reached bool, err error) {
	conn, err := dialDaemon(addr.socket)
	if err != nil {
		return false, nil
	}
	defer conn.Close()
	_, reply, err := daemonExchange(conn, daemonHello{Protocol: daemonProtocol, Op: op})
	if err == nil && !reply.OK && reply.Error != nil {
		err = reply.Error
	}
	if err != nil {
		return true, err
	}
	if op == daemonOpStop {
		// The daemon shuts its servers down, then lets go of its lock:
		// wait for that, so a stop is complete when it returns and a
		// daemon started next finds the lock free (it would otherwise
		// take the old one for a running daemon and exit).
		if err := waitDaemonGone(addr, daemonStopWait); err != nil {
			return true, lspseam.Errorf(lspseam.CodeTimeout, "the daemon (pid %d) was asked to stop and still runs after %v, shutting its servers down; run lspseam daemon stop again to wait more, or see its log: %s", reply.Status.PID, daemonStopWait, reply.Status.Log)
		}
		fmt.Fprintf(stdout, "stopped the daemon (pid %d) on %s\n", reply.Status.PID, addr.socket)
		return true, nil
	}
	return true, writeJSONLine(stdout, reply.Status)
}

// daemonStopWait bounds how long `daemon stop` waits for a daemon to shut
// its servers down (each gets its shutdown grace, then is killed; a
// loaded machine stretches that).
const daemonStopWait = 2 * time.Minute

// waitDaemonGone waits until no process holds addr's lock: the daemon
// there has exited, its servers shut down.
func waitDaemonGone(addr daemonAddress, limit time.Duration) error {
	end := time.Now().Add(limit)
	for {
		lock, err := tryLockFile(addr.lock)
		if err == nil {
			lock.Close()
			return nil
		}
		if !errors.Is(err, errLockHeld) || time.Now().After(end) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
