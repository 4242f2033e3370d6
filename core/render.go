package core

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Rendering a Result as the text a model reads.
//
// Locations render one per line as path:line:character, one-based, grouped
// by file in first-seen order, paths relative to the workspace when inside
// it (see uri.go). Two limits bound the text: MaxLocations (how many lines)
// and MaxResultChars (Unicode code points in the complete text, the notice
// that says something was left out included). Location lists are only ever
// cut between lines, so a model never reads a half location as a whole
// one; hover text is cut at a code point.

// Default limits.
const (
	DefaultMaxLocations   = 100
	DefaultMaxResultChars = 16000
)

// The "no result" lines. They differ so a model can tell "nothing there"
// from "no documentation", and they restate the coordinate convention
// because an off-by-one cursor is the usual cause.
const (
	NoLocationsText = "No locations found. If you expected some, check the cursor: line and character are one-based, and character counts UTF-16 code units (an emoji counts as 2)."
	NoHoverText     = "No hover information at this position. If you expected some, check the cursor: line and character are one-based, and character counts UTF-16 code units (an emoji counts as 2)."
)

// shortNotice replaces a notice that does not fit the character budget.
const shortNotice = "[truncated]"

// Limits bound the rendered text. Zero fields take the defaults.
type Limits struct {
	MaxLocations   int `json:"maxLocations,omitempty"`
	MaxResultChars int `json:"maxResultChars,omitempty"`
}

func (l Limits) withDefaults() Limits {
	if l.MaxLocations <= 0 {
		l.MaxLocations = DefaultMaxLocations
	}
	if l.MaxResultChars <= 0 {
		l.MaxResultChars = DefaultMaxResultChars
	}
	return l
}

// Rendered is the text for the model and what it holds: Shown locations
// (or 1 for a hover), Omitted locations, and whether MaxResultChars cut it.
type Rendered struct {
	Text      string `json:"text"`
	Shown     int    `json:"shown"`
	Omitted   int    `json:"omitted"`
	Truncated bool   `json:"truncated"`
}

// jsonSize estimates the encoded size: the text, room for escaping a
// newline every eight bytes (one per location line), and the fields.
func (r Rendered) jsonSize() int { return len(r.Text) + len(r.Text)/8 + 96 }

func (r Rendered) appendJSON(b []byte) []byte {
	b = append(b, `{"text":`...)
	b = appendString(b, r.Text)
	b = append(b, `,"shown":`...)
	b = appendInt(b, int64(r.Shown))
	b = append(b, `,"omitted":`...)
	b = appendInt(b, int64(r.Omitted))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, r.Truncated)
	return append(b, '}')
}

// Render renders a result for a workspace given as its canonical file: URI.
func Render(r Result, workspaceURI string, limits Limits) (Rendered, *Error) {
	wsPath, ok := WorkspacePath(workspaceURI)
	if !ok {
		return Rendered{}, Errorf(CodeInvalidArgument, "workspaceUri must be the file: URI of the workspace directory (file:///path/to/workspace), got %q", clip(workspaceURI, 200))
	}
	limits = limits.withDefaults()
	// The subject (what the answer is for) is the first line, and an
	// incomplete answer ends with a line that says so. Both are part of the
	// text maxResultChars bounds, so the body gets what they leave; a line
	// that does not fit beside a body is left out.
	prefix := ""
	if r.Subject != "" {
		prefix = r.Subject + "\n"
		if n := utf8.RuneCountInString(prefix); n < limits.MaxResultChars {
			limits.MaxResultChars -= n
		} else {
			prefix = ""
		}
	}
	suffix := ""
	if r.Incomplete != "" {
		suffix = "\n(" + IncompletePrefix + r.Incomplete + ")"
		if n := utf8.RuneCountInString(suffix); n < limits.MaxResultChars {
			limits.MaxResultChars -= n
		} else {
			suffix = ""
		}
	}
	var out Rendered
	if r.Kind == KindHover {
		out = renderHover(r.Hover, limits.MaxResultChars)
	} else {
		out = renderLocations(r.Locations, wsPath, limits)
	}
	out.Text = prefix + out.Text + suffix
	return out, nil
}

// IncompletePrefix starts the line that marks a possibly partial answer.
const IncompletePrefix = "possibly incomplete: "

func renderHover(h *Hover, maxChars int) Rendered {
	if h == nil || strings.TrimSpace(h.Contents) == "" {
		return fitText(Rendered{Text: NoHoverText}, maxChars)
	}
	contents := hoverEntities(h.Contents)
	out := Rendered{Text: contents, Shown: 1}
	total := utf8.RuneCountInString(contents)
	if total <= maxChars {
		return out
	}
	out.Truncated = true
	notice := "\n[hover text truncated to maxResultChars " + strconv.Itoa(maxChars) + " of its " + strconv.Itoa(total) + " characters]"
	for _, n := range []string{notice, "\n" + shortNotice} {
		if keep := maxChars - utf8.RuneCountInString(n); keep >= 0 {
			out.Text = firstRunes(contents, keep) + n
			return out
		}
	}
	out.Text = firstRunes(shortNotice, maxChars)
	return out
}

// fitText cuts a fixed message to the budget (only a tiny maxResultChars
// can make that necessary).
func fitText(r Rendered, maxChars int) Rendered {
	if utf8.RuneCountInString(r.Text) > maxChars {
		r.Text = firstRunes(r.Text, maxChars)
		r.Truncated = true
	}
	return r
}

func renderLocations(locs []Location, wsPath string, limits Limits) Rendered {
	if len(locs) == 0 {
		return fitText(Rendered{Text: NoLocationsText}, limits.MaxResultChars)
	}
	order, groups := groupByFile(locs, wsPath)
	total := len(order)
	shown := min(total, limits.MaxLocations)

	// prefix[k] is the length in code points of the first k lines joined by
	// newlines (without a trailing newline).
	prefix := make([]int, shown+1)
	for i := 0; i < shown; i++ {
		l := locs[order[i].loc]
		n := groups[order[i].group].runes + 2 + digits(toOneBased(l.Range.Start.Line)) + digits(toOneBased(l.Range.Start.Character))
		prefix[i+1] = prefix[i] + n
		if i > 0 {
			prefix[i+1]++
		}
	}
	textLen := func(k int, notice string) int {
		n := prefix[k] + utf8.RuneCountInString(notice)
		if k > 0 && notice != "" {
			n++ // the newline before the notice
		}
		return n
	}
	write := func(k int, notice string) string {
		// Sized exactly and built in a strings.Builder, so the text is
		// allocated once (not a buffer, then a copy as a string).
		size := len(notice) + 1
		for i := 0; i < k; i++ {
			l := locs[order[i].loc]
			size += len(groups[order[i].group].path) + 3 + digits(toOneBased(l.Range.Start.Line)) + digits(toOneBased(l.Range.Start.Character))
		}
		var sb strings.Builder
		sb.Grow(size)
		var num [20]byte
		for i := 0; i < k; i++ {
			if i > 0 {
				sb.WriteByte('\n')
			}
			l := locs[order[i].loc]
			sb.WriteString(groups[order[i].group].path)
			sb.WriteByte(':')
			sb.Write(strconv.AppendUint(num[:0], toOneBased(l.Range.Start.Line), 10))
			sb.WriteByte(':')
			sb.Write(strconv.AppendUint(num[:0], toOneBased(l.Range.Start.Character), 10))
		}
		if notice != "" {
			if k > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(notice)
		}
		return sb.String()
	}
	notice := ""
	if shown < total {
		notice = "(" + strconv.Itoa(total-shown) + " more " + plural(total-shown, "location", "locations") + " not shown; maxLocations is " + strconv.Itoa(limits.MaxLocations) + ")"
	}
	if textLen(shown, notice) <= limits.MaxResultChars {
		return Rendered{Text: write(shown, notice), Shown: shown, Omitted: total - shown}
	}

	// Too long: keep the most whole lines that fit together with a notice.
	// Each line adds at least six code points while the notice shrinks by at
	// most one as its count loses a digit, so the length grows with k and
	// binary search finds the largest k.
	charNotice := func(k int) string {
		return "(" + strconv.Itoa(total-k) + " more " + plural(total-k, "location", "locations") + " not shown; the text was cut to maxResultChars " + strconv.Itoa(limits.MaxResultChars) + ")"
	}
	k := sort.Search(shown+1, func(k int) bool { return textLen(k, charNotice(k)) > limits.MaxResultChars }) - 1
	out := Rendered{Shown: max(k, 0), Omitted: total - max(k, 0), Truncated: true}
	switch {
	case k >= 0:
		out.Text = write(k, charNotice(k))
	case utf8.RuneCountInString(shortNotice) <= limits.MaxResultChars:
		out.Text = shortNotice
	default:
		out.Text = firstRunes(shortNotice, limits.MaxResultChars)
	}
	return out
}

// fileGroup is one displayed path, its length in code points and how many
// lines it has.
type fileGroup struct {
	path  string
	runes int
	lines int
}

// lineRef is one output line: a location and its file group.
type lineRef struct{ loc, group int32 }

// groupByFile orders locations for display: grouped by display path in
// first-seen order, otherwise in the server's order.
//
// Its maps and slices were most of render's bytes, so: one map, by display
// path (a location's path is worked out again unless its URI is the
// previous location's, the usual case since servers list references file
// by file); the map and the groups sized up front for up to 4,096 files
// instead of grown by doubling; and a counting sort into one order slice,
// not a slice per group.
func groupByFile(locs []Location, wsPath string) ([]lineRef, []fileGroup) {
	hint := min(len(locs), 4096)
	groups := make([]fileGroup, 0, hint)
	byPath := make(map[string]int32, hint)
	groupOf := make([]int32, len(locs))
	prevURI, g := "", int32(-1)
	for i, l := range locs {
		if g < 0 || l.URI != prevURI {
			p := displayPath(l.URI, wsPath)
			var ok bool
			if g, ok = byPath[p]; !ok {
				g = int32(len(groups))
				byPath[p] = g
				groups = append(groups, fileGroup{path: p, runes: utf8.RuneCountInString(p)})
			}
			prevURI = l.URI
		}
		groupOf[i] = g
		groups[g].lines++
	}
	next := make([]int32, len(groups)) // each group's next slot in order
	offset := int32(0)
	for g := range groups {
		next[g], offset = offset, offset+int32(groups[g].lines)
	}
	order := make([]lineRef, len(locs))
	for i, g := range groupOf {
		order[next[g]] = lineRef{loc: int32(i), group: g}
		next[g]++
	}
	return order, groups
}

// digits is the number of decimal digits of n.
func digits(n uint64) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// firstRunes returns the first n code points of s.
func firstRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// decodeResult reads a seam Result (what Translate or a provider returns)
// back from JSON, strictly.
func decodeResult(v gjson.Result) (Result, *Error) {
	bad := func(detail string) (Result, *Error) {
		return Result{}, Errorf(CodeInvalidArgument, "result must be a seam result ({kind:\"locations\", locations:[{uri, range}]} or {kind:\"hover\", hover:{contents, range?}|null}): %s", detail)
	}
	if !v.IsObject() {
		return bad("got " + describe(v))
	}
	if r, ok := scanSeamResult(v.Raw); ok {
		return r, nil
	}
	return decodeResultMembers(v, bad)
}

// decodeResultMembers is decodeResult's general path, for what
// scanSeamResult does not take.
func decodeResultMembers(v gjson.Result, bad func(string) (Result, *Error)) (Result, *Error) {
	r := Result{}
	// One pass over the members: each get of a field that comes after the
	// locations, or is absent, would walk the whole location list again.
	f := fields(v, "kind", "locations", "hover", "workspaceUri", "incomplete", "subject")
	kind, locs, hover, ws, inc, sub := f[0], f[1], f[2], f[3], f[4], f[5]
	if ws.Exists() {
		if ws.Type != gjson.String {
			return bad("workspaceUri must be a string, got " + describe(ws))
		}
		r.WorkspaceURI = ws.Str
	}
	if inc.Exists() && inc.Type != gjson.Null {
		if inc.Type != gjson.String {
			return bad("incomplete must be a string, got " + describe(inc))
		}
		r.Incomplete = inc.Str
	}
	if sub.Exists() && sub.Type != gjson.Null {
		if sub.Type != gjson.String {
			return bad("subject must be a string, got " + describe(sub))
		}
		r.Subject = sub.Str
	}
	switch {
	case kind.Type == gjson.String && kind.Str == string(KindLocations):
		r.Kind = KindLocations
		if !locs.IsArray() {
			return bad("locations must be an array, got " + describe(locs))
		}
		if list, ok := scanLocations(locs.Raw, false); ok {
			r.Locations = list
			break
		}
		list, problem := locationArray(locs, "locations", seamLocation)
		if problem != "" {
			return bad(problem)
		}
		r.Locations = list
	case kind.Type == gjson.String && kind.Str == string(KindHover):
		r.Kind = KindHover
		switch h := hover; {
		case h.Type == gjson.Null:
		case h.IsObject():
			contents := get(h, "contents")
			if contents.Type != gjson.String {
				return bad("hover.contents must be a string, got " + describe(contents))
			}
			r.Hover = &Hover{Contents: contents.Str}
			if rv := get(h, "range"); rv.Exists() && rv.Type != gjson.Null {
				rng, problem := rangeOf(rv, at{"hover", -1}, "range")
				if problem != "" {
					return bad(problem)
				}
				r.Hover.Range = &rng
			}
		default:
			return bad("hover must be null or an object, got " + describe(h))
		}
	default:
		return bad(`kind must be "locations" or "hover", got ` + describe(kind))
	}
	return r, nil
}

// seamLocation reads one location of a seam result (a Location; links
// were translated away).
func seamLocation(item gjson.Result, where at) (Location, string) {
	if !item.IsObject() {
		return Location{}, where.String() + " must be an object, got " + describe(item)
	}
	f := fields(item, "uri", "range")
	if f[0].Type != gjson.String || f[0].Str == "" {
		return Location{}, where.field("uri") + " must be a non-empty string, got " + describe(f[0])
	}
	rng, problem := rangeOf(f[1], where, "range")
	if problem != "" {
		return Location{}, problem
	}
	return Location{URI: f[0].Str, Range: rng}, ""
}
