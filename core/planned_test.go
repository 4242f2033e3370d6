package core

import (
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lspseam/lspseam/internal/casefile"
)

// Golden cases for core functions that are not ABI methods yet (issue 11:
// targets, snippet planning and code locations; the tools and surfaces
// come later). They live in testdata/core/planned, in the same format as
// the ABI's cases, so the JavaScript binding's parity tests (which read
// testdata/core/*.golden) do not see them; callPlanned plays the envelope
// the methods will have. When a method joins Methods, its files move up to
// testdata/core and its case of callPlanned into dispatch.
//
// An error may carry "candidates" next to code and message (an ambiguous
// or missing symbol target), as MCP's structuredContent will.

var plannedMethods = []string{"resolveTarget", "planSnippets", "codeLocations"}

func plannedDir() string { return filepath.Join(casefile.Dir(".."), "planned") }

func callPlanned(method string, input []byte) (envelope []byte) {
	defer func() {
		if p := recover(); p != nil {
			envelope = errorEnvelope(Errorf(CodeInternal, "lspseam core failed in %s: %v", method, p))
		}
	}()
	v, err := parseInput(input)
	if err == nil {
		err = requireObject(v, "the "+method+" input")
	}
	if err != nil {
		return errorEnvelope(err)
	}
	var value jsonAppender
	var cands []TargetCandidate
	switch method {
	case "resolveTarget":
		value, cands, err = plannedResolveTarget(v)
	case "planSnippets":
		value, err = plannedPlanSnippets(v)
	case "codeLocations":
		value, err = plannedCodeLocations(v)
	default:
		err = unknownMethod(method)
	}
	if err != nil {
		env := errorEnvelope(err)
		if cands != nil {
			env = append(env[:len(env)-2], `,"candidates":`...)
			env = appendArray(env, cands)
			env = append(env, "}}"...)
		}
		return env
	}
	b := append([]byte(`{"ok":`), value.appendJSON(nil)...)
	return append(b, '}')
}

// decodeTarget reads a target object strictly (test driver only; the
// tools will read targets from their arguments).
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

// resolveTarget: {target, firstMatch?, text, symbols?} → ResolvedTarget;
// symbols is the raw documentSymbol result, absent when the server has no
// documentSymbol.
func plannedResolveTarget(in gjson.Result) (jsonAppender, []TargetCandidate, *Error) {
	t, err := decodeTarget(get(in, "target"))
	if err != nil {
		return nil, nil, err
	}
	text := get(in, "text")
	if text.Type != gjson.String {
		return nil, nil, Errorf(CodeInvalidArgument, "text must be a string, got %s", describe(text))
	}
	file := TargetFile{Text: text.Str}
	if s := get(in, "symbols"); s.Exists() {
		if file.Symbols, err = FlattenSymbols(s, text.Str); err != nil {
			return nil, nil, err
		}
	} else {
		file.NoSymbols = true
	}
	r, cands, err := ResolveTarget(t, get(in, "firstMatch").Type == gjson.True, file)
	if err != nil {
		return nil, cands, err
	}
	return r, nil, nil
}

// snippetInput is the input of planSnippets and codeLocations:
// {locations: [Location], workspaceUri, context?, includeBody?, limit?,
// files?: {uri: text}, symbols?: {uri: documentSymbol result}, subject?,
// maxResultChars?}. files stands for the disk: codeLocations hands
// BuildCodeLocations only the planned spans of the planned files, as a
// host reads them.
type snippetInput struct {
	locs    []Location
	ws      string
	opts    SnippetOptions
	files   map[string]string
	symbols map[string][]Symbol
}

func decodeSnippetInput(in gjson.Result) (snippetInput, *Error) {
	si := snippetInput{files: map[string]string{}, symbols: map[string][]Symbol{}, ws: get(in, "workspaceUri").Str}
	var problem string
	i := 0
	get(in, "locations").ForEach(func(_, item gjson.Result) bool {
		var l Location
		l, problem = locationOrLink(item, at{"locations", i})
		si.locs = append(si.locs, l)
		i++
		return problem == ""
	})
	if problem != "" {
		return si, &Error{Code: CodeInvalidArgument, Message: problem}
	}
	si.opts = SnippetOptions{Context: int(get(in, "context").Int()), IncludeBody: get(in, "includeBody").Bool(), Limit: int(get(in, "limit").Int())}
	get(in, "files").ForEach(func(k, v gjson.Result) bool {
		si.files[k.Str] = v.Str
		return true
	})
	var err *Error
	get(in, "symbols").ForEach(func(k, v gjson.Result) bool {
		if text, ok := si.files[k.Str]; ok {
			si.symbols[k.Str], err = FlattenSymbols(v, text)
		} else {
			si.symbols[k.Str], err = FlattenSymbolsUnchecked(v)
		}
		return err == nil
	})
	return si, err
}

func plannedPlanSnippets(in gjson.Result) (jsonAppender, *Error) {
	si, err := decodeSnippetInput(in)
	if err != nil {
		return nil, err
	}
	return wrap(PlanSnippets(si.locs, si.ws, si.opts, si.symbols))
}

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

func plannedCodeLocations(in gjson.Result) (jsonAppender, *Error) {
	si, err := decodeSnippetInput(in)
	if err != nil {
		return nil, err
	}
	plan, err := PlanSnippets(si.locs, si.ws, si.opts, si.symbols)
	if err != nil {
		return nil, err
	}
	var read []FileLines
	for _, f := range plan.Files {
		text, ok := si.files[f.URI]
		if !ok {
			continue // unreadable: no snippet
		}
		lines := splitLines(text)
		fl := FileLines{URI: f.URI}
		for _, s := range f.Spans {
			if int64(s.Start) < int64(len(lines)) {
				fl.Chunks = append(fl.Chunks, LineChunk{Start: s.Start, Lines: lines[s.Start:min(int64(s.End)+1, int64(len(lines)))]})
			}
		}
		read = append(read, fl)
	}
	cl, err := BuildCodeLocations(plan, read, si.symbols)
	if err != nil {
		return nil, err
	}
	return renderedLocations{cl, RenderCodeLocations(cl, get(in, "subject").Str, int(get(in, "maxResultChars").Int()))}, nil
}

func TestGoldenPlanned(t *testing.T) {
	dir := plannedDir()
	cases, err := casefile.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	byMethod := map[string][]casefile.Case{}
	for _, c := range cases {
		byMethod[c.Method] = append(byMethod[c.Method], c)
	}
	for _, m := range plannedMethods {
		if len(byMethod[m]) == 0 {
			t.Errorf("planned method %s has no cases in %s", m, dir)
		}
		if knownMethod(m) {
			t.Errorf("%s is an ABI method now: move its cases to testdata/core", m)
		}
	}
	for method, cs := range byMethod {
		t.Run(method, func(t *testing.T) {
			replayGolden(t, dir, method, cases, cs, callPlanned)
		})
	}
}
