package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Pages of a cut answer. An answer cut at its limit — code_navigate's
// locations, a code_symbols search, a code_diagnostics snapshot,
// code_inlay_hints' hints, a code_hierarchy graph — hands out a cursor
// naming the rest: the question (the call, without its cursor), where the
// next page starts, and what the answer was made of: the key of the whole
// ordered result list (the server's locations, the search's ranked
// matches, the problems, the hints; a graph's nodes through the page,
// which the next page's priorKey must match) and a digest of the target's
// file (code_navigate). The next page asks the server again and must find
// the same: a file edited in between (the set or the target's text
// changed) makes the cursor a conflict, answered with the changed answer's
// first page, so pages of two different answers are never stitched
// together. Each cursor is taken once (its page hands out the next), lives
// pageTTL, and at most maxPages are held.

// errAnswerChanged: the server's answer is no longer the one a cursor
// continues.
var errAnswerChanged = errors.New("the answer changed")

// pager answers one page of a tool's answer, from the offset-th result;
// from, when set, is the cursor's state, and an answer that is not the one
// it continues is errAnswerChanged.
type pager func(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error)

// paged answers a call of a paged tool: its first page, or, for a call
// with a cursor, the next page of the answer the cursor names (nextPage).
func (t *Toolbox) paged(ctx context.Context, call lspseam.CodeCall, ws string, page pager) (answer, error) {
	if call.Cursor != "" {
		return t.nextPage(ctx, call, ws, page)
	}
	return page(ctx, call, ws, 0, nil)
}

// nextPage answers a call with a cursor: the next page of the answer it
// names, or LSP_CONFLICT with the changed answer's first page.
func (t *Toolbox) nextPage(ctx context.Context, call lspseam.CodeCall, ws string, page pager) (answer, error) {
	cursor := call.Cursor
	ps, ok := t.pages.store.Take(cursor, func(*pageState) bool { return true })
	if !ok {
		return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "cursor %s is unknown or expired (a cursor lasts %d minutes and gives one page, whose answer has the next cursor); ask the question again without it",
			cursor, int(pageTTL/time.Minute))
	}
	if ps.spent {
		t.pages.store.Put(cursor, ps)
		return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "cursor %s was used already: a cursor gives one page, and that page's answer has the next cursor; continue with that one, or ask the question again without a cursor", cursor)
	}
	if ps.call.Tool != call.Tool {
		t.pages.store.Put(cursor, ps) // still good for its own tool
		return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "cursor %s is a cursor of %s, not of %s; call %s with it", cursor, ps.call.Tool, call.Tool, ps.call.Tool)
	}
	if call.Target != nil || call.Path != "" || call.Query != "" {
		// The same call again, with the cursor: it must be the question
		// the cursor continues.
		asked := call
		asked.Cursor = ""
		if callKey(asked) != callKey(ps.call) {
			t.pages.store.Put(cursor, ps) // still good for its own question
			return answer{}, lspseam.Errorf(lspseam.CodeInvalidArgument, "cursor %s continues another question (other arguments than its own); give the cursor alone, or ask the new question without it", cursor)
		}
	}
	// From here on the cursor is spent: a second use says so.
	t.pages.store.Put(cursor, &pageState{spent: true})
	a, err := page(ctx, ps.call, ws, ps.offset, ps)
	if !errors.Is(err, errAnswerChanged) {
		return a, err
	}
	first, err := page(ctx, ps.call, ws, 0, nil)
	if err != nil {
		return answer{}, err
	}
	return answer{}, &conflictWithPreview{key: "page", preview: first,
		err: lspseam.Errorf(lspseam.CodeConflict, "the answer that cursor %s continues has changed (a file was edited since), so its pages would not fit together; here is the new answer's first page, whose own cursor continues it", cursor)}
}

// withCursor adds, to a page of shown results from offset that more
// results follow, a cursor for the next and the line that tells a model
// how to use it. A page that showed nothing gets none: its cursor would
// name the same page again.
func (t *Toolbox) withCursor(a *answer, call lspseam.CodeCall, offset, shown, total int, resultKey, targetText string) {
	if shown == 0 || offset+shown >= total {
		return
	}
	id := t.pages.open(call, offset+shown, resultKey, targetText)
	a.fields = append(a.fields, field{"cursor", id})
	if t.pageHint != nil {
		if hint := t.pageHint(call.Tool, id); hint != "" {
			a.text += "\n" + hint
		}
		return
	}
	a.text += "\nNext page: call " + call.Tool + " with {\"cursor\":\"" + id + "\"} (within " + strconv.Itoa(int(pageTTL/time.Minute)) + " minutes)."
}

// pagedCoreAnswer is the answer of a page the core answered — a search's
// symbols, a diagnostics snapshot's problems, a file's inlay hints —
// checked, by its items, totalFound, offset and resultKey, against the
// cursor it continues, with the next cursor when items follow it.
func (t *Toolbox) pagedCoreAnswer(out json.RawMessage, call lspseam.CodeCall, from *pageState) (answer, error) {
	a, err := coreAnswer(out)
	if err != nil {
		return a, err
	}
	var page struct {
		Mode       string            `json:"mode"`
		Symbols    []json.RawMessage `json:"symbols"`
		Problems   []json.RawMessage `json:"problems"`
		Hints      []json.RawMessage `json:"hints"`
		TotalFound int               `json:"totalFound"`
		Offset     int               `json:"offset"`
		ResultKey  string            `json:"resultKey"`
		Rendered   struct {
			Shown int `json:"shown"`
		} `json:"rendered"`
	}
	if err := json.Unmarshal(out, &page); err != nil {
		return a, err
	}
	if from != nil && !from.same(page.ResultKey, "") {
		return a, errAnswerChanged
	}
	// An answer has symbols (a search; an outline, a tree whose symbols
	// the rendering counts), problems (diagnostics) or hints (inlay hints).
	shown := len(page.Symbols) + len(page.Problems) + len(page.Hints)
	if page.Mode == "document" {
		shown = page.Rendered.Shown
	}
	t.withCursor(&a, call, page.Offset, shown, page.TotalFound, page.ResultKey, "")
	return a, nil
}
