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
	// read: the paths whose content this session has seen — through the
	// fs tools (read, write, edit) or the lines a code_navigate answer
	// showed (observeShown) — not only through its own refactors'
	// applies, which show no text (staleAmong).
	read map[string]bool
}

// record records version as this session's observation of abs, by its
// own change (a refactor's apply).
func (o *observations) record(abs, version string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]string{}
	}
	o.seen[abs] = version
}

// recordRead records version as this session's observation of abs
// through the fs tools or an answer showing its lines: it has seen the
// content.
func (o *observations) recordRead(abs, version string) {
	o.record(abs, version)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.read == nil {
		o.read = map[string]bool{}
	}
	o.read[abs] = true
}

// forget drops what this session observed of abs.
func (o *observations) forget(abs string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.seen, abs)
}

// check is the policy for updating f (which exists).
func (o *observations) check(abs string, f workspacefs.File, tool string) error {
	o.mu.Lock()
	seen, ok := o.seen[abs]
	o.mu.Unlock()
	switch {
	case !ok:
		return lspseam.Errorf(lspseam.CodeFSNotObserved, "%s exists and this session has not read it: read it first (any part of it), then %s; nothing was written", f.Rel, tool)
	case seen != f.Version:
		return changedSinceObserved(f.Rel, f.Version, seen, tool, "nothing was written")
	}
	return nil
}

// absentVersion is the version recorded for a file this session saw
// absent after it had seen it present (checkAbsent).
const absentVersion = "absent"

// checkAbsent is the policy for creating rel (absolute abs), which does
// not exist: a file this session read or wrote and that is gone now was
// deleted or moved by someone else since, and writing it would undo that
// from a stale read (a tester's session recreated a file another agent
// had moved, with its old content: "Created report.go"). The first such
// write or edit is refused (FS_STALE) and the absence is recorded, so a
// write that means to create it again goes through.
func (o *observations) checkAbsent(abs, rel, tool string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	seen, ok := o.seen[abs]
	if !ok || seen == absentVersion {
		return nil
	}
	o.seen[abs] = absentVersion
	return lspseam.Errorf(lspseam.CodeFSStale, "%s was deleted or moved since this session last read or wrote it (another agent or tool may have done it on purpose): check whether it should exist before you %s; to create it again anyway, call write again; nothing was written", rel, tool)
}

// staleAmong is the policy for a change whose text replaces what the model
// saw (code_replace, code_replace_batch): a file of
// it that this session read or wrote at another version than the one the
// change is planned on changed since, and the model's text may undo that
// change. A tester's session replaced a function from its earlier read
// after another agent had added a guard to it, and the guard was gone
// with "Applied … 0 introduced". A file this session was never shown —
// only changed by its own refactors, whose applies show no text — is not
// refused: the model's text came from elsewhere (an outline, a hover).
// The lines a code_navigate answer showed count as a read (observeShown):
// a replacement written from a body it showed undid another agent's
// change just as one written from a read did, and a session without the
// fs toolset can ask for that body again.
func (o *observations) staleAmong(r *workspacefs.Root, files []plannedFile, tool string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, f := range files {
		abs := r.Abs(f.rel)
		seen, ok := o.seen[abs]
		if !ok || !o.read[abs] || f.version == "" || seen == f.version {
			continue
		}
		return changedSinceObserved(f.rel, f.version, seen, tool, "text written from the earlier version may undo that change; nothing was changed")
	}
	return nil
}

// changedSinceObserved is the one FS_STALE answer of the policy's checks
// (check, staleAmong): rel is at version now, this session observed then;
// outcome says what the refused call did and did not do.
func changedSinceObserved(rel, now, then, tool, outcome string) error {
	return lspseam.Errorf(lspseam.CodeFSStale, "%s changed since this session last read or wrote it (now %s, then %s): read it again (or see its code again with code_navigate includeBody) before you %s; %s", rel, now, then, tool, outcome)
}
