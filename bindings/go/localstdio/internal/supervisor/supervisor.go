//go:build linux

package supervisor

import (
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/lspseam/lspseam/internal/residency"
)

// Supported reports whether this platform runs servers under a
// supervisor: Linux only, where a parent-death signal and process groups
// let it guarantee that no server outlives a killed shim. Elsewhere the
// shim starts servers itself (localstdio's process_*.go say what is
// guaranteed there).
const Supported = true

func init() {
	if os.Getenv(Env) == "" {
		return
	}
	os.Exit(run())
}

// supervisor is the running supervisor's state: the servers it started
// and has not yet reaped, by the shim's ID.
type supervisor struct {
	link    int
	sendMu  sync.Mutex
	mu      sync.Mutex
	servers map[string]int // ID → pid, which is also the process group
	closing bool           // the shim is gone: start nothing more
}

func run() int {
	runtime.GOMAXPROCS(1)
	syscall.CloseOnExec(LinkFD) // no server may inherit it
	// Termination signals are the servers' business (the shim signals
	// their groups, and the terminal's go to the shim's group); the
	// supervisor stays to report how they end. Notify, not Ignore, so
	// the servers start with default dispositions.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	s := &supervisor{link: LinkFD, servers: map[string]int{}}
	buf := make([]byte, MaxMessage)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	// The Go runtime's start-up touched a few MB of the binary's code and
	// tables; afterwards the supervisor blocks in two system calls and runs
	// a few functions per server. Those pages are the shim's too (the same
	// file), so they cost the machine nothing here, but they would count
	// several times what the supervisor holds in its resident set.
	residency.DropFilePages()
	for {
		n, oobn, _, _, err := syscall.Recvmsg(s.link, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n == 0 { // the shim's end closed
			s.killAll()
			return 0
		}
		fields, derr := Decode(buf[:n])
		files := receivedFiles(oob[:oobn])
		if derr != nil || len(fields) < 2 {
			closeAll(files)
			continue
		}
		switch fields[0] {
		case "start":
			s.start(fields[1], fields[2:], files)
			residency.DropFilePages() // what starting a process touched
		case "signal":
			closeAll(files)
			if len(fields) == 3 {
				if sig, err := strconv.Atoi(fields[2]); err == nil {
					s.signal(fields[1], syscall.Signal(sig))
				}
			}
		default:
			closeAll(files)
		}
	}
}

func (s *supervisor) send(fields ...string) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	syscall.Sendmsg(s.link, Encode(fields...), nil, nil, 0)
}

// start runs one server: PATH DIR NARGS ARG… ENV… with files as its stdin,
// stdout and stderr, in a process group of its own (so signals reach its
// helpers) and with a parent-death signal (so it dies with a killed
// supervisor).
func (s *supervisor) start(id string, fields []string, files []*os.File) {
	defer closeAll(files) // the server has its copies
	fail := func(reason string) { s.send("failed", id, oneLine(reason)) }
	if len(fields) < 3 || len(files) != 3 {
		fail("the shim sent a malformed start")
		return
	}
	nargs, err := strconv.Atoi(fields[2])
	if err != nil || nargs < 0 || 3+nargs > len(fields) {
		fail("the shim sent a malformed start")
		return
	}
	cmd := &exec.Cmd{
		Path:        fields[0],
		Args:        append([]string{fields[0]}, fields[3:3+nargs]...),
		Env:         fields[3+nargs:],
		Dir:         fields[1],
		Stdin:       files[0],
		Stdout:      files[1],
		Stderr:      files[2],
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		fail("the shim is gone")
		return
	}
	err = cmd.Start()
	if err == nil {
		s.servers[id] = cmd.Process.Pid
	}
	s.mu.Unlock()
	if err != nil {
		fail(err.Error())
		return
	}
	s.send("started", id, strconv.Itoa(cmd.Process.Pid))
	go s.watch(id, cmd)
}

// watch waits for a server to end, kills what is left of its group, reaps
// it and reports its wait status.
func (s *supervisor) watch(id string, cmd *exec.Cmd) {
	pid := cmd.Process.Pid
	// Learn of the exit without reaping: while the server is a zombie its
	// pid, which names its group, cannot be reused, so the group signalled
	// below is still the server's.
	waitNoReap(pid)
	s.mu.Lock()
	syscall.Kill(-pid, syscall.SIGKILL)
	delete(s.servers, id)
	s.mu.Unlock()
	cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	s.send("exited", id, strconv.FormatUint(uint64(uint32(ws)), 10))
}

// signal sends sig to a server's group, if it has not been reaped.
func (s *supervisor) signal(id string, sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pid, ok := s.servers[id]; ok {
		syscall.Kill(-pid, sig)
	}
}

// killAll kills every server's group: the shim is gone.
func (s *supervisor) killAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	for _, pid := range s.servers {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// waitNoReap blocks until pid has exited, leaving it a zombie.
func waitNoReap(pid int) {
	const pPID, wEXITED, wNOWAIT = 1, 4, 0x1000000
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), wEXITED|wNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return
		}
	}
}

// receivedFiles are the descriptors passed with a message.
func receivedFiles(oob []byte) []*os.File {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var files []*os.File
	for _, m := range msgs {
		fds, err := syscall.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			files = append(files, os.NewFile(uintptr(fd), "server-stdio"))
		}
	}
	return files
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
