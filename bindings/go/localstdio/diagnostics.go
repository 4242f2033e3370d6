package localstdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Diagnostics: what the server reports about an open document's content.
//
// A server that offers textDocument/diagnostic (diagnosticProvider) is
// asked: its answer is for the content it holds, so it is fresh. So is a
// server whose readiness policy names a diagnostics command
// (typescript-language-server: its pushed reports carry no version and
// may be the previous text's). Any
// other server pushes textDocument/publishDiagnostics when it likes —
// usually shortly after didOpen/didChange, often twice (syntax, then
// semantics). The instance records the latest report per URI, numbered
// in arrival order, and each open document records the number current
// just before its last didOpen/didChange was written. A report is fresh
// when it arrived after that (and, when it is versioned, is for the
// document's version). Diagnostics waits for a fresh report, then for the
// server to stop revising it (no newer report for diagnosticsQuiet), all
// within DiagnosticsOptions.Wait and the context's budget; when none
// comes, it returns the latest report it has, marked not fresh.

const (
	defaultDiagnosticsWait = 3 * time.Second
	// diagnosticsQuiet is how long a fresh report must stand unrevised.
	diagnosticsQuiet = 250 * time.Millisecond
	// maxDiagnosticURIs bounds the reports kept (pushed, pulled and
	// checked each).
	maxDiagnosticURIs = 4096
)

// diagnosticStore holds an instance's diagnostics. Its zero value is
// ready; publish runs on the connection's read loop, everything else in
// the instance's turn.
type diagnosticStore struct {
	mu      sync.Mutex
	seq     uint64                        // reports received so far
	lastAt  time.Time                     // when the latest report came
	pushed  map[string]*pushedDiagnostics // by uriKey
	pulled  map[string]*pulledDiagnostics // by uriKey
	noPull  bool                          // textDocument/diagnostic answered MethodNotFound
	changed chan struct{}                 // closed and replaced on every report
	// epoch counts what was sent that may change any report: every
	// document sync and file event, every command run (check.go).
	epoch   uint64
	checked map[string]*checkedReport // by uriKey: Check's asked reports
	// bumpedAt is the report mark when the epoch last advanced: the
	// reports numbered above it came after the last notification sent
	// that may change them (catchupreports.go).
	bumpedAt uint64
	// readyAt is the report mark when the server last logged its
	// readiness policy's signal (ReadyLog): the reports numbered above it
	// came after it said it had applied what it was told
	// (catchupreports.go).
	readyAt uint64
	// changedAt is the report mark when the last notification that may
	// change what the server knows of a file's content was sent: bumpedAt
	// but for the didOpen of documents with their bytes on disk
	// (standsSinceOpen).
	changedAt uint64
	// contentEpoch counts the notifications that may change what the
	// server knows of a file's content (resync.go).
	contentEpoch uint64
	// dropped: a report was dropped to keep at most maxDiagnosticURIs
	// (cleanCandidate).
	dropped bool
}

type pushedDiagnostics struct {
	items   json.RawMessage // Diagnostic[]
	version *int
	seq     uint64
	at      time.Time
}

type pulledDiagnostics struct {
	resultID string
	items    json.RawMessage
}

// uriKey identifies a document whatever escaping a server chose for its
// URI: a local file: URI is keyed by its canonical form (on macOS and
// Windows its path's case folded, on Windows its drive letter's case and
// colon's escaping too: hostPaths.URIKey).
func uriKey(uri string) string { return hostPaths.URIKey(uri) }

// mark is the number of the latest report: a document records it just
// before its content is sent, and reports numbered above it arrived after.
func (s *diagnosticStore) mark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// changedLocked is the channel closed at the next report.
func (s *diagnosticStore) changedLocked() chan struct{} {
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

// publish records a textDocument/publishDiagnostics notification. A
// malformed one is ignored.
func (s *diagnosticStore) publish(log *slog.Logger, params *json.RawMessage) {
	var p struct {
		URI         *string         `json:"uri"`
		Version     json.RawMessage `json:"version"`
		Diagnostics json.RawMessage `json:"diagnostics"`
	}
	var version *int
	bad := params == nil || json.Unmarshal(*params, &p) != nil || p.URI == nil || *p.URI == "" ||
		len(p.Diagnostics) == 0 || p.Diagnostics[0] != '['
	if !bad && len(p.Version) > 0 && string(p.Version) != "null" {
		var v int
		if json.Unmarshal(p.Version, &v) != nil {
			bad = true
		} else {
			version = &v
		}
	}
	if bad {
		log.Debug("ignored a malformed publishDiagnostics", "params", rawString(params))
		return
	}
	key := uriKey(*p.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pushed == nil {
		s.pushed = map[string]*pushedDiagnostics{}
	}
	if _, ok := s.pushed[key]; !ok && len(s.pushed) >= maxDiagnosticURIs {
		oldest, first := "", true
		for k, r := range s.pushed {
			if first || r.seq < s.pushed[oldest].seq {
				oldest, first = k, false
			}
		}
		delete(s.pushed, oldest)
		s.dropped = true
	}
	s.seq++
	s.lastAt = time.Now()
	s.pushed[key] = &pushedDiagnostics{items: p.Diagnostics, version: version, seq: s.seq, at: s.lastAt}
	close(s.changedLocked())
	s.changed = make(chan struct{})
}

// latest returns a copy of the latest pushed report for key (ok false when
// there is none) and a channel closed at the next report.
func (s *diagnosticStore) latest(key string) (r pushedDiagnostics, ok bool, changed <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pushed[key]; p != nil {
		r, ok = *p, true
	}
	return r, ok, s.changedLocked()
}

// next is the channel closed at the next report: taken before reading
// several documents' reports, it misses none that arrives meanwhile.
func (s *diagnosticStore) next() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changedLocked()
}

// forget drops what is kept for a document the cache closed.
func (s *diagnosticStore) forget(uri string) {
	key := uriKey(uri)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pushed, key)
	delete(s.pulled, key)
	delete(s.checked, key)
}

func (s *diagnosticStore) pullDisabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.noPull
}

func (s *diagnosticStore) disablePull() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noPull = true
}

func (s *diagnosticStore) lastPull(key string) *pulledDiagnostics {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pulled[key]
}

func (s *diagnosticStore) rememberPull(key string, r *pulledDiagnostics) {
	s.mu.Lock()
	defer s.mu.Unlock()
	putBounded(&s.pulled, key, r)
}

// putBounded sets (*m)[key], making the map if needed; a new key in a map
// at maxDiagnosticURIs evicts any one entry first. Asked reports (pulled,
// checked) are for open documents, which are far fewer, so which one goes
// does not matter; pushed reports evict their oldest (publish).
func putBounded[V any](m *map[string]V, key string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	if _, ok := (*m)[key]; !ok && len(*m) >= maxDiagnosticURIs {
		for k := range *m {
			delete(*m, k)
			break
		}
	}
	(*m)[key] = v
}

// Diagnostics implements lspseam.Session.
func (ss *session) Diagnostics(ctx context.Context, f lspseam.SourceFile, opts lspseam.DiagnosticsOptions) (lspseam.DiagnosticReport, error) {
	in := ss.inst()
	var predates bool
	rep, err := in.diagnosticsOf(ctx, f, opts, &predates)
	if err == nil && predates && !rep.Fresh {
		ss.mu.Lock()
		ss.stale = joinNotices(ss.stale, in.predatesCatchUpNotice(f.Path))
		ss.mu.Unlock()
	}
	return rep, err
}

func (in *instance) diagnostics(ctx context.Context, f lspseam.SourceFile, opts lspseam.DiagnosticsOptions) (lspseam.DiagnosticReport, error) {
	return in.diagnosticsOf(ctx, f, opts, new(bool))
}

// diagnosticsOf is diagnostics; *predates is set when the report is not
// fresh only because it predates the changes on disk the turn's catch-up
// told the server of (catchupreports.go).
func (in *instance) diagnosticsOf(ctx context.Context, f lspseam.SourceFile, opts lspseam.DiagnosticsOptions, predates *bool) (lspseam.DiagnosticReport, error) {
	start := time.Now()
	if in.isDead() {
		return lspseam.DiagnosticReport{}, in.deadErr
	}
	if ctx.Err() != nil {
		return lspseam.DiagnosticReport{}, ctxError(ctx, "waiting for diagnostics")
	}
	d := in.docs.get(f.Path)
	if d == nil || uriKey(d.uri) != uriKey(f.URI) {
		return lspseam.DiagnosticReport{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "%s is not open on language server %q (Open it in this session before asking for its diagnostics)", f.Path, in.server.ID)
	}
	// f is what the server holds unless the document changed since f was
	// read: then no report can be known to be for f.
	current := in.docs.hashOf(f.Text) == d.hash
	key := uriKey(d.uri)

	pull := in.pulls()
	if in.neg.Readiness.NoDiagnostics && !pull {
		return lspseam.DiagnosticReport{}, in.noDiagnostics()
	}
	if pull {
		items, err := in.pullDiagnostics(ctx, d, key)
		if err == nil {
			version := d.version
			return lspseam.DiagnosticReport{URI: f.URI, Diagnostics: items, Version: &version, How: "pull", Fresh: current, Waited: time.Since(start)}, nil
		}
		var lerr *lspseam.Error
		if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeUnsupportedOperation {
			return lspseam.DiagnosticReport{}, err
		}
		in.log.Debug("textDocument/diagnostic is not implemented: using published diagnostics", "error", err)
		in.diags.disablePull()
	}

	if command := in.neg.Readiness.DiagnosticsCommand; command != "" {
		// The server's pushed reports cannot be told to be on this text
		// (core/commanddiagnostics.go): its checker is asked instead, and
		// answers on the text it holds, like a pull.
		items, err := in.commandDiagnostics(ctx, command, d)
		if err != nil {
			return lspseam.DiagnosticReport{}, err
		}
		version := d.version
		return lspseam.DiagnosticReport{URI: f.URI, Diagnostics: items, Version: &version, How: "pull", Fresh: current, Waited: time.Since(start)}, nil
	}

	end := waitEnd(ctx, start, opts.Wait)
	if !current {
		end = start // nothing to wait for
	} else if in.behindOtherChanges(d) {
		if err := in.resync(ctx, d, f.Text); err != nil {
			return lspseam.DiagnosticReport{}, err
		}
	}
	var confirmed time.Time // when the server answered the clean confirmation (cleanconfirm.go)
	asked := false
	for {
		r, ok, changed := in.diags.latest(key)
		interim, progressed := in.workUnderWay()
		fresh := ok && current && (r.seq > d.synced || in.standsSinceOpen(d, r.seq, 0)) && (r.version == nil || *r.version == d.version)
		if !fresh && current && !asked && in.cleanCandidate(r, ok) {
			asked = true
			confirmed = in.confirmClean(ctx, d, end)
			continue
		}
		now := time.Now()
		wake := end
		*predates = false
		if fresh {
			fresh, wake = in.afterCatchUp(r.seq, now, wake)
			*predates = !fresh
			fresh = fresh && !interim // the server's work in progress may still revise it (progressreports.go)
		}
		if fresh {
			if quiet := r.at.Add(in.diagnosticsQuiet()); quiet.Before(wake) {
				wake = quiet
			}
		} else if clean, w := in.cleanStands(confirmed, r, ok, now, wake); clean {
			return pushedReport(f.URI, d, pushedDiagnostics{}, false, true, start), nil
		} else {
			wake = w
		}
		if !now.Before(wake) {
			return pushedReport(f.URI, d, r, ok, fresh, start), nil
		}
		timer := time.NewTimer(time.Until(wake))
		select {
		case <-changed:
		case <-progressed:
		case <-timer.C:
		case <-in.dead:
			timer.Stop()
			return lspseam.DiagnosticReport{}, in.deadErr
		case <-ctx.Done():
			timer.Stop()
			return lspseam.DiagnosticReport{}, ctxError(ctx, "waiting for diagnostics")
		}
		timer.Stop()
	}
}

// standsSinceOpen says whether a pushed report numbered seq, which came
// before d's didOpen, is the server's word on d all the same: the server
// publishes reports for files it has not opened and nothing new when one
// is opened with the content it read (Readiness.ReportsUnopened), d has
// the bytes on disk it was opened with, and the report came after every
// other notification that may change it (and after the mark after).
func (in *instance) standsSinceOpen(d *openDocument, seq, after uint64) bool {
	return in.neg.Readiness.ReportsUnopened && d.fromDisk && seq > max(d.floor, after)
}

// pulls says whether the server is asked for diagnostics
// (textDocument/diagnostic, offered or registered, and not found missing).
func (in *instance) pulls() bool {
	return (in.neg.Methods["textDocument/diagnostic"] || in.dynamicPull.Load()) && !in.diags.pullDisabled()
}

func (in *instance) noDiagnostics() error {
	return lspseam.Errorf(lspseam.CodeUnsupportedOperation, "language server %q reports no diagnostics (it publishes none and offers no textDocument/diagnostic)", in.server.ID)
}

// waitEnd is when a wait for pushed reports that starts at start ends:
// after wait (0: defaultDiagnosticsWait), or earlier when the context's
// budget, less the reserve for the answer, ends first.
func waitEnd(ctx context.Context, start time.Time, wait time.Duration) time.Time {
	if wait <= 0 {
		wait = defaultDiagnosticsWait
	}
	end := start.Add(wait)
	if deadline, ok := ctx.Deadline(); ok {
		if b := deadline.Add(-budgetReserve(time.Until(deadline))); b.Before(end) {
			end = b
		}
	}
	return end
}

// pushedReport is the report on d (whose URI the caller named uri) from
// its latest pushed diagnostics r (ok false: none yet), fresh or not.
func pushedReport(uri string, d *openDocument, r pushedDiagnostics, ok, fresh bool, start time.Time) lspseam.DiagnosticReport {
	rep := lspseam.DiagnosticReport{URI: uri, Diagnostics: json.RawMessage("[]"), How: "push", Fresh: fresh, Waited: time.Since(start)}
	if ok {
		rep.Diagnostics = r.items
		rep.Version = r.version
	}
	if fresh && rep.Version == nil {
		version := d.version
		rep.Version = &version
	}
	return rep
}

// pullDiagnostics asks the server for d's diagnostics, naming the result
// it last gave so it can answer "unchanged".
func (in *instance) pullDiagnostics(ctx context.Context, d *openDocument, key string) (json.RawMessage, error) {
	const method = "textDocument/diagnostic"
	type params struct {
		TextDocument     textDocumentIdentifier `json:"textDocument"`
		PreviousResultID string                 `json:"previousResultId,omitempty"`
	}
	prev := in.diags.lastPull(key)
	p := params{TextDocument: textDocumentIdentifier{URI: d.uri}}
	if prev != nil {
		p.PreviousResultID = prev.resultID
	}
	var raw json.RawMessage
	if err := in.call(ctx, method, p, &raw); err != nil {
		return nil, err
	}
	malformed := func(why string) error {
		return lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered %s with %s", in.server.ID, method, why)
	}
	if raw == nil {
		return nil, malformed("neither a result nor an error")
	}
	var report struct {
		Kind     string          `json:"kind"`
		ResultID *string         `json:"resultId"`
		Items    json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &report); err != nil || bytes.Equal(raw, []byte("null")) {
		return nil, malformed("something that is not a diagnostic report: " + clip(string(raw), 200))
	}
	kind := report.Kind
	if kind == "" && len(report.Items) > 0 && report.Items[0] == '[' {
		// gopls (v0.23) sends full reports without their kind; items make
		// it one.
		kind = "full"
	}
	switch kind {
	case "full":
		if len(report.Items) == 0 || report.Items[0] != '[' {
			return nil, malformed("a full report whose items are not an array")
		}
		next := &pulledDiagnostics{items: report.Items}
		if report.ResultID != nil {
			next.resultID = *report.ResultID
		}
		in.diags.rememberPull(key, next)
		return report.Items, nil
	case "unchanged":
		if prev == nil || prev.resultID == "" {
			return nil, malformed(`"unchanged" to a request that named no previous result`)
		}
		if report.ResultID != nil && *report.ResultID != prev.resultID {
			in.diags.rememberPull(key, &pulledDiagnostics{resultID: *report.ResultID, items: prev.items})
		}
		return prev.items, nil
	}
	return nil, malformed("a report of kind " + clip(string(report.Kind), 50))
}

// commandDiagnostics asks the server for d's diagnostics through command
// (the requests and the reading of the answers are the core's).
func (in *instance) commandDiagnostics(ctx context.Context, command string, d *openDocument) (json.RawMessage, error) {
	reqs, err := in.commandRequests.requests(ctx, in.core, command, d.uri)
	if err != nil {
		return nil, err
	}
	answers := make([]json.RawMessage, len(reqs))
	for i, r := range reqs {
		if err := in.call(ctx, r.Method, r.Params, &answers[i]); err != nil {
			return nil, err
		}
		if answers[i] == nil {
			answers[i] = json.RawMessage("null") // no result member: the core calls that malformed
		}
	}
	return in.core.CommandDiagnostics(ctx, command, answers)
}

// diagnosticsQuiet is how long a pushed report must stand (the server's
// policy, else diagnosticsQuiet).
func (in *instance) diagnosticsQuiet() time.Duration {
	if ms := in.neg.Readiness.DiagnosticsQuietMs; ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return diagnosticsQuiet
}
