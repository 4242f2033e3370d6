package toolbox

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// fileOutline is an open document's flattened outline, asked of the
// server and flattened once for these bytes.
func (t *Toolbox) fileOutline(ctx context.Context, s lspseam.Session, f lspseam.SourceFile) ([]lspseam.OutlineEntry, error) {
	key := t.outlines.key(s.Server(), f.URI, f.Text)
	if o, ok := t.outlines.getOutline(key); ok {
		return o, nil
	}
	raw, err := t.documentSymbols(ctx, s, f)
	if err != nil {
		return nil, err
	}
	o, err := t.core.FlattenSymbols(ctx, raw, f.Text)
	if err != nil {
		return nil, err
	}
	if o == nil {
		o = []lspseam.OutlineEntry{}
	}
	t.outlines.putOutline(key, o)
	return o, nil
}

// maxConcurrentOutlines bounds the outline requests fileOutlines has in
// flight on one server.
const maxConcurrentOutlines = 8

// fileOutlines is fileOutline of each of files (open documents). A server
// whose policy says it answers requests asked together as it answers them
// one by one (Readiness.ConcurrentRequests: gopls) is asked for them
// together: the first answer spanning nine files on cobra, with gopls
// just loaded, spent 0.35 s on its outlines one after another. Any other
// is asked one after another (intelephense, asked together, left a member
// out of an outline in half the runs). The results are in files' order.
func (t *Toolbox) fileOutlines(ctx context.Context, s lspseam.Session, files []lspseam.SourceFile) ([][]lspseam.OutlineEntry, []error) {
	outs, errs := make([][]lspseam.OutlineEntry, len(files)), make([]error, len(files))
	if len(files) < 2 || !s.Policy().ConcurrentRequests {
		for i, f := range files {
			outs[i], errs[i] = t.fileOutline(ctx, s, f)
		}
		return outs, errs
	}
	slots := make(chan struct{}, maxConcurrentOutlines)
	var wg sync.WaitGroup
	for i, f := range files {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			outs[i], errs[i] = t.fileOutline(ctx, s, f)
		}()
	}
	wg.Wait()
	return outs, errs
}

// outlineNamed is the entries that could be a symbol target's: those
// whose name is in the query (a name, a Container.member or a qualified
// name all hold the member's name).
func outlineNamed(o []lspseam.OutlineEntry, query string) []lspseam.OutlineEntry {
	query = strings.TrimSpace(query)
	out := []lspseam.OutlineEntry{}
	for _, e := range o {
		if strings.Contains(query, e.Name) {
			out = append(out, e)
		}
	}
	return out
}

// outlineOnLines is the entries that hold one of the lines (zero-based):
// those a location on the line can lie in or be the name of.
func outlineOnLines(o []lspseam.OutlineEntry, lines map[uint32]bool) []lspseam.OutlineEntry {
	out := []lspseam.OutlineEntry{}
	for _, e := range o {
		if lines[e.SelectionRange.Start.Line] || lines[e.Range.Start.Line] {
			out = append(out, e)
			continue
		}
		for l := range lines {
			if e.Range.Start.Line <= l && l <= e.Range.End.Line {
				out = append(out, e)
				break
			}
		}
	}
	return out
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
