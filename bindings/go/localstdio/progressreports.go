package localstdio

// Pushed reports and the server's work in progress.
//
// A pushed report is taken as the server's word on a document when it
// came after the document's sync and stood unrevised for the quiet time
// (diagnostics.go). pyright breaks that rule of thumb: when documents are
// opened it publishes each one's parse-only report at once (most often
// none: no syntax errors), then checks the open files one after another,
// publishing each file's checked report as it finishes it, under a
// work-done progress ("19 files to analyze", "18 files to analyze", …)
// that ends when none is left. With twenty files opened for a change's
// dependents, the last one's empty report stands for seconds before its
// checked one replaces it: taken as the report before the change, every
// problem the file already had came out "introduced" by the change.
//
// So for a server whose policy says its reports settle with its progress
// (Readiness.ReportsSettleWithProgress), a report counts as its word only
// while no work it announced (window/workDoneProgress/create, recorded
// as it is read, in order with the reports) or began is running; until
// then it is awaited, and when the wait ends it is taken as it is, not
// fresh, which the delta then says rather than comparing it.
//
// Any other server's work in progress matters only to the reports that
// predate a catch-up (catchupreports.go): intelephense re-indexes a file
// changed on disk under its progress and re-checks the open documents
// after that work ends, not under it; so every wait for reports wakes at
// a change of the server's progress.

// workUnderWay says whether the server's pushed reports may still be
// revised by work in progress (its policy ties its reports to its
// progress, and work it announced or began is running), and returns a
// channel closed when the server's progress changes.
func (in *instance) workUnderWay() (interim bool, progressed <-chan struct{}) {
	if in.progress == nil {
		return false, nil // an instance that never started (a unit test's)
	}
	busy, progressed := in.progress.underWay()
	return busy && in.neg.Readiness.ReportsSettleWithProgress, progressed
}
