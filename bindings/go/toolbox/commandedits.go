package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The edits a server command sends (workspace/applyEdit) while it runs,
// and the reports on their files before each is written. Which files a
// command changes is known only once the server sends its edit, so the
// reports before the change are taken then, as the applier takes them
// before any change: the server still holds the old texts, since nothing
// is written until the edit is answered. A "Move to a new file" of
// typescript-language-server rewrote 58 importers; checked only after
// the write, none had a report to compare and an unused import the move
// left in one of them was not shown (the answer said "0 introduced").

// commandEdits is what the edits of one command run did: the files
// written, in order, the edits refused, and the reports on the files
// before they were first written.
type commandEdits struct {
	// mu holds one edit at a time, from its plan to its write: a file's
	// report before the command is taken before any edit writes it.
	mu      sync.Mutex
	applied []plannedFile
	refused []string
	before  baseline
	// started is when the command was sent: an empty file last changed
	// since did not exist before the command (typescript-language-server
	// creates the new file of a move empty on disk, then sends the edit
	// that fills it).
	started time.Time
}

// maxCommandBeforeWait bounds the wait for the reports before an edit a
// command sends: the server waits for the edit's answer meanwhile, and
// one that answers nothing else until then must not hold the call.
const maxCommandBeforeWait = 20 * time.Second

// errNoReportDuringCommand: the server gave no report on a file while its
// command waited for the edit's answer.
var errNoReportDuringCommand = errors.New("the server gave no report on it while its command waited for the edit to be applied")

func newCommandEdits(before baseline) *commandEdits {
	if before.reports == nil {
		before.reports = map[string]lspseam.DiagnosticReport{}
	}
	return &commandEdits{before: before, started: time.Now()}
}

// has: rel's state before the change is known (a report, or why none).
func (e *commandEdits) has(rel string) bool {
	if _, ok := e.before.reports[rel]; ok {
		return true
	}
	_, ok := e.before.unreported[rel]
	return ok
}

// apply plans an edit the server sent, takes the reports on its files not
// seen before, and writes it; the error is the server's answer.
func (e *commandEdits) apply(ctx context.Context, t *Toolbox, r *workspacefs.Root, s lspseam.Session, versions map[string]int64, edit json.RawMessage) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	files, err := t.workspaceEditFiles(ctx, r, s.Server(), "workspace/applyEdit", edit, versions)
	if err == nil {
		err = e.takeBefore(ctx, r, s, files)
	}
	if err == nil {
		err = writeAll(ctx, r, files)
	}
	if err != nil {
		e.refused = append(e.refused, err.Error())
		return err
	}
	e.applied = append(e.applied, files...)
	return nil
}

// takeBefore records the reports on files before the edit is written, for
// the files whose state before the command is not known yet. A file the
// edit creates, or that the command created empty, had nothing before
// it. err only when the call itself ended.
func (e *commandEdits) takeBefore(ctx context.Context, r *workspacefs.Root, s lspseam.Session, files []plannedFile) error {
	var ask []plannedFile
	for _, f := range files {
		switch {
		case f.created || e.has(f.rel):
		case f.before == "" && e.createdDuringRun(r, f.rel):
			e.before.reports[f.rel] = lspseam.DiagnosticReport{Diagnostics: json.RawMessage("[]"), Fresh: true}
		default:
			ask = append(ask, f)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	wait := maxCommandBeforeWait
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d)/2) // the rest: the check after, and the answer
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	got, err := diagnosticsBefore(wctx, s, ask)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for _, f := range ask {
		switch rep, ok := got.reports[f.rel]; {
		case err != nil:
			e.before.unreport(f.rel, errNoReportDuringCommand)
		case ok:
			e.before.reports[f.rel] = rep
		default:
			e.before.unreport(f.rel, got.unreported[f.rel])
		}
	}
	return nil
}

// createdDuringRun: rel was last changed after the command was sent (less
// a second, for file systems that keep coarse times).
func (e *commandEdits) createdDuringRun(r *workspacefs.Root, rel string) bool {
	info, err := r.Lstat(rel)
	return err == nil && info.Size() == 0 && !info.ModTime().Before(e.started.Add(-time.Second))
}
