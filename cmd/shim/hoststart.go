package main

import (
	"context"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/internal/residency"
)

// A lazily started host (serve, mcp) answers its client's handshake while
// the core module compiles: what the handshake shows — the presets, the
// tool definitions, the census — needs no module (startHost). What does
// is registering the servers (the core checks each registration) and
// every call; so the registration runs in the background, its calls
// answered by the core's bridge (the interpreter) or else once the module
// is compiled, and each call first waits for it (waitStarted), within its
// own ctx and before its budget starts: the budget is the language
// server's, and the compilation is paid once.

// hostStart is a host's background start.
type hostStart struct {
	ended  chan struct{} // closed when it has ended; nil: nothing ran in the background
	err    error         // why it failed (set before ended is closed)
	cancel context.CancelFunc
}

// registerServers registers the table's servers with the service: a
// provider per server found, one answering what to install per missing
// optional server.
func (h *host) registerServers(ctx context.Context) error {
	local, err := localstdio.StartTable(ctx, h.core, h.service, h.table, h.log)
	if err != nil {
		return err
	}
	h.local = local
	return nil
}

// startInBackground registers the servers, and logs when the core
// module is ready (how long it took since began).
func (h *host) startInBackground(ctx context.Context, began time.Time) {
	ctx, cancel := context.WithCancel(ctx)
	h.start = hostStart{ended: make(chan struct{}), cancel: cancel}
	go func() {
		// The registration's calls are small: the core's bridge answers
		// them while the module compiles (lspseam.WithLazyCompile).
		defer close(h.start.ended)
		if err := h.registerServers(ctx); err != nil {
			if ctx.Err() != nil {
				h.start.err = err // closing
				return
			}
			h.log.Error("the language servers could not be registered; every call answers why", "reason", err)
			h.start.err = err
		}
	}()
	if h.core.Engine() == lspseam.EngineNative {
		return // nothing compiles: the core is linked in
	}
	go func() {
		if err := h.core.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				h.log.Error("the core module could not be compiled; calls answer why", "reason", err)
			}
			return
		}
		// precompiled: loaded from the code this binary carries (a first
		// run of a binary make built), not compiled.
		h.log.Info("core module ready", "elapsed", time.Since(began).Round(time.Millisecond), "precompiled", h.core.LoadedPrecompiledCode())
		select {
		case <-h.start.ended:
			trimAfterStart()
		case <-ctx.Done():
		}
	}()
}

// trimAfterStart gives back the file pages the start touched: the code of
// loading the config, registering the servers and counting the workspace,
// in the lspseam executable and in the core's machine code (kept in a file
// mapping: lspseam.WithIdleRelease). Few of them run again; those that do
// fault back in from the page cache (minor faults, no I/O). A `lspseam
// mcp` on the Go fixture held 50 MB right after a hover, 13.9 MB of it
// the core's code and 13.2 MB the executable's; with the start's pages
// given back, 42 MB (the core's code 6.9 MB, the executable's 8.3 MB).
// Linux only; elsewhere it does nothing.
func trimAfterStart() { residency.DropFilePages() }

// waitStarted waits for the background start: nil once the servers are
// registered, else why they are not (or ctx's end).
func (h *host) waitStarted(ctx context.Context) error {
	if h.start.ended == nil {
		return nil
	}
	select {
	case <-h.start.ended:
		return h.start.err
	case <-ctx.Done():
		select {
		case <-h.start.ended:
			return h.start.err
		default:
		}
		return lspseam.Errorf(lspseam.CodeCancelled, "the call was cancelled while lspseam was still starting (compiling its core module): %v", context.Cause(ctx))
	}
}

// stop ends the background start (its waits are cancelled) and waits
// for it, so that close sees its Host, if any, to close.
func (s *hostStart) stop() {
	if s.ended == nil {
		return
	}
	s.cancel()
	<-s.ended
}
