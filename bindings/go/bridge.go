package lspseam

import (
	"context"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// While a lazy Core compiles its module (seconds with an empty
// compilation cache), a bridge answers the calls it can: wazero's
// interpreter prepares the same module in a fraction of the time (0.6 s
// against 2–8 s here) but runs a call about 65 times slower, so it takes
// only small inputs (bridgeMaxInput); a larger call waits for the
// compiler, whose answer comes sooner. The module is pure, so any
// instance gives the same answer. What this buys a host is overlap: the
// calls that start a language server (the arguments' check, the
// registrations, initializeParams, negotiate) run while the compiler
// works, instead of after it.
//
// One interpreter instance, one call at a time: idle holds a token, the
// instance, or nil once the bridge is unusable (it failed to start, or a
// call on it failed); a caller that takes nil puts it back and waits for
// the compiler. When the compiled module is ready, or the Core closes,
// the bridge takes its token back — after the call holding it returns —
// and closes its runtime.

// bridgeMaxInput is the largest input the bridge takes: a call on it
// costs about as much as a compiled call on 65 times the input, so 16 KB
// stays within tens of milliseconds.
const bridgeMaxInput = 16 << 10

type bridge struct {
	idle chan *instance // the token: the instance, or nil when unusable
	// prepared is closed once the token is first put: the instance is
	// ready, or the bridge is unusable (or not wanted: a warm cache).
	prepared chan struct{}
	done     chan struct{} // closed once the bridge's runtime is closed
}

// startBridge prepares the interpreter's instance in the background.
func (c *Core) startBridge(ctx context.Context) {
	b := &bridge{idle: make(chan *instance, 1), prepared: make(chan struct{}), done: make(chan struct{})}
	c.bridge = b
	go func() {
		defer close(b.done)
		// From a warm compilation cache the module loads in a fraction
		// of a second: preparing the interpreter's instance (0.6 s of
		// CPU, a peak of about 200 MB) would be waste; so it would be
		// after precompiled code was written into the cache (precompiled.go).
		var in *instance
		if !c.warmOrInstall() {
			rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
			defer rt.Close(context.Background())
			in = c.bridgeInstance(ctx, rt)
		}
		b.idle <- in // nil: unusable
		close(b.prepared)
		select {
		case <-c.start.ended:
		case <-c.closed:
		}
		if in = <-b.idle; in != nil {
			_ = in.module.Close(context.Background())
		}
		b.idle <- nil
	}()
}

// bridgeInstance compiles the module for the interpreter and instantiates
// it; nil when it cannot, or when the compiled module is ready first.
func (c *Core) bridgeInstance(ctx context.Context, rt wazero.Runtime) *instance {
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return nil
	}
	compiled, err := rt.CompileModule(ctx, c.module)
	if err != nil || c.started() || c.isClosed() {
		return nil
	}
	in, err := instantiate(ctx, rt, compiled)
	if err != nil {
		return nil
	}
	return in
}

// callBridge runs a call on the bridge; ok is false when the compiled
// module should take it (it is ready, or the bridge is unusable).
func (c *Core) callBridge(ctx context.Context, method string, input []byte) (out []byte, err error, ok bool) {
	b := c.bridge
	if ctx.Err() != nil {
		return nil, Errorf(CodeCancelled, "cancelled before the call: %v", context.Cause(ctx)), true
	}
	var in *instance
	select {
	case <-c.start.ended:
		return nil, nil, false
	case <-c.closed:
		return nil, disposed(), true
	case <-ctx.Done():
		return nil, Errorf(CodeCancelled, "cancelled while waiting for the core module to compile: %v", context.Cause(ctx)), true
	case in = <-b.idle:
	}
	if in == nil {
		b.idle <- nil
		return nil, nil, false
	}
	out, err = in.call(ctx, method, input)
	if err != nil {
		// A trap leaves the instance's state unknown; the compiled module
		// answers this call (and traps too, if the module does).
		_ = in.module.Close(context.Background())
		b.idle <- nil
		if c.isClosed() {
			return nil, disposed(), true
		}
		return nil, nil, false
	}
	b.idle <- in
	return out, nil, true
}
