package localstdio

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// One language-server process: spawned without a shell in its own process
// group (servers start helpers of their own, e.g. typescript-language-server
// runs tsserver, and termination must reach them too), by the supervisor
// that kills the group when the shim goes (supervise.go), with its stdin and
// stdout as plain pipes and a bounded tail of its stderr.

type process struct {
	pid    int               // the server's, which also names its process group
	server *supervisedServer // nil when started without a supervisor
	cmd    *exec.Cmd         // the server itself, without a supervisor
	tree   *procTree         // its process tree, without a supervisor (proctree_*.go)
	stdin  *os.File          // write end
	stdout *os.File          // read end
	stderr *tailBuffer

	done  chan struct{}    // closed once the process has ended
	state *os.ProcessState // without a supervisor: set before done is closed

	stderrDone chan struct{} // closed when the stderr reader finished
}

// processSpec is what startProcess runs.
type processSpec struct {
	path           string // resolved executable
	args           []string
	env            []string
	dir            string
	maxStderrBytes int64

	// unsupervised starts the server directly (parent-death signal only):
	// for tests of the supervisor itself.
	unsupervised bool
}

func startProcess(spec processSpec) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	p := &process{
		stdin:      inW,
		stdout:     outR,
		stderr:     newTailBuffer(spec.maxStderrBytes),
		done:       make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	if exe := supervisorPath(); exe != "" && !spec.unsupervised {
		p.server, err = startSupervised(exe, spec.path, spec.args, spec.env, spec.dir, [3]*os.File{inR, outW, errW})
		if err == nil {
			p.pid = p.server.pid
		}
	} else {
		p.cmd = exec.Command(spec.path, spec.args...)
		p.cmd.Dir = spec.dir
		p.cmd.Env = spec.env
		p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW
		// Its own process tree, so termination reaches its children, and
		// (on Linux) a parent-death signal, so it dies with us if we are
		// killed: procattr_*.go, proctree_*.go.
		p.cmd.SysProcAttr = serverProcAttr()
		p.tree, err = newProcTree()
		if err == nil {
			err = p.cmd.Start()
		}
		if err == nil {
			p.pid = p.cmd.Process.Pid
			if aerr := p.tree.attach(p.pid); aerr != nil {
				// A server outside its tree could outlive us: do not run it.
				p.tree.signal(p.pid, syscall.SIGKILL)
				p.cmd.Process.Kill()
				p.cmd.Wait()
				err = fmt.Errorf("it could not be put in a process tree of its own: %w", aerr)
			}
		}
		if err != nil && p.tree != nil {
			p.tree.close()
		}
	}
	// The child has its copies; ours of its ends must go, or EOF never comes.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	go func() {
		defer close(p.stderrDone)
		defer errR.Close()
		io.Copy(p.stderr, errR)
	}()
	go func() {
		if p.server != nil {
			<-p.server.done
		} else {
			p.cmd.Wait() // its error only restates ProcessState, which is kept
			p.state = p.cmd.ProcessState
		}
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has exited (and been waited for).
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// signalGroup sends sig to the process group: through the supervisor,
// which knows whether the group is still the server's, or directly.
// Errors (the group is gone) are ignored: the goal state is "no process
// left".
func (p *process) signalGroup(sig syscall.Signal) {
	if p.server != nil {
		p.server.signal(sig)
		return
	}
	_ = p.tree.signal(p.pid, sig)
}

// terminate stops the process group and waits for it: SIGTERM, then
// SIGKILL after grace if the leader has not exited. It returns once the
// leader has been waited for and the group has been sent SIGKILL (so no
// helper it started survives), and closes our pipe ends.
func (p *process) terminate(grace time.Duration) {
	if !p.exited() {
		p.signalGroup(syscall.SIGTERM)
		timer := time.NewTimer(grace)
		select {
		case <-p.done:
			timer.Stop()
		case <-timer.C:
		}
	}
	// Always finish with SIGKILL to the group: helpers may outlive a leader
	// that exited on SIGTERM. (The supervisor does it before it reports the
	// exit.)
	if p.server == nil || !p.exited() {
		p.signalGroup(syscall.SIGKILL)
	}
	<-p.done
	if p.tree != nil {
		p.tree.close()
	}
	p.stdin.Close()
	p.stdout.Close()
	select {
	case <-p.stderrDone:
	case <-time.After(grace):
		// A process outside the group still holds stderr open; stop waiting
		// for it (the reader goroutine ends when that process does).
	}
}

// exitDescription says how the process ended, with its stderr tail, for
// error messages. It waits up to wait for the exit to be observed.
func (p *process) exitDescription(wait time.Duration) string {
	select {
	case <-p.done:
	case <-time.After(wait):
		return "it stopped answering (still running)" + p.stderrTail()
	}
	select { // let the stderr reader drain what the process wrote last
	case <-p.stderrDone:
	case <-time.After(200 * time.Millisecond):
	}
	return describeExit(p.waitStatus()) + p.stderrTail()
}

// waitStatus is how the server ended: as its supervisor reported it, or
// the process's own status (a supervisor killed before reporting, or none).
func (p *process) waitStatus() (syscall.WaitStatus, bool) {
	if p.server != nil {
		if ws, ok := p.server.serverStatus(); ok {
			return ws, true
		}
	}
	if p.state == nil {
		var none syscall.WaitStatus
		return none, false
	}
	ws, ok := p.state.Sys().(syscall.WaitStatus)
	return ws, ok
}

func describeExit(ws syscall.WaitStatus, known bool) string {
	switch {
	case !known:
		return "it exited"
	case ws.Signaled():
		return fmt.Sprintf("it was killed by signal %s", ws.Signal())
	default:
		return fmt.Sprintf("it exited with code %d", ws.ExitStatus())
	}
}

func (p *process) stderrTail() string {
	tail := strings.TrimSpace(p.stderr.String())
	if tail == "" {
		return "; it wrote nothing to stderr"
	}
	const show = 2000
	if len(tail) > show {
		tail = "…" + tail[len(tail)-show:]
	}
	return "; stderr tail:\n" + tail
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	max     int64
	buf     []byte
	dropped int64
}

func newTailBuffer(max int64) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if int64(len(p)) >= t.max {
		t.dropped += int64(len(t.buf)) + int64(len(p)) - t.max
		t.buf = append(t.buf[:0], p[int64(len(p))-t.max:]...)
		return n, nil
	}
	if over := int64(len(t.buf)+len(p)) - t.max; over > 0 {
		t.dropped += over
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String returns the kept tail.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Len is the number of bytes kept.
func (t *tailBuffer) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.buf)
}
