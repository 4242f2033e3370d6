package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_navigate: definition, typeDefinition, declaration, implementation
// or references of a target, as code locations with snippets.

func (t *Toolbox) navigate(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.paged(ctx, call, ws, t.navigatePage)
}

// navigatePage answers call from the offset-th location on, and, when
// locations follow the page, hands out a cursor for them. from, when set,
// is the cursor's state: an answer that is not the one it continues is
// errAnswerChanged.
func (t *Toolbox) navigatePage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	var a answer
	var shown []shownText // the files whose lines the answer shows, as read for it
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		method := "textDocument/" + call.Kind
		rt, file, err := t.openTargetAsking(ctx, s, call, method)
		if err != nil {
			return err
		}
		// The uses the server cannot list (usesNotice) are looked for
		// while it searches: the notice costs the answer nothing.
		var unlisted chan string
		if call.Kind == "references" || call.Kind == "implementation" {
			unlisted = make(chan string, 1)
			known := linksOf(s)
			go func() { unlisted <- t.usesNotice(ctx, known, ws, rt, call.Kind == "references") }()
		}
		// So are the lines a dynamically typed language's server may not
		// list (unlistedrefs.go).
		var spelled chan spelledUses
		if call.Kind == "references" {
			spelled = make(chan spelledUses, 1)
			go func() { spelled <- t.findSpelledUses(ctx, ws, rt) }()
		}
		raw, err := t.askTarget(ctx, s, rt, method)
		if err != nil {
			return err
		}
		if call.Kind == "references" {
			// The component files the server does not read are asked of
			// theirs (componentsearch.go).
			raw = t.withComponentUses(ctx, s, file.URI, rt.Position, raw)
		}
		// A file the server's index outlives is no location to show
		// (gonefiles.go).
		locs, gone := dropGoneLocations(locationList(raw), s.WorkspaceURI())
		outlines := map[string][]lspseam.OutlineEntry{}
		if file.hasOutline {
			outlines[file.URI] = file.outline
		}
		in := snippetsRaw{Locations: locs, WorkspaceURI: s.WorkspaceURI(), Context: call.Context, IncludeBody: call.IncludeBody, Limit: call.Limit, Offset: offset}
		plan, planned := hostPlannedReads(locs, in.WorkspaceURI, call, offset)
		if call.IncludeBody { // only bodies need symbols to plan
			if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
				return serverPayloadError(err, s.Server(), method)
			}
			in.Outlines = outlinesAt(plan, outlines)
		}
		if !planned {
			if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
				return serverPayloadError(err, s.Server(), method)
			}
		}
		// The outline of every result file names each location's
		// enclosing symbol (and gives includeBody its bodies): every file,
		// so an answer does not depend on which outlines an earlier call
		// left in the cache.
		texts := map[string]lspseam.SourceFile{}
		replan := false
		var ask []lspseam.SourceFile // opened, their outlines not cached
		var askFor []lspseam.FileRead
		for _, f := range plan.Files {
			src, err := s.Read(f.Path)
			if err != nil {
				continue // unreadable now: no snippet
			}
			texts[f.URI] = src
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
			ask, askFor = append(ask, opened), append(askFor, f)
		}
		versions := contentVersions(texts) // of the texts the lines shown are cut from
		asked, errs := t.fileOutlines(ctx, s, ask)
		for i, f := range askFor {
			if errs[i] == nil {
				outlines[f.URI] = asked[i]
				replan = replan || f.NeedSymbols
			} else if ctx.Err() != nil {
				return errs[i]
			}
		}
		in.Outlines = outlinesAt(plan, outlines)
		var of *implementationOf
		if call.Kind == "implementation" && rt.Identifier != "" && file.hasOutline {
			// The core tells which way the answer goes from the target's
			// outline entries beside the locations'.
			of = &implementationOf{URI: file.URI, Position: rt.Position, Name: rt.Identifier}
			in.Outlines = withEntriesAt(in.Outlines, file.URI, file.outline, rt.Position.Line)
		}
		if replan { // the bodies' spans: plan again with the outlines
			if err := t.core.Invoke(ctx, "planSnippets", in, &plan); err != nil {
				return serverPayloadError(err, s.Server(), method)
			}
		}
		files := map[string][]lspseam.LineChunk{}
		for _, f := range plan.Files {
			if src, ok := texts[f.URI]; ok {
				files[f.URI] = core.LineChunks(src.Text, f.Spans)
			}
		}
		var cl lspseam.CodeLocations
		err = t.core.Invoke(ctx, "codeLocations", codeLocationsRaw{snippetsRaw: in, Files: files, Subject: rt.Text, ImplementationOf: of}, &cl)
		if err != nil {
			return serverPayloadError(err, s.Server(), method)
		}
		if from != nil && !from.same(cl.ResultKey, file.Text) {
			return errAnswerChanged
		}
		n := min(cl.Rendered.Shown, len(cl.Locations)) // a text cut to its budget shows fewer
		shown = shownTexts(cl.Locations[:n], texts, versions(), in.WorkspaceURI)
		a.fields = []field{{"kind", call.Kind}, {"target", targetFields(rt)}, {"locations", nonNil(cl.Locations[:n])}, {"totalFound", cl.TotalFound}, {"truncated", cl.Truncated || n < len(cl.Locations)}}
		if offset > 0 {
			a.fields = append(a.fields, field{"offset", offset})
		}
		a.text = cl.Rendered.Text
		t.withCursor(&a, call, offset, n, cl.TotalFound, cl.ResultKey, file.Text)
		if len(cl.Locations) == 0 && offset == 0 {
			a.notice = "The server found no " + navigateNoun(call.Kind) + " for " + quoteIdent(rt) + "; that can be right (nothing refers to it, or it is declared outside the project), or the target may be on the wrong identifier: check the Target line."
		}
		a.incomplete = s.Notice()
		if unlisted != nil {
			a.incomplete = joinNotices(a.incomplete, <-unlisted)
		}
		noun, nouns := "location", "locations"
		if call.Kind == "references" {
			noun, nouns = "use", "uses"
		}
		a.incomplete = joinNotices(a.incomplete, gone.notice(noun, nouns))
		if spelled != nil {
			a.incomplete = joinNotices(a.incomplete, t.unlistedUsesNotice(ws, <-spelled, rt, locs))
		}
		if call.Kind == "references" && pythonAliasesStop(rt) {
			a.incomplete = joinNotices(a.incomplete, t.aliasesNotice(ctx, ws, rt, raw, "uses under other names are not listed (the server's references stop where the name is renamed)", "the references"))
		}
		return nil
	})
	if err == nil {
		t.observeShown(ws, shown)
	}
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
	Files            map[string][]lspseam.LineChunk `json:"files,omitempty"`
	Subject          string                         `json:"subject,omitempty"`
	ImplementationOf *implementationOf              `json:"implementationOf,omitempty"`
}

// implementationOf is where an implementation answer was asked (the
// target's file and zero-based position): the core says when its results
// are what the target implements (core/implements.go).
type implementationOf struct {
	URI      string           `json:"uri"`
	Position lspseam.Position `json:"position"`
	Name     string           `json:"name,omitempty"`
}

// withEntriesAt adds to outlines the entries of a file's outline that
// hold line, beside those the locations' lines picked.
func withEntriesAt(outlines map[string][]lspseam.OutlineEntry, uri string, outline []lspseam.OutlineEntry, line uint32) map[string][]lspseam.OutlineEntry {
	lines := map[uint32]bool{line: true}
	for _, e := range outlines[uri] {
		lines[e.Range.Start.Line] = true
	}
	if outlines == nil {
		outlines = map[string][]lspseam.OutlineEntry{}
	}
	outlines[uri] = outlineOnLines(outline, lines)
	return outlines
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

func navigateNoun(kind string) string {
	switch kind {
	case "typeDefinition":
		return "type definition"
	case "implementation":
		return "implementations"
	}
	return kind
}

// usesNotice is what an answer listing the uses of rt says of the uses
// the server cannot list ("" none): those through symbolic links to its
// file (linkedpaths.go) and, with excluded, in the Go files the build
// excludes (gobuildtags.go). It uses no session: it runs beside the session's
// request, and may end after it.
func (t *Toolbox) usesNotice(ctx context.Context, known knownLinks, ws string, rt lspseam.ResolvedTarget, excluded bool) string {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return ""
	}
	defer r.Close()
	notice := linkedUsesNotice(ctx, known, r, rt.Path)
	if excluded {
		notice = joinNotices(notice, t.excludedUsesNotice(r, rt))
	}
	return notice
}

// excludedUsesNotice is what a Go references answer says of the files
// the build excludes, beside the target or importing its package, that
// name it ("" none).
func (t *Toolbox) excludedUsesNotice(r *workspacefs.Root, rt lspseam.ResolvedTarget) string {
	if !strings.HasSuffix(rt.Path, ".go") || rt.Identifier == "" {
		return ""
	}
	users := t.goBuild.excludedUsers(r, rt.Path, []string{rt.Identifier})
	if len(users) == 0 {
		return ""
	}
	return "this machine's build excludes " + core.Listed(users, 8) + ", which " + plural(len(users), "names", "name") + " `" + rt.Identifier + "`; the server does not search such files, so uses there are not listed"
}
