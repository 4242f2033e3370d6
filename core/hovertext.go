package core

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// codeHover: code_hover's answer (§5.4) from the server's raw hover and
// signature-help results.
//
// Input {hover: the textDocument/hover result (null for none),
// signatureHelp?: the textDocument/signatureHelp result (null or absent
// for none), subject?: the line naming the target, written first}.
//
// The hover (every shape translate accepts, normalized by translateHover)
// is flattened to plain text: the signature — the first fenced code block,
// without its fence (the second when the first is a lone module path, as
// rust-analyzer writes; without a code block, a first paragraph made only
// of code spans and emphases, as terraform-ls writes "**name** _type_") —
// then the first paragraph of documentation, with
// Markdown's inline marks (code spans, emphasis, links, escapes) removed;
// headings, rules, further code blocks, later paragraphs, link-only
// paragraphs (gopls's pkg.go.dev link) and clangd's type/parameter lines
// (the signature already says them) are left out. Plaintext hovers are
// kept whole. When signature help has an active signature, "In a call
// to: LABEL" with the active parameter in **…** follows (the call the
// target is in, never the target's own signature).
//
// Output {text, signature?: {label, activeParameter?, parameters}, notice?
// (neither gave anything), rendered}. Parameter labels given as [start,
// end] UTF-16 offsets are cut from the signature's label (offsets outside
// it are malformed); string labels are found in it, in order, to bold the
// active one. The parameters listed are bounded (256, and about twice the
// label's length in all).

// Bounds of hover text.
const (
	maxHoverTextRunes      = 8000
	maxSignatureLabelRunes = 2000
	maxSignatureParameters = 256
	maxInlineDepth         = 8
)

// SignatureInfo is the active signature of a signature help.
type SignatureInfo struct {
	Label           string
	ActiveParameter string // the active parameter's label; "" for none
	HasActive       bool
	Parameters      []string
	activeStart     int // byte offsets of the active parameter in Label
	activeEnd       int
}

func (s *SignatureInfo) appendJSON(b []byte) []byte {
	b = append(b, `{"label":`...)
	b = appendString(b, s.Label)
	if s.HasActive {
		b = append(b, `,"activeParameter":`...)
		b = appendString(b, s.ActiveParameter)
	}
	b = append(b, `,"parameters":`...)
	b = appendStrings(b, s.Parameters)
	return append(b, '}')
}

// CodeHover is codeHover's ok value.
type CodeHover struct {
	Text      string
	Signature *SignatureInfo
	Notice    string
	Rendered  Rendered
}

func (h CodeHover) appendJSON(b []byte) []byte {
	b = append(b, `{"text":`...)
	b = appendString(b, h.Text)
	if h.Signature != nil {
		b = append(b, `,"signature":`...)
		b = h.Signature.appendJSON(b)
	}
	if h.Notice != "" {
		b = append(b, `,"notice":`...)
		b = appendString(b, h.Notice)
	}
	b = append(b, `,"rendered":`...)
	b = h.Rendered.appendJSON(b)
	return append(b, '}')
}

// signatureLead introduces the signature help's active signature in
// codeHover's text: the signature of the call the target is in.
const signatureLead = "In a call to: "

// noHoverNotice is codeHover's notice when neither answer says anything.
const noHoverNotice = "no hover information at the target: the server has nothing to say there (a keyword, a comment, whitespace, or a name it cannot resolve — an undefined name, or one from an import that does not resolve: code_diagnostics of the file says which) — check that the target names the identifier itself; line and column are one-based, column in UTF-16 code units"

func codeHoverCall(in gjson.Result) (jsonAppender, *Error) {
	hover := get(in, "hover")
	if !hover.Exists() {
		return nil, Errorf(CodeInvalidArgument, "hover must be the server's textDocument/hover result (null when it has none), got missing")
	}
	subject := get(in, "subject")
	if subject.Exists() && subject.Type != gjson.String && subject.Type != gjson.Null {
		return nil, Errorf(CodeInvalidArgument, "subject must be a string (the line naming the target), got %s", describe(subject))
	}
	h, err := translateHover(OpHover, hover)
	if err != nil {
		return nil, err
	}
	var out CodeHover
	sh := get(in, "signatureHelp")
	if sh.Exists() && sh.Type != gjson.Null {
		if out.Signature, err = readSignatureHelp(sh); err != nil {
			return nil, err
		}
	}
	var parts []string
	if h != nil {
		plain := hoverContentsText(h.Contents)
		if get(get(hover, "contents"), "kind").Str == "plaintext" {
			plain = trimBlankLines(h.Contents)
		}
		if plain != "" {
			parts = append(parts, plain)
		}
	}
	if s := out.Signature; s != nil {
		// The signature is the enclosing call's, not the target's: an
		// argument hovered inside price_of(Item(…)) read "Signature:
		// (item: Item, qty: int) -> float" under "Target: Item", and a
		// model took it for Item's. So it follows the target's own hover,
		// named for what it is.
		label := s.Label
		if s.HasActive && s.activeEnd > s.activeStart {
			label = s.Label[:s.activeStart] + "**" + s.Label[s.activeStart:s.activeEnd] + "**" + s.Label[s.activeEnd:]
		}
		parts = append(parts, signatureLead+clipRunes(label, maxSignatureLabelRunes))
	}
	out.Text = clipRunes(strings.Join(parts, "\n\n"), maxHoverTextRunes)
	if out.Text == "" {
		out.Notice = noHoverNotice
	}
	var b strings.Builder
	if subject.Str != "" {
		b.WriteString(subject.Str + "\n")
	}
	if out.Text != "" {
		b.WriteString(out.Text)
		out.Rendered.Shown = 1
	} else {
		b.WriteString(upperFirst(out.Notice) + ".")
	}
	out.Rendered.Text = b.String()
	return out, nil
}

func signatureHelpMalformed(detail string) *Error {
	return &Error{Code: CodeMalformedResponse, Message: "the language server's textDocument/signatureHelp response is malformed: " + detail}
}

// readSignatureHelp reads a SignatureHelp and returns its active
// signature, or nil when it has none.
func readSignatureHelp(v gjson.Result) (*SignatureInfo, *Error) {
	if !v.IsObject() {
		return nil, signatureHelpMalformed("result must be null or a SignatureHelp object, got " + describe(v))
	}
	f := fields(v, "signatures", "activeSignature", "activeParameter")
	sigs, activeSig, activeParam := f[0], f[1], f[2]
	if !sigs.IsArray() {
		return nil, signatureHelpMalformed("result.signatures must be an array of SignatureInformation, got " + describe(sigs))
	}
	n := int64(0)
	var chosen gjson.Result
	want := int64(0)
	if activeSig.Exists() && activeSig.Type != gjson.Null {
		a, ok := integer(activeSig, 0, maxServerCoordinate)
		if !ok {
			return nil, signatureHelpMalformed("result.activeSignature must be a non-negative integer, got " + describe(activeSig))
		}
		want = a
	}
	var problem string
	sigs.ForEach(func(_, s gjson.Result) bool {
		if !s.IsObject() {
			problem = at{"result.signatures", int(n)}.String() + " must be a SignatureInformation object, got " + describe(s)
			return false
		}
		if n == want || n == 0 {
			chosen = s // LSP: an activeSignature out of range means the first
		}
		n++
		return true
	})
	if problem != "" {
		return nil, signatureHelpMalformed(problem)
	}
	if n == 0 {
		return nil, nil
	}
	idx := want
	if want >= n {
		idx = 0
	}
	where := at{"result.signatures", int(idx)}
	sf := fields(chosen, "label", "parameters", "activeParameter")
	label, params := sf[0], sf[1]
	if label.Type != gjson.String {
		return nil, signatureHelpMalformed(where.field("label") + " must be a string, got " + describe(label))
	}
	sig := &SignatureInfo{Label: label.Str, Parameters: []string{}}
	// The active parameter: the signature's own (LSP 3.16) wins over the
	// help's; absent means the first, null or out of range means none.
	activeWhere, active := "result.activeParameter", activeParam
	if sf[2].Exists() {
		activeWhere, active = where.field("activeParameter"), sf[2]
	}
	activeIndex := int64(-1)
	switch {
	case !active.Exists():
		activeIndex = 0
	case active.Type == gjson.Null:
	default:
		a, ok := integer(active, 0, maxServerCoordinate)
		if !ok {
			return nil, signatureHelpMalformed(activeWhere + " must be a non-negative integer or null, got " + describe(active))
		}
		activeIndex = a
	}
	if params.Exists() && params.Type != gjson.Null && !params.IsArray() {
		return nil, signatureHelpMalformed(where.field("parameters") + " must be an array of ParameterInformation, got " + describe(params))
	}
	search := strings.IndexByte(sig.Label, '(') + 1 // string labels are found after the opening parenthesis
	paramBytes := 0
	i := 0
	params.ForEach(func(_, p gjson.Result) bool {
		pw := at{where.field("parameters"), i}
		if !p.IsObject() {
			problem = pw.String() + " must be a ParameterInformation object, got " + describe(p)
			return false
		}
		pl := get(p, "label")
		var text string
		start, end := -1, -1
		switch {
		case pl.Type == gjson.String:
			text = pl.Str
			if text != "" {
				if j := strings.Index(sig.Label[search:], text); j >= 0 {
					start, end = search+j, search+j+len(text)
					search = end
				} else if j := strings.Index(sig.Label, text); j >= 0 {
					start, end = j, j+len(text)
				}
			}
		case pl.IsArray():
			offs := pl.Array()
			if len(offs) != 2 {
				problem = pw.field("label") + " must be a string or [start, end] UTF-16 offsets into the signature label, got an array of " + strconv.Itoa(len(offs))
				return false
			}
			a, ok1 := integer(offs[0], 0, maxServerCoordinate)
			z, ok2 := integer(offs[1], 0, maxServerCoordinate)
			if !ok1 || !ok2 {
				problem = pw.field("label") + " offsets must be non-negative integers, got [" + describe(offs[0]) + ", " + describe(offs[1]) + "]"
				return false
			}
			width := int64(utf16Len(sig.Label))
			if a > z || z > width {
				problem = pw.field("label") + " offsets [" + strconv.FormatInt(a, 10) + ", " + strconv.FormatInt(z, 10) + "] do not lie within the signature label (" + strconv.FormatInt(width, 10) + " UTF-16 code units)"
				return false
			}
			start, end = byteOffsetOfColumn(sig.Label, int(a)), byteOffsetOfColumn(sig.Label, int(z))
			text = sig.Label[start:end]
		default:
			problem = pw.field("label") + " must be a string or [start, end] UTF-16 offsets into the signature label, got " + describe(pl)
			return false
		}
		if int64(i) == activeIndex {
			sig.HasActive, sig.ActiveParameter = true, text
			if start >= 0 {
				sig.activeStart, sig.activeEnd = start, end
			}
		}
		// Honest labels are disjoint parts of the signature; overlapping
		// offsets must not multiply it.
		if len(sig.Parameters) < maxSignatureParameters && paramBytes+len(text) <= 2*len(sig.Label)+1024 {
			sig.Parameters = append(sig.Parameters, text)
			paramBytes += len(text)
		}
		i++
		return true
	})
	if problem != "" {
		return nil, signatureHelpMalformed(problem)
	}
	return sig, nil
}

// hoverContentsText flattens normalized hover Markdown to plain text: the
// first code block's code, then the first paragraph of documentation.
func hoverContentsText(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var code []string
	haveCode, secondCode := false, false
	var para, next, fallback []string
	paraDone := false
	var cur []string
	// afterParams: the paragraph flushed last was clangd's lone
	// "Parameters:" line; clangd 16 and later put the list of parameters
	// in a paragraph of its own after it (clangd 14 on the next line).
	afterParams := false
	flush := func() {
		if len(cur) > 0 {
			skip := skippedParagraph(cur) || (afterParams && isBulletList(cur))
			afterParams = len(cur) == 1 && strings.TrimSpace(cur[0]) == "Parameters:"
			switch {
			case skip:
			case !paraDone:
				para, paraDone = cur, true
			case next == nil:
				next = cur
			}
		}
		cur = nil
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trimmed := strings.TrimLeft(line, " ")
		if fence, ok := fenceOpen(trimmed); ok {
			flush()
			var block []string
			i++
			for ; i < len(lines); i++ {
				l := strings.TrimRight(lines[i], " \t\r")
				if fenceCloses(strings.TrimLeft(l, " "), fence) {
					break
				}
				block = append(block, l)
			}
			// The first block is the signature, unless it is a lone path
			// and another follows (rust-analyzer heads its hover with the
			// module: "crate::geom", then the signature).
			if !haveCode || (!secondCode && isLonePath(code)) {
				secondCode = haveCode
				code, haveCode = block, true
			}
			continue
		}
		switch {
		case trimmed == "":
			flush()
		case isRule(trimmed):
			flush()
		case isHeading(trimmed):
			flush()
			if len(fallback) == 0 {
				fallback = []string{strings.TrimSpace(strings.TrimRight(strings.TrimLeft(trimmed, "#"), "#"))}
			}
		default:
			cur = append(cur, line)
		}
	}
	flush()
	var parts []string
	if c := trimBlankLines(strings.Join(code, "\n")); c != "" {
		parts = append(parts, c)
	}
	if !paraDone && !haveCode && len(fallback) > 0 {
		para = fallback
	}
	if !haveCode && next != nil && isSignatureParagraph(para) {
		// No code block, and the first paragraph is only marked-up names
		// (terraform-ls: "**cidr_block** _required, string_"): it is the
		// signature, and the documentation is the paragraph after it.
		parts = append(parts, flattenParagraph(para))
		para = next
	}
	if p := flattenParagraph(para); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}

// flattenParagraph is a paragraph's lines without Markdown's inline marks.
func flattenParagraph(para []string) string {
	if len(para) == 0 {
		return ""
	}
	// Clipped first: the text is clipped to that anyway, and it bounds the
	// inline scan on hostile input.
	lines := strings.Split(clipRunes(strings.Join(para, "\n"), maxHoverTextRunes), "\n")
	for k, l := range lines {
		lines[k] = flattenInline(strings.TrimSpace(l), 0)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// isSignatureParagraph: every word of the paragraph is inside a code span,
// emphasis or strong emphasis ("**cidr_block** _required, string_",
// "`var.region`"), as a server writes a name and its type when it has no
// code block to put them in.
func isSignatureParagraph(para []string) bool {
	if len(para) == 0 || len(para) > 3 {
		return false
	}
	for _, line := range para {
		if !allMarkedUp(strings.TrimSpace(line)) {
			return false
		}
	}
	return true
}

// allMarkedUp reports whether s is one or more runs, separated by spaces,
// each a code span or an emphasis with * or _ (single or double).
func allMarkedUp(s string) bool {
	if s == "" {
		return false
	}
	for s != "" {
		mark := s[:1]
		if mark != "`" && mark != "*" && mark != "_" {
			return false
		}
		if mark != "`" && strings.HasPrefix(s, mark+mark) {
			mark += mark
		}
		end := strings.Index(s[len(mark):], mark)
		if end <= 0 {
			return false // unclosed, or empty
		}
		s = strings.TrimLeft(s[len(mark)+end+len(mark):], " \t")
	}
	return true
}

// isHeading recognizes an ATX heading: one to six #, then a space or
// nothing.
func isHeading(s string) bool {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// isLonePath reports whether a code block is one line without spaces.
func isLonePath(block []string) bool {
	return len(block) == 1 && block[0] != "" && !strings.ContainsAny(block[0], " \t(")
}

// hoverEntities decodes, outside code, the HTML entities servers write
// into Markdown hover text (pyright indents a docstring's continued lines
// with &nbsp;&nbsp;&nbsp;&nbsp;): a model reads the text, not rendered
// HTML, and each entity costs tokens. Code blocks and `code spans` keep
// theirs, where an entity is literal text.
func hoverEntities(md string) string {
	if !strings.Contains(md, "&") {
		return md
	}
	lines := strings.Split(md, "\n")
	fence := ""
	for i, line := range lines {
		t := strings.TrimLeft(line, " ")
		if fence != "" {
			if fenceCloses(t, fence) {
				fence = ""
			}
			continue
		}
		if f, ok := fenceOpen(t); ok {
			fence = f
			continue
		}
		parts := strings.Split(line, "`")
		for j := 0; j < len(parts); j += 2 {
			parts[j] = hoverEntityReplacer.Replace(parts[j])
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

var hoverEntityReplacer = strings.NewReplacer("&nbsp;", " ", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&")

// fenceOpen recognizes a fence that opens a code block: three or more
// backticks or tildes (a backtick fence's info string has no backtick).
func fenceOpen(s string) (string, bool) {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return "", false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return "", false
	}
	return s[:n], true
}

// fenceCloses reports whether s closes a block opened by fence: the same
// character, at least as many, nothing else.
func fenceCloses(s, fence string) bool {
	t := strings.TrimRight(s, " \t")
	if len(t) < len(fence) {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != fence[0] {
			return false
		}
	}
	return true
}

// isRule recognizes a thematic break: three or more -, * or _ alone
// (spaces allowed between).
func isRule(s string) bool {
	c, n := byte(0), 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t':
		case '-', '*', '_':
			if c != 0 && s[i] != c {
				return false
			}
			c = s[i]
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// skippedParagraph: paragraphs that are not documentation — a lone link
// (gopls's "[`pkg.F` on pkg.go.dev](…)"), a lone line in bold (the
// qualified name intelephense heads its hover with: "__Shapes\\f__") and
// clangd's lines of facts the signature already gives ("→ `int`",
// "Parameters:", "Type: `int`", …).
func skippedParagraph(p []string) bool {
	first := strings.TrimSpace(p[0])
	if len(p) == 1 && len(first) > 4 {
		for _, mark := range []string{"__", "**"} {
			if strings.HasPrefix(first, mark) && strings.HasSuffix(first, mark) && !strings.Contains(first[2:len(first)-2], mark) {
				return true
			}
		}
	}
	for _, prefix := range []string{"→", "Parameters:", "Type:", "Value =", "Size:", "Offset:", "provided by", "Passed "} {
		if strings.HasPrefix(first, prefix) {
			return true
		}
	}
	if len(p) == 1 && strings.HasPrefix(first, "[") && strings.HasSuffix(first, ")") {
		if i := strings.Index(first, "]("); i > 0 && !strings.Contains(first[i+2:len(first)-1], " ") {
			return true
		}
	}
	return false
}

// isBulletList reports whether every line of a paragraph is a "- " list
// item.
func isBulletList(p []string) bool {
	for _, l := range p {
		if !strings.HasPrefix(strings.TrimSpace(l), "- ") {
			return false
		}
	}
	return true
}

// flattenInline removes Markdown's inline marks from one line: code spans
// keep their text, links their text, escaped punctuation its character,
// emphasis (*x*, **x**, _x_ at words' edges) its text; a few HTML
// entities are decoded. Marks nested deeper than maxInlineDepth stay as
// they are.
func flattenInline(s string, depth int) string {
	if depth >= maxInlineDepth {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			fence := s[i : i+n]
			if j := strings.Index(s[i+n:], fence); j >= 0 {
				inner := s[i+n : i+n+j]
				if len(inner) > 1 && inner[0] == ' ' && inner[len(inner)-1] == ' ' {
					inner = inner[1 : len(inner)-1]
				}
				b.WriteString(inner)
				i += n + j + n
				continue
			}
			b.WriteString(fence)
			i += n
			continue
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			start := i
			if c == '!' {
				start++
			}
			if close := strings.Index(s[start:], "]("); close > 0 {
				if end := strings.IndexByte(s[start+close+2:], ')'); end >= 0 {
					b.WriteString(flattenInline(s[start+1:start+close], depth+1))
					i = start + close + 2 + end + 1
					continue
				}
			}
		case c == '*' || c == '_':
			n := 1
			if i+1 < len(s) && s[i+1] == c {
				n = 2
			}
			mark := s[i : i+n]
			openOK := i+n < len(s) && s[i+n] != ' ' && (i == 0 || !wordByte(s[i-1]))
			if openOK {
				rest := s[i+n:]
				if j := closingMark(rest, mark); j > 0 {
					b.WriteString(flattenInline(rest[:j], depth+1))
					i += n + j + n
					continue
				}
			}
			b.WriteString(mark)
			i += n
			continue
		case c == '&':
			matched := false
			for _, e := range [...][2]string{{"&nbsp;", " "}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", `"`}} {
				if strings.HasPrefix(s[i:], e[0]) {
					b.WriteString(e[1])
					i += len(e[0])
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// closingMark finds the emphasis mark closing at rest's start: mark
// preceded by a non-space and not followed by a word character or another
// mark;
// 0 when there is none.
func closingMark(rest, mark string) int {
	for from := 1; from < len(rest); {
		j := strings.Index(rest[from:], mark)
		if j < 0 {
			return 0
		}
		k := from + j
		after := k + len(mark)
		if rest[k-1] != ' ' && (after >= len(rest) || !wordByte(rest[after])) &&
			(after >= len(rest) || rest[after] != mark[0]) {
			return k
		}
		from = k + 1
	}
	return 0
}

func wordByte(c byte) bool {
	return c == '_' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}
