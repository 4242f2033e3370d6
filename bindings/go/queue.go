package lspseam

import "context"

// Queue order across a caller and a provider.
//
// A provider that serializes queries (the local stdio provider has one
// queue per workspace) serves them in the order they join its queue. A
// caller that receives queries in some order — the shim's serve loop reads
// them from one stream — and runs each in its own goroutine can keep that
// order: it lets query n+1 call Query only after query n has joined, which
// the provider announces by calling the hook the caller put in ctx.

type queuedHookKey struct{}

// WithQueuedHook returns a context carrying hook, which a provider calls
// (through Queued) once the query has its place in the provider's queue.
// hook must be safe to call more than once; the caller should also call it
// when Query returns, since a query may fail before it joins any queue.
func WithQueuedHook(ctx context.Context, hook func()) context.Context {
	return context.WithValue(ctx, queuedHookKey{}, hook)
}

// Queued calls the queued hook carried by ctx, if any. Providers call it
// right after a query joins their queue, before waiting for its turn.
func Queued(ctx context.Context) {
	if hook, ok := ctx.Value(queuedHookKey{}).(func()); ok {
		hook()
	}
}
