package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"strconv"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// Callers inside a callback that is no declaration.
//
// typescript-language-server names the caller of a call inside
// `const Button = React.forwardRef((props, ref) => …)` by its file:
// `← button.tsx (module) …:1:1`, where code_navigate names the same place
// `(in Button.React.forwardRef() callback)` from the file's outline
// (findings s28 F12). So an incoming call from a script's module item is
// split by the innermost function of the outline holding each of its
// sites: a caller per function, named by its qualified name, with those
// sites; sites in no function (calls run when the module loads) stay the
// module's. The server has no item for such a callback, so it is not
// expanded (the answer says why).

// enclosingCallerKey marks a caller item lspseam made from the outline.
const enclosingCallerKey = "lspseamEnclosingCaller"

// enclosingCallerNotExpanded is why such a caller is not expanded.
const enclosingCallerNotExpanded = "a callback the server's call hierarchy has no item for (it names its caller by the file), named from the file's outline: the callers of what holds it are that symbol's references (code_navigate kind references)"

// isEnclosingCaller says whether item is a caller lspseam made from an
// outline.
func isEnclosingCaller(item json.RawMessage) bool {
	var it struct {
		Data map[string]any `json:"data"`
	}
	return json.Unmarshal(item, &it) == nil && it.Data[enclosingCallerKey] == true
}

// Symbol kinds (LSP) of the functions a site can be in.
const (
	lspKindFile        = 1
	lspKindModule      = 2
	lspKindMethod      = 6
	lspKindConstructor = 9
	lspKindFunction    = 12
)

// innermostFunction is the innermost entry of outline, a function,
// method or constructor, whose range holds pos; ok false when none.
func innermostFunction(outline []lspseam.OutlineEntry, pos core.Position) (lspseam.OutlineEntry, bool) {
	var best lspseam.OutlineEntry
	found := false
	for _, e := range outline {
		if e.Kind != lspKindFunction && e.Kind != lspKindMethod && e.Kind != lspKindConstructor || !rangeHolds(e.Range, pos) {
			continue
		}
		if !found || rangeHolds(best.Range, e.Range.Start) && rangeHolds(best.Range, e.Range.End) {
			best, found = e, true
		}
	}
	return best, found
}

// splitModuleCallers is raw (an incomingCalls result) with each call from
// a script's module item split by the functions of its file's outline
// holding its sites; raw itself when none is split.
func (t *Toolbox) splitModuleCallers(ctx context.Context, s lspseam.Session, raw json.RawMessage) json.RawMessage {
	var calls []map[string]json.RawMessage
	if json.Unmarshal(raw, &calls) != nil {
		return raw
	}
	changed := false
	var out []any
	for _, c := range calls {
		var from struct {
			Name string `json:"name"`
			Kind int    `json:"kind"`
			URI  string `json:"uri"`
		}
		var ranges []core.Range
		if json.Unmarshal(c["from"], &from) != nil || json.Unmarshal(c["fromRanges"], &ranges) != nil ||
			from.Kind != lspKindFile && from.Kind != lspKindModule || !jsExts[path.Ext(from.URI)] || from.Name != path.Base(from.URI) {
			out = append(out, c)
			continue
		}
		outline := t.outlineOf(ctx, s, from.URI)
		var order []string
		groups := map[string][]core.Range{}
		entries := map[string]lspseam.OutlineEntry{}
		var module []core.Range
		for _, r := range ranges {
			e, ok := innermostFunction(outline, r.Start)
			if !ok {
				module = append(module, r)
				continue
			}
			key := e.Container + "\x00" + e.Name + "\x00" + strconv.Itoa(int(e.SelectionRange.Start.Line))
			if groups[key] == nil {
				order = append(order, key)
				entries[key] = e
			}
			groups[key] = append(groups[key], r)
		}
		if len(order) == 0 {
			out = append(out, c)
			continue
		}
		changed = true
		if len(module) > 0 {
			c["fromRanges"], _ = json.Marshal(module)
			out = append(out, c)
		}
		for _, key := range order {
			e := entries[key]
			name := e.Name
			if e.Container != "" {
				name = e.Container + "." + e.Name
			}
			out = append(out, map[string]any{
				"from": map[string]any{
					"name": name, "kind": e.Kind, "uri": from.URI, "range": e.Range, "selectionRange": e.SelectionRange,
					"data": map[string]any{enclosingCallerKey: true},
				},
				"fromRanges": groups[key],
			})
		}
	}
	if !changed {
		return raw
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	return b
}

// outlineOf is the outline of the file at uri, from the cache or the
// server; nil when it cannot be had.
func (t *Toolbox) outlineOf(ctx context.Context, s lspseam.Session, uri string) []lspseam.OutlineEntry {
	p, ok := workspacefs.HostPaths.URIPath(uri)
	if !ok || !s.Methods()["textDocument/documentSymbol"] {
		return nil
	}
	src, err := s.Read(p)
	if err != nil {
		return nil
	}
	if o, ok := t.outlines.getOutline(t.outlines.key(s.Server(), src.URI, src.Text)); ok {
		return o
	}
	opened, err := s.Open(ctx, p)
	if err != nil {
		return nil
	}
	o, _ := t.fileOutline(ctx, s, opened)
	return o
}
