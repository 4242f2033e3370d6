package toolbox

import (
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The fs tools' observation policy: a file is changed only from the
// version this session last read (or wrote) of it.

// observations records, per absolute path, the version this session last
// observed. It is safe for concurrent use.
type observations struct {
	mu   sync.Mutex
	seen map[string]string
}

func (o *observations) record(abs, version string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]string{}
	}
	o.seen[abs] = version
}

// check is the policy for updating f (which exists).
func (o *observations) forget(abs string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.seen, abs)
}

func (o *observations) check(abs string, f workspacefs.File, tool string) error {
	o.mu.Lock()
	seen, ok := o.seen[abs]
	o.mu.Unlock()
	switch {
	case !ok:
		return lspseam.Errorf(lspseam.CodeFSNotObserved, "%s exists and this session has not read it: read it first (any part of it), then %s; nothing was written", f.Rel, tool)
	case seen != f.Version:
		return lspseam.Errorf(lspseam.CodeFSStale, "%s changed since this session last read or wrote it (now %s, then %s): read it again before you %s; nothing was written", f.Rel, f.Version, seen, tool)
	}
	return nil
}
