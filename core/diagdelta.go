package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// diagnosticsDelta: the post-edit diagnostics of an edit's receipt (§6):
// what the edit introduced, what it resolved, what it left.
//
// Input {workspaceUri, files: [{uri, lines, before, after, how, fresh}],
// dependents?, limit?, subject?, speculative?}. lines are the runs of
// lines the edit changed (core.LinesChanged: {beforeCount, afterCount,
// hunks: [{first, before, after}]}; deltalines.go), or beforeText and
// afterText the whole texts, cut to those hunks first (the same answer);
// neither is read with how "none". before and after are the server's raw
// Diagnostic[] for the text before and after the edit (absent or null
// only with how "none"); how is "pull" | "push" | "none" (no server
// checks the file); fresh says after is known to be for the text after.
// unreported (only with how "none") says why a file a server does cover
// has no reports to compare (its server failed: "LSP_SERVER_FAILED: …"):
// the file is listed in unreported with that reason, not in uncovered —
// "no language server covers" it would be false. Such a file's after,
// when given, is the server's report after the edit: not compared (there
// is nothing to compare it with), but listed as the problems the file has
// now (current), so that the caller can fix them; the heading then counts
// the files compared and those not, never "0 introduced" as if all were.
// Files not checked for the same reason are named on one line (the first
// maxListedPaths, "and N more"); each file's entry keeps its reason.
// limit (default 20 — also when 0 —, at most 500) bounds the introduced
// problems listed, and separately the resolved ones.
//
// Matching. The lines are mapped through the edit script a unified diff
// of the two texts shows: lines' hunks, never diffed again ("\n", "\r\n"
// and "\r" end lines, so a line-ending change alone changes nothing): an
// unchanged line maps to its line after the edit, a changed one belongs
// to its hunk. A before-problem and an after-problem are the same
// (persisting) when severity, code, source and message are equal (the
// message as comparableMessage compares it: a union's members in any
// order, a compiler's appended notes left out) and their places agree, in passes from the surest
// (matchProblems): the before-problem's start maps to the after-problem's
// start (same column); on a changed line, the two problems' lines have
// the same trimmed text (a moved or re-indented line; both lines changed
// by the edit: a new problem on a line the edit left as it was, even
// between two of its hunks, is new), or the after-problem is on the
// changed line's counterpart in its hunk in any column (an edit on the
// line of an error leaves the error, at most moved along the line); last,
// the same position (two entries that read the same are never one
// resolved and one introduced). Identical problems are matched as a
// multiset. An after-problem left over is introduced, a before-problem
// left over resolved.
//
// Output {files: [{path, how, fresh, introduced, resolved, persisting,
// introducedTotal, resolvedTotal, withheld?, withheldTotal?, reappeared?,
// reappearedTotal?, unchecked?, uncheckedTotal?, rechecked?,
// recheckedTotal?, unreported?, current?, currentTotal?}], counts:
// {introduced, resolved, persisting, introducedErrors, withheld?,
// reappeared?, unchecked?, rechecked?, current?},
// truncated, uncovered: [path], stale: [path], others?, rendered}.
// withheld and reappeared are analyzer findings that vanished, or came
// back, with their package's compile errors (core/diaganalysis.go);
// unchecked and rechecked are the problems a server does not report for
// a file that does not parse (gopls: its type errors) that vanished with
// the file's parse error, or came back with its fix (core/diagparse.go):
// neither resolved nor introduced. Each file lists the first limit of
// each, with its total, when it has any; the counts sum them when there
// are any. truncated is about the
// introduced and resolved lists. dependents and others are the other files
// the change may have broken (core/diagimpact.go). introduced problems are at their after positions,
// resolved ones at their before positions (the diagnostics' problem
// shape). Across files, introduced problems are listed errors first, then
// by path and position, the first limit of them; resolved ones likewise;
// the totals count all. uncovered names the files with how "none" (no
// server checks them: the text says so, never "no problems") and no
// unreported reason, unreported those with one (each file carries its
// reason); stale the
// covered files whose after diagnostics are not known to be for the text
// after.
//
// speculative says the after reports are on text shown to the server
// without being written (a preview's check): the output says so
// ("speculative": true) and the text speaks of the change as not yet made.

// DeltaFile is one file's part of a delta.
type DeltaFile struct {
	Path            string
	How             string
	Fresh           bool
	Introduced      []Problem
	Resolved        []Problem
	Persisting      int
	IntroducedTotal int
	ResolvedTotal   int
	// Withheld and Reappeared are the analyzer findings that vanished, or
	// came back, with the package's compile errors (diaganalysis.go):
	// neither resolved nor introduced; the first limit of each, the totals
	// beside them.
	Withheld        []Problem
	Reappeared      []Problem
	WithheldTotal   int
	ReappearedTotal int
	// Unchecked and Rechecked are the problems the server hides in a file
	// that does not parse (gopls: its type errors) that vanished with a
	// parse error's coming, or came back with its going (diagparse.go):
	// neither resolved nor introduced; the first limit of each, the
	// totals beside them.
	Unchecked      []Problem
	Rechecked      []Problem
	UncheckedTotal int
	RecheckedTotal int
	// Unreported is why the server that covers the file gave no report
	// (how "none" only; "": no server covers it).
	Unreported string
	// Current is what the server reported on an unreported file after
	// the change, not compared with anything (the first limit, errors
	// first; CurrentTotal counts them all).
	Current      []Problem
	CurrentTotal int
}

func (f DeltaFile) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, f.Path)
	b = append(b, `,"how":`...)
	b = appendString(b, f.How)
	b = append(b, `,"fresh":`...)
	b = appendBool(b, f.Fresh)
	b = append(b, `,"introduced":`...)
	b = appendArray(b, f.Introduced)
	b = append(b, `,"resolved":`...)
	b = appendArray(b, f.Resolved)
	b = append(b, `,"persisting":`...)
	b = appendInt(b, int64(f.Persisting))
	b = append(b, `,"introducedTotal":`...)
	b = appendInt(b, int64(f.IntroducedTotal))
	b = append(b, `,"resolvedTotal":`...)
	b = appendInt(b, int64(f.ResolvedTotal))
	if f.WithheldTotal > 0 {
		b = append(b, `,"withheld":`...)
		b = appendArray(b, f.Withheld)
		b = append(b, `,"withheldTotal":`...)
		b = appendInt(b, int64(f.WithheldTotal))
	}
	if f.ReappearedTotal > 0 {
		b = append(b, `,"reappeared":`...)
		b = appendArray(b, f.Reappeared)
		b = append(b, `,"reappearedTotal":`...)
		b = appendInt(b, int64(f.ReappearedTotal))
	}
	if f.UncheckedTotal > 0 {
		b = append(b, `,"unchecked":`...)
		b = appendArray(b, f.Unchecked)
		b = append(b, `,"uncheckedTotal":`...)
		b = appendInt(b, int64(f.UncheckedTotal))
	}
	if f.RecheckedTotal > 0 {
		b = append(b, `,"rechecked":`...)
		b = appendArray(b, f.Rechecked)
		b = append(b, `,"recheckedTotal":`...)
		b = appendInt(b, int64(f.RecheckedTotal))
	}
	if f.Unreported != "" {
		b = append(b, `,"unreported":`...)
		b = appendString(b, f.Unreported)
	}
	if f.CurrentTotal > 0 {
		b = append(b, `,"current":`...)
		b = appendArray(b, f.Current)
		b = append(b, `,"currentTotal":`...)
		b = appendInt(b, int64(f.CurrentTotal))
	}
	return append(b, '}')
}

// DiagnosticsDelta is diagnosticsDelta's ok value.
type DiagnosticsDelta struct {
	Files            []DeltaFile
	Introduced       int
	Resolved         int
	Persisting       int
	IntroducedErrors int
	Truncated        bool
	Uncovered        []string
	Unreported       []string // files a server covers that it gave no report on (DeltaFile.Unreported)
	Stale            []string
	Others           *OthersDelta // nil: the input named no dependents
	Speculative      bool
	Rendered         Rendered
	// Withheld, Reappeared, Unchecked and Rechecked count the changed
	// files' (DeltaFile's).
	Withheld   int
	Reappeared int
	Unchecked  int
	Rechecked  int
	// Current counts the problems the unreported files have after the
	// change (DeltaFile.Current).
	Current int

	introducedBySeverity SeverityCounts
	paused               pausedLists
}

func (d DiagnosticsDelta) appendJSON(b []byte) []byte {
	b = append(b, `{"files":`...)
	b = appendArray(b, d.Files)
	b = append(b, `,"counts":{"introduced":`...)
	b = appendInt(b, int64(d.Introduced))
	b = append(b, `,"resolved":`...)
	b = appendInt(b, int64(d.Resolved))
	b = append(b, `,"persisting":`...)
	b = appendInt(b, int64(d.Persisting))
	b = append(b, `,"introducedErrors":`...)
	b = appendInt(b, int64(d.IntroducedErrors))
	b = appendPausedCounts(b, d.Withheld, d.Reappeared, d.Unchecked, d.Rechecked)
	if d.Current > 0 {
		b = append(b, `,"current":`...)
		b = appendInt(b, int64(d.Current))
	}
	b = append(b, `},"truncated":`...)
	b = appendBool(b, d.Truncated)
	b = append(b, `,"uncovered":`...)
	b = appendStrings(b, d.Uncovered)
	if len(d.Unreported) > 0 {
		b = append(b, `,"unreported":`...)
		b = appendStrings(b, d.Unreported)
	}
	b = append(b, `,"stale":`...)
	b = appendStrings(b, d.Stale)
	if d.Others != nil {
		b = append(b, `,"others":`...)
		b = d.Others.appendJSON(b)
	}
	if d.Speculative {
		b = append(b, `,"speculative":true`...)
	}
	b = append(b, `,"rendered":`...)
	b = d.Rendered.appendJSON(b)
	return append(b, '}')
}

// lineChange is the changed line region of an edit: before lines
// [start, beforeEnd) became after lines [start, afterEnd), from the first
// changed line to the last (GoChangeInsideBody's; the delta maps lines
// through the edit script's hunks, changeLines).
type lineChange struct {
	start, beforeEnd, afterEnd int
}

// changedLines computes the region from the common prefix and suffix of
// the two texts' lines.
func changedLines(before, after []string) lineChange {
	p, s := commonEnds(before, after)
	return lineChange{start: p, beforeEnd: len(before) - s, afterEnd: len(after) - s}
}

// changedLineRange is changedLines as three lines: before lines [start,
// beforeEnd) became after lines [start, afterEnd) (GoChangeInsideBody).
// A host asks ChangedSpans, hunk by hunk.
func changedLineRange(before, after []string) (start, beforeEnd, afterEnd int) {
	c := changedLines(before, after)
	return c.start, c.beforeEnd, c.afterEnd
}

// problemKey is what two problems must share to be the same problem
// wherever they are: severity, code, source and the message as compared
// (comparableMessage: a union's members in any order, appended notes
// left out).
type problemKey struct {
	sev                   int
	code, source, message string
}

func keyOf(p Problem) problemKey {
	return problemKey{p.Severity, p.Code, p.Source, comparableMessage(p.Message)}
}

// matchProblems splits before and after into resolved, introduced and the
// number persisting: a multiset match of before-problems to after-problems
// with the same key, in passes from the surest to the loosest, each
// before-problem paired with at most one after-problem.
//
//  1. An unchanged line: the problem's start maps to the same column of
//     its line after the edit.
//  2. A changed line: a problem on a changed line (a hunk's) of the same
//     trimmed text (the line moved, or only its indentation changed).
//  3. A changed line: a problem on its counterpart line (counterparts),
//     in any column: an edit on the line of an existing error (a comment
//     after it, a renamed call) leaves the error, at most moved along the
//     line; the nearest column pairs first.
//  4. A problem at the very same position: two entries that read the
//     same are never one resolved and one introduced, even when the one
//     before moved away and another took its place (a fix and a new
//     error that say nothing different to the reader).
func matchProblems(before, after []Problem, lines changeLines) (resolved, introduced []Problem, persisting int) {
	used := make([]bool, len(after))
	matched := make([]bool, len(before))
	bk := make([]problemKey, len(before))
	for i, b := range before {
		bk[i] = keyOf(b)
	}
	ak := make([]problemKey, len(after))
	for j, a := range after {
		ak[j] = keyOf(a)
	}
	pair := func(i, j int) {
		used[j], matched[i] = true, true
		persisting++
	}
	// 1. Index after-problems by position for the exact pass.
	byStart := map[Position][]int{}
	byLine := map[uint32][]int{}
	for j, a := range after {
		byStart[a.Range.Start] = append(byStart[a.Range.Start], j)
		byLine[a.Range.Start.Line] = append(byLine[a.Range.Start.Line], j)
	}
	for i, b := range before {
		line, ok := lines.mapLine(b.Range.Start.Line)
		if !ok {
			continue
		}
		for _, j := range byStart[Position{Line: line, Character: b.Range.Start.Character}] {
			if !used[j] && bk[i] == ak[j] {
				pair(i, j)
				break
			}
		}
	}
	// 2. The text pass: index the after-problems left by their line's text.
	type textKey struct {
		problemKey
		text string
	}
	byText := map[textKey][]int{}
	for j, a := range after {
		if text, touched := lines.afterLine(a.Range.Start.Line); touched && !used[j] {
			k := textKey{ak[j], text}
			byText[k] = append(byText[k], j)
		}
	}
	for i, b := range before {
		if matched[i] {
			continue
		}
		if _, ok := lines.mapLine(b.Range.Start.Line); ok {
			continue
		}
		text, touched := lines.beforeLine(b.Range.Start.Line)
		if !touched {
			continue
		}
		k := textKey{bk[i], text}
		for len(byText[k]) > 0 && used[byText[k][0]] {
			byText[k] = byText[k][1:]
		}
		if list := byText[k]; len(list) > 0 {
			pair(i, list[0])
			byText[k] = list[1:]
		}
	}
	// 3. The counterpart line, any column.
	for i, b := range before {
		if matched[i] {
			continue
		}
		l1, l2, ok := lines.counterparts(b.Range.Start.Line)
		if !ok {
			continue
		}
		best, bestDist := -1, int64(-1)
		for _, l := range []int64{l1, l2} {
			if l < 0 {
				continue
			}
			for _, j := range byLine[uint32(l)] {
				if used[j] || bk[i] != ak[j] {
					continue
				}
				d := int64(after[j].Range.Start.Character) - int64(b.Range.Start.Character)
				if d < 0 {
					d = -d
				}
				if best < 0 || d < bestDist {
					best, bestDist = j, d
				}
			}
		}
		if best >= 0 {
			pair(i, best)
		}
	}
	// 4. The same position.
	for i, b := range before {
		if matched[i] {
			continue
		}
		for _, j := range byStart[b.Range.Start] {
			if !used[j] && bk[i] == ak[j] {
				pair(i, j)
				break
			}
		}
	}
	for i, b := range before {
		if !matched[i] {
			resolved = append(resolved, b)
		}
	}
	for j, a := range after {
		if !used[j] {
			introduced = append(introduced, a)
		}
	}
	return resolved, introduced, persisting
}

func diagnosticsDeltaCall(in gjson.Result) (jsonAppender, *Error) {
	wsPath, err := catalogWorkspace(in)
	if err != nil {
		return nil, err
	}
	limit, err := diagnosticsLimitArg(in, DefaultDeltaLimit, "introduced and resolved problems")
	if err != nil {
		return nil, err
	}
	var subject string
	if v := get(in, "subject"); v.Exists() && v.Type != gjson.Null {
		if v.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "subject must be a string (a line naming the edit), got %s", describe(v))
		}
		subject = strings.TrimSpace(v.Str)
	}
	var out DiagnosticsDelta
	if v := get(in, "speculative"); v.Exists() && v.Type != gjson.Null {
		if v.Type != gjson.True && v.Type != gjson.False {
			return nil, Errorf(CodeInvalidArgument, "speculative must be a boolean (true: the after reports are on text not written), got %s", describe(v))
		}
		out.Speculative = v.Bool()
	}
	var allIntroduced, allResolved []Problem
	fileOf := map[string]int{} // path → index in out.Files
	files, dependents := get(in, "files"), get(in, "dependents")
	paused := scanPausedDirs(files, dependents, wsPath)
	err = forEachDiagFile(files, wsPath, "{uri, lines, before, after, how, fresh}", func(f gjson.Result, where at, path, how string, fresh bool) (err *Error) {
		df := DeltaFile{Path: path, How: how, Fresh: fresh}
		var lines changeLines
		if df.How != "none" {
			f := fields(f, "lines", "beforeText", "afterText")
			if lines, err = readChangeLines(f[0], f[1], f[2], where); err != nil {
				return err
			}
		}
		var before, after []Problem
		if before, err = readProblems(get(f, "before"), at{where.field("before"), -1}, df.Path, df.How); err != nil {
			return err
		}
		if after, err = readProblems(get(f, "after"), at{where.field("after"), -1}, df.Path, df.How); err != nil {
			return err
		}
		if u := get(f, "unreported"); u.Exists() && u.Type != gjson.Null {
			if u.Type != gjson.String || df.How != "none" {
				return Errorf(CodeInvalidArgument, "%s must be a string (why the server that covers the file gave no report), and only with how \"none\"; got %s with how %q", where.field("unreported"), describe(u), df.How)
			}
			df.Unreported = strings.TrimSpace(u.Str)
		}
		if df.How == "none" {
			if df.Unreported != "" {
				out.Unreported = append(out.Unreported, df.Path)
				sortProblems(after)
				df.CurrentTotal, out.Current = len(after), out.Current+len(after)
				df.Current = after[:min(len(after), limit)]
			} else {
				out.Uncovered = append(out.Uncovered, df.Path)
			}
			out.Files = append(out.Files, df)
			return nil
		}
		if !df.Fresh {
			out.Stale = append(out.Stale, df.Path)
		}
		var resolved, introduced []Problem
		resolved, introduced, df.Persisting = matchProblems(before, after, lines)
		resolved, introduced, df.Unchecked, df.Rechecked = splitUnparsed(df.Path, before, after, resolved, introduced)
		resolved, introduced, df.Withheld, df.Reappeared = paused.split(df.Path, resolved, introduced)
		out.Withheld += len(df.Withheld)
		out.Reappeared += len(df.Reappeared)
		out.Unchecked += len(df.Unchecked)
		out.Rechecked += len(df.Rechecked)
		out.paused.add(df)
		df.capPaused(limit)
		df.IntroducedTotal, df.ResolvedTotal = len(introduced), len(resolved)
		out.Introduced += len(introduced)
		out.Resolved += len(resolved)
		out.Persisting += df.Persisting
		for _, p := range introduced {
			out.introducedBySeverity[p.Severity]++
		}
		out.IntroducedErrors = out.introducedBySeverity[1]
		allIntroduced = append(allIntroduced, introduced...)
		allResolved = append(allResolved, resolved...)
		fileOf[df.Path] = len(out.Files)
		out.Files = append(out.Files, df)
		return nil
	})
	if err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	for _, f := range out.Files {
		changed[f.Path] = true
	}
	if out.Others, err = readDependents(dependents, wsPath, changed, limit, paused); err != nil {
		return nil, err
	}
	sortProblems(allIntroduced)
	sortProblems(allResolved)
	if len(allIntroduced) > limit {
		allIntroduced, out.Truncated = allIntroduced[:limit], true
	}
	if len(allResolved) > limit {
		allResolved, out.Truncated = allResolved[:limit], true
	}
	for _, p := range allIntroduced {
		f := &out.Files[fileOf[p.Path]]
		f.Introduced = append(f.Introduced, p)
	}
	for _, p := range allResolved {
		f := &out.Files[fileOf[p.Path]]
		f.Resolved = append(f.Resolved, p)
	}
	out.Rendered = renderDelta(out, allIntroduced, allResolved, subject, limit)
	return out, nil
}

// renderDelta writes the delta: a heading with the counts, the introduced
// problems (errors first), the resolved ones, what the limit left out,
// then the files no server checks and the stale ones.
func renderDelta(d DiagnosticsDelta, introduced, resolved []Problem, subject string, limit int) Rendered {
	var b strings.Builder
	if subject != "" {
		b.WriteString(subject + "\n")
	}
	covered := len(d.Files) - len(d.Uncovered) - len(d.Unreported)
	if d.Speculative {
		b.WriteString("If applied (speculative: the server was shown the new text; nothing is written), diagnostics")
	} else {
		b.WriteString("Diagnostics after the edit")
	}
	switch {
	case len(d.Files) == 0:
		b.WriteString(": no files were edited.")
		return Rendered{Text: b.String()}
	case covered == 0:
		b.WriteString(": not checked — " + notCheckedWhy(d) + ", so whether the edit introduced problems is unknown (this is not \"no problems\").")
		b.WriteString(askAgainAfterFailure(d))
		renderCurrent(&b, d, limit)
		return Rendered{Text: b.String()}
	case len(d.Files) == 1:
		b.WriteString(" of " + renderedName(d.Files[0].Path))
	}
	introPhrase := "0 introduced"
	if d.Introduced > 0 {
		introPhrase = d.introducedBySeverity.phrase() + " introduced"
	}
	b.WriteString(": " + introPhrase + ", " + strconv.Itoa(d.Resolved) + " resolved, " + strconv.Itoa(d.Persisting) + " persisting")
	if n := len(d.Unreported) + len(d.Uncovered); len(d.Unreported) > 0 {
		// The counts are of the files compared only: a heading that
		// says "0 introduced" of a change whose other files were not
		// compared would read as all clear.
		b.WriteString(" in the " + strconv.Itoa(covered) + " " + plural(covered, "file", "files") + " compared; " + strconv.Itoa(n) + " " + plural(n, "file was", "files were") + " not compared (below)")
	}
	b.WriteString(".")
	if len(introduced) > 0 {
		b.WriteString("\nIntroduced:")
		for _, p := range introduced {
			b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
		}
	}
	if more := d.Introduced - len(introduced); more > 0 {
		b.WriteString("\n  … " + strconv.Itoa(more) + " more introduced " + plural(more, "problem", "problems") + " not shown; " + raiseDiagnosticsLimit(limit))
	}
	if len(resolved) > 0 {
		b.WriteString("\nResolved:")
		for _, p := range resolved {
			b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
		}
	}
	if more := d.Resolved - len(resolved); more > 0 {
		b.WriteString("\n  … " + strconv.Itoa(more) + " more resolved " + plural(more, "problem", "problems") + " not shown; " + raiseDiagnosticsLimit(limit))
	}
	switch {
	case len(d.Stale) > 0 && d.Speculative:
		b.WriteString("\nStale: " + listPaths(d.Stale) + " — the server had not reported on the new text within the wait; these counts compare its latest report, which may be for the current content.")
	case len(d.Stale) > 0:
		b.WriteString("\nStale: " + listPaths(d.Stale) + " — the server had not reported on the new content within the wait; these counts compare its latest report, which may be for the old content, so ask for code_diagnostics again shortly.")
	}
	if len(d.Uncovered) > 0 {
		b.WriteString("\nNot checked: " + listPaths(d.Uncovered) + " — no language server covers " + plural(len(d.Uncovered), "it", "them") + ", so whether the edit introduced problems there is unknown.")
	}
	for _, g := range unreportedGroups(d) {
		b.WriteString("\nNot checked: " + listPaths(g.paths) + " — " + plural(len(g.paths), "its language server gave no report on it", "their language server gave no report on them") + " (" + g.reason + "), so whether the edit introduced problems there is unknown.")
	}
	b.WriteString(askAgainAfterFailure(d))
	renderCurrent(&b, d, limit)
	shown, total := len(introduced)+len(resolved), d.Introduced+d.Resolved
	paused := d.paused
	if o := d.Others; o != nil {
		renderOthers(&b, o, len(d.Files), limit)
		shown += len(o.introduced) + len(o.resolved)
		total += o.Introduced + o.Resolved
		paused = paused.with(o.paused)
	}
	s, t := renderPaused(&b, paused, limit)
	shown, total = shown+s, total+t
	return Rendered{Text: b.String(), Shown: shown, Omitted: total - shown}
}

// notCheckedWhy says why none of a delta's files was checked: the files
// no server covers, and those whose server gave no report, with why.
func notCheckedWhy(d DiagnosticsDelta) string {
	var parts []string
	if len(d.Uncovered) > 0 {
		parts = append(parts, "no language server covers "+listPaths(d.Uncovered))
	}
	for _, g := range unreportedGroups(d) {
		parts = append(parts, "the language server of "+listPaths(g.paths)+" gave no report on "+plural(len(g.paths), "it", "them")+" ("+g.reason+")")
	}
	return strings.Join(parts, "; ")
}

// unreportedGroup is the files not checked for one reason.
type unreportedGroup struct {
	reason string
	paths  []string
}

// unreportedGroups gathers the unreported files by reason, in the order
// each reason first comes: a command that rewrote 59 files the server
// had not reported on before gave 59 lines of one sentence (14 KB), where
// one line naming the files says the same.
func unreportedGroups(d DiagnosticsDelta) []unreportedGroup {
	var groups []unreportedGroup
	index := map[string]int{}
	for _, f := range d.Files {
		if f.Unreported == "" {
			continue
		}
		i, ok := index[f.Unreported]
		if !ok {
			i = len(groups)
			index[f.Unreported] = i
			groups = append(groups, unreportedGroup{reason: f.Unreported})
		}
		groups[i].paths = append(groups[i].paths, f.Path)
	}
	return groups
}

// renderCurrent lists the problems the files not compared have now, the
// first limit of them, errors first: whether the edit introduced them is
// unknown, but they are what the caller may have to fix.
func renderCurrent(b *strings.Builder, d DiagnosticsDelta, limit int) {
	if d.Current == 0 {
		return
	}
	var all []Problem
	for _, f := range d.Files {
		all = append(all, f.Current...)
	}
	sortProblems(all)
	all = all[:min(len(all), limit)]
	b.WriteString("\nProblems the files not compared have now (" + strconv.Itoa(d.Current) + "; whether the edit introduced them is unknown):")
	for _, p := range all {
		b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
	}
	if more := d.Current - len(all); more > 0 {
		b.WriteString("\n  … " + strconv.Itoa(more) + " more not shown; " + raiseDiagnosticsLimit(limit))
	}
}

// askAgainAfterFailure is the hint after files whose server gave no
// report: code_diagnostics asks again (a server that failed is started
// again by the next call).
func askAgainAfterFailure(d DiagnosticsDelta) string {
	if len(d.Unreported) == 0 {
		return ""
	}
	return " Ask code_diagnostics for " + plural(len(d.Unreported), "it", "them") + " to check now (a server that failed is started again by the next call)."
}
