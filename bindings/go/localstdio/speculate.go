package localstdio

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Speculative checks (lspseam.Session.Speculate): a preview's diagnostics
// before anything is written. The server is told the changed texts as
// edits of its open documents (didChange, as an editor's unsaved buffer),
// their reports are awaited as Check awaits a change's, and every document
// is then given the disk's bytes again (didChange once more). A server
// keeps no other memory of an unsaved buffer, so afterwards it answers
// from the disk as before; one that cannot be told the disk's bytes again
// is stopped rather than left believing text that was never written. No
// other query can run on the server meanwhile: the session holds the
// workspace's turn for the whole call.
//
// Given back is not yet settled: a server rebuilds what it derived from a
// document (gopls reloads a changed import set's packages, clangd
// re-indexes the file) some time after the didChange, and a question asked
// meanwhile — the apply's own, right after — is answered from the
// half-rebuilt state: gopls reported "could not import os (missing
// metadata)" for a file whose import the preview had removed, and clangd
// renamed a symbol in one file of four, its index still holding the
// speculative names of the others. So Speculate also waits, within the
// same wait as the check, until the server has reported on the restored
// texts: a fresh pushed report, or, for a server that is asked, the report
// it gave before the speculation (asked again until it is).
//
// A change being written (DiagnosticsOptions.Landing) is checked the same
// way while the write lands (after it, for a change to a header the server
// reads from the disk: Readiness.HeadersFromDisk): its texts are synced as from the disk
// (didSave after didChange for a server that asks for saves), the write
// awaited before the documents are given the disk's bytes again — the
// same bytes, so nothing is sent and nothing needs settling, unless the
// write failed and the old text goes back.

// Speculate implements lspseam.Session.
func (ss *session) Speculate(ctx context.Context, changed []lspseam.SpeculativeText, also []string, opts lspseam.DiagnosticsOptions) (out []lspseam.FileCheck, err error) {
	in := ss.inst()
	paths := make([]string, 0, len(changed)+len(also))
	for _, c := range changed {
		paths = append(paths, c.Path)
	}
	paths = append(paths, also...)
	if len(paths) > in.docs.max {
		// Check goes window by window, closing documents between windows;
		// a closed document would lose its speculative text unchecked.
		return nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "a speculative check shows the server at most %d files at once (maxOpenDocuments); this one has %d", in.docs.max, len(paths))
	}
	// The server parses the files that include a changed header from the
	// disk's copy of it: they are checked once the write is on the disk,
	// not beside it.
	landedFirst := opts.Landing != nil && slices.ContainsFunc(changed, func(c lspseam.SpeculativeText) bool {
		return in.neg.Readiness.ReadsFromDisk(c.Path)
	})
	if landedFirst {
		opts.Landing()
	}
	out = make([]lspseam.FileCheck, len(paths))
	start := time.Now()
	end := waitEnd(ctx, start, opts.Wait)
	var shown []*openDocument
	priors := map[*openDocument]json.RawMessage{} // asked reports on the disk's text, when the check before left them
	shownHash := map[*openDocument]uint64{}       // each document's hash as shown
	defer func() {
		if opts.Landing != nil && !landedFirst {
			opts.Landing()
		}
		if rerr := in.restoreDisk(ctx, shown); rerr != nil && err == nil {
			err = rerr
		}
		var restored []*openDocument // the documents given other bytes back
		for _, d := range shown {
			if d.hash != shownHash[d] {
				restored = append(restored, d)
			}
		}
		if err == nil && ctx.Err() == nil {
			in.settle(ctx, restored, priors, opts.Wait)
		}
	}()
	var batch []int
	for i, p := range paths {
		f, err := ss.Open(ctx, p) // the disk's bytes first: the document is open and verified
		if err != nil {
			if ctx.Err() != nil || in.isDead() {
				return out, err
			}
			out[i].Err = err
			continue
		}
		if i < len(changed) {
			d := in.docs.get(f.Path)
			if d == nil { // the cache holds every file of the call (checked above)
				out[i].Err = lspseam.Errorf(lspseam.CodeInvalidArgument, "%s was closed before its speculative text was shown", f.Path)
				continue
			}
			shown = append(shown, d)
			if items, ok := in.diags.standing(uriKey(d.uri), d.version); ok {
				priors[d] = items
			}
			sync := in.syncDocument
			if opts.Landing != nil {
				sync = in.syncFromDisk
			}
			if err := sync(ctx, d, changed[i].Text); err != nil {
				return out, err
			}
			shownHash[d] = d.hash
			f.Text = changed[i].Text
		}
		out[i].File = f
		batch = append(batch, i)
	}
	// A file checked beside the changed ones (also) reports on them only
	// after they reached the server: every report counts from the last
	// sync of the changed documents, the first len(changed) paths
	// (syncFloor). Not from the last sync of all: a file of also opened
	// after the change would push the floor past a changed document's
	// report that came first, and that report would wait out the whole
	// wait, stale, though it is one on the change.
	return out, in.checkAll(ctx, out, batch, start, end, &syncFloor{changed: len(changed)})
}

// restoreDisk gives each of docs the disk's bytes again, as the watcher's
// reverify does (closing one that no longer passes the source rules). It is written even when ctx has
// ended, within killGraceMs, as closeDocument is; a server that cannot be
// told is invalidated, so no answer comes from text that is not on disk.
func (in *instance) restoreDisk(ctx context.Context, docs []*openDocument) error {
	if len(docs) == 0 || in.isDead() {
		return nil
	}
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), in.killGrace())
		defer cancel()
	}
	for _, d := range docs {
		if in.docs.get(d.path) != d {
			continue // closed meanwhile: the server reads the disk
		}
		if err := in.reverify(ctx, d.path); err != nil {
			why := lspseam.Errorf(lspseam.CodeServerFailed, "language server %q could not be given back the disk's text of %s after a speculative check (%v); it was stopped so that no answer comes from text that was never written", in.server.ID, d.path, err)
			in.invalidate(why)
			return why
		}
	}
	return nil
}

// settle waits, within wait and the budget, until the server has reported
// on docs' restored texts (see above): their reports are awaited or asked
// as a Check's are, and one asked report that differs from its prior is
// asked again, backing off, until it is the same or the time is up. A
// server that does not settle in time is left as it is: the next query
// re-verifies its own document, and its answer is the server's.
func (in *instance) settle(ctx context.Context, docs []*openDocument, priors map[*openDocument]json.RawMessage, wait time.Duration) {
	if len(docs) == 0 || in.isDead() {
		return
	}
	start := time.Now()
	end := waitEnd(ctx, start, wait)
	checks := make([]lspseam.FileCheck, len(docs))
	var batch []int
	for i, d := range docs {
		if in.docs.get(d.path) != d {
			continue // closed: nothing of it is derived any more
		}
		checks[i].File = lspseam.SourceFile{Path: d.path, URI: d.uri}
		batch = append(batch, i)
	}
	if err := in.checkAll(ctx, checks, batch, start, end, nil); err != nil {
		return
	}
	for _, i := range batch {
		d, prior := docs[i], priors[docs[i]]
		if prior == nil || checks[i].Report.How != "pull" {
			continue
		}
		items := checks[i].Report.Diagnostics
		for pause := 50 * time.Millisecond; !sameDiagnostics(items, prior); pause = min(2*pause, 400*time.Millisecond) {
			if time.Now().Add(pause).After(end) {
				in.log.Debug("the server had not settled after a speculative check", "path", d.path)
				break
			}
			time.Sleep(pause)
			ask, cancel := context.WithDeadline(ctx, end)
			got, err := in.pullDiagnostics(ask, d, uriKey(d.uri))
			cancel()
			if err != nil {
				break
			}
			items = got
		}
	}
}

// sameDiagnostics says whether two Diagnostic[] hold the same diagnostics,
// in any order.
func sameDiagnostics(a, b json.RawMessage) bool {
	var la, lb []json.RawMessage
	if json.Unmarshal(a, &la) != nil || json.Unmarshal(b, &lb) != nil || len(la) != len(lb) {
		return false
	}
	key := func(l []json.RawMessage) []string {
		out := make([]string, len(l))
		for i, v := range l {
			var x any
			json.Unmarshal(v, &x)
			c, _ := json.Marshal(x) // keys sorted: one spelling per value
			out[i] = string(c)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(la), key(lb))
}
