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

// resolveTargetCall: {target, firstMatch?, exact?, text?, lines?,
// symbols?, outline?} → ResolvedTarget. symbols is the server's raw
// textDocument/documentSymbol result, outline the entries of
// flattenSymbols' answer the host chose (outline.go); neither: the server
// has no documentSymbol provider. text is the file's text; lines, for a
// symbol target with an outline, the chunks of lines holding the names of
// the outline's entries instead (lines win over text). An ambiguous or missing symbol's error
// carries the candidates. exact (a change's target) refuses firstMatch,
// and an ambiguous target's message does not offer it.
func resolveTargetCall(in gjson.Result) (jsonAppender, *Error) {
	m := members(in, "target", "firstMatch", "exact", "text", "lines", "symbols", "outline", "request")
	t, err := decodeTarget(m[0])
	if err != nil {
		return nil, err
	}
	fm := m[1]
	if fm.Exists() && fm.Type != gjson.True && fm.Type != gjson.False && fm.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "firstMatch must be a boolean, got %s", describe(fm))
	}
	exact := m[2].Type == gjson.True
	if exact && fm.Type == gjson.True {
		return nil, Errorf(CodeInvalidArgument, "firstMatch is for reads: a change needs an exact target (kind or Container.member)")
	}
	text, lines, outline := m[3], m[4], m[6]
	var file TargetFile
	switch {
	case lines.Exists() && outline.Exists():
		if file.Lines, err = decodeLineChunks(lines, "lines"); err != nil {
			return nil, err
		}
		file.Partial = true
	case text.Type == gjson.String:
		file.Text = text.Str
	case lines.Exists():
		return nil, Errorf(CodeInvalidArgument, "lines (chunks of the file's lines) go with outline (flattenSymbols entries); with the server's raw symbols, pass the file's text")
	default:
		return nil, Errorf(CodeInvalidArgument, "text must be the target file's text as a string, got %s", describe(text))
	}
	switch {
	case outline.Exists():
		if file.Symbols, err = decodeOutline(outline, "outline"); err != nil {
			return nil, err
		}
	case m[5].Exists():
		if file.Partial {
			return nil, Errorf(CodeInvalidArgument, "symbols (the server's raw answer) needs the file's text; pass outline entries with lines, or text")
		}
		if file.Symbols, err = FlattenSymbols(m[5], text.Str); err != nil {
			return nil, err
		}
	default:
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
	if req := m[7]; req.Exists() && req.Type != gjson.Null {
		// The request for the target rides on the same call: one call
		// into the module fewer per target (RATIONALE, "Fewer, cheaper
		// module calls on the query path").
		if !req.IsObject() {
			return nil, Errorf(CodeInvalidArgument, "request must be codeRequest's input without position, got %s", describe(req))
		}
		ri, err := decodeCodeRequest(req, &r.Position)
		if err != nil {
			return nil, err
		}
		value, err := CodeRequest(ri)
		if err != nil {
			return nil, err
		}
		return targetWithRequest{r, value}, nil
	}
	return r, nil
}

// targetWithRequest is a resolved target and the request for it:
// the target's object with a request member.
type targetWithRequest struct {
	target  ResolvedTarget
	request CodeRequestValue
}

func (t targetWithRequest) appendJSON(b []byte) []byte {
	b = t.target.appendJSON(b)
	b = append(b[:len(b)-1], `,"request":`...)
	b = t.request.appendJSON(b)
	return append(b, '}')
}

// snippetInput is the input of planSnippets and codeLocations:
// {locations, workspaceUri, context?, includeBody?, limit?, offset?, symbols?:
// {uri: documentSymbol result}, outlines?: {uri: flattenSymbols entries},
// files?: {uri: text | [{start, lines}]}, subject?, maxResultChars?}. files (codeLocations only) is what the host
// read: a file's whole text (only the planned spans of it are used), or
// chunks of lines from a zero-based start line, without terminators.
type snippetInput struct {
	locs    []Location
	ws      string
	opts    SnippetOptions
	files   map[string]gjson.Result
	symbols map[string][]Symbol
}

// snippetMembers are the members decodeSnippetInput reads, in one pass:
// the input holds the files' lines, and a get per member would walk past
// them again each time.
var snippetMembers = []string{"locations", "workspaceUri", "context", "limit", "includeBody", "files", "symbols", "outlines", "subject", "maxResultChars", "offset", "implementationOf"}

const (
	memberSubject          = 8
	memberMaxResultChars   = 9
	memberOffset           = 10
	memberImplementationOf = 11
)

func decodeSnippetInput(in gjson.Result) (snippetInput, []gjson.Result, *Error) {
	m := members(in, snippetMembers...)
	si := snippetInput{files: map[string]gjson.Result{}, symbols: map[string][]Symbol{}}
	locs := m[0]
	if !locs.IsArray() {
		err := Errorf(CodeInvalidArgument, "locations must be an array of {uri, range} (or LocationLinks), got %s", describe(locs))
		err.Field = "locations" // a server's answer, passed on by the host
		return si, m, err
	}
	var problem string
	if fast, ok := scanLocations(locs.Raw, true); ok && len(fast) > 0 {
		si.locs = fast // read as locationOrLink reads them (FuzzScanLocations)
	} else {
		i := 0
		locs.ForEach(func(_, item gjson.Result) bool {
			var l Location
			l, problem = locationOrLink(item, at{"locations", i})
			si.locs = append(si.locs, l)
			i++
			return problem == ""
		})
	}
	if problem != "" {
		return si, m, &Error{Code: CodeInvalidArgument, Message: problem, Field: "locations"}
	}
	ws := m[1]
	if ws.Type != gjson.String {
		return si, m, Errorf(CodeInvalidArgument, "workspaceUri must be a string, got %s", describe(ws))
	}
	si.ws = ws.Str
	for _, f := range []struct {
		name string
		v    gjson.Result
		dst  *int
	}{{"context", m[2], &si.opts.Context}, {"limit", m[3], &si.opts.Limit}, {"offset", m[memberOffset], &si.opts.Offset}} {
		v := f.v
		if !v.Exists() || v.Type == gjson.Null {
			continue
		}
		n, ok := integer(v, -maxUint31, maxUint31)
		if !ok {
			return si, m, Errorf(CodeInvalidArgument, "%s must be an integer, got %s", f.name, describe(v))
		}
		*f.dst = int(n)
	}
	if ib := m[4]; ib.Exists() && ib.Type != gjson.Null {
		if ib.Type != gjson.True && ib.Type != gjson.False {
			return si, m, Errorf(CodeInvalidArgument, "includeBody must be a boolean, got %s", describe(ib))
		}
		si.opts.IncludeBody = ib.Type == gjson.True
	}
	for _, f := range []struct {
		name string
		v    gjson.Result
	}{{"files", m[5]}, {"symbols", m[6]}, {"outlines", m[7]}} {
		if v := f.v; v.Exists() && v.Type != gjson.Null && !v.IsObject() {
			return si, m, Errorf(CodeInvalidArgument, "%s must be an object keyed by file URI, got %s", f.name, describe(v))
		}
	}
	var err *Error
	m[5].ForEach(func(k, v gjson.Result) bool {
		if v.Type != gjson.String && !v.IsArray() {
			err = Errorf(CodeInvalidArgument, "files[%s] must be the file's text or an array of {start, lines}, got %s", clip(k.Str, 200), describe(v))
			return false
		}
		si.files[k.Str] = v
		return true
	})
	if err != nil {
		return si, m, err
	}
	m[6].ForEach(func(k, v gjson.Result) bool {
		if text, ok := si.files[k.Str]; ok && text.Type == gjson.String {
			si.symbols[k.Str], err = FlattenSymbols(v, text.Str)
		} else {
			si.symbols[k.Str], err = FlattenSymbolsUnchecked(v)
		}
		return err == nil
	})
	if err != nil {
		return si, m, err
	}
	// An outline (flattenSymbols' entries) is already placed: it wins
	// over a raw answer for the same file.
	m[7].ForEach(func(k, v gjson.Result) bool {
		si.symbols[k.Str], err = decodeOutline(v, "outlines["+clip(k.Str, 200)+"]")
		return err == nil
	})
	return si, m, err
}

func planSnippetsCall(in gjson.Result) (jsonAppender, *Error) {
	si, _, err := decodeSnippetInput(in)
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

// jsonSize is the answer's size, about: the text's (Rendered's, which
// the embedding would take alone) and the locations'.
func (r renderedLocations) jsonSize() int {
	n := r.Rendered.jsonSize() + 96
	for _, l := range r.Locations {
		n += len(l.Path) + len(l.Snippet) + len(l.Snippet)/8 + len(l.Symbol) + len(l.Kind) + len(l.Container) + 200
	}
	return n
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
		lines := SplitLines(v.Str)
		for _, s := range spans {
			if int64(s.Start) < int64(len(lines)) {
				fl.Chunks = append(fl.Chunks, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int64(s.End)+1, int64(len(lines)))]})
			}
		}
		return fl, nil
	}
	chunks, err := decodeLineChunks(v, "files["+clip(uri, 200)+"]")
	fl.Chunks = chunks
	return fl, err
}

// codeLocationsCall plans again (a pure function of the same input), takes
// what the host read of the planned files and builds and renders the code
// locations.
func codeLocationsCall(in gjson.Result) (jsonAppender, *Error) {
	si, m, err := decodeSnippetInput(in)
	if err != nil {
		return nil, err
	}
	subject := m[memberSubject]
	if subject.Exists() && subject.Type != gjson.String && subject.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "subject must be a string, got %s", describe(subject))
	}
	maxChars := 0
	if v := m[memberMaxResultChars]; v.Exists() && v.Type != gjson.Null {
		n, ok := integer(v, 1, maxUint31)
		if !ok {
			return nil, Errorf(CodeInvalidArgument, "maxResultChars must be a positive integer at most %d, got %s", maxUint31, describe(v))
		}
		maxChars = int(n)
	}
	lines := func(f FileRead) (FileLines, bool, *Error) {
		v, ok := si.files[f.URI]
		if !ok {
			return FileLines{}, false, nil // unreadable: no snippet
		}
		fl, err := readChunks(f.URI, v, f.Spans)
		return fl, true, err
	}
	note := func(plan SnippetPlan, cl CodeLocations) (string, *Error) {
		v := m[memberImplementationOf]
		if !v.Exists() || v.Type == gjson.Null {
			return "", nil
		}
		uri, pos, name := get(v, "uri"), get(v, "position"), get(v, "name")
		p, problem := positionOf(pos, at{"implementationOf", -1}, "position", "")
		if uri.Type != gjson.String || uri.Str == "" || problem != "" || (name.Exists() && name.Type != gjson.String) {
			return "", Errorf(CodeInvalidArgument, "implementationOf must be {uri, position, name?}: the target's file, zero-based position and name, got %s", describe(v))
		}
		return implementsNote(implementationOf{URI: uri.Str, Position: p, Name: name.Str}, plan, cl, si.symbols), nil
	}
	return codeLocationsOf(si, lines, subject.Str, maxChars, note)
}

// codeLocationsOf is codeLocations from its decoded input: lines gives
// what the host read of a planned file (false: nothing), note the line
// under the subject, if any.
func codeLocationsOf(si snippetInput, lines func(FileRead) (FileLines, bool, *Error), subject string, maxChars int, note func(SnippetPlan, CodeLocations) (string, *Error)) (jsonAppender, *Error) {
	plan, err := PlanSnippets(si.locs, si.ws, si.opts, si.symbols)
	if err != nil {
		return nil, err
	}
	var read []FileLines
	for _, f := range plan.Files {
		fl, ok, err := lines(f)
		if err != nil {
			return nil, err
		}
		if ok {
			read = append(read, fl)
		}
	}
	cl, err := BuildCodeLocations(plan, read, si.symbols)
	if err != nil {
		return nil, err
	}
	head := subject
	if note != nil {
		n, err := note(plan, cl)
		if err != nil {
			return nil, err
		}
		if n != "" {
			if head != "" { // under the subject line
				head += "\n"
			}
			head += n
		}
	}
	return renderedLocations{cl, RenderCodeLocations(cl, head, maxChars)}, nil
}
