package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/internal/echo"
)

// The drain: how lspseam stops while tool calls run (SIGTERM or SIGINT
// to `lspseam mcp`, `mcp --http` and `serve`; `lspseam daemon stop` or a
// signal to the daemon). A call's answer is what tells its client whether
// its change was made, so a stop does not drop it:
//
//  1. New calls are refused with LSP_UNAVAILABLE saying lspseam is
//     stopping (stoppingError): they ran nothing.
//  2. The calls in flight run on, not cancelled, and their answers are
//     delivered, for up to drainGrace.
//  3. When the grace runs out, the calls still running are cancelled
//     (their servers get $/cancelRequest) and get drainCutWait to answer
//     with what they have; a write underway is never interrupted (it takes
//     no context: toolbox.WriteWatch) and is waited for, up to
//     drainWriteBound.
//  4. Whatever has still not answered is cut off: its client is answered
//     in its stead (cutOffError, LSP_CANCELLED with reason stopped) with
//     what became of its change — applied (the files named), not applied,
//     or, for a write that outlasted drainWriteBound, left to the write
//     journal, which the next change in that workspace or `lspseam doctor`
//     finishes or undoes — and the log names each such call (tool,
//     arguments, session) with the same outcome. Those answers get
//     drainCutWait to be delivered; a call cut off starts no write after
//     (Writing refuses), so the answer stays true.
//
// Then the surface closes its sessions and shuts its language servers
// down. RATIONALE.md ("A stop lets the calls in flight answer") says why.

// drainGrace is how long a stopping lspseam lets the calls in flight finish
// and answer, on every surface. A var only so that test builds can shorten
// it (drain_testgrace.go).
var drainGrace = 5 * time.Second

// drainCutWait is how long the calls cancelled when the grace runs out get
// to answer with what they have: a cancelled call answers within moments.
const drainCutWait = time.Second

// drainWriteBound bounds the wait for a write underway once the grace has
// run out. A write is a few renames and syncs; one that takes longer is
// stuck on its disk, and is left to its journal.
const drainWriteBound = 30 * time.Second

// drain is one process's stop: the calls in flight on all its sessions,
// and the answers its transports have yet to deliver.
type drain struct {
	log *slog.Logger

	mu         sync.Mutex
	stopping   string // why it stops ("" while it serves)
	calls      map[*drainCall]bool
	unanswered int           // requests read whose answer is not yet written (answerLedger, the HTTP server)
	changed    chan struct{} // closed, and replaced, whenever calls or unanswered change
}

func newDrain(log *slog.Logger) *drain {
	return &drain{log: log, calls: map[*drainCall]bool{}, changed: make(chan struct{})}
}

// drainCall is one tool call in flight. It hears of the call's writes
// (toolbox.WriteWatch), to say what it changed if it is cut off.
type drainCall struct {
	d       *drain
	tool    string
	args    string // clipped, for the log
	session string // the session's name in the log ("" for a process's only one)
	began   time.Time
	cancel  context.CancelFunc

	// cut is closed when the drain cuts the call off; cutErr is then its
	// answer (runCut).
	cut    chan struct{}
	cutErr error

	// guarded by d.mu
	cutOff  bool     // cut off: no write may begin
	writing []string // the files of a write underway
	applied []string // the files of the writes that ended well
	failed  []string // the errors of the writes that did not
}

// notifyLocked wakes the waits on d's state; d.mu is held.
func (d *drain) notifyLocked() {
	close(d.changed)
	d.changed = make(chan struct{})
}

// begin admits a call: it returns the context to run it with, or the
// error to answer when lspseam is stopping. end must follow.
func (d *drain) begin(ctx context.Context, tool string, args []byte, session string) (context.Context, *drainCall, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopping != "" {
		return ctx, nil, d.stoppingErrorLocked()
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &drainCall{d: d, tool: tool, args: echo.Clip(strings.TrimSpace(string(args))), session: session, began: time.Now(), cancel: cancel, cut: make(chan struct{})}
	d.calls[c] = true
	d.notifyLocked()
	return toolbox.WithWriteWatch(ctx, c), c, nil
}

// end counts c out: its handler has its answer.
func (c *drainCall) end() {
	if c == nil {
		return
	}
	c.cancel()
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	delete(c.d.calls, c)
	c.d.notifyLocked()
}

// Writing refuses a write of a call cut off: its client has been answered
// with what it had changed, and a write made now would belie that answer.
func (c *drainCall) Writing(files []string) error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	if c.cutOff {
		return c.cutErr
	}
	c.writing = files
	c.d.notifyLocked()
	return nil
}

func (c *drainCall) Wrote(files []string, err error) {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	c.writing = nil
	if err == nil {
		c.applied = append(c.applied, files...)
	} else {
		c.failed = append(c.failed, lspError(err).Message)
	}
	c.d.notifyLocked()
}

// asked and answered count a request whose answer a transport has yet to
// deliver: the drain waits for those too, since a handler that has
// returned has not yet written its answer.
func (d *drain) asked() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unanswered++
	d.notifyLocked()
}

func (d *drain) answered(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unanswered -= n
	d.notifyLocked()
}

// isStopping reports whether a stop has begun.
func (d *drain) isStopping() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stopping != ""
}

// stoppingError is the answer to a call that comes once lspseam is
// stopping.
func (d *drain) stoppingError() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stoppingErrorLocked()
}

func (d *drain) stoppingErrorLocked() error {
	return lspseam.Errorf(lspseam.CodeUnavailable, "lspseam is stopping (%s) and takes no new calls: this call did not run and changed nothing; call again once lspseam runs again (an MCP client starts it again; lspseam daemon starts with the next client)", d.stopping)
}

// stop begins the stop: why says what asked for it ("SIGTERM",
// "lspseam daemon stop"). From now on begin refuses. It reports whether
// this was the first stop.
func (d *drain) stop(why string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopping != "" {
		return false
	}
	d.stopping = why
	if len(d.calls) > 0 {
		var tools []string
		for c := range d.calls {
			tools = append(tools, c.tool)
		}
		d.log.Warn("stopping: letting the calls in flight finish and answer first", "why", why, "calls", len(d.calls), "tools", strings.Join(tools, ", "), "grace", drainGrace)
	}
	return true
}

// settle waits for the calls in flight and their answers (steps 2 to 4 in
// the comment at the top of this file) and reports how many requests were
// cut off.
func (d *drain) settle() (cut int) {
	began := time.Now()
	d.mu.Lock()
	busy := len(d.calls) > 0 || d.unanswered > 0
	d.mu.Unlock()
	if d.waitIdle(drainGrace, false) {
		if busy {
			d.log.Warn("stopping: every call in flight has answered", "waited", time.Since(began).Round(time.Millisecond))
		}
		return 0
	}
	d.mu.Lock()
	cancelled := len(d.calls)
	for c := range d.calls {
		c.cancel()
	}
	d.mu.Unlock()
	if d.waitIdle(drainCutWait, true) {
		d.log.Warn("stopping: the grace ran out; the calls still running were cancelled, and have answered", "calls", cancelled, "grace", drainGrace, "waited", time.Since(began).Round(time.Millisecond))
		return 0
	}
	// Each call still running is answered in its stead, with what became
	// of its change; its handler returns that answer at once (runCut).
	d.mu.Lock()
	cut = max(len(d.calls), d.unanswered)
	calls := len(d.calls)
	for c := range d.calls {
		outcome := c.outcomeLocked()
		c.cutOff, c.cutErr = true, cutOffError(d.stopping, c.tool, outcome)
		close(c.cut)
		d.log.Error("stopping: "+c.tool+" was cut off after the "+drainGrace.String()+" grace, and its client is answered so: "+outcome,
			"tool", c.tool, "arguments", c.args, "session", c.session, "ran", time.Since(c.began).Round(time.Millisecond))
	}
	d.mu.Unlock()
	// The answers of the calls cut off are delivered before the surface
	// closes its sessions.
	if d.waitIdle(drainCutWait, false) {
		return cut
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.unanswered > 0 {
		d.log.Error("stopping: answers not yet delivered were cut off after the grace: their clients get none", "answers", d.unanswered, "calls", calls)
	}
	return cut
}

// cutOffError answers a call cut off by the stop: what became of its
// change, so that its client knows without reading the disk.
func cutOffError(why, tool, outcome string) error {
	err := lspseam.Errorf(lspseam.CodeCancelled, "lspseam stopped (%s) while this %s call ran, and cut it off after the %s grace: %s; read the files before changing them again, and call again once lspseam runs again", why, tool, drainGrace, outcome)
	err.Reason = reasonStopped
	return err
}

// reasonStopped: the call was cut off by lspseam's stop (LSP_CANCELLED);
// its message says what became of its change.
const reasonStopped = "stopped"

// runCut runs work, the rest of c's call, and returns its result; if the
// drain cuts the call off first, it returns at once with the error that
// answers the call in its stead (work runs on, cancelled, until the
// process exits, and writes nothing more: Writing refuses).
func runCut[T any](c *drainCall, work func() T) (T, error) {
	done := make(chan T, 1)
	go func() { done <- work() }()
	select {
	case res := <-done:
		return res, nil
	case <-c.cut:
		var zero T
		return zero, c.cutErr
	}
}

// outcomeLocked says what became of the change of a call that is cut off.
func (c *drainCall) outcomeLocked() string {
	var parts []string
	if len(c.applied) > 0 {
		parts = append(parts, "its change of "+fileList(c.applied)+" was applied")
	}
	if len(c.failed) > 0 {
		parts = append(parts, "a write it made failed and was not applied ("+strings.Join(c.failed, "; ")+")")
	}
	if len(c.writing) > 0 {
		parts = append(parts, "its change of "+fileList(c.writing)+" was still being written when lspseam exited: its write journal finishes it (or undoes it, if it had not committed) at the next lspseam change in that workspace, or now with lspseam doctor")
	}
	if len(parts) == 0 {
		return "it had changed no file (not applied)"
	}
	return strings.Join(parts, "; ")
}

// fileList names files for the log: "3 files (a.go, b.go, c.go)".
func fileList(files []string) string {
	shown := files
	if len(shown) > 8 {
		shown = shown[:8]
	}
	s := strings.Join(shown, ", ")
	if len(files) > len(shown) {
		s += ", … " + strconv.Itoa(len(files)-len(shown)) + " more"
	}
	return plural(len(files), "file") + " (" + s + ")"
}

// waitIdle waits until no call is in flight and every answer is delivered,
// for up to limit, and longer while a write is underway if writes is set
// (up to drainWriteBound). It reports whether it got there.
func (d *drain) waitIdle(limit time.Duration, writes bool) bool {
	end, writeEnd := time.Now().Add(limit), time.Now().Add(drainWriteBound)
	for {
		d.mu.Lock()
		idle := len(d.calls) == 0 && d.unanswered <= 0
		until := end
		if writes && d.writingLocked() && writeEnd.After(end) {
			until = writeEnd
		}
		ch := d.changed
		d.mu.Unlock()
		if idle {
			return true
		}
		wait := time.Until(until)
		if wait <= 0 {
			return false
		}
		t := time.NewTimer(wait)
		select {
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

func (d *drain) writingLocked() bool {
	for c := range d.calls {
		if len(c.writing) > 0 {
			return true
		}
	}
	return false
}

// normalID is a JSON-RPC id as both sides of a session can compare it: the
// client's bytes and the SDK's re-encoding of them differ in spacing,
// escapes and number forms.
func normalID(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
