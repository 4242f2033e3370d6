package lspseam

import (
	"context"
	"runtime/debug"
	"time"
)

// Giving the module's memory back while the Core is idle (WithIdleRelease).
//
// A compiled core module costs about 50 MB resident: the machine code
// (roughly four bytes for every byte of wasm), the decoded module wazero
// keeps to instantiate it again, and each instance's linear memory. A host
// that waits most of its life, as an MCP server between an agent's turns
// does, pays that for nothing. release drops all of it once no call has
// been in flight for the configured delay; newInstance compiles again
// (from the compilation cache) when the next call comes.
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

// releaseIdle closes every instance and the compiled module when no call
// is in flight, then returns the freed memory to the OS.
func (c *Core) releaseIdle() {
	if !c.releaseNow() {
		return
	}
	// The machine code is unmapped by a finalizer once its module is
	// garbage, the linear memories and the decoded module are Go heap:
	// a collection frees both, and FreeOSMemory hands the pages back now
	// rather than when the scavenger gets to them.
	debug.FreeOSMemory()
}

// releaseNow does releaseIdle's closing and reports whether it released.
func (c *Core) releaseNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.compiled == nil || c.isClosed() {
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
		_ = in.module.Close(ctx)
		<-c.slots
	}
	_ = c.compiled.Close(ctx)
	c.compiled = nil
	c.releases++
	return true
}
