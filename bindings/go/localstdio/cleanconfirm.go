package localstdio

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Confirming that a document is clean, for a server that publishes
// nothing for a document that was clean and still is
// (Readiness.CleanConfirmedBy).
//
// A pushed report is fresh when it came after the document's last sync
// (diagnostics.go). terraform-ls publishes a module's reports only when
// the module had or has a problem, so on a clean module no report ever
// comes: every code_diagnostics of a file in it waited out the push wait
// (3 s) and answered "no problems", marked stale, and an edit that kept
// it clean took two such waits. Its documentSymbol handler, though, first
// waits for every pending job of the document's directory — the parsing,
// decoding and validation its didOpen and didChange handlers scheduled
// before they returned (and the server handles a request only after the
// notifications before it). So an answer to that request, asked after
// the document's last sync, comes after the validation of its current
// content; a report the validation causes is published right after it
// (measured: within milliseconds). When none has come for the quiet time
// after the answer, and the document's latest report was empty (or there
// was none, and none was dropped to bound the store), the server has
// nothing to report: the document is clean, and the answer says so,
// fresh.
//
// A document whose latest report lists problems is not asked: the server
// publishes again whenever its module had a problem, so a report is due
// and is awaited as any other.

// cleanCandidate says whether the server may be asked to confirm that a
// document is clean, given its latest pushed report r (ok false: none):
// the policy names a request the server offers, and r (if any) is empty.
func (in *instance) cleanCandidate(r pushedDiagnostics, ok bool) bool {
	method := in.neg.Readiness.CleanConfirmedBy
	if method == "" || !in.neg.Methods[method] || in.diags.droppedReports() {
		return false
	}
	return !ok || isEmptyList(r.items)
}

// confirmClean asks the policy's request about d, within end, and returns
// when the server answered it; zero when it did not (an error, or the
// time ran out: the report is then awaited as any other).
func (in *instance) confirmClean(ctx context.Context, d *openDocument, end time.Time) time.Time {
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	method := in.neg.Readiness.CleanConfirmedBy
	var discard json.RawMessage
	if err := in.call(ctx, method, struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}{textDocumentIdentifier{URI: d.uri}}, &discard); err != nil {
		in.log.Debug("could not confirm a document clean", "method", method, "path", d.path, "error", err)
		return time.Time{}
	}
	return time.Now()
}

// confirmAllClean asks the policy's request about each of ask, at most
// maxConcurrentChecks at once, and returns when the server answered each
// by its index in docs (an entry for every document of docs, zero where
// it was not asked or did not answer).
func (in *instance) confirmAllClean(ctx context.Context, ask []*openDocument, docs map[int]*openDocument, end time.Time) map[int]time.Time {
	at := make(map[*openDocument]time.Time, len(ask))
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxConcurrentChecks)
	for _, d := range ask {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			t := in.confirmClean(ctx, d, end)
			mu.Lock()
			at[d] = t
			mu.Unlock()
		}()
	}
	wg.Wait()
	confirmed := make(map[int]time.Time, len(docs))
	for i, d := range docs {
		confirmed[i] = at[d]
	}
	return confirmed
}

// cleanStands says whether a document the server was asked about at
// confirmed (zero: not asked) is confirmed clean at now, given its latest
// report r; when it is not yet, wake is brought forward to when it may be.
func (in *instance) cleanStands(confirmed time.Time, r pushedDiagnostics, ok bool, now, wake time.Time) (bool, time.Time) {
	if confirmed.IsZero() || !in.cleanCandidate(r, ok) {
		return false, wake
	}
	stands := confirmed.Add(in.diagnosticsQuiet())
	if !now.Before(stands) {
		return true, wake
	}
	if stands.Before(wake) {
		wake = stands
	}
	return false, wake
}

// droppedReports says whether a report was dropped to bound the store:
// then a document with none may have had one.
func (s *diagnosticStore) droppedReports() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// isEmptyList says whether items is an empty JSON array.
func isEmptyList(items json.RawMessage) bool {
	t := bytes.TrimSpace(items)
	return len(t) >= 2 && t[0] == '[' && t[len(t)-1] == ']' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}
