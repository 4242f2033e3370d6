package core

// Whole-input fast paths for translate and render, the calls whose inputs
// grow with the answer (a references answer can hold 10,000 locations).
//
// The general path reads an input three times before the fast location
// reader sees it: parseInput checks it is JSON, then gjson walks the
// top-level members (and, for render, the result's) to find where each
// value ends. fastCall reads the common shape of the whole input in one
// pass with the validating scanner of locscan.go instead, and answers
// ok=false for anything else, so Call runs the general path, which gives
// the same answer or its error. An input it takes is valid JSON by
// construction (everything is read or skipped through validValue).
// FuzzFastCall checks the envelopes of the two paths are byte for byte the
// same.

// fastCall answers translate and render inputs of the common shape; ok is
// false when the general path must answer.
func fastCall(method, input string) (value jsonAppender, err *Error, ok bool) {
	s := locScanner{raw: input}
	s.ws()
	switch method {
	case "translate":
		r, ok := s.translateInput()
		if !ok || !s.end() {
			return nil, nil, false
		}
		if !s.nonASCII {
			return plainURIResult{r}, nil, true
		}
		return r, nil, true
	case "render":
		in, ok := s.renderInput()
		if !ok || !s.end() {
			return nil, nil, false
		}
		v, err := Render(in.result, in.workspaceURI, in.limits)
		if err != nil {
			return nil, err, true
		}
		return v, nil, true
	case "planSnippets":
		in, ok := scanSnippetInput(input)
		if !ok {
			return nil, nil, false
		}
		plan, err := PlanSnippets(in.si.locs, in.si.ws, in.si.opts, in.si.symbols)
		if err != nil {
			return nil, err, true
		}
		return plan, nil, true
	case "codeLocations":
		in, ok := scanSnippetInput(input)
		if !ok {
			return nil, nil, false
		}
		lines := func(f FileRead) (FileLines, bool, *Error) {
			chunks, ok := in.chunks[f.URI]
			return FileLines{URI: f.URI, Chunks: chunks}, ok, nil
		}
		v, err := codeLocationsOf(in.si, lines, in.subject, in.maxChars, nil)
		return v, err, true
	case "translateRender":
		in, ok := s.translateRenderInput()
		if !ok || !s.end() {
			return nil, nil, false
		}
		r := Result{Kind: KindLocations, Locations: in.locations, WorkspaceURI: in.workspaceURI, Subject: in.subject, Incomplete: in.incomplete}
		out, err := Render(r, in.workspaceURI, in.limits)
		if err != nil {
			return nil, err, true
		}
		return TranslatedRendered{Result: r, Rendered: out}, nil, true
	}
	return nil, nil, false
}

// translateRenderFast is a translateRender input with a locations result.
type translateRenderFast struct {
	locations                         []Location
	workspaceURI, subject, incomplete string
	limits                            Limits
}

// translateRenderInput reads {operation, result, workspaceUri, subject?,
// incomplete?, maxLocations?, maxResultChars?} for a navigation operation
// whose result is an array (what translateRenderCall reads; null subject,
// incomplete and limits are left to it).
func (s *locScanner) translateRenderInput() (translateRenderFast, bool) {
	var in translateRenderFast
	var op string
	var seen [7]bool
	ok := s.object(func(key string) (ok bool) {
		i := -1
		for j, name := range [...]string{"operation", "result", "workspaceUri", "subject", "incomplete", "maxLocations", "maxResultChars"} {
			if key == name {
				i = j
			}
		}
		if i < 0 || seen[i] {
			return s.skip()
		}
		seen[i] = true
		switch i {
		case 0:
			op, ok = s.str()
		case 1:
			in.locations, ok = s.locations(true)
		case 2:
			in.workspaceURI, ok = s.str()
		case 3:
			in.subject, ok = s.str()
		case 4:
			in.incomplete, ok = s.str()
		case 5:
			in.limits.MaxLocations, ok = s.limit()
		case 6:
			in.limits.MaxResultChars, ok = s.limit()
		}
		return ok
	})
	if !ok || !seen[0] || !seen[1] || !seen[2] || !Operation(op).valid() || Operation(op) == OpHover {
		return translateRenderFast{}, false
	}
	return in, true
}

// translateInput reads {operation, result} for a navigation operation
// whose result is an array (what dispatch and Translate read).
func (s *locScanner) translateInput() (Result, bool) {
	var op string
	var locs []Location
	var hasOp, hasResult bool
	ok := s.object(func(key string) (ok bool) {
		switch {
		case key == "operation" && !hasOp:
			op, ok = s.str()
			hasOp = true
		case key == "result" && !hasResult:
			locs, ok = s.locations(true)
			hasResult = true
		default:
			ok = s.skip()
		}
		return ok
	})
	if !ok || !hasOp || !hasResult || !Operation(op).valid() || Operation(op) == OpHover {
		return Result{}, false
	}
	return Result{Kind: KindLocations, Locations: locs}, true
}

// renderCall is a render input.
type renderCall struct {
	result       Result
	workspaceURI string
	limits       Limits
}

// renderInput reads {result, workspaceUri, maxLocations?, maxResultChars?}
// with a locations result (what dispatch and decodeResult read).
func (s *locScanner) renderInput() (renderCall, bool) {
	var in renderCall
	var hasResult, hasWS, hasMaxLocs, hasMaxChars bool
	ok := s.object(func(key string) (ok bool) {
		switch {
		case key == "result" && !hasResult:
			in.result, ok = s.seamResult()
			hasResult = true
		case key == "workspaceUri" && !hasWS:
			in.workspaceURI, ok = s.str()
			hasWS = true
		case key == "maxLocations" && !hasMaxLocs:
			in.limits.MaxLocations, ok = s.limit()
			hasMaxLocs = true
		case key == "maxResultChars" && !hasMaxChars:
			in.limits.MaxResultChars, ok = s.limit()
			hasMaxChars = true
		default:
			ok = s.skip()
		}
		return ok
	})
	return in, ok && hasResult && hasWS
}

// limit reads a render limit written as plain digits, in [1, maxUint31]
// (null and the integral forms integer accepts are left to the general
// path).
func (s *locScanner) limit() (int, bool) {
	n, ok := s.coordinate()
	if !ok || n < 1 || n > maxUint31 {
		return 0, false
	}
	return int(n), true
}
