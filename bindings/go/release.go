package lspseam

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/lspseam/lspseam/internal/residency"
)

// Giving the module's memory back while the Core is idle (WithIdleRelease).
//
// A compiled core module costs about 50 MB resident: the machine code
// (roughly four bytes for every byte of wasm), the decoded module wazero
// keeps to instantiate it again, and each instance's linear memory. A host
// that waits most of its life, as an MCP server between an agent's turns
// does, pays that for nothing. Once no call has been in flight for the
// configured delay, release gives back what it can in one of two forms:
//
//   - resident (Linux, a disk-backed cache directory): the machine code was
//     moved into a file mapping right after compilation (compileModule), so
//     its pages can go back to the page cache while the module stays
//     compiled. release drops the code's pages and keeps the decoded module
//     (a few MB of heap) and every instance whose linear memory is at most
//     keptInstanceMemory; the next call faults in the code it runs, and
//     pays nothing else (0.3 ms over a warm call). An instance that grew
//     larger (a big answer) is closed, and the next call instantiates one
//     again (about 8 ms: the module's data copied in, the Go runtime inside
//     it initialized). Compiling again — decoding, validating and reading
//     the cache, 0.1–0.2 s, and more on a loaded machine — is what a call
//     after an idle period must not pay.
//   - full (elsewhere): it closes the instances and the compiled module;
//     newInstance compiles again (from the compilation cache) when the next
//     call comes.
//
// Either way it then returns the freed heap to the OS and the pages of the
// binary's code and read-only data to the page cache
// (residency.DropFilePages), which the next call faults in again.
//
// Concurrency: release runs on the timer's goroutine. It takes every idle
// instance and proceeds only when those are all the live instances (every
// slot token belongs to one of them): a call that borrowed an instance, or
// is creating one, holds a token too, and then release puts the instances
// back and leaves the module alone. Instance creation happens under c.mu,
// as does release, so a call that took a token just after the check waits
// for release to finish and then compiles the module again.

// scheduleRelease (re)starts the idle timer; every call returning its
// instance pushes the release back.
func (c *Core) scheduleRelease() {
	if c.idleRelease <= 0 {
		return
	}
	c.timerMu.Lock()
	defer c.timerMu.Unlock()
	if c.releaseTimer == nil {
		c.releaseTimer = time.AfterFunc(c.idleRelease, c.releaseIdle)
		return
	}
	c.releaseTimer.Reset(c.idleRelease)
}

// keptInstanceMemory bounds the linear memory of an instance a resident
// release keeps: 4 MB after most calls, whose touched pages (about 5 MB
// resident) keep an idle shim within its 30 MB; a larger instance would
// hold its peak while waiting.
const keptInstanceMemory = 8 << 20

// releaseIdle closes the instances (the resident form keeps the small
// ones), and the compiled module unless its code is resident in a file,
// when no call is in flight, then returns the freed memory to the OS.
func (c *Core) releaseIdle() {
	if !c.releaseNow() {
		return
	}
	// The machine code is unmapped by a finalizer once its module is
	// garbage, the linear memories and the decoded module are Go heap:
	// a collection frees both, and FreeOSMemory hands the pages back now
	// rather than when the scavenger gets to them.
	debug.FreeOSMemory()
	residency.DropFilePages()
	residency.DropEmbedded(c.module)
}

// compileModule compiles the module (loads it from the compilation cache)
// and, when the Core has a code directory, moves its machine code into a
// file there, so that a release can keep the module compiled. A failed
// move (a noexec or in-memory file system, no space) only costs the
// resident form: the module works as compiled.
func (c *Core) compileModule(ctx context.Context) (wazero.CompiledModule, error) {
	// Compiling reads the embedded module whole (6 MB); only compiling
	// again reads it.
	defer residency.DropEmbedded(c.module)
	// One compilation at a time in the process, so that the new mapping
	// MoveNewCode finds is this one's: a Core without a code directory
	// (an in-memory cache, a lazy Core compiling in the background) takes
	// the lock too, or its mapping could appear inside another Core's
	// window.
	codeMoves.Lock()
	defer codeMoves.Unlock()
	ctx = withCompilationWorkers(ctx)
	if c.codeDir == "" {
		return c.runtime.CompileModule(ctx, c.module)
	}
	before := residency.AnonExecMappings()
	compiled, err := c.runtime.CompileModule(ctx, c.module)
	if err != nil {
		return nil, err
	}
	if code, err := residency.MoveNewCode(c.codeDir, before); err == nil {
		c.code = code
	}
	return compiled, nil
}

// codeMoves serializes compileModule's compilations across Cores.
var codeMoves sync.Mutex

// releaseNow does releaseIdle's closing and reports whether it released.
// A release with nothing to give back (no instance, the code already
// dropped) does not count; a resident release that kept its instances
// runs again only after a call, which reschedules it.
func (c *Core) releaseNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.compiled == nil || c.isClosed() || c.code != nil && len(c.slots) == 0 {
		return false
	}
	var taken []*instance
take:
	for {
		select {
		case in := <-c.idle:
			taken = append(taken, in)
		default:
			break take
		}
	}
	if len(taken) != len(c.slots) {
		// A call holds an instance, or is making one: not idle after all.
		// Its return schedules the next attempt.
		for _, in := range taken {
			c.idle <- in
		}
		return false
	}
	ctx := context.Background()
	for _, in := range taken {
		if c.code != nil && in.module.Memory().Size() <= keptInstanceMemory {
			c.idle <- in
			continue
		}
		_ = in.module.Close(ctx)
		<-c.slots
	}
	c.releases++
	if c.code != nil {
		c.code.Drop()
		return true
	}
	_ = c.compiled.Close(ctx)
	c.compiled = nil
	return true
}
