package localstdio

import "time"

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
// the report mark when it sent the last of it), such a report is fresh
// only once the server has shown it has processed the catch-up: it
// published a report after it and then stayed quiet for the quiet time. A server that republishes only
// the reports that changed then said nothing more about this document,
// whose report stands. Until then, the report is awaited like any other,
// and when the wait ends it is answered as it is, not fresh. Pulled and
// command-asked reports are not concerned: every notification that may
// change a report advances the epoch that keeps them (check.go).

// afterCatchUp says whether a pushed report numbered seq, fresh as far as
// its own document is concerned, is fresh for this turn too: it does not
// predate the changes the turn's catch-up told the server of, or the
// server has since shown it processed them. When it is not, wake is
// brought forward to when that could change without another report.
func (in *instance) afterCatchUp(seq uint64, now, wake time.Time) (fresh bool, _ time.Time) {
	if in.caughtUp == 0 || seq > in.caughtUp {
		return true, wake
	}
	last, at := in.diags.latestReport()
	if last <= in.caughtUp {
		return false, wake // the server has said nothing since: only a report can end it
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

// latestReport is the number of the latest report received and when it
// came.
func (s *diagnosticStore) latestReport() (seq uint64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.lastAt
}

// markAtBump is the report mark when the last notification that may
// change a report was sent.
func (s *diagnosticStore) markAtBump() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bumpedAt
}
