package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// code_navigate: definition, typeDefinition, declaration, implementation
// or references of a target, as code locations with snippets.

// resolvedFile is a tool's own file, open in the server, and its
// flattened outline (hasOutline false when the server has none to give).
type resolvedFile struct {
	lspseam.SourceFile
	outline    []lspseam.OutlineEntry
	hasOutline bool
}

// openTarget opens the target's file, takes its outline when the server
// has them, and resolves the target.
func (t *Toolbox) openTarget(ctx context.Context, s lspseam.Session, call lspseam.CodeCall) (lspseam.ResolvedTarget, resolvedFile, error) {
	f, err := s.Open(ctx, call.Path)
	if err != nil {
		return lspseam.ResolvedTarget{}, resolvedFile{}, err
	}
	file := resolvedFile{SourceFile: f}
	if s.Methods()["textDocument/documentSymbol"] {
		if file.outline, err = t.fileOutline(ctx, s, f); err != nil {
			return lspseam.ResolvedTarget{}, file, err
		}
		file.hasOutline = true
	} else if call.Target.Symbol != "" {
		return lspseam.ResolvedTarget{}, file, lspseam.Errorf(lspseam.CodeUnsupportedOperation, "language server %q lists no document symbols, so a target cannot name a symbol; target by line with matchText instead", s.Server())
	}
	rt, err := t.resolveTarget(ctx, call, file)
	return rt, file, err
}

// resolveTarget hands the core what the target needs (outline.go): for a
// symbol, the outline's entries of its name and their lines, then, only
// when none is the target, the whole outline for the nearest names; for a
// line, the file's text (its errors quote the lines around and search the
// file for matchText) and the entries holding the line.
func (t *Toolbox) resolveTarget(ctx context.Context, call lspseam.CodeCall, file resolvedFile) (lspseam.ResolvedTarget, error) {
	in := resolveTargetRaw{Target: *call.Target, FirstMatch: call.FirstMatch, Exact: call.Toolset == "refactor"}
	var rt lspseam.ResolvedTarget
	switch {
	case !file.hasOutline:
		in.Text = &file.Text
	case strings.TrimSpace(call.Target.Symbol) != "":
		named := outlineNamed(file.outline, call.Target.Symbol)
		all := textLines(file.Text)
		lines := []lspseam.LineChunk{}
		seen := map[uint32]bool{}
		for _, e := range named {
			if l := e.SelectionRange.Start.Line; !seen[l] && int64(l) < int64(len(all)) {
				seen[l] = true
				lines = append(lines, lspseam.LineChunk{Start: l, Lines: all[l : l+1]})
			}
		}
		in.Outline, in.Lines = &named, &lines
		err := t.core.Invoke(ctx, "resolveTarget", in, &rt)
		var lerr *lspseam.Error
		if errors.As(err, &lerr) && lerr.Code == lspseam.CodeTargetNotFound && len(named) < len(file.outline) {
			none := []lspseam.LineChunk{}
			in.Outline, in.Lines = &file.outline, &none
			err = t.core.Invoke(ctx, "resolveTarget", in, &rt)
		}
		return rt, err
	default:
		in.Text = &file.Text
		held := []lspseam.OutlineEntry{}
		if call.Target.Line > 0 {
			held = outlineOnLines(file.outline, map[uint32]bool{uint32(call.Target.Line - 1): true})
		}
		in.Outline = &held
	}
	return rt, t.core.Invoke(ctx, "resolveTarget", in, &rt)
}

// resolveTargetRaw is resolveTarget's input as the Toolbox sends it.
type resolveTargetRaw struct {
	Target     lspseam.Target          `json:"target"`
	FirstMatch bool                    `json:"firstMatch,omitempty"`
	Exact      bool                    `json:"exact,omitempty"`
	Outline    *[]lspseam.OutlineEntry `json:"outline,omitempty"`
	Lines      *[]lspseam.LineChunk    `json:"lines,omitempty"`
	Text       *string                 `json:"text,omitempty"` // last: the module finds the others without walking it
}

// documentSymbols is an open document's outline: the server's answer for
// these bytes, asked once (symbolCache).
func (t *Toolbox) documentSymbols(ctx context.Context, s lspseam.Session, f lspseam.SourceFile) (json.RawMessage, error) {
	key := t.outlines.key(s.Server(), f.URI, f.Text)
	if symbols, ok := t.outlines.get(key); ok {
		return symbols, nil
	}
	req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: "textDocument/documentSymbol", URI: f.URI})
	if err != nil {
		return nil, err
	}
	symbols, err := s.Request(ctx, req.Method, req.Params)
	if err == nil {
		t.outlines.put(key, symbols)
	}
	return symbols, err
}

// request sends one positional catalog request, checked against the
// server's methods.
func (t *Toolbox) request(ctx context.Context, s lspseam.Session, method, uri string, pos lspseam.Position) (json.RawMessage, error) {
	req, err := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: method, URI: uri, Position: &pos, Methods: s.Methods(), Server: s.Server()})
	if err != nil {
		return nil, err
	}
	raw, err := s.Request(ctx, req.Method, req.Params)
	return raw, t.insteadOf(ctx, err, method, s.Server())
}

// insteadOf adds what to use instead to an LSP_UNSUPPORTED_OPERATION a
// server answered (MethodNotFound for a method it advertised), as the
// core words it for a method a server does not advertise.
func (t *Toolbox) insteadOf(ctx context.Context, err error, method, server string) error {
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) || lerr.Code != lspseam.CodeUnsupportedOperation {
		return err
	}
	_, hint := t.core.CodeRequest(ctx, lspseam.CodeRequestInput{Method: method, Methods: map[string]bool{method: false}, Server: server})
	var h *lspseam.Error
	if errors.As(hint, &h) && h.Instead != "" {
		e := lspseam.Errorf(lspseam.CodeUnsupportedOperation, "%s; %s", lerr.Message, h.Instead)
		e.Instead = h.Instead
		return e
	}
	return err
}

// echoedTarget is the resolved target as the answer echoes it: one-based,
// with the identifier there, so an off-by-one is visible.
type echoedTarget struct {
	Path       string `json:"path"`
	Line       uint64 `json:"line"`
	Column     uint64 `json:"column"`
	Identifier string `json:"identifier"`
	Symbol     string `json:"symbol,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Container  string `json:"container,omitempty"`
	By         string `json:"by"`
}

func targetFields(rt lspseam.ResolvedTarget) echoedTarget {
	return echoedTarget{rt.Path, rt.Line, rt.Column, rt.Identifier, rt.Symbol, rt.Kind, rt.Container, rt.By}
}

func (t *Toolbox) navigate(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	if call.Cursor != "" {
		return t.nextPage(ctx, call, ws, t.navigatePage)
	}
	return t.navigatePage(ctx, call, ws, 0, nil)
}

// navigatePage answers call from the offset-th location on, and, when
// locations follow the page, hands out a cursor for them. from, when set,
// is the cursor's state: an answer that is not the one it continues is
// errAnswerChanged.
func (t *Toolbox) navigatePage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		rt, file, err := t.openTarget(ctx, s, call)
		if err != nil {
			return err
		}
		method := "textDocument/" + call.Kind
		raw, err := t.request(ctx, s, method, file.URI, rt.Position)
		if err != nil {
			return err
		}
		locs := locationList(raw)
		outlines := map[string][]lspseam.OutlineEntry{}
		if file.hasOutline {
			outlines[file.URI] = file.outline
		}
		in := snippetsRaw{Locations: locs, WorkspaceURI: s.WorkspaceURI(), Context: call.Context, IncludeBody: call.IncludeBody, Limit: call.Limit, Offset: offset}
		var plan lspseam.SnippetPlan
		if call.IncludeBody { // only bodies need symbols to plan
			if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
				return serverPayloadError(err, s.Server(), method)
			}
			in.Outlines = outlinesAt(plan, outlines)
		}
		if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
			return serverPayloadError(err, s.Server(), method)
		}
		// The outline of every result file names each location's
		// enclosing symbol (and gives includeBody its bodies): every file,
		// so an answer does not depend on which outlines an earlier call
		// left in the cache.
		texts := map[string][]string{}
		replan := false
		for _, f := range plan.Files {
			src, err := s.Read(f.Path)
			if err != nil {
				continue // unreadable now: no snippet
			}
			texts[f.URI] = textLines(src.Text)
			if _, ok := outlines[f.URI]; ok || !s.Methods()["textDocument/documentSymbol"] {
				continue
			}
			if cached, ok := t.outlines.getOutline(t.outlines.key(s.Server(), src.URI, src.Text)); ok {
				outlines[f.URI] = cached
				replan = replan || f.NeedSymbols
				continue
			}
			opened, err := s.Open(ctx, f.Path)
			if err != nil {
				continue // another language: no symbol names
			}
			if o, err := t.fileOutline(ctx, s, opened); err == nil {
				outlines[f.URI] = o
				replan = replan || f.NeedSymbols
			} else if ctx.Err() != nil {
				return err
			}
		}
		in.Outlines = outlinesAt(plan, outlines)
		if replan { // the bodies' spans: plan again with the outlines
			if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
				return serverPayloadError(err, s.Server(), method)
			}
		}
		files := map[string][]lspseam.LineChunk{}
		for _, f := range plan.Files {
			if lines, ok := texts[f.URI]; ok {
				files[f.URI] = chunksOf(lines, f.Spans)
			}
		}
		var cl lspseam.CodeLocations
		err = t.core.Invoke(ctx, "codeLocations", codeLocationsRaw{snippetsRaw: in, Files: files, Subject: rt.Text}, &cl)
		if err != nil {
			return serverPayloadError(err, s.Server(), method)
		}
		if from != nil && !from.same(cl.ResultKey, file.Text) {
			return errAnswerChanged
		}
		shown := min(cl.Rendered.Shown, len(cl.Locations)) // a text cut to its budget shows fewer
		a.fields = []field{{"kind", call.Kind}, {"target", targetFields(rt)}, {"locations", nonNil(cl.Locations[:shown])}, {"totalFound", cl.TotalFound}, {"truncated", cl.Truncated || shown < len(cl.Locations)}}
		if offset > 0 {
			a.fields = append(a.fields, field{"offset", offset})
		}
		a.text = cl.Rendered.Text
		t.withCursor(&a, call, offset, shown, cl.TotalFound, cl.ResultKey, file.Text)
		if len(cl.Locations) == 0 && offset == 0 {
			a.notice = "The server found no " + navigateNoun(call.Kind) + " for " + quoteIdent(rt) + "; that can be right (nothing refers to it, or it is declared outside the project), or the target may be on the wrong identifier: check the Target line."
		}
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}

// snippetsRaw and codeLocationsRaw carry the server's locations as it
// sent them (Locations or LocationLinks): the core reads both.
type snippetsRaw struct {
	Locations    json.RawMessage                   `json:"locations"`
	WorkspaceURI string                            `json:"workspaceUri"`
	Context      int                               `json:"context,omitempty"`
	IncludeBody  bool                              `json:"includeBody,omitempty"`
	Limit        int                               `json:"limit,omitempty"`
	Offset       int                               `json:"offset,omitempty"`
	Outlines     map[string][]lspseam.OutlineEntry `json:"outlines,omitempty"`
}

// outlinesAt is each file's outline entries that hold a planned
// location's line: all the core reads of them (outline.go).
func outlinesAt(plan lspseam.SnippetPlan, outlines map[string][]lspseam.OutlineEntry) map[string][]lspseam.OutlineEntry {
	lines := map[string]map[uint32]bool{}
	for _, l := range plan.Locations {
		if _, ok := outlines[l.URI]; !ok {
			continue
		}
		if lines[l.URI] == nil {
			lines[l.URI] = map[uint32]bool{}
		}
		lines[l.URI][l.Range.Start.Line] = true
	}
	out := make(map[string][]lspseam.OutlineEntry, len(lines))
	for uri, ls := range lines {
		out[uri] = outlineOnLines(outlines[uri], ls)
	}
	return out
}

type codeLocationsRaw struct {
	snippetsRaw
	Files   map[string][]lspseam.LineChunk `json:"files,omitempty"`
	Subject string                         `json:"subject,omitempty"`
}

// locationList is a navigation result as a list: null is none, a single
// Location is one.
func locationList(raw json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(raw)
	switch {
	case len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")):
		return json.RawMessage("[]")
	case trimmed[0] == '{':
		return append(append(json.RawMessage("["), trimmed...), ']')
	}
	return trimmed
}

// serverPayloadError names the server when the core found its answer
// malformed (the core reads it as an input, so calls it an argument).
func serverPayloadError(err error, server, method string) error {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) && lerr.Code == lspseam.CodeInvalidArgument && lerr.Field == "locations" {
		return lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered %s with a malformed result: %s", server, method, lerr.Message)
	}
	return err
}

func navigateNoun(kind string) string {
	switch kind {
	case "typeDefinition":
		return "type definition"
	case "implementation":
		return "implementations"
	}
	return kind
}

func quoteIdent(rt lspseam.ResolvedTarget) string {
	if rt.Identifier == "" {
		return "the target"
	}
	return "`" + rt.Identifier + "`"
}
