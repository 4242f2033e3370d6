//go:build linux

package localstdio

// A language server's lifetime must not outlast the shim's, including
// whatever the server itself starts (typescript-language-server runs
// tsserver; a wrapper script may leave `sleep 300 &` behind). The kernel's
// parent-death signal reaches only the direct child, and nothing runs in
// the shim after a SIGKILL, so the guarantee needs a process outside the
// shim: the supervisor (internal/supervisor, which documents its
// protocol). One serves every server of the process:
//
//   - the shim starts it at the first server start and ends it (closes
//     its end of their socket pair) when no server is left, so a shim
//     with no server runs no supervisor;
//   - it starts each server as its child, in a process group of its own,
//     with the stdio the shim passes it and a parent-death signal;
//   - when the shim's end closes — the shim exited or was killed — it
//     sends SIGKILL to every server's group and exits;
//   - it reports each server's pid once started (or why it could not
//     start, so start-up errors stay synchronous) and its wait status once
//     it ended, after killing the rest of its group (the server often exits
//     by itself when a killed shim's pipe closes, and its helpers must not
//     outlive it either way);
//   - it signals a server's group for the shim, and only while the server
//     is not reaped, so a recycled process-group ID is never signalled.
//
// What still escapes: processes that leave the group (setsid, setpgid —
// daemons such as a build server detaching on purpose). Containing those
// takes a cgroup (systemd-run --user --scope, a container), which is the
// deployer's choice, not the shim's.

import (
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/lspseam/lspseam/bindings/go/localstdio/internal/supervisor"
)

// supervisorStartWait bounds how long the shim waits for the supervisor to
// report a server started; only a binary whose init blocks could need it.
const supervisorStartWait = 30 * time.Second

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

// supervisorLink is the shim's side of one running supervisor.
type supervisorLink struct {
	cmd  *exec.Cmd
	conn *stdnet.UnixConn

	sendMu sync.Mutex
	// mu guards servers; a server is in it from its start message until
	// its exit report (or the supervisor's death).
	mu      sync.Mutex
	servers map[string]*supervisedServer
	dead    bool
}

// supervisedServer is one server the supervisor runs for the shim.
type supervisedServer struct {
	link *supervisorLink
	id   string

	started chan string // the start report's fields after the verb
	pid     int

	mu     sync.Mutex
	status *syscall.WaitStatus // the server's, once reported
	done   chan struct{}       // closed at its exit report, or when the supervisor died
}

// supervisors holds the process's supervisor, if one runs.
var supervisors struct {
	mu     sync.Mutex
	link   *supervisorLink
	nextID int
}

// startSupervised starts a server (path, args, env, dir) through the
// process's supervisor, starting the supervisor first if none runs, with
// stdio as its stdin, stdout and stderr. The error says why the server
// could not start.
func startSupervised(exe, path string, args, env []string, dir string, stdio [3]*os.File) (*supervisedServer, error) {
	supervisors.mu.Lock()
	link := supervisors.link
	if link == nil || link.isDead() {
		var err error
		if link, err = newSupervisorLink(exe); err != nil {
			supervisors.mu.Unlock()
			return nil, err
		}
		supervisors.link = link
	}
	supervisors.nextID++
	s := &supervisedServer{link: link, id: strconv.Itoa(supervisors.nextID), started: make(chan string, 1), done: make(chan struct{})}
	// Registered before the message goes, and under supervisors.mu, so
	// the supervisor is not ended for having no server in between.
	if !link.add(s) {
		supervisors.mu.Unlock()
		return nil, errors.New("its supervisor stopped")
	}
	supervisors.mu.Unlock()

	if dir == "" {
		dir, _ = os.Getwd() // the supervisor runs in "/", the server where the shim would
	}
	fields := append([]string{"start", s.id, path, dir, strconv.Itoa(len(args))}, args...)
	fields = append(fields, env...)
	rights := syscall.UnixRights(int(stdio[0].Fd()), int(stdio[1].Fd()), int(stdio[2].Fd()))
	if err := link.send(supervisor.Encode(fields...), rights); err != nil {
		link.remove(s)
		return nil, fmt.Errorf("its supervisor did not take it: %v", err)
	}
	var report string
	select {
	case report = <-s.started:
	case <-s.done:
		select {
		case report = <-s.started:
		default:
			return nil, fmt.Errorf("its supervisor (%s) stopped before starting it", exe)
		}
	case <-time.After(supervisorStartWait):
		link.remove(s)
		return nil, fmt.Errorf("its supervisor (%s) did not start it in %v", exe, supervisorStartWait)
	}
	verb, arg, _ := cutField(report)
	if verb != "started" {
		link.remove(s)
		return nil, errors.New(arg)
	}
	s.pid, _ = strconv.Atoi(arg)
	return s, nil
}

func cutField(report string) (verb, arg string, ok bool) {
	for i := 0; i < len(report); i++ {
		if report[i] == 0 {
			return report[:i], report[i+1:], true
		}
	}
	return report, "", false
}

// newSupervisorLink re-executes exe as a supervisor.
func newSupervisorLink(exe string) (*supervisorLink, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ours := os.NewFile(uintptr(fds[0]), "lspseam-supervisor-link")
	theirs := os.NewFile(uintptr(fds[1]), "lspseam-supervisor-link")
	defer theirs.Close()
	fc, err := stdnet.FileConn(ours)
	ours.Close() // FileConn holds a duplicate
	if err != nil {
		return nil, err
	}
	conn, ok := fc.(*stdnet.UnixConn)
	if !ok {
		fc.Close()
		return nil, fmt.Errorf("the supervisor's socket is a %T", fc)
	}
	cmd := exec.Command(exe)
	cmd.Args = []string{"lspseam-supervisor"}
	cmd.Env = []string{supervisor.Env + "=1"}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{theirs}
	if err := cmd.Start(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("its supervisor (%s) did not start: %v", exe, err)
	}
	link := &supervisorLink{cmd: cmd, conn: conn, servers: map[string]*supervisedServer{}}
	go link.readReports()
	return link, nil
}

func (l *supervisorLink) send(msg, rights []byte) error {
	l.sendMu.Lock()
	defer l.sendMu.Unlock()
	_, _, err := l.conn.WriteMsgUnix(msg, rights, nil)
	return err
}

func (l *supervisorLink) isDead() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dead
}

func (l *supervisorLink) add(s *supervisedServer) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead {
		return false
	}
	l.servers[s.id] = s
	return true
}

// remove forgets a server that ended (or never started) and ends the
// supervisor when it was the last: an idle shim runs none.
func (l *supervisorLink) remove(s *supervisedServer) {
	supervisors.mu.Lock()
	defer supervisors.mu.Unlock()
	l.mu.Lock()
	delete(l.servers, s.id)
	last := len(l.servers) == 0 && !l.dead
	if last {
		l.dead = true
	}
	l.mu.Unlock()
	if last {
		if supervisors.link == l {
			supervisors.link = nil
		}
		l.conn.Close() // the supervisor exits at end of file
	}
}

// readReports delivers the supervisor's reports until its end closes.
func (l *supervisorLink) readReports() {
	buf := make([]byte, 64<<10)
	for {
		n, _, _, _, err := l.conn.ReadMsgUnix(buf, nil)
		if err != nil || n == 0 {
			break
		}
		fields, err := supervisor.Decode(buf[:n])
		if err != nil || len(fields) != 3 {
			continue
		}
		l.mu.Lock()
		s := l.servers[fields[1]]
		l.mu.Unlock()
		if s == nil {
			continue
		}
		switch fields[0] {
		case "started", "failed":
			select {
			case s.started <- fields[0] + "\x00" + fields[2]:
			default: // a repeated report
			}
		case "exited":
			if n, err := strconv.ParseUint(fields[2], 10, 32); err == nil {
				ws := syscall.WaitStatus(n)
				s.finish(&ws)
			} else {
				s.finish(nil)
			}
		}
	}
	// The supervisor is gone (ended by remove, or killed): its servers died
	// with it (their parent-death signal).
	l.conn.Close()
	l.mu.Lock()
	l.dead = true
	orphans := make([]*supervisedServer, 0, len(l.servers))
	for _, s := range l.servers {
		orphans = append(orphans, s)
	}
	l.mu.Unlock()
	for _, s := range orphans {
		s.finish(nil)
	}
	l.cmd.Wait()
}

// finish records how the server ended (nil: unknown) and forgets it.
func (s *supervisedServer) finish(ws *syscall.WaitStatus) {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return
	default:
	}
	s.status = ws
	close(s.done)
	s.mu.Unlock()
	s.link.remove(s)
}

// signal sends sig to the server's process group through the supervisor,
// which does so only while the server is not reaped.
func (s *supervisedServer) signal(sig syscall.Signal) {
	_ = s.link.send(supervisor.Encode("signal", s.id, strconv.Itoa(int(sig))), nil)
}

// serverStatus is the server's wait status, once it ended, if the
// supervisor reported it (it does unless it was killed itself).
func (s *supervisedServer) serverStatus() (syscall.WaitStatus, bool) {
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status == nil {
		return 0, false
	}
	return *s.status, true
}
