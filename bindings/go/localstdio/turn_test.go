package localstdio

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// TestTurnQueueOrder: queries get the turn in the order they joined, and a
// query that gives up while waiting leaves the queue without breaking it.
func TestTurnQueueOrder(t *testing.T) {
	var q turnQueue
	first := q.join()
	if err := first.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	const n = 50
	tickets := make([]*turnTicket, n)
	for i := range tickets {
		tickets[i] = q.join()
	}
	// Ticket 10 gives up while waiting.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tickets[10].wait(ctx); err == nil {
		t.Fatal("a cancelled wait got the turn")
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := n - 1; i >= 0; i-- { // start waiting in reverse: order must not depend on it
		if i == 10 {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := tickets[i].wait(context.Background()); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			q.release()
		}(i)
	}
	q.release() // the first query ends
	wg.Wait()
	want := []int{}
	for i := range n {
		if i != 10 {
			want = append(want, i)
		}
	}
	if !slices.Equal(order, want) {
		t.Fatalf("turn order %v", order)
	}
	if !q.tryAcquire() {
		t.Fatal("the queue is not free after every query ended")
	}
	if q.tryAcquire() {
		t.Fatal("tryAcquire took a held turn")
	}
	q.release()
}

// TestTurnQueueGrantedWhileCancelled: a ticket whose turn comes just as its
// wait is cancelled passes the turn on.
func TestTurnQueueGrantedWhileCancelled(t *testing.T) {
	var q turnQueue
	holder := q.join()
	holder.wait(context.Background())
	a, b := q.join(), q.join()
	q.release() // the turn goes to a…
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// …whose wait sees both its grant and its cancellation; either it
	// returns nil (it holds the turn) or it passes the turn to b.
	if err := a.wait(ctx); err == nil {
		q.release()
	}
	if err := b.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	q.release()
	if !q.tryAcquire() {
		t.Fatal("the turn was lost")
	}
}
