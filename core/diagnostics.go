package core

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// diagnostics: code_diagnostics' answer (§5.5), a snapshot of the problems
// the servers report for one file or for the files a workspace read covers.
//
// Input {workspaceUri, files: [{uri, diagnostics, version?, how, fresh}],
// scope: "file" | "workspace", severity?, limit?, partial?, subject?}.
// diagnostics is the server's raw Diagnostic[] (publishDiagnostics'
// params.diagnostics, or a pull report's items; absent or null only with
// how "none"); version the document version they are for (or null); how
// "pull" | "push" | "none" (no server covers the file); fresh whether the
// host saw diagnostics for the file's current content. scope "file" takes
// exactly one file. severity is the minimum shown ("error", "warning",
// "information" (or "info"), "hint"; default all); limit (default 100 —
// also when 0 —, at most 500) counts problems; partial says why a
// workspace snapshot does not cover the whole workspace.
//
// Output {status, scope, counts, countsAll, problems, totalFound,
// truncated, coverage: [{path, how, version?, fresh}], notice?, rendered}.
// A problem is {path, line, column, endLine, endColumn (one-based, UTF-16,
// the end exclusive as in LSP), severity, code?, source?, message}: a
// numeric code becomes its decimal string, the message is trimmed (a
// multi-line message is kept whole; the rendered text shows its first
// line). A Diagnostic without a severity is an error: LSP leaves it to the
// client, and a problem the server did not grade is safer reported than
// hidden. Problems are sorted errors first, then warnings, information,
// hints, then by path, line and column; the first limit are kept. counts
// counts problems at or above the severity filter, countsAll all of them.
// status is "stale" when a covered file's diagnostics are not known to be
// for its current content, else "partial" when partial is given or a file
// has how "none", else "fresh". relatedInformation, tags, codeDescription
// and data are ignored.

// Bounds of code_diagnostics and of the post-edit delta.
const (
	DefaultDiagnosticsLimit = 100
	DefaultDeltaLimit       = 20
	MaxDiagnosticsLimit     = 500
	maxRenderedMessageRunes = 300
	maxListedPaths          = 10 // paths named in one coverage line
)

// Severity names, indexed by LSP DiagnosticSeverity (1–4).
var severityNames = [5]string{"", "error", "warning", "information", "hint"}

// Problem is one diagnostic for the model. Range is zero-based.
type Problem struct {
	Path     string
	Range    Range
	Severity int // 1 error … 4 hint
	Code     string
	Source   string
	Message  string
}

func (p Problem) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, p.Path)
	b = append(b, `,"line":`...)
	b = strconv.AppendUint(b, toOneBased(p.Range.Start.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, toOneBased(p.Range.Start.Character), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendUint(b, toOneBased(p.Range.End.Line), 10)
	b = append(b, `,"endColumn":`...)
	b = strconv.AppendUint(b, toOneBased(p.Range.End.Character), 10)
	b = append(b, `,"severity":`...)
	b = appendString(b, severityNames[p.Severity])
	if p.Code != "" {
		b = append(b, `,"code":`...)
		b = appendString(b, p.Code)
	}
	if p.Source != "" {
		b = append(b, `,"source":`...)
		b = appendString(b, p.Source)
	}
	b = append(b, `,"message":`...)
	b = appendString(b, p.Message)
	return append(b, '}')
}

// SeverityCounts counts problems by severity.
type SeverityCounts [5]int

// appendCounts writes the counts as {error, warning, information, hint}.
func appendCounts(b []byte, c SeverityCounts) []byte {
	b = append(b, '{')
	for s := 1; s <= 4; s++ {
		b = appendKey(b, severityNames[s], s == 1)
		b = appendInt(b, int64(c[s]))
	}
	return append(b, '}')
}

func (c SeverityCounts) total() int { return c[1] + c[2] + c[3] + c[4] }

// phrase is "2 errors, 1 warning" (the non-zero counts), "" when all are 0.
func (c SeverityCounts) phrase() string {
	var parts []string
	names := [5][2]string{{}, {"error", "errors"}, {"warning", "warnings"}, {"information", "information"}, {"hint", "hints"}}
	for s := 1; s <= 4; s++ {
		if c[s] > 0 {
			parts = append(parts, strconv.Itoa(c[s])+" "+plural(c[s], names[s][0], names[s][1]))
		}
	}
	return strings.Join(parts, ", ")
}

// DiagnosticCoverage is what a snapshot knows of one file.
type DiagnosticCoverage struct {
	Path       string
	How        string
	HasVersion bool
	Version    int64
	Fresh      bool
}

func (c DiagnosticCoverage) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, c.Path)
	b = append(b, `,"how":`...)
	b = appendString(b, c.How)
	if c.HasVersion {
		b = append(b, `,"version":`...)
		b = appendInt(b, c.Version)
	}
	b = append(b, `,"fresh":`...)
	b = appendBool(b, c.Fresh)
	return append(b, '}')
}

// Diagnostics is diagnostics' ok value.
type Diagnostics struct {
	Status     string
	Scope      string
	Counts     SeverityCounts
	CountsAll  SeverityCounts
	Problems   []Problem
	TotalFound int
	Truncated  bool // problems follow this page
	Offset     int  // problems of earlier pages (a cursor's page)
	// ResultKey names the whole ordered list of problems at the severity
	// filter: a next page is of the same answer only with the same key.
	ResultKey string
	Coverage  []DiagnosticCoverage
	Notice    string
	Rendered  Rendered

	fileCount int // files with a problem at or above the filter, shown or not
}

func (d Diagnostics) appendJSON(b []byte) []byte {
	b = append(b, `{"status":`...)
	b = appendString(b, d.Status)
	b = append(b, `,"scope":`...)
	b = appendString(b, d.Scope)
	b = append(b, `,"counts":`...)
	b = appendCounts(b, d.Counts)
	b = append(b, `,"countsAll":`...)
	b = appendCounts(b, d.CountsAll)
	b = append(b, `,"problems":`...)
	b = appendArray(b, d.Problems)
	b = append(b, `,"totalFound":`...)
	b = appendInt(b, int64(d.TotalFound))
	b = append(b, `,"truncated":`...)
	b = appendBool(b, d.Truncated)
	if d.Offset > 0 {
		b = append(b, `,"offset":`...)
		b = appendInt(b, int64(d.Offset))
	}
	b = append(b, `,"resultKey":`...)
	b = appendString(b, d.ResultKey)
	b = append(b, `,"coverage":`...)
	b = appendArray(b, d.Coverage)
	if d.Notice != "" {
		b = append(b, `,"notice":`...)
		b = appendString(b, d.Notice)
	}
	b = append(b, `,"rendered":`...)
	b = d.Rendered.appendJSON(b)
	return append(b, '}')
}

func diagnosticsMalformed(detail string) *Error {
	return &Error{Code: CodeMalformedResponse, Message: "the language server's diagnostics are malformed: " + detail}
}

// diagnosticsLimitArg reads an optional limit: 1 to MaxDiagnosticsLimit,
// def when absent, null or 0.
func diagnosticsLimitArg(in gjson.Result, def int, what string) (int, *Error) {
	v := get(in, "limit")
	if !v.Exists() || v.Type == gjson.Null {
		return def, nil
	}
	n, ok := integer(v, 0, MaxDiagnosticsLimit)
	if !ok {
		return 0, Errorf(CodeInvalidArgument, "limit must be an integer from 1 to %d (how many %s to list; default %d), got %s", MaxDiagnosticsLimit, what, def, describe(v))
	}
	if n == 0 {
		return def, nil
	}
	return int(n), nil
}

// severityArg reads a severity name ("info" is "information").
func severityArg(v gjson.Result) (int, bool) {
	if v.Type != gjson.String {
		return 0, false
	}
	if v.Str == "info" {
		return 3, true
	}
	for s := 1; s <= 4; s++ {
		if v.Str == severityNames[s] {
			return s, true
		}
	}
	return 0, false
}

// diagHow reads a file's how and fresh. fresh may be absent only with how
// "none" (which is never fresh).
func diagHow(f gjson.Result, where at) (how string, fresh bool, err *Error) {
	h := get(f, "how")
	if h.Type != gjson.String || (h.Str != "pull" && h.Str != "push" && h.Str != "none") {
		return "", false, Errorf(CodeInvalidArgument, "%s must be \"pull\" (textDocument/diagnostic), \"push\" (publishDiagnostics) or \"none\" (no server covers the file), got %s", where.field("how"), describe(h))
	}
	fr := get(f, "fresh")
	switch {
	case fr.Type == gjson.True || fr.Type == gjson.False:
		fresh = fr.Type == gjson.True
	case h.Str == "none" && (!fr.Exists() || fr.Type == gjson.Null):
	default:
		return "", false, Errorf(CodeInvalidArgument, "%s must be a boolean (whether the diagnostics are known to be for the file's current content), got %s", where.field("fresh"), describe(fr))
	}
	if h.Str == "none" {
		fresh = false
	}
	return h.Str, fresh, nil
}

// diagFileURI reads a file's uri.
func diagFileURI(f gjson.Result, where at) (string, *Error) {
	uri := get(f, "uri")
	if uri.Type != gjson.String || uri.Str == "" {
		return "", Errorf(CodeInvalidArgument, "%s must be the file's URI, got %s", where.field("uri"), describe(uri))
	}
	return uri.Str, nil
}

// readProblems reads a raw Diagnostic[] at where for path. With how
// "none", absent and null are no diagnostics; otherwise a missing list is
// a bad argument and anything but an array is malformed (null is read as
// none: some servers publish it for a closed document).
func readProblems(v gjson.Result, where at, path, how string) ([]Problem, *Error) {
	if !v.Exists() {
		if how == "none" {
			return nil, nil
		}
		return nil, Errorf(CodeInvalidArgument, "%s must be the server's Diagnostic[] for the file (publishDiagnostics' diagnostics or a pull report's items), got missing", where.String())
	}
	if v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsArray() {
		return nil, diagnosticsMalformed(where.String() + " must be an array of Diagnostic, got " + describe(v))
	}
	var out []Problem
	var problem string
	i := 0
	v.ForEach(func(_, item gjson.Result) bool {
		var p Problem
		p, problem = readProblem(item, at{where.String(), i}, path)
		out = append(out, p)
		i++
		return problem == ""
	})
	if problem != "" {
		return nil, diagnosticsMalformed(problem)
	}
	return out, nil
}

// readProblem reads one LSP Diagnostic.
func readProblem(v gjson.Result, where at, path string) (Problem, string) {
	p := Problem{Path: path, Severity: 1}
	if !v.IsObject() {
		return p, where.String() + " must be a Diagnostic object, got " + describe(v)
	}
	var rng, sev, code, source, message gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "range":
			rng = first(rng, val)
		case "severity":
			sev = first(sev, val)
		case "code":
			code = first(code, val)
		case "source":
			source = first(source, val)
		case "message":
			message = first(message, val)
		}
		return true
	})
	var problem string
	if p.Range, problem = rangeOf(rng, where, "range"); problem != "" {
		return p, problem
	}
	if positionLess(p.Range.End, p.Range.Start) {
		p.Range.End = p.Range.Start
	}
	if sev.Exists() && sev.Type != gjson.Null {
		s, ok := integer(sev, 1, 4)
		if !ok {
			return p, where.field("severity") + " must be a DiagnosticSeverity (1 error, 2 warning, 3 information, 4 hint), got " + describe(sev)
		}
		p.Severity = int(s)
	}
	switch {
	case !code.Exists() || code.Type == gjson.Null:
	case code.Type == gjson.String:
		p.Code = code.Str
	default:
		n, ok := integer(code, -maxSafeInteger, maxSafeInteger)
		if !ok {
			return p, where.field("code") + " must be an integer or a string, got " + describe(code)
		}
		p.Code = strconv.FormatInt(n, 10)
	}
	switch {
	case !source.Exists() || source.Type == gjson.Null:
	case source.Type == gjson.String:
		p.Source = source.Str
	default:
		return p, where.field("source") + " must be a string, got " + describe(source)
	}
	if message.Type != gjson.String {
		return p, where.field("message") + " must be a string, got " + describe(message)
	}
	p.Message = strings.TrimSpace(message.Str)
	return p, ""
}

// problemLess orders problems errors first, then by path and position,
// then by the rest so the order does not depend on the input's.
func problemLess(a, b Problem) bool {
	if a.Severity != b.Severity {
		return a.Severity < b.Severity
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Range.Start != b.Range.Start {
		return positionLess(a.Range.Start, b.Range.Start)
	}
	if a.Range.End != b.Range.End {
		return positionLess(a.Range.End, b.Range.End)
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.Source != b.Source {
		return a.Source < b.Source
	}
	return a.Message < b.Message
}

func sortProblems(list []Problem) {
	sort.SliceStable(list, func(i, j int) bool { return problemLess(list[i], list[j]) })
}

// problemLine renders a problem without its path: "3:7 error TS2322:
// Type … (first line of the message)", its code as displayCode writes it.
func problemLine(p Problem) string {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(toOneBased(p.Range.Start.Line), 10) + ":" + strconv.FormatUint(toOneBased(p.Range.Start.Character), 10) + " " + severityNames[p.Severity])
	if p.Code != "" {
		b.WriteString(" " + renderedName(displayCode(p)))
	}
	msg := clipRunes(oneLineMessage(p.Message), maxRenderedMessageRunes)
	if msg == "" {
		msg = "(no message)"
	}
	b.WriteString(": " + msg)
	return b.String()
}

// oneLineMessage is a message's lines on one line, so a problem stays one
// line of the answer: each line trimmed, blank ones dropped, joined by a
// space after a line that ends a sentence or clause (. : ; ,) and by "; "
// otherwise. The lines after the first are often the answer: gopls's
// "not enough arguments in call to Total" continues "have ([]Shape)" and
// "want ([]Shape, float64)", tsserver's "No overload matches this call."
// continues with each overload's error; cut at the first line break (as
// it was), the text showed a model the headline and hid the cause.
func oneLineMessage(msg string) string {
	if !strings.ContainsAny(msg, "\r\n") {
		return strings.TrimSpace(msg)
	}
	var b strings.Builder
	for line := range strings.FieldsFuncSeq(msg, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			if prev := b.String(); strings.ContainsAny(prev[len(prev)-1:], ".:;,") {
				b.WriteByte(' ')
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(line)
		if b.Len() > 4*maxRenderedMessageRunes {
			break // clipped to maxRenderedMessageRunes anyway
		}
	}
	return b.String()
}

// displayCode is the code a problem's line shows: tsserver's numbers as
// tsc writes them (TS2322), and the source for gopls's analyzers, whose
// code is "default" (their category) and whose source names the analyzer
// (unusedfunc): "information default:" told a model nothing.
func displayCode(p Problem) string {
	if (p.Source == "typescript" || p.Source == "ts") && p.Code != "" && strings.Trim(p.Code, "0123456789") == "" {
		return "TS" + p.Code
	}
	if p.Code == "default" && p.Source != "" {
		return p.Source
	}
	return p.Code
}

// listPaths names up to maxListedPaths paths: "a, b and 3 more".
func listPaths(paths []string) string { return listPathsAndMore(paths, 0) }

// listPathsAndMore is listPaths of paths and more files it does not name.
func listPathsAndMore(paths []string, more int) string {
	if len(paths) == 0 {
		return strconv.Itoa(more) + " " + plural(more, "file", "files")
	}
	shown := paths
	if len(shown) > maxListedPaths {
		shown = shown[:maxListedPaths]
	}
	names := make([]string, len(shown))
	for i, p := range shown {
		names[i] = renderedName(p)
	}
	s := strings.Join(names, ", ")
	if more += len(paths) - len(shown); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

func diagnosticsCall(in gjson.Result) (jsonAppender, *Error) {
	wsPath, err := catalogWorkspace(in)
	if err != nil {
		return nil, err
	}
	scope := get(in, "scope")
	if scope.Type != gjson.String || (scope.Str != "file" && scope.Str != "workspace") {
		return nil, Errorf(CodeInvalidArgument, "scope must be \"file\" (one file's diagnostics) or \"workspace\" (every covered file's), got %s", describe(scope))
	}
	minSeverity := 4
	if s := get(in, "severity"); s.Exists() && s.Type != gjson.Null {
		n, ok := severityArg(s)
		if !ok {
			return nil, Errorf(CodeInvalidArgument, "severity must be the lowest severity to show: \"error\", \"warning\", \"information\" or \"hint\", got %s", describe(s))
		}
		minSeverity = n
	}
	limit, err := diagnosticsLimitArg(in, DefaultDiagnosticsLimit, "problems")
	if err != nil {
		return nil, err
	}
	offset, err := offsetArg(in, "problems")
	if err != nil {
		return nil, err
	}
	var partial, subject string
	for _, f := range []struct {
		name, what string
		dst        *string
	}{{"partial", "why the workspace snapshot is partial", &partial}, {"subject", "a line naming what was asked", &subject}} {
		if v := get(in, f.name); v.Exists() && v.Type != gjson.Null {
			if v.Type != gjson.String {
				return nil, Errorf(CodeInvalidArgument, "%s must be a string (%s), got %s", f.name, f.what, describe(v))
			}
			*f.dst = strings.TrimSpace(v.Str)
		}
	}
	out := Diagnostics{Scope: scope.Str}
	var all []Problem
	err = forEachDiagFile(get(in, "files"), wsPath, "{uri, diagnostics, version?, how, fresh}", func(f gjson.Result, where at, path, how string, fresh bool) (err *Error) {
		c := DiagnosticCoverage{Path: path, How: how, Fresh: fresh}
		if v := get(f, "version"); v.Exists() && v.Type != gjson.Null {
			n, ok := integer(v, -maxSafeInteger, maxSafeInteger)
			if !ok {
				return Errorf(CodeInvalidArgument, "%s must be the document version (an integer) or null, got %s", where.field("version"), describe(v))
			}
			c.HasVersion, c.Version = true, n
		}
		var list []Problem
		if list, err = readProblems(get(f, "diagnostics"), at{where.field("diagnostics"), -1}, c.Path, c.How); err != nil {
			return err
		}
		if c.How == "none" {
			list = nil // no server: nothing to report, whatever was passed
		}
		all = append(all, list...)
		out.Coverage = append(out.Coverage, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if scope.Str == "file" && len(out.Coverage) != 1 {
		return nil, Errorf(CodeInvalidArgument, "scope \"file\" takes exactly one file in files, got %d", len(out.Coverage))
	}
	var kept []Problem
	for _, p := range all {
		out.CountsAll[p.Severity]++
		if p.Severity <= minSeverity {
			out.Counts[p.Severity]++
			kept = append(kept, p)
		}
	}
	sortProblems(kept)
	out.TotalFound = len(kept)
	withProblems := map[string]bool{}
	for _, p := range kept {
		withProblems[p.Path] = true
	}
	out.fileCount = len(withProblems)
	keys := make([]string, len(kept))
	for i, p := range kept {
		keys[i] = p.Path + "\x00" + strconv.FormatUint(uint64(p.Range.Start.Line), 10) + ":" + strconv.FormatUint(uint64(p.Range.Start.Character), 10) +
			"\x00" + strconv.Itoa(p.Severity) + "\x00" + p.Code + "\x00" + p.Source + "\x00" + p.Message
	}
	out.ResultKey = listKey(keys)
	start := min(offset, len(kept))
	end := min(start+limit, len(kept))
	out.Offset, out.Truncated = start, end < len(kept)
	out.Problems = kept[start:end]

	var uncovered, stale, covered []string
	for _, c := range out.Coverage {
		switch {
		case c.How == "none":
			uncovered = append(uncovered, c.Path)
		case !c.Fresh:
			stale = append(stale, c.Path)
			covered = append(covered, c.Path)
		default:
			covered = append(covered, c.Path)
		}
	}
	switch {
	case len(stale) > 0:
		out.Status = "stale"
	case partial != "" || len(uncovered) > 0:
		out.Status = "partial"
	default:
		out.Status = "fresh"
	}
	out.Notice = diagnosticsNotice(out, covered, uncovered, stale, partial, minSeverity)
	out.Rendered = renderDiagnostics(out, subject, limit, minSeverity, uncovered, stale, partial)
	return out, nil
}

// diagnosticsNotice is the notice of a snapshot with no problems to show:
// never "no problems" for a file no server checks, nor without saying
// that stale diagnostics may be out of date.
func diagnosticsNotice(d Diagnostics, covered, uncovered, stale []string, partial string, minSeverity int) string {
	if d.TotalFound > 0 {
		return ""
	}
	what := "problems"
	if minSeverity < 4 {
		what = "problems at severity " + severityNames[minSeverity] + " or above"
	}
	var s string
	switch {
	case len(covered) == 0 && len(uncovered) > 0:
		s = "no diagnostics: " + listPaths(uncovered) + " " + plural(len(uncovered), "is", "are") + " not checked by any language server here, so " + plural(len(uncovered), "its", "their") + " problems are unknown (this is not the same as no problems)"
	case len(covered) == 0:
		s = "no diagnostics: no file is covered"
		if partial != "" {
			s += " (" + partial + ")"
		}
	case len(stale) > 0 && len(covered) == 1:
		s = "no " + what + " reported for " + renderedName(covered[0]) + ", but its diagnostics are stale: the server had not reported on the current content, so problems may be missing — ask again shortly"
	case len(stale) > 0:
		s = "no " + what + " reported for " + listPaths(covered) + ", but the diagnostics of " + listPaths(stale) + " are stale: the server had not reported on the current content, so problems may be missing — ask again shortly"
	case len(covered) == 1:
		s = "no " + what + " in " + renderedName(covered[0]) + " (fresh: diagnostics for the current content)"
	default:
		s = "no " + what + " in the " + strconv.Itoa(len(covered)) + " covered files (fresh: diagnostics for the current content)"
	}
	if hidden := d.CountsAll.total() - d.Counts.total(); hidden > 0 {
		var below SeverityCounts
		for sv := minSeverity + 1; sv <= 4; sv++ {
			below[sv] = d.CountsAll[sv]
		}
		s += "; " + below.phrase() + " below the severity filter"
	}
	if len(covered) > 0 && len(uncovered) > 0 {
		s += "; " + listPaths(uncovered) + " " + plural(len(uncovered), "is", "are") + " not checked by any language server, so " + plural(len(uncovered), "its", "their") + " problems are unknown"
	}
	if partial != "" && len(covered) > 0 {
		s += "; partial: " + partial
	}
	return s
}

// renderDiagnostics writes the snapshot: the subject, a heading with the
// counts and the status (or the notice), the problems grouped by file,
// what the limit left out, then the coverage notes.
func renderDiagnostics(d Diagnostics, subject string, limit, minSeverity int, uncovered, stale []string, partial string) Rendered {
	var b strings.Builder
	if subject != "" {
		b.WriteString(subject + "\n")
	}
	if d.TotalFound == 0 {
		b.WriteString(upperFirst(d.Notice) + ".")
		return Rendered{Text: b.String()}
	}
	nfiles := d.fileCount
	b.WriteString(d.Counts.phrase() + " in " + strconv.Itoa(nfiles) + " " + plural(nfiles, "file", "files") + " (" + d.Status + "):")
	// Group by file in order of first appearance (errors first).
	var order []string
	byPath := map[string][]Problem{}
	for _, p := range d.Problems {
		if _, ok := byPath[p.Path]; !ok {
			order = append(order, p.Path)
		}
		byPath[p.Path] = append(byPath[p.Path], p)
	}
	for _, path := range order {
		b.WriteString("\n" + renderedName(path))
		for _, p := range byPath[path] {
			b.WriteString("\n  " + problemLine(p))
		}
	}
	if d.Offset > 0 {
		b.WriteString("\n(problems " + strconv.Itoa(d.Offset+1) + "–" + strconv.Itoa(d.Offset+len(d.Problems)) + " of " + strconv.Itoa(d.TotalFound) + ")")
	}
	omitted := d.TotalFound - d.Offset - len(d.Problems)
	if omitted > 0 {
		b.WriteString("\n… " + strconv.Itoa(omitted) + " more " + plural(omitted, "problem", "problems") + " not shown; " + raiseDiagnosticsLimit(limit))
	}
	if hidden := d.CountsAll.total() - d.Counts.total(); hidden > 0 {
		var below SeverityCounts
		for sv := minSeverity + 1; sv <= 4; sv++ {
			below[sv] = d.CountsAll[sv]
		}
		b.WriteString("\nBelow the severity filter (" + severityNames[minSeverity] + "): " + below.phrase() + ".")
	}
	if len(stale) > 0 {
		b.WriteString("\nStale: " + listPaths(stale) + " — the server had not reported on the current content; these diagnostics may be out of date.")
	}
	if len(uncovered) > 0 {
		b.WriteString("\nNot checked: " + listPaths(uncovered) + " — no language server covers " + plural(len(uncovered), "it", "them") + ", so " + plural(len(uncovered), "its", "their") + " problems are unknown.")
	}
	if partial != "" {
		b.WriteString("\nPartial: " + partial)
		if !strings.HasSuffix(partial, ".") {
			b.WriteString(".")
		}
	}
	return Rendered{Text: b.String(), Shown: len(d.Problems), Omitted: omitted}
}

// raiseDiagnosticsLimit says how to see what a limit left out.
func raiseDiagnosticsLimit(limit int) string {
	if limit >= MaxDiagnosticsLimit {
		return "limit is at its maximum, " + strconv.Itoa(MaxDiagnosticsLimit) + "; narrow the request (a path, or a higher severity)"
	}
	return "raise limit (now " + strconv.Itoa(limit) + ", at most " + strconv.Itoa(MaxDiagnosticsLimit) + ")"
}

// forEachDiagFile reads the files list of diagnostics and
// diagnosticsDelta: an array of objects (shape names their fields for
// errors), each with a uri whose workspace-relative path comes once and a
// how/fresh pair; fn gets each, in order, and its first error stops the
// walk.
func forEachDiagFile(files gjson.Result, wsPath, shape string, fn func(f gjson.Result, where at, path, how string, fresh bool) *Error) *Error {
	if !files.IsArray() {
		return Errorf(CodeInvalidArgument, "files must be an array of %s, got %s", shape, describe(files))
	}
	var err *Error
	seen := map[string]int{}
	i := 0
	files.ForEach(func(_, f gjson.Result) bool {
		where := at{"files", i}
		i++
		if !f.IsObject() {
			err = Errorf(CodeInvalidArgument, "%s must be an object %s, got %s", where, shape, describe(f))
			return false
		}
		var uri string
		if uri, err = diagFileURI(f, where); err != nil {
			return false
		}
		path := displayPath(uri, wsPath)
		if j, dup := seen[path]; dup {
			err = Errorf(CodeInvalidArgument, "%s names the file of files[%d].uri (%s); pass each file once", where.field("uri"), j, clip(path, 200))
			return false
		}
		seen[path] = i - 1
		how, fresh, herr := diagHow(f, where)
		if herr != nil {
			err = herr
			return false
		}
		err = fn(f, where, path, how, fresh)
		return err == nil
	})
	return err
}
