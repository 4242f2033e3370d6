package localstdio

import (
	"fmt"
	"time"
)

// A pushed report and the changes a turn's catch-up told the server of.
//
// A pushed report is taken as the server's word on a document's current
// content when it came after the document's own sync and has stood
// unrevised for the quiet time (diagnostics.go). That misses one case: a
// document this turn did not sync whose report predates changes made
// outside lspseam that the turn's catch-up has just told the server of —
// another file edited, created or deleted on disk, which may change this
// document's problems (a signature its calls no longer match). Taken as
// fresh, such a report is the server's word on the workspace before the
// catch-up; a change's delta would then count what the other tool broke
// as broken by the change, since the "after" reports come later.
//
// So, in the turn whose catch-up told the server something (caughtUp is
// the report mark when the server had it all), such a report is fresh
// only once the server has shown it has processed the catch-up: it
// published a report after it and then stayed quiet for the quiet time,
// with no work begun since the catch-up under way (work begun before is
// not the catch-up's: clangd's background indexing runs for minutes and
// does not revise the open files' reports). A server that republishes only the
// reports that changed then said nothing more about this document, whose
// report stands. Until then, the report is awaited like any other, and
// when the wait ends it is answered as it is, not fresh. Pulled and
// command-asked reports are not concerned: every notification that may
// change a report advances the epoch that keeps them (check.go).
//
// "When the server had it all" is the mark when the catch-up sent its last
// notification, or, for a server whose readiness policy has it log when it
// has applied changed files (ReadyLog, awaited by awaitChangesApplied),
// the mark when it logged that: what it published before was published
// before it had the changes. intelephense, told that an interface it had
// open was reverted on disk, published an empty report for the closed
// interface at once, re-indexed the file for half a second under its
// progress, logged "Indexing finished", and only then republished the
// class implementing it. Counted from the notification, the empty report
// was the sign and the half second its quiet time: the class's error
// against the reverted interface was answered fresh in 6 of 7 runs.
//
// And the quiet time runs from the end of the server's latest work too,
// not only from its latest report: a server that re-checks after its work
// ends (intelephense, 36 ms after the end of its re-indexing) has not
// been quiet while it worked.

// afterCatchUp says whether a pushed report numbered seq, fresh as far as
// its own document is concerned, is fresh for this turn too: it does not
// predate the changes the turn's catch-up told the server of, or the
// server has since shown it processed them. When it is not fresh, wake is
// brought forward to when that could change without another report or
// progress.
func (in *instance) afterCatchUp(seq uint64, now, wake time.Time) (fresh bool, _ time.Time) {
	if in.caughtUp == 0 || seq > in.caughtUp {
		return true, wake
	}
	if in.progress.underWaySince(in.caughtUpWork) {
		return false, wake // work the catch-up may have started: its end or a report ends it
	}
	last, at := in.diags.latestReport()
	if last <= in.caughtUp {
		return false, wake // the server has said nothing since: only a report can end it
	}
	if ended := in.progress.workEnded(); ended.After(at) {
		at = ended
	}
	settles := at.Add(in.diagnosticsQuiet())
	if !now.Before(settles) {
		return true, wake
	}
	if settles.Before(wake) {
		wake = settles
	}
	return false, wake
}

// predatesCatchUpNotice says why the report on path, answered not fresh,
// may be out of date although the file did not change.
func (in *instance) predatesCatchUpNotice(path string) string {
	return fmt.Sprintf("the diagnostics of %s are from before language server %q applied the files changed on disk since the last question (which may change its problems); it had not reported on it again when the wait ended — ask again shortly", path, in.server.ID)
}

// latestReport is the number of the latest report received and when it
// came.
func (s *diagnosticStore) latestReport() (seq uint64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.lastAt
}

// caughtUpMark is the report mark after which a report may follow all
// the notifications sent so far: the mark when the last was sent, or
// when the server logged its readiness signal after it.
func (s *diagnosticStore) caughtUpMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(s.bumpedAt, s.readyAt)
}

// readySignal records that the server logged its readiness policy's
// signal. It runs on the read loop, in order with the reports.
func (s *diagnosticStore) readySignal() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readyAt = s.seq
}
