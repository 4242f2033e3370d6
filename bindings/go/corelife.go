package lspseam

import (
	"context"
	"sync"
)

// A Core's lifetime: who still uses its wazero runtime, and who closes it.
//
// wazero's Runtime.Close is not safe against a module call running on
// another goroutine: `go run -race` showed it writing the module state a
// running call's WASI clock read, and calls that were instantiating then
// failed with "already closed", "runtime closed" or, once, an
// out-of-bounds trap, none of them an *Error. So every call, and a lazy
// Core's background start, holds the runtime while it runs (enter/leave),
// and Close only marks the Core closed: the runtime is closed by whoever
// leaves it last, Close itself when nothing runs.

// lifetime counts a Core's runtime users and closes the runtime once the
// Core is closed and the last of them has left.
type lifetime struct {
	mu      sync.Mutex
	users   int
	closing bool
	// closeRuntime is run once, by Close or by the last user to leave
	// after it; drained is closed after it ran, err is what it returned.
	closeRuntime func() error
	drained      chan struct{}
	err          error
}

// enter registers a user of the runtime; false once the Core is closing
// (the caller answers LSP_DISPOSED and does not touch the runtime).
func (l *lifetime) enter() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return false
	}
	l.users++
	return true
}

// leave ends a use; the last user to leave a closing Core closes its
// runtime.
func (l *lifetime) leave() {
	l.mu.Lock()
	l.users--
	last := l.closing && l.users == 0
	l.mu.Unlock()
	if last {
		l.finish()
	}
}

// close marks the lifetime closing and returns a channel closed once
// closeRuntime has run: at once when nothing uses the runtime, else when
// the last user leaves.
func (l *lifetime) close(closeRuntime func() error) <-chan struct{} {
	l.mu.Lock()
	l.closing = true
	l.closeRuntime = closeRuntime
	l.drained = make(chan struct{})
	idle := l.users == 0
	drained := l.drained
	l.mu.Unlock()
	if idle {
		l.finish()
	}
	return drained
}

// finish runs closeRuntime; it is reached once, by close or by the last
// leave (users only reaches 0 once after closing, as enter then refuses).
func (l *lifetime) finish() {
	l.err = l.closeRuntime()
	close(l.drained)
}

// closeAndWait is Close's part: it closes the runtime once nothing uses
// it, and waits for that until ctx is done. When ctx ends first, the last
// call in flight closes the runtime as it returns, and the error says so.
func (l *lifetime) closeAndWait(ctx context.Context, closeRuntime func() error, wait bool) error {
	drained := l.close(closeRuntime)
	if !wait {
		return nil
	}
	select {
	case <-drained:
		return l.err
	case <-ctx.Done():
		return Errorf(CodeCancelled, "Close's context ended while core calls were still running (%v); the last of them closes the runtime when it returns", context.Cause(ctx))
	}
}
