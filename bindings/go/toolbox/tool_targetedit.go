package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_insert, code_replace and code_replace_batch: text edits at targets
// found by name (no server request beyond the outline), through the
// applier like every change.

func (t *Toolbox) insertOrReplace(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.refactor(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		where, verb := call.Position, "insert "+call.Position+" "
		if call.Tool == "code_replace" {
			where, verb = "replace", "replace "
		}
		uri, edit, rt, err := t.targetEdit(ctx, s, *call.Target, where, *call.Text, call.EndLine)
		if err != nil {
			return "", nil, err
		}
		we, _ := json.Marshal(map[string]any{"changes": map[string][]json.RawMessage{uri: {edit}}})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), call.Tool, we, nil)
		// A replacement can undo what it replaces; an insertion adds lines
		// and undoes nothing. With a previewId only a fresh preview is
		// planned (the conflict says what changed).
		if err == nil && call.Tool == "code_replace" && call.PreviewID == "" {
			err = t.observed.staleAmong(r, files, call.Tool)
		}
		return verb + editLabel(rt, call.EndLine, call.Tool == "code_replace"), files, err
	})
}

func (t *Toolbox) replaceBatch(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	// One server resolves every target: a batch is one language.
	server := t.service.ProviderOf(ctx, call.Path, ws)
	for i, e := range call.Edits {
		if p := t.service.ProviderOf(ctx, e.Target.Path, ws); p != server {
			return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "edits[%d] is in %s, which another language server owns than edits[0]'s %s; batch the edits of one language at a time", i, e.Target.Path, call.Path)
		}
	}
	return t.refactor(ctx, call, ws, func(ctx context.Context, s lspseam.Session, r *workspacefs.Root) (string, []plannedFile, error) {
		changes := map[string][]json.RawMessage{}
		var order []string
		var labels []string
		var placed []batchEdit
		for i, e := range call.Edits {
			uri, edit, rt, err := t.targetEdit(ctx, s, e.Target, "replace", e.Text, e.EndLine)
			if err != nil {
				var lerr *lspseam.Error
				if errors.As(err, &lerr) { // the candidates stay with it
					named := *lerr
					named.Message = "edits[" + strconv.Itoa(i) + "]: " + lerr.Message
					return "", nil, &named
				}
				return "", nil, err
			}
			if _, ok := changes[uri]; !ok {
				order = append(order, uri)
			}
			changes[uri] = append(changes[uri], edit)
			labels = append(labels, editLabel(rt, e.EndLine, true))
			b := batchEdit{index: i, uri: uri, rt: rt}
			json.Unmarshal(edit, &b.edit)
			if err := b.overlapping(placed); err != nil {
				return "", nil, err
			}
			placed = append(placed, b)
		}
		we, _ := json.Marshal(map[string]any{"changes": changes})
		files, err := t.workspaceEditFiles(ctx, r, s.Server(), call.Tool, we, nil)
		var lerr *lspseam.Error
		if errors.As(err, &lerr) && lerr.Code == lspseam.CodeMalformedResponse && lerr.Reason == core.ReasonEditsOverlap {
			// overlapping found none, so the applier's rule is wider: the
			// edits are still the caller's, not a server's.
			return "", nil, lspseam.Errorf(lspseam.CodeInvalidArgument, "two edits of the batch overlap; make the targets disjoint, or merge them into one edit (%s)", lerr.Message)
		}
		if err == nil && call.PreviewID == "" { // with one, only a fresh preview is planned (the conflict says what changed)
			err = t.observed.staleAmong(r, files, call.Tool)
		}
		return "replace " + strconv.Itoa(len(call.Edits)) + " targets (" + strings.Join(labels, "; ") + ")", files, err
	})
}

// batchEdit is one resolved edit of a code_replace_batch, as the caller
// numbered it.
type batchEdit struct {
	index int
	uri   string
	rt    lspseam.ResolvedTarget
	edit  struct{ Range lspseam.Range }
}

// overlapping refuses b when it overlaps an edit placed before it in the
// same file, naming both as the caller wrote them (edits[i], the symbol,
// one-based lines, the workspace-relative path): the applier's own
// refusal spoke of a server's malformed edit, in zero-based positions.
func (b batchEdit) overlapping(placed []batchEdit) error {
	for _, p := range placed {
		if p.uri != b.uri || !rangesOverlap(p.edit.Range, b.edit.Range) {
			continue
		}
		return lspseam.Errorf(lspseam.CodeInvalidArgument, "edits[%d] (%s) and edits[%d] (%s) overlap in %s: each edit of a batch must replace its own lines; make the targets disjoint, or merge the two into one edit",
			p.index, p.describe(), b.index, b.describe(), b.rt.Path)
	}
	return nil
}

// describe names a batch edit's target and the lines its edit replaces.
func (b batchEdit) describe() string {
	r := b.edit.Range
	first, last := r.Start.Line+1, r.End.Line+1
	if r.End.Character == 0 && r.End.Line > r.Start.Line {
		last-- // whole lines: the range ends at the next line's start
	}
	lines := "line " + strconv.FormatUint(uint64(first), 10)
	if last > first {
		lines = "lines " + strconv.FormatUint(uint64(first), 10) + "–" + strconv.FormatUint(uint64(last), 10)
	}
	if b.rt.Symbol != "" {
		return "`" + b.rt.Symbol + "`, " + lines
	}
	return lines
}

// rangesOverlap reports whether two replaced ranges share text (or are
// the same point), the rule of the core's applyTextEdits: an insertion at
// a range's start or end does not overlap it.
func rangesOverlap(a, b lspseam.Range) bool {
	before := func(x, y lspseam.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	if a.Start == b.Start && a.End == b.End {
		return true
	}
	return before(a.Start, b.End) && before(b.Start, a.End)
}
