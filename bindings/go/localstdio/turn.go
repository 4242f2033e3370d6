package localstdio

import (
	"context"
	"sync"
)

// turnQueue is one (workspace, root)'s queue: at most one query holds the
// turn, and waiting queries get it strictly in the order they joined.
//
// A Go channel used as a semaphore wakes its blocked senders in order, but
// the order in which goroutines reach the send is the scheduler's, so
// queries that arrive together may be served out of order. Here joining
// is a separate, synchronous step (join) that a caller can sequence (the
// serve loop joins in the order messages arrive, see QueuedHook), and
// waiting is another (wait).
//
// A turnQueue is safe for concurrent use.
type turnQueue struct {
	mu      sync.Mutex
	held    bool
	waiting []*turnTicket // in join order
}

// turnTicket is one query's place in the queue.
type turnTicket struct {
	q       *turnQueue
	granted chan struct{} // closed when the turn is this ticket's
}

// join takes a place at the end of the queue (or the turn at once, when
// the queue is free).
func (q *turnQueue) join() *turnTicket {
	t := &turnTicket{q: q, granted: make(chan struct{})}
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.held && len(q.waiting) == 0 {
		q.held = true
		close(t.granted)
		return t
	}
	q.waiting = append(q.waiting, t)
	return t
}

// wait blocks until the ticket holds the turn, or ctx ends: then the
// ticket leaves the queue (and, if the turn reached it meanwhile, passes
// it on) and ctx's error is returned.
func (t *turnTicket) wait(ctx context.Context) error {
	select {
	case <-t.granted:
		return nil
	case <-ctx.Done():
	}
	q := t.q
	q.mu.Lock()
	for i, w := range q.waiting {
		if w == t {
			q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
			q.mu.Unlock()
			return ctx.Err()
		}
	}
	q.mu.Unlock()
	// Granted just as ctx ended: give the turn on.
	q.release()
	return ctx.Err()
}

// release passes the turn to the first waiting ticket, or frees it.
func (q *turnQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		q.held = false
		return
	}
	next := q.waiting[0]
	q.waiting = q.waiting[1:]
	close(next.granted)
}

// tryAcquire takes the turn only if nobody holds it or waits for it.
func (q *turnQueue) tryAcquire() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.held || len(q.waiting) > 0 {
		return false
	}
	q.held = true
	return true
}
