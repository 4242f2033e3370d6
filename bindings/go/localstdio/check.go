package localstdio

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Checking a change's documents together (lspseam.Session.Check): the
// applier's diagnostics delta needs a report on every file of a change,
// before and after it. Asked one file after another, a 59-file rename
// waited for 59 reports in turn — each up to the push wait (3 s), so a
// server that publishes nothing for a file whose problems did not change
// cost 3 s per file, and the budget ran out with most files stale. Here
// every document is synced first, then all reports are awaited at once:
//
//   - pushed reports (publishDiagnostics): one loop watches them all
//     against ONE end (the wait, within the budget), each file done when
//     its fresh report has stood unrevised for the quiet time, the others
//     taken as they are (not fresh) when the end comes: a change's
//     reports cost what its slowest file's does, not their sum;
//   - asked reports (textDocument/diagnostic, or the server's diagnostics
//     command): up to maxConcurrentChecks requests in flight, all bounded
//     by the budget less its reserve; one still unanswered then is the
//     latest report known, not fresh, rather than failing the answer.
//
// The documents are opened at most the cache's capacity at a time
// (maxOpenDocuments): a bigger change is checked window by window, each
// window synced whole before its reports are awaited, all windows within
// the same end.

// maxConcurrentChecks bounds the diagnostics requests one Check has in
// flight. A server that answers in order (tsserver) is kept busy without
// a round trip between files; one that works in parallel (gopls) is
// given enough to use its cores, not the whole change at once.
const maxConcurrentChecks = 8

// Check implements lspseam.Session.
func (ss *session) Check(ctx context.Context, paths []string, opts lspseam.DiagnosticsOptions) ([]lspseam.FileCheck, error) {
	in := ss.inst()
	out := make([]lspseam.FileCheck, len(paths))
	start := time.Now()
	end := waitEnd(ctx, start, opts.Wait)
	window := in.docs.max
	var floor *syncFloor // AfterSync: the last sync of the change's documents, across windows
	if opts.AfterSync {
		changed := opts.Changed
		if changed == 0 {
			changed = len(paths)
		}
		floor = &syncFloor{changed: changed}
	}
	for lo := 0; lo < len(paths); lo += window {
		hi := min(lo+window, len(paths))
		var batch []int
		for i := lo; i < hi; i++ {
			f, err := ss.Open(ctx, paths[i])
			if err != nil {
				if ctx.Err() != nil || in.isDead() {
					return out, err
				}
				out[i].Err = err
				continue
			}
			out[i].File = f
			batch = append(batch, i)
		}
		if hi == len(paths) && opts.Synced != nil {
			opts.Synced(append([]lspseam.FileCheck(nil), out...))
		}
		if err := in.checkAll(ctx, out, batch, start, end, floor); err != nil {
			return out, err
		}
	}
	return out, nil
}

// checkAll fills in the reports of out's files at batch, documents the
// server holds with exactly those files' texts (just opened): asked of the
// server or awaited as it pushes them, as diagnostics does for one.
func (in *instance) checkAll(ctx context.Context, out []lspseam.FileCheck, batch []int, start, end time.Time, floor *syncFloor) error {
	if len(batch) == 0 {
		return nil
	}
	docs := make(map[int]*openDocument, len(batch))
	kept := batch[:0]
	for _, i := range batch {
		d := in.docs.get(out[i].File.Path)
		if d == nil { // cannot happen within a window the cache holds; never wait on it
			out[i].Err = lspseam.Errorf(lspseam.CodeInvalidArgument, "%s was closed before its diagnostics were asked (more files than maxOpenDocuments at once?)", out[i].File.Path)
			continue
		}
		docs[i] = d
		kept = append(kept, i)
	}
	batch = kept
	if len(batch) == 0 {
		return nil
	}
	pull := in.pulls()
	if pull {
		rest, err := in.askAll(ctx, out, batch, docs, start, true, in.pullDiagnostics)
		if err != nil {
			return err
		}
		if len(rest) == 0 {
			return nil
		}
		in.log.Debug("textDocument/diagnostic is not implemented: using published diagnostics")
		in.diags.disablePull()
		batch = rest
	}
	if in.neg.Readiness.NoDiagnostics && !pull {
		for _, i := range batch {
			out[i].Err = in.noDiagnostics()
		}
		return nil
	}
	if command := in.neg.Readiness.DiagnosticsCommand; command != "" {
		_, err := in.askAll(ctx, out, batch, docs, start, false, func(ctx context.Context, d *openDocument, _ string) (json.RawMessage, error) {
			return in.commandDiagnostics(ctx, command, d)
		})
		return err
	}
	return in.awaitPushed(ctx, out, batch, docs, start, end, floor)
}

// askAll asks the server for the diagnostics of the documents at batch,
// at most maxConcurrentChecks at once, within the budget less its
// reserve. A request the server does not implement leaves its file for
// the caller to await pushed reports for (returned in unsupported) when
// fallback is set, else it is the file's Err; one the budget cut short
// leaves the latest report known, not fresh.
func (in *instance) askAll(ctx context.Context, out []lspseam.FileCheck, batch []int, docs map[int]*openDocument, start time.Time, fallback bool, ask func(context.Context, *openDocument, string) (json.RawMessage, error)) (unsupported []int, err error) {
	budget, cancel := context.WithCancel(ctx)
	if deadline, ok := ctx.Deadline(); ok {
		cancel()
		budget, cancel = context.WithDeadline(ctx, deadline.Add(-budgetReserve(time.Until(deadline))))
	}
	defer cancel()
	errs := make([]error, len(batch))
	slots := make(chan struct{}, maxConcurrentChecks)
	var wg sync.WaitGroup
	epoch := in.diags.currentEpoch() // nothing is sent until the reports are in
	for j, i := range batch {
		d := docs[i]
		key := uriKey(d.uri)
		version := d.version
		report := func(items json.RawMessage) {
			out[i].Report = lspseam.DiagnosticReport{URI: out[i].File.URI, Diagnostics: items, Version: &version, How: "pull", Fresh: true, Waited: time.Since(start)}
		}
		if items, ok := in.diags.standing(key, version); ok {
			report(items)
			continue
		}
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			items, err := ask(budget, d, key)
			if err != nil {
				errs[j] = err
				return
			}
			in.diags.keepChecked(key, &checkedReport{items: items, version: version, epoch: epoch})
			report(items)
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctxError(ctx, "waiting for diagnostics")
	}
	if in.isDead() {
		return nil, in.deadErr
	}
	for j, i := range batch {
		err := errs[j]
		var lerr *lspseam.Error
		switch {
		case err == nil:
		case fallback && errors.As(err, &lerr) && lerr.Code == lspseam.CodeUnsupportedOperation:
			unsupported = append(unsupported, i)
		case budget.Err() != nil:
			out[i].Report = in.latestKnown(out[i].File.URI, docs[i], start)
		default:
			out[i].Err = err
		}
	}
	return unsupported, nil
}

// latestKnown is a document's latest report, pulled or pushed, for a
// request the budget cut short: not fresh, as it may be for an older text.
func (in *instance) latestKnown(uri string, d *openDocument, start time.Time) lspseam.DiagnosticReport {
	key := uriKey(d.uri)
	if p := in.diags.lastPull(key); p != nil {
		return lspseam.DiagnosticReport{URI: uri, Diagnostics: p.items, How: "pull", Waited: time.Since(start)}
	}
	r, ok, _ := in.diags.latest(key)
	rep := pushedReport(uri, d, r, ok, false, start)
	rep.How = "pull"
	return rep
}

// awaitPushed waits for the pushed reports of the documents at batch,
// all at once, until end: each is done when a fresh report on it (one that
// arrived after its last sync, for its version when versioned) has stood
// unrevised for the quiet time; at end the rest are taken as they are.
// With a floor (DiagnosticsOptions.AfterSync, and every speculation), a
// report is fresh only when it came also after the last sync of the
// change's documents, these and the earlier windows' (the floor, raised
// here): a document the change did not touch has nothing new to report on
// before that.
func (in *instance) awaitPushed(ctx context.Context, out []lspseam.FileCheck, batch []int, docs map[int]*openDocument, start, end time.Time, floor *syncFloor) error {
	for _, i := range batch {
		if d := docs[i]; in.behindOtherChanges(d) {
			if err := in.resync(ctx, d, out[i].File.Text); err != nil {
				return err
			}
		}
	}
	left := append([]int(nil), batch...)
	quiet := in.diagnosticsQuiet()
	var after uint64
	if floor != nil {
		for _, i := range batch {
			if i < floor.changed {
				floor.seq = max(floor.seq, docs[i].synced)
			}
		}
		after = floor.seq
	}
	var confirmed map[int]time.Time // when the server answered each clean confirmation (cleanconfirm.go)
	for {
		changed := in.diags.next() // before reading: no report is missed
		interim, progressed := in.workUnderWay()
		now := time.Now()
		wake := end
		waiting := left[:0]
		var ask []*openDocument
		for _, i := range left {
			d := docs[i]
			r, ok, _ := in.diags.latest(uriKey(d.uri))
			fresh := ok && (r.seq > max(d.synced, after) || in.standsSinceOpen(d, r.seq, after)) && (r.version == nil || *r.version == d.version)
			stood := r.at.Add(quiet)
			if fresh {
				fresh, wake = in.afterCatchUp(r.seq, now, wake)
				// The server's work in progress may still revise it
				// (progressreports.go): awaited until that ends.
				fresh = fresh && !interim
			} else if confirmed == nil && in.cleanCandidate(r, ok) {
				ask = append(ask, d)
			} else if clean, w := in.cleanStands(confirmed[i], r, ok, now, wake); clean {
				out[i].Report = pushedReport(out[i].File.URI, d, pushedDiagnostics{}, false, true, start)
				continue
			} else {
				wake = w
			}
			if (fresh && !now.Before(stood)) || !now.Before(end) {
				out[i].Report = pushedReport(out[i].File.URI, d, r, ok, fresh, start)
				continue
			}
			if fresh && stood.Before(wake) {
				wake = stood
			}
			waiting = append(waiting, i)
		}
		left = waiting
		if len(left) == 0 {
			return nil
		}
		if len(ask) > 0 {
			confirmed = in.confirmAllClean(ctx, ask, docs, end)
			continue
		}
		timer := time.NewTimer(time.Until(wake))
		select {
		case <-changed:
		case <-progressed:
		case <-timer.C:
		case <-in.dead:
			timer.Stop()
			return in.deadErr
		case <-ctx.Done():
			timer.Stop()
			return ctxError(ctx, "waiting for diagnostics")
		}
		timer.Stop()
	}
}

// syncFloor is the sync a pushed report must follow to count as a report
// on a change (DiagnosticsOptions.AfterSync, and a speculation's): the
// last sync of the change's documents, the first changed of the checked
// paths, raised window by window. The documents checked beside the change
// do not raise it: one opened after the change has its own sync to
// follow, and a changed document's report that came before that open is
// still a report on the change.
type syncFloor struct {
	seq     uint64
	changed int
}

// An asked report stands until something is sent that may change it.
// The reports on a change's files after it are the reports on the same
// files before the next change, when nothing happened in between (an
// agent renaming twice, or fixing what the first change broke): asked
// again, a 59-file change paid for both. So Check keeps each asked report
// with the document's version and the store's epoch, which every document
// sync, file event and command run advances (instance.notify,
// ExecuteCommand), and answers from it while both still hold — the same
// server state, the same answer. Reports on open documents only: closing
// one forgets it.
type checkedReport struct {
	items   json.RawMessage
	version int
	epoch   uint64
}

// changesReports says whether a notification may change the server's
// reports on any document.
func changesReports(method string) bool {
	switch method {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose",
		"workspace/didChangeWatchedFiles", "workspace/didChangeConfiguration", "workspace/didChangeWorkspaceFolders":
		return true
	}
	return false
}

// bump records a notification that may change reports; contentChanged
// when it may change what the server knows of some file's content (every
// one but the didOpen of a document with its bytes on disk).
func (s *diagnosticStore) bump(contentChanged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++
	s.bumpedAt = s.seq
	if contentChanged {
		s.changedAt = s.seq
		s.contentEpoch++
	}
}

// changedMark is the report mark when the last notification that may
// change what the server knows of a file's content was sent.
func (s *diagnosticStore) changedMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changedAt
}

func (s *diagnosticStore) currentEpoch() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epoch
}

// standing is the report asked at epoch on key's document at version, if
// nothing was sent since.
func (s *diagnosticStore) standing(key string, version int) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.checked[key]
	if c == nil || c.version != version || c.epoch != s.epoch {
		return nil, false
	}
	return c.items, true
}

func (s *diagnosticStore) keepChecked(key string, c *checkedReport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	putBounded(&s.checked, key, c)
}
