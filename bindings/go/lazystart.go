package lspseam

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// WithLazyCompile makes NewCore return at once and compile the module in
// the background: a host that must answer before its first core call —
// an MCP server's initialize and tools/list, answered from the generated
// answers (handshake.go) — does not wait for the compilation, several
// seconds of CPU with an empty compilation cache. Until it is compiled,
// calls with small inputs run on an interpreter instance of the same
// module (bridge.go); any other call that needs the module waits for what
// is left of the compilation, or until its own ctx is done
// (LSP_CANCELLED). A compilation that fails (a broken module, an ABI
// mismatch) is the error of every call that needs the module, as it
// would have been NewCore's. NewCore's ctx gives the background
// compilation its values, not its cancellation: Close stops it.
func WithLazyCompile() Option { return func(o *options) { o.lazy = true } }

// withBeforeCompile holds a lazy Core's compilation until hold returns
// (tests only).
func withBeforeCompile(hold func(context.Context) error) Option {
	return func(o *options) { o.beforeCompile = hold }
}

// startState is a Core's first compilation: the background one of
// WithLazyCompile, or NewCore's own (done at once).
type startState struct {
	ended chan struct{} // closed when the start has ended
	err   error         // why it failed (set before ended is closed)

	mu         sync.Mutex
	running    bool               // the background start has not returned
	closeAfter bool               // Close came while it ran: it closes the runtime
	cancel     context.CancelFunc // stops the background start's ctx
}

// done marks a start that NewCore ran itself.
func (s *startState) done() {
	s.ended = make(chan struct{})
	close(s.ended)
}

// closeLater is Close's question: a background start still running
// takes over closing the runtime (it is compiling with it), and its ctx
// is cancelled.
func (s *startState) closeLater() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
	if s.running {
		s.closeAfter = true
	}
	return s.running
}

// startLazily starts the background compilation and first instantiation
// (what NewCore does itself without WithLazyCompile).
func (c *Core) startLazily(ctx context.Context, hold func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &c.start
	s.ended = make(chan struct{})
	s.running, s.cancel = true, cancel
	// The start uses the runtime until it returns: Close leaves closing
	// it to the start (corelife.go).
	c.life.enter()
	c.startBridge(ctx)
	go func() {
		// The compiler's workers take every core (compileworkers.go):
		// started beside the bridge's preparation, they slow it down, and
		// with it every call before the compiled module is ready (`lspseam
		// mcp`'s first tools/call on an empty cache: 1.0–1.4 s against
		// 0.7–1.0 s with the bridge first, on 2 cores). The bridge is
		// prepared first, in a fraction of a second, or not at all on a
		// warm cache; the compiled module is ready that much later.
		select {
		case <-c.bridge.prepared:
		case <-ctx.Done():
		}
		err := c.startNow(ctx, hold)
		cancel()
		s.mu.Lock()
		s.running = false
		closeAfter := s.closeAfter
		s.mu.Unlock()
		if closeAfter {
			err = disposed()
		}
		s.err = err
		close(s.ended)
		c.life.leave() // Close came while it ran: this closes the runtime
		if err == nil {
			// Compiling (or loading) the module allocated tens of MB that
			// are garbage now, and so is the bridge's interpreter (about
			// 170 MB more) once it has closed: a long-lived host gives
			// them back, or a first session on an empty cache keeps them
			// until the idle release.
			if c.bridge != nil {
				<-c.bridge.done
			}
			debug.FreeOSMemory()
		}
	}()
}

// startNow compiles the module and leaves one instance ready, checking
// the ABI version.
func (c *Core) startNow(ctx context.Context, hold func(context.Context) error) error {
	if hold != nil {
		if err := hold(ctx); err != nil {
			return fmt.Errorf("lspseam: compiling the core module: %w", err)
		}
	}
	c.slots <- struct{}{}
	in, err := c.newInstance(ctx)
	if err != nil {
		<-c.slots
		if c.isClosed() {
			return disposed()
		}
		return err
	}
	c.release(in)
	return nil
}

// started reports whether the start has ended.
func (c *Core) started() bool {
	select {
	case <-c.start.ended:
		return true
	default:
		return false
	}
}

// waitStarted waits for the start to end, for Close or for ctx.
func (c *Core) waitStarted(ctx context.Context) error {
	select {
	case <-c.start.ended:
		return c.start.err
	default:
	}
	select {
	case <-c.start.ended:
		return c.start.err
	case <-c.closed:
		return disposed()
	case <-ctx.Done():
		return Errorf(CodeCancelled, "cancelled while waiting for the core module to compile: %v", context.Cause(ctx))
	}
}

// Wait returns when the module is compiled and an instance is ready, with
// the compilation's error, or ctx's (LSP_CANCELLED) first. It returns at
// once for a Core made without WithLazyCompile.
func (c *Core) Wait(ctx context.Context) error {
	if c.closed == nil {
		return notInitialized()
	}
	return c.waitStarted(ctx)
}
