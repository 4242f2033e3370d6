package lspseam

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/casefile"
	"github.com/lspseam/lspseam/internal/residency"
	"github.com/lspseam/lspseam/internal/testenv"
)

// releaseCache is the compilation cache directory the release tests
// share: a release drops the compiled module from memory, so compiling
// again is a load from this directory, and only the first test pays for
// compiling (tens of seconds under -race).
var releaseCache struct {
	once sync.Once
	dir  string
	err  error
}

func releaseCacheDir(t *testing.T) string {
	releaseCache.once.Do(func() {
		releaseCache.dir, releaseCache.err = os.MkdirTemp("", "lspseam-release-test-")
		if releaseCache.err == nil && raceEnabled {
			copyMachineCode(t, releaseCache.dir) // a load, not an instrumented compile
		}
	})
	if releaseCache.err != nil {
		t.Fatal(releaseCache.err)
	}
	return releaseCache.dir
}

func TestMain(m *testing.M) {
	// One compilation cache for the process (testenv), not the user's; the
	// tests' write locks and journals out of the user's state directory.
	code := testenv.Run(m, testenv.PrivateStateDir)
	if releaseCache.dir != "" {
		os.RemoveAll(releaseCache.dir)
	}
	os.Exit(code)
}

// releasedCount reads how many times c released its module.
func releasedCount(c *Core) (releases int, compiled bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.releases, c.compiled != nil
}

// waitReleased waits until c has released its module n times.
func waitReleased(t *testing.T, c *Core, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got, _ := releasedCount(c); got >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	got, _ := releasedCount(c)
	t.Fatalf("released %d times in 10 s, want %d", got, n)
}

// TestIdleRelease: an idle Core either closes its instances and drops the
// compiled module (full), or keeps the module and its small instances with
// the machine code given back to the page cache (resident), closing an
// instance that grew past keptInstanceMemory; the next call answers the
// same either way.
func TestIdleRelease(t *testing.T) {
	for _, form := range []string{"full", "resident"} {
		t.Run(form, func(t *testing.T) {
			ctx := context.Background()
			opts := []Option{WithIdleRelease(20 * time.Millisecond), WithCompilationCacheDir(releaseCacheDir(t))}
			if form == "full" {
				opts = append(opts, withFullRelease())
			} else {
				skipWithoutResidentCode(t)
				// An earlier test's closed Core unmaps its machine code in a
				// finalizer; if that ran inside this Core's compile window and
				// the new code took the freed range (same module, same size),
				// the move would not see a new mapping. Let those finalizers
				// run first.
				runtime.GC()
				runtime.GC()
			}
			c := newTestCore(t, opts...)
			before, err := c.Call(ctx, "toolDefinition", []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			code := residentCode(c)
			if form == "resident" {
				if code == nil || code.Len() == 0 {
					t.Fatal("the machine code was not moved into a file")
				}
				// Resident right after the call, unless the release (20 ms
				// idle) already came: a loaded machine can deschedule the
				// test that long, and then there is nothing to observe.
				resident := code.ResidentBytes()
				if released, _ := releasedCount(c); released == 0 && resident == 0 {
					t.Fatal("the machine code is not resident after a call")
				}
			}
			waitReleased(t, c, 1)
			if _, compiled := releasedCount(c); compiled != (form == "resident") {
				t.Fatalf("compiled %v after a %s release", compiled, form)
			}
			if want := map[string]int{"full": 0, "resident": 1}[form]; len(c.slots) != want || len(c.idle) != want {
				t.Fatalf("%d instances live, %d idle after a %s release; want %d", len(c.slots), len(c.idle), form, want)
			}
			if code != nil {
				if n := code.ResidentBytes(); n != 0 {
					t.Fatalf("%d bytes of the machine code resident after a release; want none", n)
				}
			}
			after, err := c.Call(ctx, "toolDefinition", []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Fatal("the answer after a release differs from the one before")
			}
			waitReleased(t, c, 2)
			if form == "resident" {
				// A 10,000-location answer grows the instance to about
				// 9 MB: the release closes it, and the next call makes one.
				payload := casefile.ReferencesPayload(10000)
				translateRender(func(method string, in []byte) []byte {
					out, err := c.Call(ctx, method, in)
					if err != nil {
						t.Fatal(err)
					}
					return out
				}, payload)
				c.mu.Lock()
				var size uint32
				for range len(c.idle) {
					in := <-c.idle
					size = max(size, in.module.Memory().Size())
					c.idle <- in
				}
				c.mu.Unlock()
				if size <= keptInstanceMemory {
					t.Fatalf("the large answer left an instance of %d bytes; the test needs one over %d", size, keptInstanceMemory)
				}
				waitReleased(t, c, 3)
				if len(c.slots) != 0 {
					t.Fatalf("a release kept the instance of %d bytes (over %d)", size, keptInstanceMemory)
				}
				if again, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); err != nil || !bytes.Equal(again, before) {
					t.Fatalf("the answer after closing the large instance differs: %v", err)
				}
			}
		})
	}
}

// skipWithoutResidentCode skips where machine code cannot be moved into a
// file: another platform, or a test cache directory in memory (tmpfs).
func skipWithoutResidentCode(t *testing.T) {
	t.Helper()
	if !residency.Supported {
		t.Skip("machine code stays anonymous memory on this platform")
	}
	if residency.InMemoryFS(releaseCacheDir(t)) {
		t.Skipf("%s is on tmpfs: machine code stays anonymous memory", releaseCacheDir(t))
	}
	if raceEnabled {
		// Under the race detector the move was not found to happen
		// (the code then takes the full release, which the "full" case
		// checks); the plain run (make test-go) checks the resident form.
		t.Skip("the resident form is checked without -race")
	}
}

// residentCode is c's machine code moved into a file, or nil.
func residentCode(c *Core) *residency.Code {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code
}

// TestIdleReleaseWaitsForCalls: an instance borrowed for longer than the
// delay keeps the module; it is released once the instance is back.
func TestIdleReleaseWaitsForCalls(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t, WithIdleRelease(20*time.Millisecond), WithMaxInstances(2), WithCompilationCacheDir(releaseCacheDir(t)))
	if _, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	in, err := c.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the timer fires while in is borrowed
	if n, compiled := releasedCount(c); n != 0 || !compiled {
		t.Fatalf("released %d times (compiled %v) while an instance was borrowed", n, compiled)
	}
	if _, err := in.call(ctx, "toolDefinition", []byte(`{}`)); err != nil {
		t.Fatalf("the borrowed instance no longer works: %v", err)
	}
	c.release(in)
	waitReleased(t, c, 1)
}

// TestIdleReleaseUnderLoad: releases interleaved with concurrent calls
// never break one (run with -race).
func TestIdleReleaseUnderLoad(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t, WithIdleRelease(time.Millisecond), WithMaxInstances(3), WithCompilationCacheDir(releaseCacheDir(t)))
	want, err := c.Call(ctx, "toolDefinition", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				got, err := c.Call(ctx, "toolDefinition", []byte(`{}`))
				if err == nil && !bytes.Equal(got, want) {
					err = errorString("a call answered differently")
				}
				if err != nil {
					errs <- err
					return
				}
				time.Sleep(time.Duration(i%3) * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitReleased(t, c, 1)
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestMaxInstanceMemory: an instance whose memory grew past the bound in a
// call is closed after it; a small call keeps its instance; the answers are
// the same either way.
func TestMaxInstanceMemory(t *testing.T) {
	ctx := context.Background()
	// The module starts with 4 MB; a 10,000-location translate+render grows
	// it to about 9 MB.
	c := newTestCore(t, WithMaxInstanceMemory(6<<20), WithMaxInstances(1))
	if _, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if len(c.slots) != 1 {
		t.Fatalf("a small call closed its instance (%d live)", len(c.slots))
	}
	payload := casefile.ReferencesPayload(10000)
	want := translateRender(core.Call, payload)
	for i := 0; i < 2; i++ {
		got := translateRender(func(method string, in []byte) []byte {
			out, err := c.Call(ctx, method, in)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}, payload)
		if !bytes.Equal(got, want) {
			t.Fatal("the module's answer differs from the native one")
		}
		if len(c.slots) != 0 {
			t.Fatalf("round %d: the instance whose memory grew past 6 MB was kept", i+1)
		}
	}
}

// TestDropEmbedded: giving the embedded module's pages back leaves its
// bytes as they were, and bytes on the heap are never dropped (that would
// zero them).
func TestDropEmbedded(t *testing.T) {
	want := sha256.Sum256(coreWasm)
	heap := bytes.Clone(coreWasm)
	residency.DropEmbedded(coreWasm)
	residency.DropEmbedded(heap)
	if sha256.Sum256(coreWasm) != want {
		t.Fatal("the embedded module changed when its pages were dropped")
	}
	if sha256.Sum256(heap) != want {
		t.Fatal("a heap copy of the module changed: DropEmbedded dropped heap pages")
	}
}
