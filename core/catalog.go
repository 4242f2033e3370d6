package core

import (
	"strings"

	"github.com/tidwall/gjson"
)

// The catalog's ABI methods (docs/design.md, "the code-intelligence
// catalog"): resolveTarget, planSnippets and codeLocations, the envelopes
// around ResolveTarget (target.go), PlanSnippets, BuildCodeLocations and
// RenderCodeLocations (codelocation.go). The host asks the server and
// reads the files; these decide what to ask and what to read, and write
// the answer.

// decodeTarget reads a target object strictly: path, symbol, kind and
// matchText strings, line and column one-based integers.
func decodeTarget(v gjson.Result) (Target, *Error) {
	var t Target
	if !v.IsObject() {
		return t, targetArgError("target must be an object, got " + describe(v))
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"path", &t.Path}, {"symbol", &t.Symbol}, {"kind", &t.Kind}, {"matchText", &t.MatchText}} {
		if x := get(v, f.name); x.Exists() {
			if x.Type != gjson.String {
				return t, targetArgError(f.name + " must be a string, got " + describe(x))
			}
			*f.dst = x.Str
		}
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"line", &t.Line}, {"column", &t.Column}} {
		if x := get(v, f.name); x.Exists() {
			n, ok := integer(x, 1, maxOneBased)
			if !ok {
				return t, targetArgError(f.name + " must be a positive integer (one-based), got " + describe(x))
			}
			*f.dst = n
		}
	}
	return t, nil
}

// resolveTargetCall: {target, firstMatch?, exact?, text, symbols?} →
// ResolvedTarget. symbols is the server's raw textDocument/documentSymbol
// result; absent when the server has no documentSymbol provider. An
// ambiguous or missing symbol's error carries the candidates. exact (a
// change's target) refuses firstMatch, and an ambiguous target's message
// does not offer it.
func resolveTargetCall(in gjson.Result) (jsonAppender, *Error) {
	t, err := decodeTarget(get(in, "target"))
	if err != nil {
		return nil, err
	}
	fm := get(in, "firstMatch")
	if fm.Exists() && fm.Type != gjson.True && fm.Type != gjson.False && fm.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "firstMatch must be a boolean, got %s", describe(fm))
	}
	exact := get(in, "exact").Type == gjson.True
	if exact && fm.Type == gjson.True {
		return nil, Errorf(CodeInvalidArgument, "firstMatch is for reads: a change needs an exact target (kind or Container.member)")
	}
	text := get(in, "text")
	if text.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "text must be the target file's text as a string, got %s", describe(text))
	}
	file := TargetFile{Text: text.Str}
	if s := get(in, "symbols"); s.Exists() {
		if file.Symbols, err = FlattenSymbols(s, text.Str); err != nil {
			return nil, err
		}
	} else {
		file.NoSymbols = true
	}
	r, cands, err := ResolveTarget(t, fm.Type == gjson.True, file)
	if err != nil {
		if len(cands) > 0 || exact {
			e := *err
			e.Candidates = cands
			if exact && e.Code == CodeAmbiguousTarget {
				e.Message = strings.TrimSuffix(e.Message, firstMatchHint) + "; a change never takes the first of several."
			}
			return nil, &e
		}
		return nil, err
	}
	return r, nil
}

// snippetInput is the input of planSnippets and codeLocations:
// {locations, workspaceUri, context?, includeBody?, limit?, symbols?:
// {uri: documentSymbol result}, files?: {uri: text | [{start, lines}]},
// subject?, maxResultChars?}. files (codeLocations only) is what the host
// read: a file's whole text (only the planned spans of it are used), or
// chunks of lines from a zero-based start line, without terminators.
type snippetInput struct {
	locs    []Location
	ws      string
	opts    SnippetOptions
	files   map[string]gjson.Result
	symbols map[string][]Symbol
}

func decodeSnippetInput(in gjson.Result) (snippetInput, *Error) {
	si := snippetInput{files: map[string]gjson.Result{}, symbols: map[string][]Symbol{}}
	locs := get(in, "locations")
	if !locs.IsArray() {
		return si, Errorf(CodeInvalidArgument, "locations must be an array of {uri, range} (or LocationLinks), got %s", describe(locs))
	}
	var problem string
	i := 0
	locs.ForEach(func(_, item gjson.Result) bool {
		var l Location
		l, problem = locationOrLink(item, at{"locations", i})
		si.locs = append(si.locs, l)
		i++
		return problem == ""
	})
	if problem != "" {
		return si, &Error{Code: CodeInvalidArgument, Message: problem}
	}
	ws := get(in, "workspaceUri")
	if ws.Type != gjson.String {
		return si, Errorf(CodeInvalidArgument, "workspaceUri must be a string, got %s", describe(ws))
	}
	si.ws = ws.Str
	for _, f := range []struct {
		name string
		dst  *int
	}{{"context", &si.opts.Context}, {"limit", &si.opts.Limit}} {
		v := get(in, f.name)
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		n, ok := integer(v, -maxUint31, maxUint31)
		if !ok {
			return si, Errorf(CodeInvalidArgument, "%s must be an integer, got %s", f.name, describe(v))
		}
		*f.dst = int(n)
	}
	if ib := get(in, "includeBody"); ib.Exists() && ib.Type != gjson.Null {
		if ib.Type != gjson.True && ib.Type != gjson.False {
			return si, Errorf(CodeInvalidArgument, "includeBody must be a boolean, got %s", describe(ib))
		}
		si.opts.IncludeBody = ib.Type == gjson.True
	}
	for _, name := range []string{"files", "symbols"} {
		if v := get(in, name); v.Exists() && v.Type != gjson.Null && !v.IsObject() {
			return si, Errorf(CodeInvalidArgument, "%s must be an object keyed by file URI, got %s", name, describe(v))
		}
	}
	var err *Error
	get(in, "files").ForEach(func(k, v gjson.Result) bool {
		if v.Type != gjson.String && !v.IsArray() {
			err = Errorf(CodeInvalidArgument, "files[%s] must be the file's text or an array of {start, lines}, got %s", clip(k.Str, 200), describe(v))
			return false
		}
		si.files[k.Str] = v
		return true
	})
	if err != nil {
		return si, err
	}
	get(in, "symbols").ForEach(func(k, v gjson.Result) bool {
		if text, ok := si.files[k.Str]; ok && text.Type == gjson.String {
			si.symbols[k.Str], err = FlattenSymbols(v, text.Str)
		} else {
			si.symbols[k.Str], err = FlattenSymbolsUnchecked(v)
		}
		return err == nil
	})
	return si, err
}

func planSnippetsCall(in gjson.Result) (jsonAppender, *Error) {
	si, err := decodeSnippetInput(in)
	if err != nil {
		return nil, err
	}
	return wrap(PlanSnippets(si.locs, si.ws, si.opts, si.symbols))
}

// renderedLocations is codeLocations' ok value: the CodeLocations with
// their rendering for the model.
type renderedLocations struct {
	CodeLocations
	Rendered
}

func (r renderedLocations) appendJSON(b []byte) []byte {
	b = r.CodeLocations.appendJSON(b)
	b = append(b[:len(b)-1], `,"rendered":`...)
	b = r.Rendered.appendJSON(b)
	return append(b, '}')
}

// readChunks decodes a file's read lines: the planned spans of its whole
// text, or the host's chunks as given.
func readChunks(uri string, v gjson.Result, spans []LineSpan) (FileLines, *Error) {
	fl := FileLines{URI: uri}
	if v.Type == gjson.String {
		lines := splitLines(v.Str)
		for _, s := range spans {
			if int64(s.Start) < int64(len(lines)) {
				fl.Chunks = append(fl.Chunks, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int64(s.End)+1, int64(len(lines)))]})
			}
		}
		return fl, nil
	}
	var err *Error
	i := 0
	v.ForEach(func(_, c gjson.Result) bool {
		start, ok := integer(get(c, "start"), 0, maxUint31)
		lines := get(c, "lines")
		if !c.IsObject() || !ok || (!lines.IsArray() && lines.Type != gjson.Null) {
			err = Errorf(CodeInvalidArgument, "files[%s][%d] must be {start, lines}: start a zero-based line number, lines an array of strings; got %s", clip(uri, 200), i, describe(c))
			return false
		}
		chunk := LineChunk{Start: uint32(start)}
		lines.ForEach(func(_, l gjson.Result) bool {
			if l.Type != gjson.String {
				err = Errorf(CodeInvalidArgument, "files[%s][%d].lines must hold strings, got %s", clip(uri, 200), i, describe(l))
				return false
			}
			chunk.Lines = append(chunk.Lines, l.Str)
			return true
		})
		fl.Chunks = append(fl.Chunks, chunk)
		i++
		return err == nil
	})
	return fl, err
}

// codeLocationsCall plans again (a pure function of the same input), takes
// what the host read of the planned files and builds and renders the code
// locations.
func codeLocationsCall(in gjson.Result) (jsonAppender, *Error) {
	si, err := decodeSnippetInput(in)
	if err != nil {
		return nil, err
	}
	subject := get(in, "subject")
	if subject.Exists() && subject.Type != gjson.String && subject.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "subject must be a string, got %s", describe(subject))
	}
	maxChars := 0
	if v := get(in, "maxResultChars"); v.Exists() && v.Type != gjson.Null {
		n, ok := integer(v, 1, maxUint31)
		if !ok {
			return nil, Errorf(CodeInvalidArgument, "maxResultChars must be a positive integer at most %d, got %s", maxUint31, describe(v))
		}
		maxChars = int(n)
	}
	plan, err := PlanSnippets(si.locs, si.ws, si.opts, si.symbols)
	if err != nil {
		return nil, err
	}
	var read []FileLines
	for _, f := range plan.Files {
		v, ok := si.files[f.URI]
		if !ok {
			continue // unreadable: no snippet
		}
		fl, err := readChunks(f.URI, v, f.Spans)
		if err != nil {
			return nil, err
		}
		read = append(read, fl)
	}
	cl, err := BuildCodeLocations(plan, read, si.symbols)
	if err != nil {
		return nil, err
	}
	return renderedLocations{cl, RenderCodeLocations(cl, subject.Str, maxChars)}, nil
}
