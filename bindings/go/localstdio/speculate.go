package localstdio

import (
	"context"
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
	out = make([]lspseam.FileCheck, len(paths))
	start := time.Now()
	end := waitEnd(ctx, start, opts.Wait)
	var shown []*openDocument
	defer func() {
		if rerr := in.restoreDisk(ctx, shown); rerr != nil && err == nil {
			err = rerr
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
			if err := in.syncDocument(ctx, d, changed[i].Text); err != nil {
				return out, err
			}
			f.Text = changed[i].Text
		}
		out[i].File = f
		batch = append(batch, i)
	}
	return out, in.checkAll(ctx, out, batch, start, end)
}

// restoreDisk gives each of docs the disk's bytes again (closing one that
// no longer passes the source rules). It is written even when ctx has
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
		var err error
		if src, rerr := ReadSource(in.ws, d.path, in.server.Config.MaxDocumentBytes); rerr != nil {
			err = in.closeDocument(ctx, d)
		} else {
			err = in.syncDocument(ctx, d, src.Text)
		}
		if err != nil {
			why := lspseam.Errorf(lspseam.CodeServerFailed, "language server %q could not be given back the disk's text of %s after a speculative check (%v); it was stopped so that no answer comes from text that was never written", in.server.ID, d.path, err)
			in.invalidate(why)
			return why
		}
	}
	return nil
}
