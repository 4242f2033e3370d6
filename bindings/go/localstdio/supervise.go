package localstdio

// A language server's lifetime must not outlast the shim's, including
// whatever the server itself starts (typescript-language-server runs
// tsserver; a wrapper script may leave `sleep 300 &` behind). The kernel's
// parent-death signal reaches only the direct child, and nothing runs in
// the shim after a SIGKILL, so the guarantee needs a process outside the
// shim: the supervisor.
//
// The supervisor is this very binary, re-executed: when the environment
// carries supervisorEnv, this package's init function runs the supervisor
// instead of the program and never returns (the re-exec pattern; every Go
// program that links localstdio can supervise, tests included). It
//
//   - leads the server's process group (the shim starts it with Setpgid),
//     starts the server as its child in that group (parent-death signal
//     SIGKILL: if the supervisor dies, so does the server), and hands it
//     stdin, stdout and stderr untouched, keeping none of them open itself;
//   - holds one end of a socket pair whose other end only the shim holds.
//     When that end closes — the shim exited, was killed, or stopped the
//     server — the supervisor sends SIGKILL to the whole group, itself
//     included. A pipe end closing is the one event a SIGKILLed process
//     still produces; no timer or polling is involved;
//   - reports on the socket the server's pid once started (or why it could
//     not start, so start-up errors stay synchronous) and its wait status
//     once it ended, so the shim describes the server's exit, not its own
//     helper's; then it kills the rest of the group, itself included (the
//     server often exits by itself when a killed shim's pipe closes, and
//     its helpers must not outlive it either way).
//
// What still escapes: processes that leave the group (setsid, setpgid —
// daemons such as a build server detaching on purpose). Containing those
// takes a cgroup (systemd-run --user --scope, a container), which is the
// deployer's choice, not the shim's.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// supervisorEnv marks a re-executed binary as a supervisor; it never
// reaches the server.
const supervisorEnv = "LSPSEAM_SUPERVISOR"

// supervisorFD is the supervisor's end of the socket pair (the first of
// exec.Cmd.ExtraFiles).
const supervisorFD = 3

// supervisorStartWait bounds how long the shim waits for a supervisor to
// report the server started; only a binary whose init blocks could need it.
const supervisorStartWait = 30 * time.Second

func init() {
	if os.Getenv(supervisorEnv) == "" {
		return
	}
	os.Exit(supervise(os.Args[1:]))
}

// supervise runs in the re-executed binary: it starts args[0] with
// args[1:] and supervises it as described at the top of this file.
func supervise(args []string) int {
	runtime.GOMAXPROCS(1)
	link := os.NewFile(supervisorFD, "lspseam-supervisor-link")
	syscall.CloseOnExec(supervisorFD) // the server must not inherit it
	report := func(format string, a ...any) { fmt.Fprintf(link, format+"\n", a...) }
	if len(args) == 0 {
		report("failed no server to run")
		return 127
	}
	// The group to kill must be the one this process leads, never an
	// inherited one (a shell's, say, had the variable leaked into one).
	group := syscall.Getpid()
	if syscall.Getpgrp() != group {
		report("failed the supervisor does not lead its process group")
		return 127
	}
	// Termination signals are the server's business: the shim signals the
	// whole group, and the supervisor stays to report how the server ended.
	// Notify (not Ignore) so the server starts with default dispositions.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)

	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, supervisorEnv+"=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		report("failed %s", oneLine(err.Error()))
		return 127
	}
	// Keep none of the server's stdio open: end of file on them must mean
	// the server (and its helpers) closed them.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := 0; fd <= 2; fd++ {
			syscall.Dup3(int(null.Fd()), fd, 0)
		}
		null.Close()
	}
	report("started %d", cmd.Process.Pid)

	go func() {
		io.Copy(io.Discard, link) // returns when the shim's end closes
		syscall.Kill(-group, syscall.SIGKILL)
	}()
	cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	report("exited %d", uint32(ws))
	// The server is gone; its helpers go too, whether or not the shim is
	// still there to do it (a server commonly exits on its own when the
	// killed shim's pipe closes, before the watch above has run). The
	// report is already in the socket's buffer for the shim to read.
	syscall.Kill(-group, syscall.SIGKILL)
	select {} // SIGKILL includes this process
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// supervisorPath is the binary to re-execute, or "" when it cannot be
// found (then servers are started directly, with parent-death only).
var supervisorPath = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if _, err := os.Stat(exe); err != nil { // deleted or replaced since start
		return ""
	}
	return exe
})

// supervisorLink is the shim's end of a supervisor's socket pair.
type supervisorLink struct {
	file *os.File
	r    *bufio.Reader

	serverPid int
	mu        sync.Mutex
	status    *syscall.WaitStatus // the server's, once reported
	done      chan struct{}       // closed when the supervisor's reports end
}

// startSupervised starts spec through a supervisor with cmd's stdio. It
// returns the started supervisor command and the link, or an error that
// says why the server could not start.
func startSupervised(cmd *exec.Cmd, exe string) (*supervisorLink, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	syscall.SetNonblock(fds[0], true) // pollable: read deadlines work
	ours := os.NewFile(uintptr(fds[0]), "lspseam-supervisor-link")
	theirs := os.NewFile(uintptr(fds[1]), "lspseam-supervisor-link")

	serverPath := cmd.Path
	cmd.Path = exe
	cmd.Args = append([]string{"lspseam-supervisor", serverPath}, cmd.Args[1:]...)
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], supervisorEnv+"=1")
	cmd.ExtraFiles = []*os.File{theirs}
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, err
	}
	link := &supervisorLink{file: ours, r: bufio.NewReader(ours), done: make(chan struct{})}
	ours.SetReadDeadline(time.Now().Add(supervisorStartWait))
	line, err := link.r.ReadString('\n')
	ours.SetReadDeadline(time.Time{})
	verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch {
	case verb == "started":
		link.serverPid, _ = strconv.Atoi(arg)
	case verb == "failed":
		err = errors.New(arg)
	case err != nil:
		err = fmt.Errorf("its supervisor (%s) did not start it: %v", exe, err)
	default:
		err = fmt.Errorf("its supervisor (%s) answered %q", exe, line)
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		ours.Close()
		return nil, err
	}
	go link.readReports()
	return link, nil
}

// readReports records the server's wait status when the supervisor
// reports it; it ends when the supervisor's end closes.
func (l *supervisorLink) readReports() {
	defer close(l.done)
	for {
		line, err := l.r.ReadString('\n')
		if verb, arg, _ := strings.Cut(strings.TrimSpace(line), " "); verb == "exited" {
			if n, perr := strconv.ParseUint(arg, 10, 32); perr == nil {
				ws := syscall.WaitStatus(n)
				l.mu.Lock()
				l.status = &ws
				l.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

// serverStatus is the server's wait status, if the supervisor reported it
// (it does unless it was killed itself).
func (l *supervisorLink) serverStatus() (syscall.WaitStatus, bool) {
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.status == nil {
		return 0, false
	}
	return *l.status, true
}
