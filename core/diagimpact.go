package core

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The cross-file impact of a change (diagnosticsDelta's dependents): the
// problems a change introduced and resolved in other files, those that
// depend on what it changed, which the change did not touch.
//
// Input dependents? {files: [{uri, before, after, how, fresh}],
// notChecked: [{uri, reason}], notCheckedMore?, unasked?, unaskedNames?,
// unaskedWhy?, asked?, insideBodies?, partial?}. Each file's text is the same
// before and after the change, so every line maps to itself and none is
// read (a host sends no text: a "text" member is ignored); before and
// after are the server's Diagnostic[] on it before and after the change;
// how is "pull" or "push" (a file no server checks is notChecked, reason
// "noServer"); fresh says after is known to be a report made after the
// change. notChecked names the dependents found but not checked, with why:
// "limit" (more dependents than the host checks), "time" (the budget ran
// out), "noServer" (no language server reports on it), "failed" (the
// server could not report on it), "otherUnit" (a C-family dependent that
// does not #include the changed source files, directly or through a
// header: its compile errors cannot change, and the server publishes no
// report on a file whose inputs did not change — not a problem found or
// ruled out, a file there was nothing to check on); at most
// MaxDependentFiles of them,
// and notCheckedMore counts those found over the files checked beyond
// the ones listed. unasked counts the changed declarations
// whose references were not asked (over the host's bound or out of time;
// a changed file the host did not look into counts as one): other files
// may depend on them unseen. unaskedNames names those of them the host
// can name (the declaration whose name line changed first; at most 8,
// each one counted in unasked), unaskedWhy says why: "time", "limit" or
// "timeAndLimit". With none found in other files and some unasked, the
// text says other files were not checked, naming whose references were
// not asked, never that none refer to what changed. asked counts those whose references were
// asked. insideBodies counts the changed Go
// functions whose references were not asked because the change stayed
// inside their bodies (GoChangeInsideBody, gobody.go): no other file's
// compile errors depend on a body, and when no declaration was asked
// either, the text says other files were not checked rather than
// unaffected.
//
// Output others {checked, files: [{path, how, fresh, introduced,
// resolved, persisting, introducedTotal, resolvedTotal}], withIntroduced:
// [path], withResolved: [path], counts: {introduced, resolved, persisting,
// introducedErrors}, truncated, stale: [path], notChecked: [{path,
// reason}], notCheckedMore?, unasked, unaskedNames?, unaskedWhy?, insideBodies?}, only when the input has dependents. introduced and
// resolved are listed as for the changed files, errors first, the first
// limit of each across the other files.

// Why a dependent was not checked.
const (
	NotCheckedLimit    = "limit"
	NotCheckedTime     = "time"
	NotCheckedNoServer = "noServer"
	NotCheckedFailed   = "failed"
	// NotCheckedOtherUnit: a dependent of a change of C, C++ or
	// Objective-C source files only that #includes none of them (the
	// host's textual search, cincluders.go): another translation unit,
	// whose inputs the change did not touch.
	NotCheckedOtherUnit = "otherUnit"
	// NotCheckedOtherServer: a dependent of a speculative check (a
	// preview) that another language server than the change's serves (a
	// .svelte caller of a .ts function): that server is not shown the
	// change before it is written; the applied change checks it.
	NotCheckedOtherServer = "otherServer"
)

// NotChecked is a dependent that was found but not checked, and why.
type NotChecked struct {
	Path   string
	Reason string
}

func (n NotChecked) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, n.Path)
	b = append(b, `,"reason":`...)
	b = appendString(b, n.Reason)
	return append(b, '}')
}

// OthersDelta is the delta of the other files a change depends on.
type OthersDelta struct {
	Files            []DeltaFile
	WithIntroduced   []string
	WithResolved     []string
	Introduced       int
	Resolved         int
	Persisting       int
	IntroducedErrors int
	Truncated        bool
	Stale            []string
	NotChecked       []NotChecked
	// NotCheckedMore counts the dependents found and not checked (over
	// the files checked) beyond those NotChecked lists.
	NotCheckedMore int
	Unasked        int
	// UnaskedNames names the changed declarations whose references were
	// not asked, those whose name line changed first (at most
	// maxUnaskedNames); UnaskedWhy is why: UnaskedTime, UnaskedLimit or
	// both (UnaskedTimeAndLimit), "" when the host does not say. With
	// nothing found in other files, the first line says those were not
	// looked for rather than "none refer to what changed".
	UnaskedNames []string
	UnaskedWhy   string
	InsideBodies int
	// Partial says why the references asked may have missed files (the
	// server searched part of the workspace): "none refer to what changed" is
	// then only as far as it searched, and the text says why.
	Partial string
	// Asked counts the changed declarations whose references were asked:
	// with none found in other files, "none refer to what changed" (not "not
	// checked") is the answer, inside bodies or not.
	Asked int
	// Withheld and Reappeared count the other files' analyzer findings
	// that vanished, or came back, with a package's compile errors
	// (diaganalysis.go).
	Withheld   int
	Reappeared int
	// Unchecked and Rechecked count the other files' problems hidden, or
	// shown again, with their own parse errors (diagparse.go).
	Unchecked int
	Rechecked int

	introducedBySeverity SeverityCounts
	introduced, resolved []Problem // the listed ones, sorted
	paused               pausedLists
}

func (o *OthersDelta) appendJSON(b []byte) []byte {
	b = append(b, `{"checked":`...)
	b = appendInt(b, int64(len(o.Files)))
	b = append(b, `,"files":`...)
	b = appendArray(b, o.Files)
	b = append(b, `,"withIntroduced":`...)
	b = appendStrings(b, o.WithIntroduced)
	b = append(b, `,"withResolved":`...)
	b = appendStrings(b, o.WithResolved)
	b = append(b, `,"counts":{"introduced":`...)
	b = appendInt(b, int64(o.Introduced))
	b = append(b, `,"resolved":`...)
	b = appendInt(b, int64(o.Resolved))
	b = append(b, `,"persisting":`...)
	b = appendInt(b, int64(o.Persisting))
	b = append(b, `,"introducedErrors":`...)
	b = appendInt(b, int64(o.IntroducedErrors))
	b = appendPausedCounts(b, o.Withheld, o.Reappeared, o.Unchecked, o.Rechecked)
	b = append(b, `},"truncated":`...)
	b = appendBool(b, o.Truncated)
	b = append(b, `,"stale":`...)
	b = appendStrings(b, o.Stale)
	b = append(b, `,"notChecked":`...)
	b = appendArray(b, o.NotChecked)
	if o.NotCheckedMore > 0 {
		b = append(b, `,"notCheckedMore":`...)
		b = appendInt(b, int64(o.NotCheckedMore))
	}
	b = append(b, `,"unasked":`...)
	b = appendInt(b, int64(o.Unasked))
	if len(o.UnaskedNames) > 0 {
		b = append(b, `,"unaskedNames":`...)
		b = appendStrings(b, o.UnaskedNames)
	}
	if o.UnaskedWhy != "" {
		b = append(b, `,"unaskedWhy":`...)
		b = appendString(b, o.UnaskedWhy)
	}
	if o.InsideBodies > 0 {
		b = append(b, `,"insideBodies":`...)
		b = appendInt(b, int64(o.InsideBodies))
	}
	if o.Partial != "" {
		b = append(b, `,"partial":`...)
		b = appendString(b, o.Partial)
	}
	return append(b, '}')
}

// MaxDependentFiles bounds each file list of one delta's dependents
// (files, notChecked). A host checks far fewer, and lists at most this
// many of the files it found and did not check, counting the rest in
// notCheckedMore: a declaration used across a large repository has more.
const MaxDependentFiles = 1000

// MaxImpactCount bounds the counts of one delta's dependents (unasked,
// asked, insideBodies, notCheckedMore). A generated file or a bundle
// holds declarations by the thousand (1,100 constants rewritten, a
// minified file's 3,000 variables), so the bound is far above what a
// change counts, there to refuse what no host could have counted (a
// negative, a fraction, a garbled number), and a host clamps a count at
// it rather than lose the delta (the texts say "at least").
const MaxImpactCount = 1_000_000

// maxUnaskedNames bounds dependents.unaskedNames; each name is clipped
// at maxUnaskedName bytes.
const (
	maxUnaskedNames = 8
	maxUnaskedName  = 200
)

// Why the references of changed declarations were not asked
// (dependents.unaskedWhy).
const (
	UnaskedTime         = "time"
	UnaskedLimit        = "limit"
	UnaskedTimeAndLimit = "timeAndLimit"
)

// maxPartialReason bounds dependents.partial's text.
const maxPartialReason = 1000

// readDependents reads diagnosticsDelta's dependents; changed holds the
// changed files' paths, which a dependent must not repeat. nil when the
// input has none.
func readDependents(v gjson.Result, wsPath string, changed map[string]bool, limit int, paused pausedDirs) (*OthersDelta, *Error) {
	if !v.Exists() || v.Type == gjson.Null {
		return nil, nil
	}
	const shape = "{files: [{uri, before, after, how, fresh}], notChecked: [{uri, reason}], unasked}"
	if !v.IsObject() {
		return nil, Errorf(CodeInvalidArgument, "dependents must be an object %s, got %s", shape, describe(v))
	}
	o := &OthersDelta{}
	seen := map[string]string{}
	claim := func(where at, uri string) (string, *Error) {
		path := displayPath(uri, wsPath)
		if changed[path] {
			return "", Errorf(CodeInvalidArgument, "%s names a changed file (%s); dependents are the other files", where.field("uri"), clip(path, 200))
		}
		if prev, dup := seen[path]; dup {
			return "", Errorf(CodeInvalidArgument, "%s names the file of %s (%s); pass each file once", where.field("uri"), prev, clip(path, 200))
		}
		seen[path] = where.String()
		return path, nil
	}
	files := get(v, "files")
	if files.Exists() && !files.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "dependents.files must be an array of {uri, before, after, how, fresh}, got %s", describe(files))
	}
	var err *Error
	var introduced, resolved []Problem
	i := 0
	files.ForEach(func(_, f gjson.Result) bool {
		where := at{"dependents.files", i}
		i++
		if i > MaxDependentFiles {
			err = Errorf(CodeInvalidArgument, "dependents.files holds more than %d files", MaxDependentFiles)
			return false
		}
		if !f.IsObject() {
			err = Errorf(CodeInvalidArgument, "%s must be an object {uri, before, after, how, fresh}, got %s", where, describe(f))
			return false
		}
		var uri, path, how string
		var fresh bool
		if uri, err = diagFileURI(f, where); err != nil {
			return false
		}
		if path, err = claim(where, uri); err != nil {
			return false
		}
		if how, fresh, err = diagHow(f, where); err != nil {
			return false
		}
		if how == "none" {
			err = Errorf(CodeInvalidArgument, "%s is \"none\": a dependent no server checks belongs in dependents.notChecked (reason %q)", where.field("how"), NotCheckedNoServer)
			return false
		}
		var before, after []Problem
		if before, err = readProblems(get(f, "before"), at{where.field("before"), -1}, path, how); err != nil {
			return false
		}
		if after, err = readProblems(get(f, "after"), at{where.field("after"), -1}, path, how); err != nil {
			return false
		}
		df := DeltaFile{Path: path, How: how, Fresh: fresh}
		if !fresh {
			o.Stale = append(o.Stale, path)
		}
		var res, intro []Problem
		res, intro, df.Persisting = matchProblems(before, after, unchanged)
		res, intro, df.Unchecked, df.Rechecked = splitUnparsed(path, before, after, res, intro)
		res, intro, df.Withheld, df.Reappeared = paused.split(path, res, intro)
		o.Withheld += len(df.Withheld)
		o.Reappeared += len(df.Reappeared)
		o.Unchecked += len(df.Unchecked)
		o.Rechecked += len(df.Rechecked)
		o.paused.add(df)
		df.capPaused(limit)
		df.IntroducedTotal, df.ResolvedTotal = len(intro), len(res)
		o.Introduced += len(intro)
		o.Resolved += len(res)
		o.Persisting += df.Persisting
		for _, p := range intro {
			o.introducedBySeverity[p.Severity]++
		}
		if len(intro) > 0 {
			o.WithIntroduced = append(o.WithIntroduced, path)
		}
		if len(res) > 0 {
			o.WithResolved = append(o.WithResolved, path)
		}
		introduced = append(introduced, intro...)
		resolved = append(resolved, res...)
		o.Files = append(o.Files, df)
		return true
	})
	if err != nil {
		return nil, err
	}
	o.IntroducedErrors = o.introducedBySeverity[1]
	nc := get(v, "notChecked")
	if nc.Exists() && !nc.IsArray() {
		return nil, Errorf(CodeInvalidArgument, "dependents.notChecked must be an array of {uri, reason}, got %s", describe(nc))
	}
	i = 0
	nc.ForEach(func(_, n gjson.Result) bool {
		where := at{"dependents.notChecked", i}
		i++
		if i > MaxDependentFiles {
			err = Errorf(CodeInvalidArgument, "dependents.notChecked holds more than %d files", MaxDependentFiles)
			return false
		}
		if !n.IsObject() {
			err = Errorf(CodeInvalidArgument, "%s must be an object {uri, reason}, got %s", where, describe(n))
			return false
		}
		var uri, path string
		if uri, err = diagFileURI(n, where); err != nil {
			return false
		}
		if path, err = claim(where, uri); err != nil {
			return false
		}
		r := get(n, "reason")
		switch r.Str {
		case NotCheckedLimit, NotCheckedTime, NotCheckedNoServer, NotCheckedFailed, NotCheckedOtherUnit, NotCheckedOtherServer:
			if r.Type == gjson.String {
				break
			}
			fallthrough
		default:
			err = Errorf(CodeInvalidArgument, "%s must be %q (over the files checked), %q (out of time), %q (no language server), %q (the server could not report), %q (it does not #include the changed C-family source files) or %q (a speculative check's dependent another server serves), got %s", where.field("reason"), NotCheckedLimit, NotCheckedTime, NotCheckedNoServer, NotCheckedFailed, NotCheckedOtherUnit, NotCheckedOtherServer, describe(r))
			return false
		}
		o.NotChecked = append(o.NotChecked, NotChecked{Path: path, Reason: r.Str})
		return true
	})
	if err != nil {
		return nil, err
	}
	for _, c := range []struct {
		name, what string
		to         *int
	}{
		{"unasked", "changed declarations whose references were not asked", &o.Unasked},
		{"asked", "changed declarations whose references were asked", &o.Asked},
		{"insideBodies", "changed functions whose bodies alone changed", &o.InsideBodies},
		{"notCheckedMore", "files found and not checked beyond those notChecked lists", &o.NotCheckedMore},
	} {
		if *c.to, err = impactCount(v, c.name, c.what); err != nil {
			return nil, err
		}
	}
	if u := get(v, "unaskedNames"); u.Exists() && u.Type != gjson.Null {
		if !u.IsArray() {
			return nil, Errorf(CodeInvalidArgument, "dependents.unaskedNames must be an array of the names of the changed declarations whose references were not asked, got %s", describe(u))
		}
		var bad *Error
		u.ForEach(func(_, n gjson.Result) bool {
			if n.Type != gjson.String || n.Str == "" {
				bad = Errorf(CodeInvalidArgument, "dependents.unaskedNames must hold non-empty strings (declarations' names), got %s", describe(n))
				return false
			}
			if len(o.UnaskedNames) < maxUnaskedNames {
				o.UnaskedNames = append(o.UnaskedNames, clip(n.Str, maxUnaskedName))
			}
			return true
		})
		if bad != nil {
			return nil, bad
		}
	}
	if w := get(v, "unaskedWhy"); w.Exists() && w.Type != gjson.Null {
		switch {
		case w.Type == gjson.String && (w.Str == UnaskedTime || w.Str == UnaskedLimit || w.Str == UnaskedTimeAndLimit):
			o.UnaskedWhy = w.Str
		default:
			return nil, Errorf(CodeInvalidArgument, "dependents.unaskedWhy must be %q (out of time), %q (over the host's bound of declarations asked) or %q (both), got %s", UnaskedTime, UnaskedLimit, UnaskedTimeAndLimit, describe(w))
		}
	}
	if len(o.UnaskedNames) > o.Unasked {
		o.Unasked = len(o.UnaskedNames) // each name is one declaration not asked
	}
	if p := get(v, "partial"); p.Exists() && p.Type != gjson.Null {
		if p.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "dependents.partial must be a string (why the references may have missed files), got %s", describe(p))
		}
		o.Partial = clip(p.Str, maxPartialReason)
	}
	sortProblems(introduced)
	sortProblems(resolved)
	if len(introduced) > limit {
		introduced, o.Truncated = introduced[:limit], true
	}
	if len(resolved) > limit {
		resolved, o.Truncated = resolved[:limit], true
	}
	fileOf := map[string]int{}
	for k, f := range o.Files {
		fileOf[f.Path] = k
	}
	for _, p := range introduced {
		f := &o.Files[fileOf[p.Path]]
		f.Introduced = append(f.Introduced, p)
	}
	for _, p := range resolved {
		f := &o.Files[fileOf[p.Path]]
		f.Resolved = append(f.Resolved, p)
	}
	o.introduced, o.resolved = introduced, resolved
	return o, nil
}

// impactCount reads the count dependents.name (0 when absent): an
// integer from 0 to MaxImpactCount.
func impactCount(v gjson.Result, name, what string) (int, *Error) {
	u := get(v, name)
	if !u.Exists() || u.Type == gjson.Null {
		return 0, nil
	}
	if u.Type != gjson.Number || u.Num != float64(int64(u.Num)) || u.Num < 0 || u.Num > MaxImpactCount {
		return 0, Errorf(CodeInvalidArgument, "dependents.%s must be an integer from 0 to %d (%s; a host clamps a larger count at %d), got %s", name, MaxImpactCount, what, MaxImpactCount, describe(u))
	}
	return int(u.Num), nil
}

// renderOthers writes the other files' part of a delta (of changedFiles
// changed files): one line when nothing changed there, else the files with new problems and the
// problems, the resolved ones, and what was not checked.
func renderOthers(b *strings.Builder, o *OthersDelta, changedFiles, limit int) {
	checked := len(o.Files)
	b.WriteString("\n")
	var otherUnits []string // dependents that cannot be affected (another C translation unit)
	for _, n := range o.NotChecked {
		if n.Reason == NotCheckedOtherUnit {
			otherUnits = append(otherUnits, n.Path)
		}
	}
	notChecked := len(o.NotChecked) - len(otherUnits) + o.NotCheckedMore
	otherUnitsLine := "the other files that use what changed (" + listPaths(otherUnits) + ") do not #include the changed source " + plural(changedFiles, "file", "files") +
		", directly or through a header, so their compile errors cannot change (and the server sends no new report on them)."
	if checked == 0 && notChecked == 0 && o.Unasked == 0 {
		switch {
		case o.InsideBodies > 0 && o.Asked == 0 && len(otherUnits) == 0:
			b.WriteString("Other files: not checked — the change stays inside function bodies, which no other file's compile errors depend on.")
			return
		case len(otherUnits) > 0:
			b.WriteString("Other files: not checked — " + otherUnitsLine)
			if o.Partial != "" {
				b.WriteString("\nThe references asked may have missed files: " + o.Partial + ".")
			}
			return
		}
	}
	if checked == 0 && notChecked == 0 && o.Unasked > 0 {
		// Nothing found, but not everything was looked for: never "none
		// refer to what changed", which an agent takes at its word (a
		// cold server's first references, out of time, left 5 importers
		// of the changed declaration unseen: findings s28 F4).
		b.WriteString("Other files: not checked — " + o.unaskedSentence())
		if o.Asked > 0 {
			b.WriteString(" None refer to the " + strconv.Itoa(o.Asked) + " other changed " + plural(o.Asked, "declaration", "declarations") + " whose references were asked (asked before the change).")
		}
	} else if checked == 0 && notChecked == 0 {
		// Said of what was asked: the references before the change, found
		// outside the changed files. A rename's uses are changed files
		// themselves (whose problems are listed above), and the uses a
		// change gains (a name given back) are not references before it.
		if changedFiles > 1 {
			b.WriteString("Other files: none besides the " + strconv.Itoa(changedFiles) + " changed files refer to what changed")
		} else {
			b.WriteString("Other files: none refer to what changed")
		}
		b.WriteString(" (asked before the change")
		if o.Partial != "" {
			b.WriteString(", as far as the server searched, which may not be everywhere")
		}
		b.WriteString(").")
	} else {
		b.WriteString(strconv.Itoa(checked) + " other " + plural(checked, "file", "files") + " checked")
		switch {
		case checked == 0:
			b.WriteString(".")
		case o.Introduced > 0:
			n := len(o.WithIntroduced)
			b.WriteString(", " + strconv.Itoa(n) + " with new problems (" + o.introducedBySeverity.phrase() + " introduced, " + strconv.Itoa(o.Resolved) + " resolved):")
		case o.Resolved > 0:
			b.WriteString(", no new problems; " + strconv.Itoa(o.Resolved) + " resolved:")
		case len(o.Stale) >= checked:
			// Nothing was compared: every report after may be the one
			// from before (clangd publishes nothing new on a file whose
			// inputs did not change). Said so, never as a pass.
			b.WriteString(": none compared — the server sent no report on " + plural(checked, "it", "any of them") + " after the change within the wait (stale, below).")
		case len(o.Stale) > 0:
			// Not a clean bill: some reports may be from before the change.
			fresh := checked - len(o.Stale)
			b.WriteString(", no new problems in the " + strconv.Itoa(fresh) + " " + plural(fresh, "report", "reports") + " made after the change; " + strconv.Itoa(len(o.Stale)) + " stale (below).")
		default:
			b.WriteString(", no new problems.")
		}
	}
	for _, p := range o.introduced {
		b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
	}
	if more := o.Introduced - len(o.introduced); more > 0 {
		b.WriteString("\n  … " + strconv.Itoa(more) + " more introduced " + plural(more, "problem", "problems") + " in other files not shown; " + raiseDiagnosticsLimit(limit))
	}
	if len(o.resolved) > 0 {
		if o.Introduced > 0 {
			b.WriteString("\nResolved in other files:")
		}
		for _, p := range o.resolved {
			b.WriteString("\n  " + renderedName(p.Path) + ":" + problemLine(p))
		}
	}
	if more := o.Resolved - len(o.resolved); more > 0 {
		b.WriteString("\n  … " + strconv.Itoa(more) + " more resolved " + plural(more, "problem", "problems") + " in other files not shown; " + raiseDiagnosticsLimit(limit))
	}
	if len(o.Stale) > 0 {
		b.WriteString("\nStale (other files): " + listPaths(o.Stale) + " — no report on " + plural(len(o.Stale), "it", "them") + " after the change within the wait; compared with the latest report, which may be from before it.")
	}
	if notChecked > 0 {
		var parts []string
		for _, r := range []struct{ reason, why string }{
			{NotCheckedLimit, "over the number of files checked"},
			{NotCheckedTime, "out of time"},
			{NotCheckedNoServer, "no language server reports on them"},
			{NotCheckedFailed, "the server could not report on them"},
			{NotCheckedOtherServer, "another language server checks them, which is shown the change only once it is written"},
		} {
			var paths []string
			for _, n := range o.NotChecked {
				if n.Reason == r.reason {
					paths = append(paths, n.Path)
				}
			}
			more := 0
			if r.reason == NotCheckedLimit {
				more = o.NotCheckedMore
			}
			if len(paths)+more > 0 {
				parts = append(parts, listPathsAndMore(paths, more)+" ("+r.why+")")
			}
		}
		b.WriteString("\nNot checked: " + strings.Join(parts, "; ") + " — other files that use what changed; whether the change broke them is unknown.")
	}
	if len(otherUnits) > 0 {
		b.WriteString("\nNot checked, not needed: " + otherUnitsLine)
	}
	if o.InsideBodies > 0 {
		atLeast := ""
		if o.InsideBodies >= MaxImpactCount {
			atLeast = "at least " // clamped by the host
		}
		b.WriteString("\nNot followed into other files: the changes inside " + atLeast + strconv.Itoa(o.InsideBodies) + " function " + plural(o.InsideBodies, "body", "bodies") + " (no other file's compile errors depend on a body).")
	}
	if o.Partial != "" {
		b.WriteString("\nThe references asked may have missed files: " + o.Partial + ".")
	}
	if o.Unasked > 0 && (checked > 0 || notChecked > 0) {
		b.WriteString("\nNot asked: " + o.unaskedSentence())
	}
}

// unaskedSentence says whose references were not asked and why, and what
// to do instead: the declarations by name when the host named them (the
// one whose name line changed first), else counted.
func (o *OthersDelta) unaskedSentence() string {
	names := make([]string, len(o.UnaskedNames))
	for i, n := range o.UnaskedNames {
		names[i] = "`" + n + "`"
	}
	rest := o.Unasked - len(names)
	// "at least": a changed file the host did not look into counts as
	// one, and a count past MaxImpactCount is clamped.
	const atLeast = "at least "
	var whose string
	switch {
	case len(names) == 0:
		whose = "the references of " + atLeast + strconv.Itoa(rest) + " changed " + plural(rest, "declaration", "declarations")
	case rest > 0:
		whose = "the references of " + strings.Join(names, ", ") + " and of " + atLeast + strconv.Itoa(rest) + " more changed " + plural(rest, "declaration", "declarations")
	default:
		whose = "the references of " + joinAnd(names)
	}
	why := "over the bound or out of time"
	switch o.UnaskedWhy {
	case UnaskedTime:
		why = "out of time"
	case UnaskedLimit:
		why = "over the bound of declarations asked per change"
	case UnaskedTimeAndLimit:
		why = "over the bound of declarations asked per change, and out of time"
	}
	one := o.Unasked == 1
	it := map[bool]string{true: "it", false: "them"}[one]
	its := map[bool]string{true: "its", false: "their"}[one]
	return whose + " were not asked (" + why + "), so other files that use " + it +
		" may be affected unseen; ask code_navigate kind references on " + it + ", or code_diagnostics of " + its + " users."
}

// joinAnd joins words as a list: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
