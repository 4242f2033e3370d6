package core

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// inlayHints: code_inlay_hints' answer (§5.12) from the server's raw
// textDocument/inlayHint result over the whole document.
//
// Input {result: InlayHint[] or null, uri, workspaceUri, lines?, limit?
// (default 100, at most 500), offset? (the hints of earlier pages,
// skipped; default 0)}. Output {path, hints: [{line, column (one-based,
// UTF-16), label (a string, or the label parts' values joined), kind:
// "type" | "parameter" | "" (other or none), paddingLeft?, paddingRight?}],
// totalFound, truncated (hints follow this page), offset? (when > 0),
// resultKey, notice? (no hints), rendered}. Hints are sorted by position
// (stable); the page keeps hints [offset, offset+limit). resultKey names
// the whole ordered list of hints (on the lines asked for): a next page is
// of the same answer only with the same key.

// InlayHintItem is one inlay hint for the model.
type InlayHintItem struct {
	Pos          Position
	Label        string
	Kind         string
	PaddingLeft  bool
	PaddingRight bool
}

func (h InlayHintItem) appendJSON(b []byte) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, toOneBased(h.Pos.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, toOneBased(h.Pos.Character), 10)
	b = append(b, `,"label":`...)
	b = appendString(b, h.Label)
	b = append(b, `,"kind":`...)
	b = appendString(b, h.Kind)
	if h.PaddingLeft {
		b = append(b, `,"paddingLeft":true`...)
	}
	if h.PaddingRight {
		b = append(b, `,"paddingRight":true`...)
	}
	return append(b, '}')
}

// InlayHints is inlayHints' ok value.
type InlayHints struct {
	Path       string
	Hints      []InlayHintItem
	TotalFound int
	Truncated  bool // hints follow this page
	Offset     int  // hints of earlier pages (a cursor's page)
	// ResultKey names the whole ordered list of hints (position, label,
	// kind): a next page is of the same answer only with the same key.
	ResultKey string
	Notice    string
	Rendered  Rendered
}

func (h InlayHints) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, h.Path)
	b = append(b, `,"hints":`...)
	b = appendArray(b, h.Hints)
	b = append(b, `,"totalFound":`...)
	b = appendInt(b, int64(h.TotalFound))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, h.Truncated)
	if h.Offset > 0 {
		b = append(b, `,"offset":`...)
		b = appendInt(b, int64(h.Offset))
	}
	b = append(b, `,"resultKey":`...)
	b = appendString(b, h.ResultKey)
	if h.Notice != "" {
		b = append(b, `,"notice":`...)
		b = appendString(b, h.Notice)
	}
	b = append(b, `,"rendered":`...)
	b = h.Rendered.appendJSON(b)
	return append(b, '}')
}

const maxRenderedHintRunes = 120

func inlayHintsMalformed(detail string) *Error {
	return &Error{Code: CodeMalformedResponse, Message: "the language server's textDocument/inlayHint response is malformed: " + detail}
}

func inlayHintsCall(in gjson.Result) (jsonAppender, *Error) {
	uri := get(in, "uri")
	if uri.Type != gjson.String || uri.Str == "" {
		return nil, Errorf(CodeInvalidArgument, "uri must be the file's URI (the one the inlayHint request named), got %s", describe(uri))
	}
	wsPath, err := catalogWorkspace(in)
	if err != nil {
		return nil, err
	}
	limit, err := symbolsLimitArg(in, "hints")
	if err != nil {
		return nil, err
	}
	offset, err := offsetArg(in, "hints")
	if err != nil {
		return nil, err
	}
	result := get(in, "result")
	if !result.Exists() {
		return nil, inlayHintsMalformed("the response has no result member; a server must answer with a result (null for no hints) or an error")
	}
	hints, err := readInlayHints(result)
	if err != nil {
		return nil, err
	}
	// The lines asked for: servers answer for whole regions around them
	// (gopls returns a file's every hint for a range of 60 lines), so the
	// hints are filtered here, not trusted to the request's range.
	if lines := get(in, "lines"); lines.Exists() && lines.Type != gjson.Null {
		lr, problem := decodeLineRange(lines)
		if problem != "" {
			return nil, Errorf(CodeInvalidArgument, "%s", strings.ReplaceAll(problem, "range", "lines")) // the tool's range, named as this input names it
		}
		kept := hints[:0]
		for _, h := range hints {
			if line := int64(h.Pos.Line) + 1; line >= lr.StartLine && line <= lr.EndLine {
				kept = append(kept, h)
			}
		}
		hints = kept
	}
	out := InlayHints{Path: displayPath(uri.Str, wsPath), TotalFound: len(hints)}
	keys := make([]string, len(hints))
	for i, h := range hints {
		keys[i] = strconv.FormatUint(uint64(h.Pos.Line), 10) + ":" + strconv.FormatUint(uint64(h.Pos.Character), 10) + "\x00" + h.Kind + "\x00" + h.Label
	}
	out.ResultKey = listKey(keys)
	start := min(offset, len(hints))
	end := min(start+limit, len(hints))
	out.Offset, out.Truncated = start, end < len(hints)
	out.Hints = hints[start:end]
	if out.TotalFound == 0 {
		out.Notice = "no inlay hints in " + out.Path + ": the code may need none (its types and parameter names are written out), or the server's inlay hints are off — gopls needs its \"hints\" setting, typescript-language-server its includeInlay…Hints preferences"
		out.Rendered = Rendered{Text: upperFirst(out.Notice) + "."}
		return out, nil
	}
	var b strings.Builder
	b.WriteString(renderedName(out.Path) + " — " + strconv.Itoa(out.TotalFound) + " " + plural(out.TotalFound, "inlay hint", "inlay hints") + ":")
	for _, h := range out.Hints {
		b.WriteString("\n  " + strconv.FormatUint(toOneBased(h.Pos.Line), 10) + ":" + strconv.FormatUint(toOneBased(h.Pos.Character), 10) + " ")
		if h.Kind != "" {
			b.WriteString(h.Kind + " ")
		}
		b.WriteString(quoteCode(clipRunes(strings.Join(strings.Fields(h.Label), " "), maxRenderedHintRunes)))
	}
	switch {
	case out.Offset > 0 && len(out.Hints) == 0:
		b.WriteString("\n(no hints after the first " + strconv.Itoa(out.TotalFound) + ")")
	case out.Offset > 0:
		b.WriteString("\n(hints " + strconv.Itoa(out.Offset+1) + "–" + strconv.Itoa(out.Offset+len(out.Hints)) + " of " + strconv.Itoa(out.TotalFound) + ")")
	}
	omitted := out.TotalFound - out.Offset - len(out.Hints)
	if omitted > 0 {
		b.WriteString("\n… " + strconv.Itoa(omitted) + " more " + plural(omitted, "hint", "hints") + " not shown; " + raiseLimit(limit))
	}
	out.Rendered = Rendered{Text: b.String(), Shown: len(out.Hints), Omitted: omitted}
	return out, nil
}

// readInlayHints reads an InlayHint[] (or null), sorted by position.
func readInlayHints(result gjson.Result) ([]InlayHintItem, *Error) {
	if result.Type == gjson.Null {
		return nil, nil
	}
	if !result.IsArray() {
		return nil, inlayHintsMalformed("result must be null or an array of InlayHint, got " + describe(result))
	}
	var out []InlayHintItem
	var problem string
	i := 0
	result.ForEach(func(_, item gjson.Result) bool {
		var h InlayHintItem
		h, problem = readInlayHint(item, at{"result", i})
		out = append(out, h)
		i++
		return problem == ""
	})
	if problem != "" {
		return nil, inlayHintsMalformed(problem)
	}
	sortInlayHints(out)
	return out, nil
}

func readInlayHint(v gjson.Result, where at) (InlayHintItem, string) {
	var h InlayHintItem
	if !v.IsObject() {
		return h, where.String() + " must be an InlayHint object, got " + describe(v)
	}
	var pos, label, kind, padL, padR gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "position":
			pos = first(pos, val)
		case "label":
			label = first(label, val)
		case "kind":
			kind = first(kind, val)
		case "paddingLeft":
			padL = first(padL, val)
		case "paddingRight":
			padR = first(padR, val)
		}
		return true
	})
	var problem string
	if h.Pos, problem = positionOf(pos, where, "position", ""); problem != "" {
		return h, problem
	}
	switch {
	case label.Type == gjson.String:
		h.Label = label.Str
	case label.IsArray():
		var b strings.Builder
		j := 0
		label.ForEach(func(_, part gjson.Result) bool {
			value := get(part, "value")
			if !part.IsObject() || value.Type != gjson.String {
				problem = at{where.field("label"), j}.String() + " must be an InlayHintLabelPart object with a string value, got " + describe(part)
				return false
			}
			b.WriteString(value.Str)
			j++
			return true
		})
		if problem != "" {
			return h, problem
		}
		h.Label = b.String()
	default:
		return h, where.field("label") + " must be a string or an array of InlayHintLabelPart, got " + describe(label)
	}
	if kind.Exists() && kind.Type != gjson.Null {
		k, ok := integer(kind, 0, maxUint31)
		if !ok {
			return h, where.field("kind") + " must be an InlayHintKind number (1 type, 2 parameter), got " + describe(kind)
		}
		switch k {
		case 1:
			h.Kind = "type"
		case 2:
			h.Kind = "parameter"
		}
	}
	for _, p := range []struct {
		v    gjson.Result
		name string
		dst  *bool
	}{{padL, "paddingLeft", &h.PaddingLeft}, {padR, "paddingRight", &h.PaddingRight}} {
		if !p.v.Exists() || p.v.Type == gjson.Null {
			continue
		}
		if p.v.Type != gjson.True && p.v.Type != gjson.False {
			return h, where.field(p.name) + " must be a boolean, got " + describe(p.v)
		}
		*p.dst = p.v.Type == gjson.True
	}
	return h, ""
}

// sortInlayHints orders hints by position, stably.
func sortInlayHints(list []InlayHintItem) {
	sort.SliceStable(list, func(i, j int) bool { return positionLess(list[i].Pos, list[j].Pos) })
}
