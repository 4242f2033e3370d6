package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The cross-file impact of a change: the other files that use what it
// changed (its dependents), checked before and after it with the changed
// files, so the delta says what the change broke or fixed there too
// (diagnosticsDelta's dependents, core/diagimpact.go).
//
// A dependent is a file outside the change holding a reference to a
// declaration the change touched or removed: each changed file's changed
// lines (the lines between the before and after texts' common leading
// and trailing lines), the declarations of its outline whose range
// overlaps them (innermost first, not those local to a function), and
// the types that declare changed members (memberType), the changed
// members of a TypeScript type the outline does not list, and the
// declarations whose signature names a changed TypeScript type
// (typeusers.go), at most maxImpactDeclarations, and the server's
// references to each (followed past the lines that rename or export them
// under another name, where a server's references stop: aliasuses.go).
// So is a file where a
// declaration the change adds may clash with another
// (clashdependents.go), which no reference leads to, and so are the
// includers of a C-family file the change may declare a name anew in
// (cdeclaring.go), and the users of a Vue component whose public surface
// the change may change (vueimporters.go), and the importers of a barrel
// whose re-exports it removes (barrelimporters.go). They are
// found before the write, while the declarations are still where the
// outline says and the references still resolve to them (after a
// signature change, a broken caller may no longer be a reference). The
// files an applied change of a changed file broke are dependents too
// (otherbreaks.go): a change that gives them back what they use touches a
// declaration none of them refers to yet.
// Bounded: at most maxDependents files are checked (the rest named, not
// checked), and finding them takes at most a share of the call's budget
// (impactBudget); their reports are awaited in the changed files' one
// wait (Session.Check), not after it.

const (
	// maxImpactDeclarations bounds the declarations whose references
	// are asked, per change.
	maxImpactDeclarations = 8
	// maxImpactFiles bounds the changed files whose outlines are read
	// for the declarations the change touched.
	maxImpactFiles = 16
	// maxDependents bounds the other files checked per change.
	maxDependents = 20
	// maxListedNotChecked bounds the dependents over maxDependents that
	// are listed (the rest counted): with those the checked ones may add
	// (out of time, no server), the core's bound on the list.
	maxListedNotChecked = core.MaxDependentFiles - maxDependents
	// impactTime is the most of a call's budget spent finding the
	// dependents (a quarter of what is left when that is less).
	impactTime = 3 * time.Second
	// namedTime is the most of a call's budget the references of a
	// declaration whose name line changed may take (half of what is
	// left when that is less; the checks after it take the rest): the
	// first references of a cold
	// typescript-language-server, its project just loaded, took over
	// impactTime, and the answer said nothing of the 5 importers the
	// change broke (findings s28 F4).
	namedTime = 15 * time.Second
)

// namedBudget is ctx with the share of its budget the references of a
// declaration whose name line changed may take.
func namedBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	share := namedTime
	if d, ok := ctx.Deadline(); ok {
		share = min(share, time.Until(d)/2)
	}
	return context.WithTimeout(ctx, share)
}

// notAsked counts the declarations whose references were not asked, by
// name, and why.
func (found *dependents) notAsked(names []string, outOfTime bool) {
	found.unasked += len(names)
	for _, n := range names {
		if n != "" && len(found.unaskedNames) < maxUnaskedNames && !slices.Contains(found.unaskedNames, n) {
			found.unaskedNames = append(found.unaskedNames, n)
		}
	}
	if outOfTime {
		found.unaskedTime = true
	} else {
		found.unaskedLimit = true
	}
}

// maxUnaskedNames bounds the names of the declarations not asked that
// the delta lists (the core takes 8).
const maxUnaskedNames = 8

// changedText is one changed file's text before and after a change.
type changedText struct {
	rel, before, after string
	created            bool
	renamed            *renameOf // a server's rename's (renamedependents.go)
}

// dependents are the other files found for a change.
type dependents struct {
	paths      []string         // workspace-relative, to check
	notChecked []map[string]any // {uri, reason} of those found but not checked
	// notCheckedMore counts those found and not checked (over
	// maxDependents) beyond the ones notChecked lists: the core takes at
	// most core.MaxDependentFiles, and a declaration used across a large
	// repository has more.
	notCheckedMore int
	unasked        int // declarations whose references were not asked (a changed file not looked at counts as one)
	// unaskedNames names those of them known by name, the declarations
	// whose name line changed first; unaskedTime and unaskedLimit say
	// why (out of time, over maxImpactDeclarations).
	unaskedNames              []string
	unaskedTime, unaskedLimit bool
	// insideBodies counts the changed Go functions whose references
	// were not asked: the change stayed inside their bodies, which no
	// other file compiles against (core.GoChangeInsideBody).
	insideBodies int
	asked        int // declarations whose references were asked
	// includeChanged: a dependent #includes a changed C-family file, which
	// the server reads from the disk when it parses the dependent
	// (writeChangesOthersBefore).
	includeChanged bool
	// incomplete is what the answer's incomplete notice must say of the
	// change's effect on other files that no check reports: the
	// listeners of an event a Vue component no longer emits
	// (vuelisteners.go).
	incomplete string
	// partial is why the references asked may have missed files (the
	// session's notice: a search the server says covers part of the
	// workspace), "" when they are complete as far as it can tell.
	partial string
}

// impactBudget is ctx with the share of its budget finding the
// dependents may take.
func impactBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	share := impactTime
	if d, ok := ctx.Deadline(); ok {
		share = min(share, time.Until(d)/4)
	}
	return context.WithTimeout(ctx, share)
}

// findDependents finds the files that use the declarations a change
// touches, before it is written. nil when the server cannot say (no
// outline or no references): the delta then names no other files rather
// than claiming none refer to what changed.
func (t *Toolbox) findDependents(ctx context.Context, r *workspacefs.Root, s lspseam.Session, changed []changedText) *dependents {
	m := s.Methods()
	if !m["textDocument/documentSymbol"] || !m["textDocument/references"] {
		return nil
	}
	ictx, cancel := impactBudget(ctx)
	defer cancel()
	found := &dependents{}
	isChanged := map[string]bool{}
	beforeTexts := map[string]string{}
	for _, c := range changed {
		isChanged[c.rel] = true
		beforeTexts[c.rel] = c.before
	}
	type decl struct {
		uri, rel string
		e        lspseam.OutlineEntry
		// named: the change replaced the line of the declaration's name
		// (a rename's declaration, a changed signature), which is asked
		// before declarations changed only further down (bodies, table
		// entries naming the old name): a rename's 9 test functions
		// listed first spent the bound, and the renamed function's own
		// references were never asked.
		named bool
		// followed: a declaration whose signature names a changed type,
		// asked for the type's users (typeusers.go), not followed further.
		followed bool
	}
	var decls []decl
	looked := 0
	outlines := map[string][]lspseam.OutlineEntry{} // the changed files' read (before the change)
	// A change of C-family source files only: the files that #include
	// them, which alone can be affected (cincluders.go). None: a body's
	// change is followed nowhere, as Go's.
	changedRels := make([]string, len(changed))
	for i, c := range changed {
		changedRels[i] = c.rel
	}
	includers, unitsKnown := t.cIncluders(ictx, r, changedRels)
	cBodies := unitsKnown && len(includers) == 0
	for _, c := range changed {
		if c.created || c.before == c.after {
			continue
		}
		if looked >= maxImpactFiles || ictx.Err() != nil {
			found.unasked++ // a file not looked at, counted as one declaration
			if ictx.Err() != nil {
				found.unaskedTime = true
			} else {
				found.unaskedLimit = true
			}
			continue
		}
		looked++
		f, err := s.Open(ictx, c.rel)
		if err != nil || f.Text != c.before {
			continue // not the text the change was planned from, or no server for it
		}
		// The first changed file's outline, which says what the change
		// touched, is asked within the call's budget as the references of
		// a changed signature are: pyright answers nothing while it
		// checks a large file it has just been given (httpx's
		// _client.py, over 3 s cold), and without the outline no
		// declaration is asked at all.
		octx, ocancel := ictx, context.CancelFunc(func() {})
		if looked == 1 {
			octx, ocancel = namedBudget(ctx)
		}
		outline, err := t.fileOutline(octx, s, f)
		outOfTime := octx.Err() != nil
		ocancel()
		if err != nil {
			if outOfTime {
				found.unasked++ // a file's declarations, counted as one
				found.unaskedTime = true
			}
			continue
		}
		outlines[c.rel] = outline
		before, after := core.SplitLines(c.before), core.SplitLines(c.after)
		spans := core.ChangedSpans(before, after)
		var types []lspseam.OutlineEntry
		touched := changedDeclarations(outline, before, after)
		var inside []lspseam.OutlineEntry // the functions the change stayed inside
		for _, e := range touched {
			if insideGoBody(c.rel, e, before, after) || cBodies && insideCBody(c.rel, e, before, after) {
				inside = append(inside, e)
			}
		}
		for _, e := range touched {
			if c.renamed.renameKeeps(e) {
				continue // only uses of the renamed symbol changed in it: its users are the rename's
			}
			if slices.Contains(inside, e) {
				found.insideBodies++
				continue
			}
			if inComponentMarkup(c.rel, c.before, e) {
				continue // no other file can name it
			}
			if slices.ContainsFunc(inside, func(f lspseam.OutlineEntry) bool { return encloses(e, f) }) {
				continue // a namespace or class around the function: only the body changed in it
			}
			decls = append(decls, decl{f.URI, c.rel, e, nameReplaced(e, spans, before), false})
			if typ, ok := memberType(outline, e); ok && !slices.Contains(types, typ) {
				types = append(types, typ)
			}
		}
		// A rename onto a name declared beside the renamed one: that
		// declaration's users are affected too (renamedependents.go).
		for _, e := range c.renamed.clashing(outline, touched) {
			if !slices.ContainsFunc(decls, func(d decl) bool { return d.uri == f.URI && d.e == e }) {
				decls = append(decls, decl{f.URI, c.rel, e, true, false})
			}
		}
		// The members of a TypeScript type the outline does not list
		// (a type alias's literal, `Entity<{ body: string }>`), on the
		// lines the change replaced: their uses `x.body` never name the
		// type (typeusers.go).
		// The type is asked first, as a declaration whose name line the
		// change replaced: its references are few and quick, while
		// tsserver's first search for a member's (`body`, every file
		// reading a property of that name) took 6 s on bulletproof-react,
		// past the share of the budget, and asked first it left even the
		// type's users unchecked.
		if tsTypeFile(c.rel) {
			for _, e := range touched {
				if !isTypeDeclaration(before, e) {
					continue
				}
				for _, m := range typeMembers(outline, e, before, spans) {
					named := nameReplaced(m, spans, before)
					if i := slices.IndexFunc(decls, func(d decl) bool { return d.uri == f.URI && d.e == e }); i >= 0 && named {
						decls[i].named = true
					}
					decls = append(decls, decl{f.URI, c.rel, m, named, false})
				}
			}
		}
		// A member's change can break the uses of its type as an
		// interface (Go's implicit satisfaction, TypeScript's structural
		// typing: `var _ fmt.Stringer = Circle{}`, a Circle passed as a
		// Shape), which are references to the type, not to the member.
		for _, typ := range types {
			if !slices.ContainsFunc(decls, func(d decl) bool { return d.uri == f.URI && d.e == typ }) {
				decls = append(decls, decl{f.URI, c.rel, typ, false, false})
			}
		}
	}
	slices.SortStableFunc(decls, func(a, b decl) int {
		switch {
		case a.named == b.named:
			return 0
		case a.named:
			return -1
		}
		return 1
	})
	namesOf := func(ds []decl) []string {
		names := make([]string, len(ds))
		for i, d := range ds {
			names[i] = declaredName(d.e.Name)
		}
		return names
	}
	seen := map[string]bool{}
	var files []string
	var gone goneUses
	aliases := newAliasFollower(r, beforeTexts)
	// The declarations are asked in order, at most maxImpactDeclarations:
	// the users of a changed type followed (signatureUsers) come right
	// after it, ahead of the declarations that are asked after it.
	for i := 0; i < len(decls); i++ {
		d := decls[i]
		if i >= maxImpactDeclarations {
			found.notAsked(namesOf(decls[i:]), false)
			break
		}
		rctx, cancel := ictx, context.CancelFunc(func() {})
		if d.named {
			// The declaration whose name line changed: its users are the
			// ones most likely broken, and asked within the call's budget,
			// not only the dependents' share (namedTime).
			rctx, cancel = namedBudget(ctx)
		}
		if rctx.Err() != nil {
			cancel()
			found.notAsked(namesOf(decls[i:]), true)
			break
		}
		raw, err := t.request(rctx, s, "textDocument/references", d.uri, d.e.SelectionRange.Start)
		outOfTime := rctx.Err() != nil
		cancel()
		if err == nil {
			// The component files the server does not read, asked of
			// theirs (componentsearch.go), within the call's budget: the
			// first search of a Svelte server builds its project (4-7 s),
			// longer than the share of finding the dependents.
			raw = t.withComponentUses(ctx, s, d.uri, d.e.SelectionRange.Start, raw)
		}
		if err != nil {
			if outOfTime {
				found.notAsked(namesOf(decls[i:i+1]), true)
			}
			continue
		}
		refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
		if err != nil {
			continue
		}
		found.asked++
		aliases.note(declaredName(d.e.Name), refs.Locations, 0)
		var here []lspseam.Position // the references in the declaration's own file
		for _, l := range refs.Locations {
			p, ok := workspacefs.HostPaths.URIPath(l.URI)
			if !ok {
				continue
			}
			rel, err := r.Rel(p)
			if err == nil && rel == d.rel {
				here = append(here, l.Range.Start)
			}
			if err != nil || isChanged[rel] || seen[rel] {
				continue // outside the workspace (a dependency's file), or a changed file
			}
			seen[rel] = true
			if gone.isGone(l.URI) {
				continue // the server's index outlives the file: nothing there to break (gonefiles.go)
			}
			files = append(files, rel)
		}
		// A changed TypeScript type's users through the signatures that
		// name it, which other files call without naming the type
		// (typeusers.go): one level, not the users of those.
		if !d.followed && tsTypeFile(d.rel) {
			lines := core.SplitLines(beforeTexts[d.rel])
			if isTypeDeclaration(lines, d.e) {
				var users []decl
				for _, e := range signatureUsers(outlines[d.rel], lines, d.e, here) {
					if !slices.ContainsFunc(decls, func(o decl) bool { return o.uri == d.uri && o.e.SelectionRange == e.SelectionRange }) {
						users = append(users, decl{uri: d.uri, rel: d.rel, e: e, followed: true})
					}
				}
				decls = slices.Insert(decls, i+1, users...)
			}
		}
	}
	decls = decls[:min(len(decls), maxImpactDeclarations)]
	// The uses under another name, past the renames and CommonJS
	// exports where the references stop (aliasuses.go).
	for _, rel := range t.followAliases(ictx, s, aliases) {
		if !isChanged[rel] && !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	// The users of a Vue component whose props, emits or exposed members
	// the change may change, which the references do not reach, and the
	// listeners of an event it no longer emits (vueimporters.go).
	edited := make([]editedFile, 0, len(changed))
	for _, c := range changed {
		if !c.created {
			edited = append(edited, editedFile{c.rel, c.before, c.after})
		}
	}
	vue := t.vueComponentChange(ictx, r, edited, isChanged)
	for _, rel := range vue.files {
		if !isChanged[rel] && !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	found.incomplete = vue.dead
	// The importers of a barrel whose re-exports the change removes or
	// narrows, which no declaration's references reach
	// (barrelimporters.go).
	barrels := t.barrelDependents(ictx, r, edited, isChanged)
	for _, rel := range barrels.files {
		if !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	if found.asked > 0 {
		found.partial = joinNotices(s.Notice(), aliases.notice())
		// Nor do they reach the uses through symbolic links to a
		// changed file (linkedpaths.go).
		known, noted := linksOf(s), map[string]bool{}
		for _, d := range decls {
			if !noted[d.rel] {
				noted[d.rel] = true
				found.partial = joinNotices(found.partial, linkedUsesNotice(ictx, known, r, d.rel))
			}
		}
	}
	// Go files the build excludes, which the server's references never
	// name (gobuildtags.go).
	names := map[string][]string{} // changed declarations' names, by file
	for _, d := range decls {
		names[d.rel] = append(names[d.rel], declaredName(d.e.Name))
	}
	for _, c := range changed {
		for _, rel := range t.goBuild.excludedUsers(r, c.rel, names[c.rel]) {
			if !isChanged[rel] && !seen[rel] {
				seen[rel] = true
				files = append(files, rel)
			}
		}
	}
	// The files where its new declarations may clash with others
	// (clashdependents.go), which no reference leads to.
	var added []addedNames
	for _, c := range changed {
		if names := core.AddedDeclarations(c.rel, core.SplitLines(c.before), core.SplitLines(c.after)); len(names) > 0 {
			added = append(added, addedNames{c.rel, names})
		}
	}
	clashes, cut := t.clashDependents(ictx, r, added, isChanged)
	for _, rel := range clashes {
		if !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	found.partial = joinNotices(found.partial, cut, vue.notice, barrels.notice)
	// The files the last changes of these files broke, which the
	// references asked may no longer reach (otherbreaks.go).
	rels := make([]string, len(changed))
	for i, c := range changed {
		rels[i] = c.rel
	}
	for _, rel := range t.breaks.of(r, rels) {
		if !isChanged[rel] && !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	// The includers of a C-family file the change declares new names in,
	// where they may collide with the includers' own (cdeclaring.go).
	inc, cut := t.declaringIncluders(ictx, r, cDeclaringFiles(changed, outlines), includers, unitsKnown, isChanged)
	found.includeChanged = len(inc) > 0
	for _, rel := range inc {
		if !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	found.partial = joinNotices(found.partial, cut)
	if unitsKnown {
		// Another translation unit's compile errors cannot change: named
		// as not needing a check, never checked for a report that does
		// not come.
		var affected []string
		for _, rel := range files {
			if includers[rel] {
				affected = append(affected, rel)
			} else if len(found.notChecked) < core.MaxDependentFiles {
				found.notChecked = append(found.notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": core.NotCheckedOtherUnit})
			}
		}
		files = affected
		found.includeChanged = found.includeChanged || len(affected) > 0
	}
	found.bound(r, files)
	return found
}

// cDeclaringFiles lists the changed C-family files whose change may
// declare a name anew (core.CChangeMayDeclare), in the order of changed,
// with the words the change writes anew in them (core.CNewWords);
// outlines holds the outline of those read (before the change): a change
// it proves to stay inside one function's body in a source file declares
// nothing another unit sees.
func cDeclaringFiles(changed []changedText, outlines map[string][]lspseam.OutlineEntry) []addedNames {
	var out []addedNames
	for _, c := range changed {
		if c.created || c.before == c.after || !core.CFamilyFile(c.rel) {
			continue
		}
		before, after := core.SplitLines(c.before), core.SplitLines(c.after)
		if len(core.CChangeMayDeclare(before, after)) == 0 {
			continue
		}
		if slices.ContainsFunc(outlines[c.rel], func(e lspseam.OutlineEntry) bool { return insideCBody(c.rel, e, before, after) }) {
			continue
		}
		out = append(out, addedNames{c.rel, core.CNewWords(c.rel, before, after)})
	}
	return out
}

// noted is a, its incomplete notice saying what found says no check
// reports (found may be nil).
func (found *dependents) noted(a answer) answer {
	if found != nil {
		a.incomplete = joinNotices(a.incomplete, found.incomplete)
	}
	return a
}

// bound takes files as the dependents, within the bounds: the first
// maxDependents are checked, the next maxListedNotChecked named as not
// checked, the rest counted.
func (found *dependents) bound(r *workspacefs.Root, files []string) {
	for i, rel := range files {
		switch {
		case i < maxDependents:
			found.paths = append(found.paths, rel)
		case len(found.notChecked) < maxListedNotChecked:
			found.notChecked = append(found.notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": core.NotCheckedLimit})
		default:
			found.notCheckedMore++
		}
	}
}

// memberType is the outline entry of the type that declares member e (a
// class, interface, struct or enum of the same file), if e is a member.
func memberType(outline []lspseam.OutlineEntry, e lspseam.OutlineEntry) (lspseam.OutlineEntry, bool) {
	if e.Container == "" {
		return lspseam.OutlineEntry{}, false
	}
	for _, t := range outline {
		qualified := t.Name
		if t.Container != "" {
			qualified = t.Container + "." + t.Name
		}
		if qualified != e.Container {
			continue
		}
		switch core.SymbolKind(t.Kind).String() {
		case "class", "enum", "interface", "struct":
			return t, true
		}
	}
	return lspseam.OutlineEntry{}, false
}

// changedDeclarations is the entries of a file's outline (for before)
// whose range overlaps the lines a hunk of the change replaced, innermost
// first, without those inside a function (its locals: their references
// are in the function). A pure insertion touches the entries it lands
// inside. Hunk by hunk (core.ChangedSpans): a rename's edits at a
// declaration and at its uses further down touch those, not every
// declaration between them.
func changedDeclarations(outline []lspseam.OutlineEntry, before, after []string) []lspseam.OutlineEntry {
	spans := core.ChangedSpans(before, after)
	touches := func(e lspseam.OutlineEntry) bool {
		for _, sp := range spans {
			start, end := uint32(sp.Start), uint32(sp.End) // before lines [start, end) were replaced
			if end > start && e.Range.Start.Line < end && e.Range.End.Line >= start {
				return true
			}
			if end == start && e.Range.Start.Line < start && e.Range.End.Line >= start {
				return true
			}
		}
		return false
	}
	var hit []lspseam.OutlineEntry
	for _, e := range outline {
		if touches(e) {
			hit = append(hit, e)
		}
	}
	isFunc := func(k int) bool { return k == 6 || k == 9 || k == 12 } // Method, Constructor, Function
	within := func(in, out lspseam.OutlineEntry) bool {
		return in.Range != out.Range && out.Range.Start.Line <= in.Range.Start.Line && in.Range.End.Line <= out.Range.End.Line
	}
	var out []lspseam.OutlineEntry
	for _, e := range hit {
		if !slices.ContainsFunc(hit, func(o lspseam.OutlineEntry) bool { return isFunc(o.Kind) && within(e, o) }) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b lspseam.OutlineEntry) int {
		return int(int64(a.Range.End.Line-a.Range.Start.Line) - int64(b.Range.End.Line-b.Range.Start.Line))
	})
	return out
}

// insideGoBody reports whether a changed declaration is a Go function or
// method the change touched only inside its body: nothing another file
// compiles against changed, so its references need not be checked.
func insideGoBody(rel string, e lspseam.OutlineEntry, before, after []string) bool {
	const method, function = 6, 12
	return strings.HasSuffix(rel, ".go") && (e.Kind == method || e.Kind == function) &&
		core.GoChangeInsideBody(before, after, int(e.SelectionRange.Start.Line), int(e.Range.End.Line))
}

// insideCBody reports whether a changed declaration is a function,
// method or constructor of a C-family source file the change touched
// only inside its body (core.CChangeInsideBody); the caller has made
// sure no file #includes the changed files.
func insideCBody(rel string, e lspseam.OutlineEntry, before, after []string) bool {
	const method, constructor, function = 6, 9, 12
	return (e.Kind == method || e.Kind == constructor || e.Kind == function) &&
		core.CChangeInsideBody(rel, before, after, int(e.SelectionRange.Start.Line), int(e.Range.End.Line))
}

// encloses reports whether outline entry out's range holds in's (a
// namespace or class around a function), not the same range.
func encloses(out, in lspseam.OutlineEntry) bool {
	return out.Range != in.Range && out.Range.Start.Line <= in.Range.Start.Line && in.Range.End.Line <= out.Range.End.Line
}

// dependentsInput is diagnosticsDelta's dependents: each dependent's
// reports before and after the change (checked with the changed files),
// or why it was not checked. Its text must not have changed between the
// two checks for its report to be fresh.
func dependentsInput(ctx context.Context, r *workspacefs.Root, found *dependents, before, after []lspseam.FileCheck) map[string]any {
	files := []any{}
	notChecked := append([]map[string]any{}, found.notChecked...)
	for i, rel := range found.paths {
		var b, a *lspseam.FileCheck
		if i < len(before) {
			b = &before[i]
		}
		if i < len(after) {
			a = &after[i]
		}
		switch {
		case b == nil || a == nil || (a.Err == nil && (a.File.URI == "" || a.Report.How == "")):
			notChecked = append(notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": core.NotCheckedTime})
			continue
		case b.Err != nil || a.Err != nil:
			err := a.Err
			if err == nil {
				err = b.Err
			}
			reason := core.NotCheckedFailed
			switch {
			case isUncovered(err):
				reason = core.NotCheckedNoServer
			case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
				reason = core.NotCheckedTime
			}
			notChecked = append(notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": reason})
			continue
		}
		before, after := b.Report.Diagnostics, a.Report.Diagnostics
		if len(before) == 0 {
			before = json.RawMessage("[]")
		}
		if len(after) == 0 {
			after = json.RawMessage("[]")
		}
		if !b.Report.Fresh && !bytes.Equal(bytes.TrimSpace(before), bytes.TrimSpace(after)) {
			// Its report before the change was not the server's settled
			// word on it (the wait ended while the server was still
			// checking it: pyright's empty first report on a file just
			// opened), so what differs after may have been there all
			// along: not compared, rather than claimed introduced or
			// resolved by the change.
			notChecked = append(notChecked, map[string]any{"uri": workspacefs.FileURI(r.Abs(rel)), "reason": core.NotCheckedTime})
			continue
		}
		files = append(files, map[string]any{"uri": a.File.URI, "before": before, "after": after,
			"how": a.Report.How, "fresh": b.Report.Fresh && a.Report.Fresh && a.File.Text == b.File.Text})
	}
	// The counts go at most as high as the core takes (a change of a
	// generated file overlaps declarations by the thousand): clamped,
	// the delta says "at least" that many rather than being refused whole.
	count := func(n int) int { return min(n, core.MaxImpactCount) }
	in := map[string]any{"files": files, "notChecked": notChecked, "notCheckedMore": count(found.notCheckedMore),
		"unasked": count(found.unasked), "asked": count(found.asked), "insideBodies": count(found.insideBodies), "partial": found.partial}
	if len(found.unaskedNames) > 0 {
		in["unaskedNames"] = found.unaskedNames
	}
	switch {
	case found.unaskedTime && found.unaskedLimit:
		in["unaskedWhy"] = core.UnaskedTimeAndLimit
	case found.unaskedTime:
		in["unaskedWhy"] = core.UnaskedTime
	case found.unaskedLimit:
		in["unaskedWhy"] = core.UnaskedLimit
	}
	return in
}

// nameReplaced reports whether a hunk of the change (spans, as
// core.ChangedSpans gives them) replaced the line of e's name, or
// another line of its signature in before (signaturelines.go).
func nameReplaced(e lspseam.OutlineEntry, spans []core.ChangedSpan, before []string) bool {
	line := int(e.SelectionRange.Start.Line)
	last := line
	if line < len(before) && e.SelectionRange.End.Line == e.SelectionRange.Start.Line &&
		opensParameters(before[line][byteOffsetOfUTF16(before[line], int(e.SelectionRange.End.Character)):]) {
		last = signatureLastLine(before, line)
	}
	for _, sp := range spans {
		if sp.Start <= last && line < sp.End {
			return true
		}
	}
	return false
}

// inComponentMarkup reports whether e, an outline entry of the file rel
// (text), lies in a component file's markup, outside its <script> and
// <style> blocks: svelte-language-server lists template expressions
// (`{shapes.length}`) as entries, which are no declarations another file
// can name, and asking each one's references spent the dependents'
// share of the budget (a local rename ended "the references of at least
// 6 more changed declarations were not asked", findings s26b #5).
func inComponentMarkup(rel, text string, e lspseam.OutlineEntry) bool {
	return componentTemplateExts[strings.ToLower(extOf(rel))] && !inScriptOrStyle(text, int(e.Range.Start.Line))
}
