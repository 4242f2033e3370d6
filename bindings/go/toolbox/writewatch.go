package toolbox

import "context"

// WriteWatch hears of the files a call writes, so that a surface that
// stops while the call runs can say what the call had done (cmd/shim's
// drain). A write is the set workspacefs.Root.WriteSet puts in place all
// or nothing, journaled: from Writing until Wrote the change is underway,
// and only the journal (internal/writeset) settles it should the process
// die in between.
//
// The write itself takes no context: once its journal is written, a
// cancelled call cannot stop it half-way; the call waits for it to end.
type WriteWatch interface {
	// Writing is called under the files' locks, their contents checked,
	// just before the set is journaled and put in place. files are
	// workspace-relative. An error refuses the write: nothing is written,
	// and the call fails with it (a call its surface has already answered,
	// cut off by a stop).
	Writing(files []string) error
	// Wrote is called when that write has ended: err is nil when every
	// file has its new content; otherwise the set was rolled back (or
	// the error names the files it could not restore).
	Wrote(files []string, err error)
}

type writeWatchKey struct{}

// WithWriteWatch has the calls made with ctx tell w of their writes.
func WithWriteWatch(ctx context.Context, w WriteWatch) context.Context {
	return context.WithValue(ctx, writeWatchKey{}, w)
}

// writeWatchOf is ctx's WriteWatch; one that hears nothing when ctx has
// none.
func writeWatchOf(ctx context.Context) WriteWatch {
	if w, ok := ctx.Value(writeWatchKey{}).(WriteWatch); ok {
		return w
	}
	return unwatched{}
}

type unwatched struct{}

func (unwatched) Writing([]string) error { return nil }
func (unwatched) Wrote([]string, error)  {}
