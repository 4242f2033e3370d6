package toolbox

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The workspace-edit applier (docs/design.md, "Edits"): every mutating
// refactor tool turns the server's WorkspaceEdit into new file texts
// through the core (planWorkspaceEdit, applyTextEdits), previews them as
// unified diffs bound to the files' content, and applies them only when
// approved — at once in the "auto" approval mode, or when the same call
// comes back with the preview's id in "preview" mode, the default. At
// apply time every file must still have the content the preview was made
// from, checked again under the files' cross-process locks, and a change
// the server computes (a rename, a file move, a code action's edit) must
// still be the change it makes now, asked again (change.recompute, recheck) — else
// LSP_CONFLICT with a fresh preview; the set is written all or nothing,
// across a crash too (workspacefs.Root.WriteSet). The servers are then told the new contents, and
// the answer carries the diagnostics delta.

// changeResult previews or applies a planned change, as the approval mode
// and the call's previewId say. Its what names the change for the text
// ("Rename `Describe` to `Summary`").
func (t *Toolbox) changeResult(ctx context.Context, call lspseam.CodeCall, ws string, r *workspacefs.Root, s lspseam.Session, ch change) (answer, error) {
	if len(ch.files) == 0 && ch.command == nil {
		return answer{text: ch.what + ": nothing to change.", fields: []field{{"applied", false}, {"files", []any{}}}, notice: "The server's edit changes nothing."}, nil
	}
	if t.approval != ApprovalAuto {
		a := t.preview(call, ch)
		switch {
		case ch.checked != nil:
			a.text += ch.checked.text
			a.fields = append(a.fields, ch.checked.fields...)
		case ch.command == nil: // a command's changes are known only as it runs
			a = t.withSpeculation(ctx, a, r, s, ch.files)
		}
		return a, nil
	}
	if ch.command != nil {
		return t.runCommand(ctx, r, s, ch)
	}
	return t.apply(ctx, ws, r, s, ch.what, ch.files)
}

// preview keeps ch as a preview of call and answers with it.
func (t *Toolbox) preview(call lspseam.CodeCall, ch change) answer {
	pv := newPreview(call, ch)
	t.previews.Put(pv.id, pv)
	return t.previewAnswer(call, pv)
}

// previewAnswer shows a preview: the diffs and how to apply them.
func (t *Toolbox) previewAnswer(call lspseam.CodeCall, pv *preview) answer {
	edits := 0
	var b strings.Builder
	var list []map[string]any
	for _, f := range pv.files {
		edits += f.edits
		b.WriteString(f.diff)
		if f.diff != "" && !strings.HasSuffix(f.diff, "\n") {
			b.WriteString("\n")
		}
		item := f.receipt()
		item["diff"] = f.diff
		list = append(list, item)
	}
	if list == nil {
		list = []map[string]any{}
	}
	head := "Preview (nothing is changed yet): " + pv.what + ": " + changeSize(pv.files) + ".\n"
	fields := []field{{"applied", false}, {"previewId", pv.id}, {"edits", edits}, {"files", list}}
	if c := pv.command; c != nil {
		head = "Preview (nothing is changed yet): " + pv.what + " runs the language server's command " + strconv.Quote(c.name) +
			", which makes its changes as it runs: they cannot be shown before (the answer of the run lists them, with the problems they introduce)"
		if len(pv.files) > 0 {
			head += "; first, " + changeSize(pv.files) + " below"
		}
		head += ".\n"
		fields = append(fields, field{"command", c.name})
	}
	if t.applyHint != nil {
		head += t.applyHint(call.Tool, pv.id) + "\n"
	} else {
		head += "To apply it, call " + call.Tool + " again with the same arguments and \"previewId\": \"" + pv.id + "\" (within " + strconv.Itoa(int(previewTTL/time.Minute)) + " minutes).\n"
	}
	return answer{text: head + b.String(), fields: fields}
}

// applyPreview applies a preview the call names, if it still matches the
// files; a stale one is LSP_CONFLICT, and the caller makes a fresh one.
func (t *Toolbox) applyPreview(ctx context.Context, call lspseam.CodeCall, ws string, r *workspacefs.Root, s lspseam.Session) (answer, bool, error) {
	// Only the call a preview belongs to takes it: another call's
	// arguments are refused and leave it valid for its own.
	key, another := callKey(call), false
	pv, ok := t.previews.Take(call.PreviewID, func(pv *preview) bool {
		another = pv.call != key
		return !another
	})
	if another {
		return answer{}, false, lspseam.Errorf(lspseam.CodeInvalidArgument, "previewId %q belongs to another call (it stays valid for that call); repeat that call's arguments exactly, or call without previewId for a new preview", call.PreviewID)
	}
	if !ok {
		return answer{}, false, lspseam.Errorf(lspseam.CodeInvalidArgument, "previewId %q is unknown or expired (previews last %d minutes and apply once, and a session keeps only its newest %d within %d MiB); call %s without previewId for a new preview", call.PreviewID, int(previewTTL/time.Minute), maxPreviews, maxPreviewBytes>>20, call.Tool)
	}
	for _, f := range pv.files {
		now, err := r.Read(f.rel)
		if err != nil {
			return answer{}, false, err
		}
		if !f.matches(now) {
			return answer{}, true, lspseam.Errorf(lspseam.CodeConflict, "%s changed since the preview (now %s, then %s); nothing was changed", f.rel, stateOf(now.Exists, now.Version), stateOf(!f.created, f.version))
		}
	}
	// Its files as they were do not make a server's change the same: it
	// is asked again (change.recompute, recheck).
	if pv.recompute != nil {
		if stale, err := t.recheck(ctx, pv, s, r); err != nil {
			return answer{}, stale, err
		}
	}
	if c := pv.command; c != nil {
		now, err := r.Read(c.fileRel)
		if err != nil {
			return answer{}, false, err
		}
		if !now.Exists || now.Version != c.fileVersion {
			return answer{}, true, lspseam.Errorf(lspseam.CodeConflict, "%s changed since the preview (now %s, then %s); nothing was changed", c.fileRel, stateOf(now.Exists, now.Version), c.fileVersion)
		}
		a, err := t.runCommand(ctx, r, s, pv.change)
		return a, false, err
	}
	a, err := t.apply(ctx, ws, r, s, pv.what, pv.files)
	if err == nil {
		// What the plan's search left out, as the preview said: the
		// applied change leaves it as the preview showed.
		a.incomplete = joinNotices(a.incomplete, pv.unsearched)
	}
	var cm *changedMeanwhile
	return a, errors.As(err, &cm), err
}

// recheck asks the server again for a preview's change, once its files
// are as previewed: stale (LSP_CONFLICT, nothing written) when the change
// it makes now is another; an error of the request is the answer as it
// is (nothing written either).
func (t *Toolbox) recheck(ctx context.Context, pv *preview, s lspseam.Session, r *workspacefs.Root) (stale bool, err error) {
	now, err := pv.recompute.files(ctx, s, r)
	if err != nil {
		return false, err
	}
	if changeDigest(now) == pv.digest {
		return false, nil
	}
	why := changeDifference(pv.files, now)
	if why == "" {
		why = "its edits differ"
	}
	return true, lspseam.Errorf(lspseam.CodeConflict, "%s, asked again, no longer makes the previewed change (%s: the workspace changed since the preview, e.g. another agent added a use); nothing was changed", pv.recompute.asks, why)
}
