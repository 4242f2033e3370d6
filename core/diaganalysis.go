package core

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Analyzer findings that come and go with a package's compile errors, in
// the diagnostics delta.
//
// gopls runs most of its analyzers (unusedfunc, unusedparams,
// simplifycompositelit…: every diagnostic source but its compiler's) only
// on a package that type-checks: while a package has a type or syntax
// error, their findings are not reported at all. Compared as they are, an
// edit that breaks the build "resolved" an unused function it never
// touched, and the edit that fixes the build "introduced" it again.
//
// The server table says which servers do this (ServerBehaviour.
// AnalyzersPausedBy: the sources of the errors that stop the analyzers).
// For a file of such a server's language, with the package taken to be
// the file's directory (a Go package):
//
//   - a finding of another source that vanished while the directory has
//     such an error after the change is withheld, not resolved: the
//     server no longer says anything either way;
//   - a finding of another source that appeared when the directory had
//     such an error before the change and has none after is reappeared,
//     not introduced: the server did not run its analyzers before, so
//     whether the change made it is not known.
//
// The directory's errors are looked for in every report the delta holds
// (the changed files and the other files checked): an error in a file the
// delta did not check is not seen, and then the finding is compared as
// any other.

// analysisPause is a server's rule: its name and the sources of the
// errors that pause its analyzers.
type analysisPause struct {
	server  string
	sources []string
}

func (a analysisPause) pausedBy(source string) bool {
	for _, s := range a.sources {
		if s == source {
			return true
		}
	}
	return false
}

// analysisPauseOf is the rule for a file, by its extension: the rule of
// the table's server for that extension, if it has one.
func analysisPauseOf(file string) (analysisPause, bool) {
	e, ok := serverWithBehaviour(file, func(b ServerBehaviour) bool { return len(b.AnalyzersPausedBy) > 0 })
	if !ok {
		return analysisPause{}, false
	}
	return analysisPause{server: e.Name, sources: e.Behaviour.AnalyzersPausedBy}, true
}

// serverWithBehaviour is the table's server for file's extension whose
// behaviour has what wanted asks for, if there is one: the delta's
// server-specific rules (analysisPauseOf, parsePauseOf) are data of the
// server that covers the file.
func serverWithBehaviour(file string, wanted func(ServerBehaviour) bool) (ServerEntry, bool) {
	ext := strings.ToLower(path.Ext(file))
	if ext == "" {
		return ServerEntry{}, false
	}
	for _, e := range Servers().Servers {
		if !wanted(e.Behaviour) {
			continue
		}
		for _, l := range e.Languages {
			if slices.Contains(l.Extensions, ext) {
				return e, true
			}
		}
	}
	return ServerEntry{}, false
}

// packageDir is a file's directory, the package the rule takes it to be in.
func packageDir(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		return file[:i]
	}
	return ""
}

// pausedDirs says which directories have an error that pauses the
// analyzers, before the change and after it.
type pausedDirs struct {
	before, after map[string]bool
}

// scanPausedDirs looks through the delta's files and dependents' files
// for the errors that pause a server's analyzers. The input is checked
// where it is read for the delta; here a malformed part is skipped.
func scanPausedDirs(files, dependents gjson.Result, wsPath string) pausedDirs {
	d := pausedDirs{before: map[string]bool{}, after: map[string]bool{}}
	scan := func(files gjson.Result) {
		if !files.IsArray() {
			return
		}
		files.ForEach(func(_, f gjson.Result) bool {
			uri := get(f, "uri")
			if uri.Type != gjson.String {
				return true
			}
			file := displayPath(uri.Str, wsPath)
			rule, ok := analysisPauseOf(file)
			if !ok {
				return true
			}
			dir := packageDir(file)
			for side, seen := range map[string]map[string]bool{"before": d.before, "after": d.after} {
				get(f, side).ForEach(func(_, p gjson.Result) bool {
					sev := get(p, "severity")
					if (!sev.Exists() || sev.Type == gjson.Null || sev.Num == 1) && rule.pausedBy(get(p, "source").Str) {
						seen[dir] = true
						return false
					}
					return true
				})
			}
			return true
		})
	}
	scan(files)
	scan(get(dependents, "files"))
	return d
}

// split takes from a file's resolved problems the withheld ones and from
// its introduced problems the reappeared ones.
func (d pausedDirs) split(file string, resolved, introduced []Problem) (res, intro, withheld, reappeared []Problem) {
	rule, ok := analysisPauseOf(file)
	if !ok {
		return resolved, introduced, nil, nil
	}
	dir := packageDir(file)
	analyzer := func(p Problem) bool { return p.Source != "" && !rule.pausedBy(p.Source) }
	for _, p := range resolved {
		if d.after[dir] && analyzer(p) {
			withheld = append(withheld, p)
		} else {
			res = append(res, p)
		}
	}
	for _, p := range introduced {
		if d.before[dir] && !d.after[dir] && analyzer(p) {
			reappeared = append(reappeared, p)
		} else {
			intro = append(intro, p)
		}
	}
	return res, intro, withheld, reappeared
}

// analyzerServer names the server whose rule a problem's file follows, for
// the text ("the server" when none).
func analyzerServer(p Problem) string {
	if rule, ok := analysisPauseOf(p.Path); ok && rule.server != "" {
		return rule.server
	}
	return "the server"
}

// pausedLists are the problems of a delta that are neither resolved nor
// introduced because the server stopped, or started again, reporting
// them: analyzer findings withheld or reappeared with a package's compile
// errors (this file), problems unchecked or rechecked with a file's parse
// errors (diagparse.go). Whole lists: the text sorts and cuts them.
type pausedLists struct {
	withheld, reappeared, unchecked, rechecked []Problem
}

// add takes a file's lists (before capPaused cuts them).
func (l *pausedLists) add(f DeltaFile) {
	l.withheld = append(l.withheld, f.Withheld...)
	l.reappeared = append(l.reappeared, f.Reappeared...)
	l.unchecked = append(l.unchecked, f.Unchecked...)
	l.rechecked = append(l.rechecked, f.Rechecked...)
}

// with is both deltas' lists (the changed files' and the other files').
func (l pausedLists) with(o pausedLists) pausedLists {
	join := func(a, b []Problem) []Problem { return append(append([]Problem(nil), a...), b...) }
	return pausedLists{join(l.withheld, o.withheld), join(l.reappeared, o.reappeared), join(l.unchecked, o.unchecked), join(l.rechecked, o.rechecked)}
}

// renderPaused writes the unchecked, rechecked, withheld and reappeared
// problems of the changed and the other files, each list sorted and cut
// at limit.
func renderPaused(b *strings.Builder, l pausedLists, limit int) (shown, total int) {
	for _, part := range []struct {
		list   []Problem
		head   string
		server func(Problem) string
	}{
		{l.unchecked, "Not checked while the file does not parse (not resolved: %s reports no type errors for a file with a syntax error, so whether these are still there is not known until it parses):", parseServer},
		{l.rechecked, "Reported again now that the file parses (%s reported no type errors for it while it had a syntax error, so whether the change made these is not known):", parseServer},
		{l.withheld, "Not reported while the package has errors (not resolved: %s runs its analyzers only on code that type-checks):", analyzerServer},
		{l.reappeared, "Reported again now that the package type-checks (%s did not run its analyzers while it had errors, so whether the change made these is not known):", analyzerServer},
	} {
		if len(part.list) == 0 {
			continue
		}
		list := append([]Problem(nil), part.list...)
		sortProblems(list)
		total += len(list)
		b.WriteString("\n" + strings.Replace(part.head, "%s", part.server(list[0]), 1))
		if len(list) > limit {
			list = list[:limit]
		}
		shown += len(list)
		for _, p := range list {
			b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
		}
		if more := len(part.list) - len(list); more > 0 {
			b.WriteString("\n  … " + strconv.Itoa(more) + " more not shown; " + raiseDiagnosticsLimit(limit))
		}
	}
	return shown, total
}

// appendPausedCounts adds the counts of withheld, reappeared, unchecked
// and rechecked problems to a delta's counts, those there are.
func appendPausedCounts(b []byte, withheld, reappeared, unchecked, rechecked int) []byte {
	for _, c := range []struct {
		name string
		n    int
	}{{"withheld", withheld}, {"reappeared", reappeared}, {"unchecked", unchecked}, {"rechecked", rechecked}} {
		if c.n > 0 {
			b = append(b, `,"`+c.name+`":`...)
			b = appendInt(b, int64(c.n))
		}
	}
	return b
}

// capPaused cuts a file's withheld, reappeared, unchecked and rechecked
// lists as its JSON carries them: sorted, the first limit of each, with
// their totals.
func (f *DeltaFile) capPaused(limit int) {
	f.WithheldTotal, f.ReappearedTotal = len(f.Withheld), len(f.Reappeared)
	f.UncheckedTotal, f.RecheckedTotal = len(f.Unchecked), len(f.Rechecked)
	for _, list := range []*[]Problem{&f.Withheld, &f.Reappeared, &f.Unchecked, &f.Rechecked} {
		sortProblems(*list)
		if len(*list) > limit {
			*list = (*list)[:limit:limit]
		}
	}
}
