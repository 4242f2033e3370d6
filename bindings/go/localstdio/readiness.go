package localstdio

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Applying the core's readiness policy (core/readiness.go) to a query:
// the wait between didOpen and the request.

// budgetReserve is the part of a query's remaining budget the readiness
// wait leaves for the request itself: a fifth, within [1 s, 10 s].
func budgetReserve(remaining time.Duration) time.Duration {
	return min(max(remaining/5, time.Second), 10*time.Second)
}

// awaitReady waits until the server's answer can be trusted, or until the
// budget runs low. It returns a non-empty reason when the answer that
// follows may be partial. opened is when didOpen was sent; began and ended
// are the progress counts just before it.
//
// On the first query of a fresh instance it waits for no active progress
// and for a loading signal (progress that began and ended after didOpen,
// or the policy's log line), at most SettleMs. Later queries only wait for
// active progress to end. A query on path, a file for which the server
// gives no signal (none of the policy's SignalNeeds above it: a file of
// an inferred project, built as it is opened), waits for no active
// progress only, and leaves the first-query wait to a file that has one.
func (in *instance) awaitReady(ctx context.Context, path string, opened time.Time, began, ended int) (string, error) {
	policy := in.neg.Readiness
	budgetEnd := time.Time{} // zero: no budget
	if deadline, ok := ctx.Deadline(); ok {
		budgetEnd = deadline.Add(-budgetReserve(time.Until(deadline)))
	}
	settleEnd := opened.Add(time.Duration(policy.SettleMs) * time.Millisecond)
	logged := false
	unsignalled := policy.ExpectSignal && len(policy.SignalNeeds) > 0 && !foundAbove(path, policy.SignalNeeds)
	for {
		titles, changed := in.progress.snapshot()
		idle := len(titles) == 0
		now := time.Now()
		if in.settled || unsignalled {
			if idle {
				return "", nil
			}
		} else {
			b, e := in.progress.counts()
			signal := (b > began && e > ended) || (policy.ReadyLog != "" && in.progress.readySeen())
			if idle && (signal || !now.Before(settleEnd)) {
				in.settled = true
				if !signal && policy.ExpectSignal {
					in.log.Info("server gave no loading signal", "waited", now.Sub(opened))
					reason := fmt.Sprintf("language server %q did not report that it finished loading the project within %d ms; the answer may miss files it had not loaded yet — ask again for a complete answer", in.server.ID, policy.SettleMs)
					if policy.ReadyLog != "" {
						in.awaitLog(reason, 0)
						return "", nil
					}
					return reason, nil
				}
				in.log.Debug("server ready", "waited", now.Sub(opened), "signal", signal)
				return "", nil
			}
		}
		if !logged {
			logged = true
			in.log.Info("waiting for the language server to finish loading the project", "busy", titles, "firstQuery", !in.settled, "settleMs", policy.SettleMs)
		}
		wake := settleEnd
		if in.settled || unsignalled || !idle {
			wake = time.Time{}
		}
		if !budgetEnd.IsZero() {
			if !now.Before(budgetEnd) {
				return stillLoading(in.server.ID, titles), nil
			}
			if wake.IsZero() || budgetEnd.Before(wake) {
				wake = budgetEnd
			}
		}
		var timer *time.Timer
		var fired <-chan time.Time
		if !wake.IsZero() {
			timer = time.NewTimer(time.Until(wake))
			fired = timer.C
		}
		select {
		case <-changed:
		case <-fired:
		case <-in.dead:
			return "", in.deadErr
		case <-ctx.Done():
			return "", ctxError(ctx, "waiting for the language server to load the project")
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

func stillLoading(id string, titles []string) string {
	what := "loading the project"
	if len(titles) > 0 {
		what = strings.Join(titles, ", ")
	}
	return fmt.Sprintf("language server %q was still busy (%s) when the time budget ran low, so the answer may miss files it had not loaded yet — ask again for a complete answer", id, what)
}

// A server whose loading signal is a log message (pyright) writes it in
// order with its answers: it handles one message at a time, and its
// answers are computed on what it has loaded when it handles the request.
// So when a wait for the signal ends without it, the request is sent
// anyway, and its answer is partial only if it was read before the
// signal: measured on a cold pyright with 162 files and a 3 s settle, the
// "Found 162 source files" log came 6–7 s after the settle ended and
// before the answer in 4 of 4 runs, and all 901 references were there
// (the answers had been marked incomplete). awaitLog records the reason
// and the log message after which the signal counts; answerUnconfirmed
// judges each answer when it is read.

// awaitLog records that a wait for the readiness policy's log signal after
// log message mark ended without it, and why an answer read before it may
// be partial.
func (in *instance) awaitLog(reason string, mark int) {
	in.unconfirmed = reason
	in.unconfirmedMark.Store(int64(mark))
	in.awaitingLog.Store(true)
}

// answerUnconfirmed is the reason an answer may be partial, given
// earlyAnswers as it was before the request was written: the awaited
// signal's reason if the answer was read before it, "" otherwise (and once
// the signal is seen, nothing is awaited any more).
func (in *instance) answerUnconfirmed(early int64) string {
	if in.unconfirmed == "" {
		return ""
	}
	if in.earlyAnswers.Load() > early {
		return in.unconfirmed
	}
	in.confirmed()
	return ""
}

// loadUnconfirmed is the awaited signal's reason while it has not come
// ("" once it has).
func (in *instance) loadUnconfirmed() string {
	if in.unconfirmed != "" && in.progress.readySeenAfter(int(in.unconfirmedMark.Load())) {
		in.confirmed()
	}
	return in.unconfirmed
}

func (in *instance) confirmed() {
	in.awaitingLog.Store(false)
	in.unconfirmed = ""
}
