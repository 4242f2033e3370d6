package toolbox

import (
	"context"
	"time"
)

// A call's budget: the share of what is left kept for merging and
// answering when servers are asked until a deadline.

// searchReserve is the most of a call's budget kept for merging and
// answering when a search or a workspace's diagnostics must stop asking
// servers in time (beforeReserve).
const searchReserve = 2 * time.Second

// withReserve is ctx with a deadline earlier by the share kept for the
// answer (beforeReserve). Without a deadline, ctx itself.
func withReserve(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, beforeReserve(d))
}

// beforeReserve is deadline less the share of what is left kept for
// merging and answering: a quarter of it, at most searchReserve.
func beforeReserve(deadline time.Time) time.Time {
	return deadline.Add(-min(searchReserve, time.Until(deadline)/4))
}
