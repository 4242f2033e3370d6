package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Translation of raw server payloads into the seam's closed Result union.
//
// Navigation results may legally be null, a Location, Location[] or
// LocationLink[]; lspseam also accepts arrays that mix the two element
// shapes, which some servers send. A LocationLink contributes its targetUri
// and targetSelectionRange (the identifier, not the whole declaration).
// Hover contents may be a string, a MarkedString, MarkedString[] or
// MarkupContent; all become one Markdown string. Everything else is a
// malformed response, reported with the JSON path of the first bad value.

// maxServerCoordinate bounds positions coming from servers. LSP's uinteger
// is 2^31-1, but servers in the wild use up to 2^32-1 to mean "end of
// line"; both are accepted and kept exact.
const maxServerCoordinate = 1<<32 - 1

// Translate normalizes an operation's raw result. present is false when the
// response carried no result member at all (not even null), which is
// malformed.
func Translate(op Operation, result gjson.Result) (Result, *Error) {
	if !op.valid() {
		return Result{}, Errorf(CodeInvalidArgument, "operation must be one of goToDefinition, findReferences, goToImplementation, hover; got %q", clip(string(op), 40))
	}
	if !result.Exists() {
		return Result{}, malformed(op, "the response has no result member; a server must answer with a result (null for no result) or an error")
	}
	if op == OpHover {
		h, err := translateHover(op, result)
		if err != nil {
			return Result{}, err
		}
		return Result{Kind: KindHover, Hover: h}, nil
	}
	locs, err := translateLocations(op, result)
	if err != nil {
		return Result{}, err
	}
	return Result{Kind: KindLocations, Locations: locs}, nil
}

func malformed(op Operation, detail string) *Error {
	return Errorf(CodeMalformedResponse, "the language server's %s response is malformed: %s", op, detail)
}

func translateLocations(op Operation, v gjson.Result) ([]Location, *Error) {
	switch {
	case v.Type == gjson.Null:
		return []Location{}, nil
	case v.IsObject():
		loc, problem := locationOrLink(v, at{"result", -1})
		if problem != "" {
			return nil, malformed(op, problem)
		}
		return []Location{loc}, nil
	case v.IsArray():
		if locs, ok := scanLocations(v.Raw, true); ok {
			return locs, nil
		}
		locs, problem := locationArray(v, "result", locationOrLink)
		if problem != "" {
			return nil, malformed(op, problem)
		}
		return locs, nil
	}
	return nil, malformed(op, "result must be null, a Location, or an array of Location or LocationLink, got "+describe(v))
}

// locationArray reads an array of locations with read, which names element
// i as base[i] in its problem: the general path, for what scanLocations
// does not take.
func locationArray(v gjson.Result, base string, read func(gjson.Result, at) (Location, string)) ([]Location, string) {
	locs := make([]Location, 0, 16)
	var problem string
	v.ForEach(func(_, item gjson.Result) bool {
		var loc Location
		loc, problem = read(item, at{base, len(locs)})
		if problem != "" {
			return false
		}
		locs = append(locs, loc)
		return true
	})
	if problem != "" {
		return nil, problem
	}
	return locs, ""
}

// at names a JSON value in error messages: base, or base[index] when
// index ≥ 0. Messages are built only when something is wrong, so the happy
// path of a 10,000-location answer allocates no path strings.
type at struct {
	base  string
	index int
}

func (a at) String() string {
	if a.index < 0 {
		return a.base
	}
	return a.base + "[" + strconv.Itoa(a.index) + "]"
}

func (a at) field(name string) string {
	if a.base == "" {
		return name
	}
	return a.String() + "." + name
}

// fields reads up to six named fields of an object in one pass (gjson's
// Get would rescan the object for each). The first occurrence of a
// duplicated key wins, as with Get.
func fields(v gjson.Result, names ...string) (out [6]gjson.Result) {
	v.ForEach(func(k, val gjson.Result) bool {
		for i, name := range names {
			if k.Str == name && !out[i].Exists() {
				out[i] = val
			}
		}
		return true
	})
	return out
}

// locationOrLink reads one Location or LocationLink; problem is non-empty
// when it is neither.
func locationOrLink(v gjson.Result, where at) (Location, string) {
	if !v.IsObject() {
		return Location{}, where.String() + " must be a Location or LocationLink object, got " + describe(v)
	}
	f := fields(v, "uri", "range", "targetUri", "targetSelectionRange")
	uri, rng, uriField, rangeField := f[0], f[1], "uri", "range"
	if f[2].Exists() {
		uri, rng, uriField, rangeField = f[2], f[3], "targetUri", "targetSelectionRange"
		if !rng.Exists() {
			return Location{}, where.String() + " is a LocationLink without targetSelectionRange"
		}
	}
	if uri.Type != gjson.String || uri.Str == "" {
		return Location{}, where.field(uriField) + " must be a non-empty string, got " + describe(uri)
	}
	r, problem := rangeOf(rng, where, rangeField)
	if problem != "" {
		return Location{}, problem
	}
	return Location{URI: uri.Str, Range: r}, ""
}

// rangeOf reads the Range in field of the value named by where.
func rangeOf(v gjson.Result, where at, field string) (Range, string) {
	if !v.IsObject() {
		return Range{}, where.field(field) + " must be a Range object, got " + describe(v)
	}
	f := fields(v, "start", "end")
	start, problem := positionOf(f[0], where, field, "start")
	if problem != "" {
		return Range{}, problem
	}
	end, problem := positionOf(f[1], where, field, "end")
	if problem != "" {
		return Range{}, problem
	}
	return Range{Start: start, End: end}, ""
}

// positionOf reads where.field.sub as a Position (sub may be empty).
func positionOf(v gjson.Result, where at, field, sub string) (Position, string) {
	name := func() string {
		if sub == "" {
			return where.field(field)
		}
		return where.field(field) + "." + sub
	}
	if !v.IsObject() {
		return Position{}, name() + " must be a Position object, got " + describe(v)
	}
	f := fields(v, "line", "character")
	l, ok := integer(f[0], 0, maxServerCoordinate)
	if !ok {
		return Position{}, name() + ".line must be a non-negative integer, got " + describe(f[0])
	}
	c, ok := integer(f[1], 0, maxServerCoordinate)
	if !ok {
		return Position{}, name() + ".character must be a non-negative integer, got " + describe(f[1])
	}
	return Position{Line: uint32(l), Character: uint32(c)}, ""
}

// translateHover normalizes a Hover or null. Empty contents become nil, a
// "no hover" answer, so a model never reads an empty string as information.
func translateHover(op Operation, v gjson.Result) (*Hover, *Error) {
	if v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsObject() {
		return nil, malformed(op, "result must be null or a Hover object, got "+describe(v))
	}
	contents := get(v, "contents")
	var parts []string
	switch {
	case contents.Type == gjson.String:
		parts = append(parts, contents.Str)
	case contents.IsObject():
		if get(contents, "kind").Exists() {
			text, problem := markupContent(contents, "result.contents")
			if problem != "" {
				return nil, malformed(op, problem)
			}
			parts = append(parts, text)
		} else {
			text, problem := markedString(contents, "result.contents")
			if problem != "" {
				return nil, malformed(op, problem)
			}
			parts = append(parts, text)
		}
	case contents.IsArray():
		var problem string
		i := 0
		contents.ForEach(func(_, item gjson.Result) bool {
			var text string
			text, problem = markedString(item, "result.contents["+strconv.Itoa(i)+"]")
			if problem != "" {
				return false
			}
			parts = append(parts, text)
			i++
			return true
		})
		if problem != "" {
			return nil, malformed(op, problem)
		}
	default:
		return nil, malformed(op, "result.contents must be a string, MarkedString, MarkedString[] or MarkupContent, got "+describe(contents))
	}
	var h Hover
	if r := get(v, "range"); r.Exists() && r.Type != gjson.Null {
		rng, problem := rangeOf(r, at{"result", -1}, "range")
		if problem != "" {
			return nil, malformed(op, problem)
		}
		h.Range = &rng
	}
	nonEmpty := parts[:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			nonEmpty = append(nonEmpty, trimBlankLines(p))
		}
	}
	if len(nonEmpty) == 0 {
		return nil, nil
	}
	h.Contents = strings.Join(nonEmpty, "\n\n")
	return &h, nil
}

// trimBlankLines drops the blank lines (whitespace only) before the first
// line with text and the whitespace after the last one, keeping the first
// line's indentation: servers pad hover text with newlines a model would
// otherwise read first.
func trimBlankLines(s string) string {
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			start = i + 1
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return strings.TrimRight(s[start:], " \t\r\n\f\v")
		}
	}
	return ""
}

// markedString reads a MarkedString: a Markdown string, or
// {language, value} rendered as a fenced code block.
func markedString(v gjson.Result, path string) (string, string) {
	if v.Type == gjson.String {
		return v.Str, ""
	}
	if !v.IsObject() {
		return "", path + " must be a string or {language, value}, got " + describe(v)
	}
	lang, value := get(v, "language"), get(v, "value")
	if lang.Type != gjson.String {
		return "", path + ".language must be a string, got " + describe(lang)
	}
	if value.Type != gjson.String {
		return "", path + ".value must be a string, got " + describe(value)
	}
	if strings.TrimSpace(value.Str) == "" {
		return "", ""
	}
	return fenced(lang.Str, value.Str), ""
}

// markupContent reads {kind: "markdown"|"plaintext", value}.
func markupContent(v gjson.Result, path string) (string, string) {
	kind, value := get(v, "kind"), get(v, "value")
	if kind.Type != gjson.String || (kind.Str != "markdown" && kind.Str != "plaintext") {
		return "", path + `.kind must be "markdown" or "plaintext", got ` + describe(kind)
	}
	if value.Type != gjson.String {
		return "", path + ".value must be a string, got " + describe(value)
	}
	return value.Str, ""
}

// fenced wraps code in a Markdown fence longer than any backtick run inside
// it, so the code cannot close its own fence.
func fenced(lang, code string) string {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimSuffix(code, "\n") + "\n" + fence
}
