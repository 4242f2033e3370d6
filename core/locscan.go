package core

import "unicode/utf8"

// A fast path for arrays of locations, the largest payloads translate and
// render read (a references answer can hold 10,000).
//
// Read through gjson, each location costs a walk per nesting level (array,
// location, range, position: each level scans the bytes of the levels
// below it again to find where a value ends), a closure call per key, and
// a float parse of every number gjson does whether or not it is wanted.
// Inside the WebAssembly module that walking was most of translate's and
// render's time. scanLocations reads the common shape in one pass over the
// bytes instead.
//
// It is a fast path, not a second parser: it accepts only what it can read
// exactly as the general path would (plain keys and URIs without escapes,
// coordinates written as plain digits in range, every required field
// present with the right type), and answers ok=false for anything else —
// including every malformed input — so the caller runs the general path,
// which then gives the same locations or the error message with its JSON
// path. It also checks what it reads and skips is valid JSON, exactly as
// parseInput would (validValue), so a whole input it takes needs no
// separate validation pass (see fastcall.go). FuzzScanLocations,
// FuzzScanSeamResult and FuzzFastCall check the paths agree.

// minLocationJSON is the shortest JSON text of one Location; no valid
// LocationLink is shorter. An array of n of them is at least this many
// bytes per element, so len(raw)/minLocationJSON+1 bounds n and sizes the
// slice once, without the doublings of append.
var minLocationJSON = len(`{"uri":"x","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`)

// scanLocations reads raw, a JSON array of Location objects (and, when
// links is set, LocationLink objects, read as their targetUri and
// targetSelectionRange as translate does; without it, as decodeResult
// does, only uri and range count). The first occurrence of a duplicated
// key wins, and keys it does not read are skipped, as with fields.
func scanLocations(raw string, links bool) ([]Location, bool) {
	s := locScanner{raw: raw}
	s.ws()
	locs, ok := s.locations(links)
	return locs, ok && s.end()
}

// locations reads the array at the scanner.
func (s *locScanner) locations(links bool) ([]Location, bool) {
	if !s.byte('[') {
		return nil, false
	}
	locs := make([]Location, 0, (len(s.raw)-s.i)/minLocationJSON+1)
	s.ws()
	if s.byte(']') {
		return locs, true
	}
	for {
		loc, ok := s.location(links)
		if !ok {
			return nil, false
		}
		locs = append(locs, loc)
		s.ws()
		if s.byte(']') {
			return locs, true
		}
		if !s.byte(',') {
			return nil, false
		}
		s.ws()
	}
}

// scanSeamResult reads a seam result with locations (render's input) as
// decodeResult would, reading the location array in place: walking the
// result's members with gjson first would scan the whole array once more
// just to find where it ends. Anything else (a hover, an escape in a
// string, a mistyped member) is left to decodeResult's general path.
func scanSeamResult(raw string) (Result, bool) {
	s := locScanner{raw: raw}
	s.ws()
	r, ok := s.seamResult()
	return r, ok && s.end()
}

// seamResult reads the seam result at the scanner.
func (s *locScanner) seamResult() (Result, bool) {
	var r Result
	var kind string
	var hasKind, hasLocs, hasWS, hasInc, hasSub bool
	ok := s.object(func(key string) (ok bool) {
		switch {
		case key == "kind" && !hasKind:
			kind, ok = s.str()
			hasKind = true
		case key == "locations" && !hasLocs:
			r.Locations, ok = s.locations(false)
			hasLocs = true
		case key == "workspaceUri" && !hasWS:
			r.WorkspaceURI, ok = s.str()
			hasWS = true
		case key == "incomplete" && !hasInc:
			r.Incomplete, ok = s.str()
			hasInc = true
		case key == "subject" && !hasSub:
			r.Subject, ok = s.str()
			hasSub = true
		default:
			ok = s.skip()
		}
		return ok
	})
	if !ok || kind != string(KindLocations) || !hasLocs {
		return Result{}, false
	}
	r.Kind = KindLocations
	return r, true
}

// locScanner reads raw from i on. Every method that returns false leaves
// the scan abandoned: the caller falls back to the general path.
type locScanner struct {
	raw string
	i   int
	// nonASCII is set once a string with a byte ≥ 0x80 was read. Until
	// then every string read needs no escaping in JSON output (str refuses
	// quotes, backslashes and control characters).
	nonASCII bool
}

// end reports whether only whitespace is left.
func (s *locScanner) end() bool {
	s.ws()
	return s.i == len(s.raw)
}

func (s *locScanner) ws() {
	raw, i := s.raw, s.i
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	s.i = i
}

// byte consumes c if it is next.
func (s *locScanner) byte(c byte) bool {
	if s.i < len(s.raw) && s.raw[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes; it is a view of raw, as gjson's Str
// is for such a string. (Hot: raw and i are kept in locals, since the
// module's code stores a field through the pointer at every step.)
func (s *locScanner) str() (string, bool) {
	raw, i := s.raw, s.i
	if i >= len(raw) || raw[i] != '"' {
		return "", false
	}
	i++
	start := i
	var seen byte // every byte ORed, to tell whether any was non-ASCII
	for i < len(raw) {
		c := raw[i]
		if stringStop[c] {
			if c != '"' { // an escape (left to gjson) or a control character (not JSON)
				return "", false
			}
			if seen >= utf8.RuneSelf {
				s.nonASCII = true
			}
			s.i = i + 1
			return raw[start:i], true
		}
		seen |= c
		i++
	}
	return "", false
}

// coordinate reads a server coordinate written as plain digits, within
// [0, maxServerCoordinate]. A sign, fraction or exponent (which integer
// accepts when integral) is left to the general path.
func (s *locScanner) coordinate() (uint32, bool) {
	raw, i := s.raw, s.i
	start := i
	var n uint64
	for i < len(raw) && '0' <= raw[i] && raw[i] <= '9' {
		n = n*10 + uint64(raw[i]-'0')
		if n > maxServerCoordinate {
			return 0, false
		}
		i++
	}
	if i == start || i < len(raw) && (raw[i] == '.' || raw[i] == 'e' || raw[i] == 'E') {
		return 0, false
	}
	if raw[start] == '0' && i > start+1 { // a leading zero is not JSON
		return 0, false
	}
	s.i = i
	return uint32(n), true
}

// skip passes over one value, checking it is JSON.
func (s *locScanner) skip() bool {
	var ok bool
	s.i, ok = validValue(s.raw, s.i)
	return ok
}

// array reads the array at the scanner, calling elem for each element
// with the scanner at it; elem reads the element and reports whether it
// could. For arrays of few or large elements: the per-location reader
// writes its loop out (see object).
func (s *locScanner) array(elem func() bool) bool {
	if !s.byte('[') {
		return false
	}
	s.ws()
	if s.byte(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		s.ws()
		if s.byte(']') {
			return true
		}
		if !s.byte(',') {
			return false
		}
		s.ws()
	}
}

// object reads the object at the scanner, calling read for each member
// with the scanner at its value; read reads or skips the value and
// reports whether it could. For the readers that run once per input
// (translateInput, renderInput, seamResult). The per-location readers
// below write the loop out instead: in the module every call is costly
// (Go's WebAssembly code saves and restores its own stack at each one),
// and a closure per member of every location was a fifth of the scan.
func (s *locScanner) object(read func(key string) bool) bool {
	if !s.byte('{') {
		return false
	}
	for first := true; ; first = false {
		key, done, ok := s.member(first)
		if done {
			return true
		}
		if !ok || !read(key) {
			return false
		}
	}
}

// member reads the next member's key and the colon after it, leaving the
// scanner at its value. first is true for the object's first member;
// done is true (and ok true) at the closing brace.
func (s *locScanner) member(first bool) (key string, done, ok bool) {
	s.ws()
	if s.byte('}') {
		return "", true, true
	}
	if !first {
		if !s.byte(',') {
			return "", false, false
		}
		s.ws()
	}
	key, ok = s.str()
	if !ok {
		return "", false, false
	}
	s.ws()
	if !s.byte(':') {
		return "", false, false
	}
	s.ws()
	return key, false, true
}

// location reads one Location (or LocationLink when links is set).
func (s *locScanner) location(links bool) (Location, bool) {
	var (
		uri, target        string
		rng, targetRng     Range
		hasURI, hasRange   bool
		hasTarget, hasTRng bool
	)
	if !s.byte('{') {
		return Location{}, false
	}
	for first := true; ; first = false {
		key, done, ok := s.member(first)
		if done {
			break
		}
		if ok {
			switch {
			case key == "uri" && !hasURI:
				uri, ok = s.str()
				hasURI = true
			case key == "range" && !hasRange:
				rng, ok = s.rangeValue()
				hasRange = true
			case links && key == "targetUri" && !hasTarget:
				target, ok = s.str()
				hasTarget = true
			case links && key == "targetSelectionRange" && !hasTRng:
				targetRng, ok = s.rangeValue()
				hasTRng = true
			default:
				ok = s.skip()
			}
		}
		if !ok {
			return Location{}, false
		}
	}
	switch {
	case hasTarget:
		if !hasTRng || target == "" {
			return Location{}, false
		}
		return Location{URI: target, Range: targetRng}, true
	case !hasURI || !hasRange || uri == "":
		return Location{}, false
	}
	return Location{URI: uri, Range: rng}, true
}

func (s *locScanner) rangeValue() (Range, bool) {
	var r Range
	var hasStart, hasEnd bool
	if !s.byte('{') {
		return r, false
	}
	for first := true; ; first = false {
		key, done, ok := s.member(first)
		if done {
			break
		}
		if ok {
			switch {
			case key == "start" && !hasStart:
				r.Start, ok = s.position()
				hasStart = true
			case key == "end" && !hasEnd:
				r.End, ok = s.position()
				hasEnd = true
			default:
				ok = s.skip()
			}
		}
		if !ok {
			return r, false
		}
	}
	return r, hasStart && hasEnd
}

func (s *locScanner) position() (Position, bool) {
	var p Position
	var hasLine, hasChar bool
	if !s.byte('{') {
		return p, false
	}
	for first := true; ; first = false {
		key, done, ok := s.member(first)
		if done {
			break
		}
		if ok {
			switch {
			case key == "line" && !hasLine:
				p.Line, ok = s.coordinate()
				hasLine = true
			case key == "character" && !hasChar:
				p.Character, ok = s.coordinate()
				hasChar = true
			default:
				ok = s.skip()
			}
		}
		if !ok {
			return p, false
		}
	}
	return p, hasLine && hasChar
}
