package toolbox

import (
	"context"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The frame of every mutating refactor tool: plan in a session, then
// preview or apply through the applier.

// refactor runs a mutating refactor tool whose change is files to write
// (see refactorChange).
func (t *Toolbox) refactor(ctx context.Context, call lspseam.CodeCall, ws string, plan func(context.Context, lspseam.Session, *workspacefs.Root) (string, []plannedFile, error)) (answer, error) {
	return t.refactorChange(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (change, error) {
		what, files, err := plan(ctx, s, r)
		return change{what: what, files: files}, err
	})
}

// refactorChange runs a mutating refactor tool: one change at a time; in
// one session on the file's server, plan the change (the tool's part),
// then preview or apply it — or apply the preview the call names, if the
// files still match it (else LSP_CONFLICT, with a fresh preview in the
// answer).
func (t *Toolbox) refactorChange(ctx context.Context, call lspseam.CodeCall, ws string, plan func(context.Context, lspseam.Session, *workspacefs.Root) (change, error)) (answer, error) {
	t.mutating.Lock()
	defer t.mutating.Unlock()
	r, err := t.openFSRoot(ws)
	if err != nil {
		return answer{}, err
	}
	defer r.Close()
	var a answer
	err = t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		if call.PreviewID != "" {
			applied, stale, err := t.applyPreview(ctx, call, ws, r, s)
			if !stale {
				a = applied
				return err
			}
			// Stale: a fresh preview goes with the conflict.
			ch, perr := plan(ctx, s, r)
			if perr != nil {
				return err
			}
			pv := newPreview(call, ch)
			t.previews.Put(pv.id, pv)
			return &conflictWithPreview{err: err, preview: t.previewAnswer(call, pv)}
		}
		ch, err := plan(ctx, s, r)
		if err != nil {
			return err
		}
		// What the plan's own search may have missed, before the
		// dependents' searches (impact.go) add theirs, which the answer's
		// other files' part says: a rename of a name only its file can
		// use is complete even when the declarations around its uses are
		// exported (moduleprivate.go).
		planned := s.Notice()
		a, err = t.changeResult(ctx, call, ws, r, s, ch)
		if err == nil && ch.unsearched != "" {
			a.incomplete = joinNotices(a.incomplete, ch.unsearched)
		}
		// A rename edits the uses the server found: when its search
		// covers part of the workspace (projectscope.go), uses elsewhere
		// are left as they were, and the answer says so.
		if err == nil && call.Tool == core.ToolCodeRename {
			if n := planned; n != "" {
				why := "the rename may have missed uses the server did not search"
				if strings.Contains(a.text, n) {
					why += " (why: above)" // the other files' delta said it
				} else {
					why += ": " + n
				}
				a.incomplete = joinNotices(a.incomplete, why)
			}
			// Nor does its search reach the uses through a symbolic
			// link to the declaration's file (linkedpaths.go).
			if rel, rerr := r.Rel(call.Path); rerr == nil {
				if n := linkedUsesNotice(ctx, linksOf(s), r, rel); n != "" {
					a.incomplete = joinNotices(a.incomplete, "the rename may have missed uses: "+n)
				}
			}
		}
		return err
	})
	return a, err
}
