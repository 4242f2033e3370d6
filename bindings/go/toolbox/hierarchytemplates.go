package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The callers a component's template holds.
//
// typescript-language-server with the Vue plugin answers incoming calls
// from the script parts of .vue files only: a tester's callers of
// checkPermission, called four times in a template (`v-if=
// "checkPermission(['admin'])"`), were "(no callers found)", and an
// agent reads that as dead code or a safe signature change; the server's
// references list those four calls (findings s27 #4). So a callers
// answer asks the references of its target too, and each reference in a
// component file's template (outside its <script> and <style> blocks)
// that is a call (the name followed by `(`) and is not among the roots'
// incoming calls is added to them: one caller per file, the template
// itself (it is no function the server knows, so it is not expanded
// further; at a greater depth the answer says why), with those calls as
// its sites. Uses in scripts stay the server's to place, except in the
// component files the server does not read at all (.svelte, for
// typescript-language-server: componentsearch.go), whose script calls
// its call hierarchy cannot have: those are added the same way, the
// caller then being the component.

// templateCallerKey marks a caller item lspseam made for a template (its
// data), so an expansion of it is not sent to the server.
const templateCallerKey = "lspseamTemplateCaller"

// templateCallerNotExpanded is why such a caller is not expanded.
const templateCallerNotExpanded = "calls in a component file (its template, or the script of a file the server does not read), found by the server's references: the component is no function the server's call hierarchy can expand; its users are the files that render it (code_navigate kind references at its import)"

// componentTemplateExts are the component files whose markup is outside
// their <script> blocks.
var componentTemplateExts = map[string]bool{".vue": true, ".svelte": true, ".astro": true}

// isTemplateCaller says whether item is a caller lspseam made for a
// template.
func isTemplateCaller(item json.RawMessage) bool {
	var it struct {
		Data map[string]any `json:"data"`
	}
	return json.Unmarshal(item, &it) == nil && it.Data[templateCallerKey] == true
}

// addTemplateCallers adds to the first round's expansions (the roots'
// incoming calls, asked by pending) the callers in component templates
// that the server's references of rt (in the file at uri) find and its
// call hierarchy does not. Nothing is added when the references cannot be
// asked. It returns the sites the roots' incoming calls cover (and the
// roots' own), which the uses left out (hierarchyuses.go) are not.
func (t *Toolbox) addTemplateCallers(ctx context.Context, s lspseam.Session, refs *targetRefs, pending []hierarchyPending, expansions map[string]map[string]any) (covered []core.Location) {
	rt, uri := refs.rt, refs.uri
	if rt.Identifier == "" || !s.Methods()["textDocument/references"] {
		return nil
	}
	root := ""
	for _, p := range pending {
		if p.Method != "callHierarchy/incomingCalls" {
			continue
		}
		var item struct {
			URI            string     `json:"uri"`
			SelectionRange core.Range `json:"selectionRange"`
		}
		if json.Unmarshal(p.Item, &item) == nil {
			covered = append(covered, core.Location{URI: item.URI, Range: item.SelectionRange})
			if root == "" || item.URI == uri && rangeHolds(item.SelectionRange, rt.Position) {
				root = p.ID
			}
		}
		raw, _ := expansions[p.ID]["result"].(json.RawMessage)
		var calls []struct {
			From struct {
				URI string `json:"uri"`
			} `json:"from"`
			FromRanges []core.Range `json:"fromRanges"`
		}
		if json.Unmarshal(raw, &calls) != nil {
			continue
		}
		for _, c := range calls {
			for _, r := range c.FromRanges {
				covered = append(covered, core.Location{URI: c.From.URI, Range: r})
			}
		}
	}
	result, ok := expansions[root]["result"].(json.RawMessage)
	if !ok {
		return covered
	}
	raw, err := refs.get(ctx)
	if err != nil {
		return covered
	}
	// The component files the server does not read, searched by theirs
	// (componentsearch.go): their calls become callers below, so the
	// first round's search of incoming calls covers them too.
	var searched []string
	t.eachComponentSearch(ctx, s, uri, rt.Position, func(gap lspseam.ComponentGap, locs []referenceLocation, instead string) (string, bool) {
		merged, err := mergeLocations(raw, locs)
		if err != nil {
			return "", false
		}
		raw = merged
		searched = append(searched, gap.Ext)
		return instead, true
	})
	defer func() {
		if g, ok := s.(lspseam.ComponentGapper); ok {
			for _, ext := range searched {
				g.CoverComponentGap(ext, "")
			}
		}
	}()
	found, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return covered
	}
	var order []string
	sites := map[string][]core.Range{}
	scriptCalls := map[string]bool{} // a file with calls in its script too
	texts := map[string]string{}
	for _, l := range found.Locations {
		if !componentTemplateExts[path.Ext(l.URI)] || locationCovered(covered, l) {
			continue
		}
		text, read := texts[l.URI]
		if !read {
			p, ok := workspacefs.HostPaths.URIPath(l.URI)
			if !ok {
				continue
			}
			src, err := s.Read(p)
			if err != nil {
				continue
			}
			text = src.Text
			texts[l.URI] = text
		}
		unread := componentSearchers[path.Ext(l.URI)] != "" && path.Ext(l.URI) != path.Ext(uri) // no script of it was the server's to place
		call, inScript := componentCallAt(l.URI, text, l.Range, rt.Identifier, unread)
		if !call {
			continue
		}
		if sites[l.URI] == nil {
			order = append(order, l.URI)
		}
		sites[l.URI] = append(sites[l.URI], l.Range)
		scriptCalls[l.URI] = scriptCalls[l.URI] || inScript
	}
	if len(order) == 0 {
		return covered
	}
	var calls []json.RawMessage
	if json.Unmarshal(result, &calls) != nil {
		return covered
	}
	for _, u := range order {
		line, col := templateTag(texts[u])
		at := core.Range{Start: core.Position{Line: line, Character: col}, End: core.Position{Line: line, Character: col + uint32(len("template"))}}
		name, detail := path.Base(u)+" <template>", "the component's template"
		if scriptCalls[u] {
			name, detail = path.Base(u), "the component (its script and template)"
		}
		call, err := json.Marshal(map[string]any{
			"from": map[string]any{
				"name": name, "kind": 2, "uri": u, "range": at, "selectionRange": at,
				"detail": detail, "data": map[string]any{templateCallerKey: true},
			},
			"fromRanges": sites[u],
		})
		if err == nil {
			calls = append(calls, call)
		}
	}
	if out, err := json.Marshal(calls); err == nil {
		expansions[root]["result"] = json.RawMessage(out)
	}
	return covered
}

// rangeHolds says whether pos is within r (its end included).
func rangeHolds(r core.Range, pos core.Position) bool {
	after := func(a, b core.Position) bool {
		return a.Line > b.Line || a.Line == b.Line && a.Character >= b.Character
	}
	return after(pos, r.Start) && after(r.End, pos)
}

// locationCovered says whether l starts within one of the ranges in
// covered (of its file).
func locationCovered(covered []core.Location, l core.Location) bool {
	for _, c := range covered {
		if c.URI == l.URI && rangeHolds(c.Range, l.Range.Start) {
			return true
		}
	}
	return false
}

// componentCallAt says whether r (a reference of name in the component
// file at uri, text) is a call a callers answer adds (callAt): one in its
// template, outside its <script> and <style> blocks, or, with scripts,
// one in those too; inScript says which.
func componentCallAt(uri, text string, r core.Range, name string, scripts bool) (call, inScript bool) {
	inScript = inScriptOrStyle(text, int(r.Start.Line))
	if inScript && !scripts {
		return false, true
	}
	return callAt(uri, text, r, name), inScript
}

// callAt says whether r (a reference of name in the file at uri, text) is
// a call: the name there followed by `(` (after spaces, or `?.`).
func callAt(uri, text string, r core.Range, name string) bool {
	if r.Start.Line != r.End.Line {
		return false
	}
	line := lineAt(text, int(r.Start.Line))
	for _, off := range core.IdentifierOffsets(uri, line, name) {
		if core.ColumnOfByteOffset(line, off) != int(r.Start.Character) {
			continue
		}
		rest := strings.TrimLeft(line[off+len(name):], " \t")
		rest = strings.TrimPrefix(rest, "?.")
		return strings.HasPrefix(rest, "(")
	}
	return false
}

// inScriptOrStyle says whether line n (zero-based) of a component file is
// inside (or on a tag of) one of its <script> or <style> blocks
// (componentblocks.go).
func inScriptOrStyle(text string, n int) bool {
	for _, b := range componentBlocks(strings.Split(text, "\n"), "script", "style") {
		if b.open <= n && n <= b.close {
			return true
		}
	}
	return false
}

// templateTag is where the word of a component file's first <template>
// tag is (zero-based line, UTF-16 column), the file's start when it has
// none.
func templateTag(text string) (uint32, uint32) {
	for i, l := range strings.Split(text, "\n") {
		if j := strings.Index(l, "<template"); j >= 0 && !inScriptOrStyle(text, i) {
			return uint32(i), uint32(core.ColumnOfByteOffset(l, j+1))
		}
	}
	return 0, 0
}
