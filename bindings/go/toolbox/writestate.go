package toolbox

import (
	"log/slog"
	"sync"

	"github.com/lspseam/lspseam/internal/writeset"
)

// writeState is a Toolbox's handle on the directory of its cross-process
// write locks and journals (internal/writeset), opened on first use: a
// Toolbox that only reads never needs it, and one whose directory cannot
// be made still reads (its writes are refused, saying why).
type writeState struct {
	once  sync.Once
	dir   string // "" : writeset.DefaultDir()
	store *writeset.Store
	err   error
	log   *slog.Logger // where recoveries are logged (nil: nowhere)
}

func (w *writeState) open() (*writeset.Store, error) {
	w.once.Do(func() {
		dir := w.dir
		if dir == "" {
			dir = writeset.DefaultDir()
		}
		w.store, w.err = writeset.Open(dir)
	})
	return w.store, w.err
}
