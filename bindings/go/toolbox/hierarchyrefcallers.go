package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"sort"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// Callers of a target the server has no call hierarchy item for.
//
// typescript-language-server prepares no item for `export const {
// useUser } = configureAuth(…)`, a hook a tester's app calls in 10
// places (findings s28 F6b), and the answer was a wrong guess. Its
// references list the calls, so a callers answer of a script's target
// with no item is built from them: the root is an item lspseam makes at
// the target, and its callers are, per call, the innermost symbol of the
// file's outline holding it that the server prepares an item for (asked
// outward from the innermost, at most maxCallerTries symbols), so they
// expand as any caller; a call in none is the file's. The answer says
// how the first level was found.

// referencesRootKey marks the root item lspseam made at the target.
const referencesRootKey = "lspseamReferencesRoot"

// maxCallerTries bounds the symbols around one call whose item is asked.
const maxCallerTries = 3

// maxReferenceCallers bounds the calls whose callers are looked for.
const maxReferenceCallers = 200

func isReferencesRoot(item json.RawMessage) bool {
	var it struct {
		Data map[string]any `json:"data"`
	}
	return json.Unmarshal(item, &it) == nil && it.Data[referencesRootKey] == true
}

// referencesRoot is a prepare result of one item at rt, whose callers are
// the calls among its references; ok false when they list none.
func (t *Toolbox) referencesRoot(ctx context.Context, s lspseam.Session, ws string, refs *targetRefs) (json.RawMessage, []core.Location, bool) {
	rt := refs.rt
	_, _, callsAt, ok := t.scriptUses(ctx, s, ws, refs, nil)
	if !ok || len(callsAt) == 0 {
		return nil, nil, false
	}
	at := core.Range{Start: rt.Position, End: core.Position{Line: rt.Position.Line, Character: rt.Position.Character + uint32(len(rt.Identifier))}}
	root, err := json.Marshal([]any{map[string]any{
		"name": rt.Identifier, "kind": 13, "uri": refs.uri, "range": at, "selectionRange": at,
		"data": map[string]any{referencesRootKey: true},
	}})
	if err != nil {
		return nil, nil, false
	}
	if len(callsAt) > maxReferenceCallers {
		callsAt = callsAt[:maxReferenceCallers]
	}
	return root, callsAt, true
}

// enclosingEntries is the entries of outline whose range holds pos,
// innermost first.
func enclosingEntries(outline []lspseam.OutlineEntry, pos core.Position) []lspseam.OutlineEntry {
	var out []lspseam.OutlineEntry
	for _, e := range outline {
		if rangeHolds(e.Range, pos) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return rangeHolds(out[j].Range, out[i].Range.Start) && rangeHolds(out[j].Range, out[i].Range.End) && out[i].Range != out[j].Range
	})
	return out
}

// referenceCallers is an incomingCalls result for the calls at callsAt.
func (t *Toolbox) referenceCallers(ctx context.Context, s lspseam.Session, callsAt []core.Location) json.RawMessage {
	type caller struct {
		item  json.RawMessage
		sites []core.Range
	}
	var order []string
	callers := map[string]*caller{}
	prepared := map[string]json.RawMessage{} // by uri and symbol position: nil when the server has none
	for _, l := range callsAt {
		var item json.RawMessage
		key := l.URI
		tries := 0
		for _, e := range enclosingEntries(t.outlineOf(ctx, s, l.URI), l.Range.Start) {
			if tries == maxCallerTries {
				break
			}
			k := l.URI + "#" + rangeKey(e.SelectionRange)
			it, asked := prepared[k]
			if !asked {
				tries++
				if raw, err := t.request(ctx, s, "textDocument/prepareCallHierarchy", l.URI, e.SelectionRange.Start); err == nil {
					var items []json.RawMessage
					if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
						it = items[0]
					}
				}
				prepared[k] = it
			}
			if it != nil {
				item, key = it, k
				break
			}
		}
		if item == nil {
			zero := core.Range{}
			item, _ = json.Marshal(map[string]any{"name": path.Base(l.URI), "kind": lspKindModule, "uri": l.URI, "range": zero, "selectionRange": zero,
				"data": map[string]any{enclosingCallerKey: true}})
		}
		c := callers[key]
		if c == nil {
			c = &caller{item: item}
			callers[key] = c
			order = append(order, key)
		}
		c.sites = append(c.sites, l.Range)
	}
	var out []any
	for _, k := range order {
		out = append(out, map[string]any{"from": callers[k].item, "fromRanges": callers[k].sites})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage("[]")
	}
	return b
}

func rangeKey(r core.Range) string {
	b, _ := json.Marshal(r)
	return string(b)
}
