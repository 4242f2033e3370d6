package core

// A fast path for outline entries (flattenSymbols' answer, which a host
// sends back as planSnippets' and codeLocations' outlines and
// resolveTarget's outline), read in one pass as locscan.go reads
// locations: through gjson each entry was walked once per nesting level,
// and in the module decoding the outlines was the largest part of a
// by-name answer's codeLocations call.
//
// Like scanLocations it is a fast path, not a second parser: it takes only
// what it reads exactly as decodeOutline's general path would (names and
// keys without escapes, kind and coordinates as plain digits in range,
// container a string when present) and answers ok=false for anything else,
// including every malformed input, so the general path reads it or
// explains what is wrong with its JSON path. FuzzScanOutline checks the
// two agree.

// scanOutline reads raw, a JSON array of outline entries {name, kind,
// container?, range, selectionRange}; the first of a duplicated key wins
// and other keys are skipped, as with fields.
func scanOutline(raw string) ([]Symbol, bool) {
	s := locScanner{raw: raw}
	s.ws()
	out, ok := s.outline()
	return out, ok && s.end()
}

// outline reads an array of outline entries at the scanner.
func (s *locScanner) outline() ([]Symbol, bool) {
	out := []Symbol{}
	ok := s.array(func() bool {
		sym, ok := s.outlineEntry()
		out = append(out, sym)
		return ok
	})
	return out, ok
}

// outlineEntry reads one entry (the loop written out, as location's is).
func (s *locScanner) outlineEntry() (Symbol, bool) {
	var sym Symbol
	var hasName, hasKind, hasContainer, hasRange, hasSel bool
	if !s.byte('{') {
		return sym, false
	}
	for first := true; ; first = false {
		key, done, ok := s.member(first)
		if done {
			break
		}
		if ok {
			switch {
			case key == "name" && !hasName:
				sym.Name, ok = s.str()
				hasName = true
			case key == "kind" && !hasKind:
				var k uint32
				k, ok = s.coordinate()
				ok = ok && k >= 1 && k <= maxUint31
				sym.Kind, hasKind = SymbolKind(k), true
			case key == "container" && !hasContainer:
				sym.Container, ok = s.str() // null is left to the general path
				hasContainer = true
			case key == "range" && !hasRange:
				sym.Range, ok = s.rangeValue()
				hasRange = true
			case key == "selectionRange" && !hasSel:
				sym.Selection, ok = s.rangeValue()
				hasSel = true
			default:
				ok = s.skip()
			}
		}
		if !ok {
			return sym, false
		}
	}
	return sym, hasName && hasKind && hasRange && hasSel
}
