package lspseam

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

var lifeArgs = []byte(`{"operation":"findReferences","file_path":"shape.go","line":15,"character":6}`)

// TestCloseWithCallsInFlight: Close while 50 goroutines call the Core
// (run it with -race: Close closed the wazero runtime under a running
// call). Every failure is an LSP_DISPOSED *Error — before the fix calls
// failed with "instantiating the core module: already closed" and other
// plain errors — and every goroutine ends once Close has returned.
func TestCloseWithCallsInFlight(t *testing.T) {
	budget := testenv.StepBudget(t)
	// 2 instances: calls wait for one; 64: calls instantiate their own
	// while Close runs.
	for _, instances := range []int{2, 64} {
		t.Run(fmt.Sprint(instances, "instances"), func(t *testing.T) {
			for round := 0; round < 3; round++ {
				closeWhileCalling(t, instances, budget)
			}
		})
	}
}

func closeWhileCalling(t *testing.T, instances int, budget time.Duration) {
	t.Helper()
	ctx := context.Background()
	c := newTestCore(t, WithMaxInstances(instances))
	var (
		wg       sync.WaitGroup
		answered atomic.Int32
		mu       sync.Mutex
		wrong    []string
	)
	const goroutines = 50
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, err := c.ParseToolArgs(ctx, lifeArgs)
				if err == nil {
					answered.Add(1)
					continue
				}
				if !isCode(err, CodeDisposed) {
					mu.Lock()
					wrong = append(wrong, fmt.Sprintf("%T: %v", err, err))
					mu.Unlock()
				}
				return
			}
		}()
	}
	// Close once calls are running, not after a fixed sleep.
	deadline := time.Now().Add(budget)
	for answered.Load() < goroutines && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if err := c.Close(cctx); err != nil {
		t.Fatalf("Close with calls in flight: %v", err)
	}
	ended := make(chan struct{})
	go func() { wg.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(budget):
		t.Fatalf("calls still running %v after Close returned", budget)
	}
	for _, w := range wrong {
		t.Errorf("a call failed with %s, want an LSP_DISPOSED *Error", w)
	}
}

// TestLifetimeCloseWaitsForUsers: the runtime is closed only once its
// last user has left; a Close whose ctx ends first says so, and the last
// user closes it.
func TestLifetimeCloseWaitsForUsers(t *testing.T) {
	var l lifetime
	var closed atomic.Int32
	closeRuntime := func() error { closed.Add(1); return nil }
	if !l.enter() {
		t.Fatal("enter refused before Close")
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.closeAndWait(done, closeRuntime, true); !isCode(err, CodeCancelled) {
		t.Fatalf("Close whose ctx ended with a user in: %v, want LSP_CANCELLED", err)
	}
	if closed.Load() != 0 {
		t.Fatal("the runtime was closed under its user")
	}
	if l.enter() {
		t.Fatal("enter accepted after Close")
	}
	l.leave()
	if closed.Load() != 1 {
		t.Fatalf("the last user's leave closed the runtime %d times, want 1", closed.Load())
	}

	var idle lifetime
	wantErr := errors.New("close failed")
	if err := idle.closeAndWait(context.Background(), func() error { return wantErr }, true); err != wantErr {
		t.Fatalf("Close with no user: %v, want closeRuntime's error", err)
	}
}

// TestZeroValueCore: a Core not made by NewCore answers
// LSP_NOT_INITIALIZED at once (it blocked forever waiting for a
// compilation that never starts); Close is a no-op.
func TestZeroValueCore(t *testing.T) {
	budget := testenv.StepBudget(t)
	var c Core
	errs := make(chan error, 2)
	go func() {
		_, err := c.ParseToolArgs(context.Background(), lifeArgs)
		errs <- err
		errs <- c.Wait(context.Background())
	}()
	for _, what := range []string{"ParseToolArgs", "Wait"} {
		select {
		case err := <-errs:
			if !isCode(err, CodeNotInitialized) {
				t.Errorf("%s on a zero Core: %v, want LSP_NOT_INITIALIZED", what, err)
			}
		case <-time.After(budget):
			t.Fatalf("%s on a zero Core still blocked after %v", what, budget)
		}
	}
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("Close on a zero Core: %v", err)
	}
}
