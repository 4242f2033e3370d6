package core

import "github.com/tidwall/gjson"

// A whole-input fast path for planSnippets and codeLocations, the calls of
// every navigation answer (fastcall.go does the same for translate and
// render).
//
// Their input is the server's locations, the outlines of the result
// files and the lines the host read. Read through gjson it was walked
// three times before its values were decoded — parseInput's validation,
// members' walk past every large value, then each value's own walk — and
// in the module that was about a third of a by-name answer's
// codeLocations call. scanSnippetInput reads the common shape in one
// validating pass with locscan.go's scanner and answers ok=false for
// anything else (raw symbols, implementationOf, a whole file's text, a
// repeated member, an escape in a key or a URI, a number that is not
// plain digits): Call then runs the general path, which gives the same
// answer or its error. FuzzFastSnippets checks the envelopes of the two
// paths are byte for byte the same.

// snippetScan is a snippet input read by the fast path: the input as
// decodeSnippetInput reads it, each file's lines already decoded.
type snippetScan struct {
	si         snippetInput
	chunks     map[string][]LineChunk // by URI
	subject    string
	maxChars   int
	hasSubject bool
}

// scanSnippetInput reads a planSnippets or codeLocations input in one
// pass; ok is false when the general path must read it.
func scanSnippetInput(raw string) (snippetScan, bool) {
	s := locScanner{raw: raw}
	s.ws()
	in := snippetScan{si: snippetInput{symbols: map[string][]Symbol{}}, chunks: map[string][]LineChunk{}}
	var seen [10]bool // the members below, each read once
	once := func(i int) bool {
		if seen[i] {
			return false // a repeated member: the general path takes the first
		}
		seen[i] = true
		return true
	}
	ok := s.object(func(key string) bool {
		switch key {
		case "locations":
			if !once(0) {
				return false
			}
			locs, ok := s.locations(true)
			in.si.locs = locs
			return ok && len(locs) > 0 // none: as the general path reads it
		case "workspaceUri":
			if !once(1) {
				return false
			}
			var ok bool
			in.si.ws, ok = s.str()
			return ok
		case "context":
			return once(2) && s.optionalInt(&in.si.opts.Context, 0)
		case "limit":
			return once(3) && s.optionalInt(&in.si.opts.Limit, 0)
		case "offset":
			return once(4) && s.optionalInt(&in.si.opts.Offset, 0)
		case "includeBody":
			if !once(5) {
				return false
			}
			switch {
			case s.literal("true"):
				in.si.opts.IncludeBody = true
			case s.literal("false"), s.literal("null"):
			default:
				return false
			}
			return true
		case "files":
			return once(6) && s.uriObject(func(uri string) bool {
				chunks, ok := s.lineChunks()
				in.chunks[uri] = chunks
				return ok
			})
		case "outlines":
			return once(7) && s.uriObject(func(uri string) bool {
				outline, ok := s.outline()
				in.si.symbols[uri] = outline
				return ok
			})
		case "subject":
			if !once(8) {
				return false
			}
			if s.literal("null") {
				return true
			}
			var ok bool
			in.subject, ok = s.text()
			in.hasSubject = true
			return ok
		case "maxResultChars":
			return once(9) && s.optionalInt(&in.maxChars, 1)
		case "symbols", "implementationOf":
			return false // the general path's
		}
		return s.skip() // a member neither path reads
	})
	if !ok || !s.end() || !seen[0] || !seen[1] {
		return snippetScan{}, false
	}
	return in, true
}

// literal consumes word (true, false, null) if it is next and ends there.
func (s *locScanner) literal(word string) bool {
	end := s.i + len(word)
	if end > len(s.raw) || s.raw[s.i:end] != word {
		return false
	}
	if end < len(s.raw) && (s.raw[end] >= 'a' && s.raw[end] <= 'z') {
		return false
	}
	s.i = end
	return true
}

// optionalInt reads null (leaving dst) or plain digits from least to
// maxUint31 into dst, as integer reads them for decodeSnippetInput.
func (s *locScanner) optionalInt(dst *int, least uint32) bool {
	if s.literal("null") {
		return true
	}
	n, ok := s.coordinate()
	if !ok || n < least || n > maxUint31 {
		return false
	}
	*dst = int(n)
	return true
}

// text reads a string, escapes included, as gjson reads it: a view of
// raw without escapes, else gjson's own unescaping of the validated
// token.
func (s *locScanner) text() (string, bool) {
	if v, ok := s.str(); ok {
		return v, true
	}
	start := s.i
	if start >= len(s.raw) || s.raw[start] != '"' {
		return "", false
	}
	end, ok := validValue(s.raw, start)
	if !ok {
		return "", false
	}
	s.i = end
	return gjson.Parse(s.raw[start:end]).Str, true
}

// uriObject reads an object keyed by file URI (keys without escapes, each
// once), calling value with the scanner at each value.
func (s *locScanner) uriObject(value func(uri string) bool) bool {
	keys := map[string]bool{}
	return s.object(func(uri string) bool {
		if keys[uri] {
			return false // the general path keeps the last
		}
		keys[uri] = true
		return value(uri)
	})
}

// lineChunks reads [{start, lines?:[string]}], as decodeLineChunks does
// (other members skipped). A null (lines, or a files or outlines object)
// is left to the general path, whose gjson walk reads it as one element.
func (s *locScanner) lineChunks() ([]LineChunk, bool) {
	var out []LineChunk
	ok := s.array(func() bool {
		var c LineChunk
		var hasStart, hasLines bool
		ok := s.object(func(key string) bool {
			switch {
			case key == "start" && !hasStart:
				hasStart = true
				n, ok := s.coordinate()
				c.Start = n
				return ok && n <= maxUint31
			case key == "lines" && !hasLines:
				hasLines = true
				return s.array(func() bool {
					v, ok := s.text()
					c.Lines = append(c.Lines, v)
					return ok
				})
			case key == "start" || key == "lines":
				return false // repeated: the general path takes the first
			}
			return s.skip()
		})
		out = append(out, c)
		return ok && hasStart
	})
	return out, ok
}
