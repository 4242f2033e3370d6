package toolbox

import (
	"context"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The importers of a barrel whose re-exports a change removes or narrows
// (findDependents). A tester removed `export * from './dashboard-layout';`
// from src/components/layouts/index.ts and the answer said "Other files:
// none refer to what changed" while 26 files importing DashboardLayout
// from '@/components/layouts' no longer type-checked (TS2305): an
// `export … from` line declares nothing the outline lists, so no
// reference is asked, and the names it re-exported are declared in
// another file the change did not touch.
//
// The re-exports removed are the `export * from`, `export * as ns from`
// and `export { … } from` statements of the file before the change that
// it no longer has (compared as text, whitespace aside), less the names
// its statements after the change still re-export. The names they
// re-exported are those the statement spells, or, for `export *`, the
// names the re-exported module declares as exported (read textually);
// when those cannot all be told (the module re-exports another with
// `export *`, or is not a workspace file), every importer counts. The
// dependents are the workspace's script files importing the barrel that
// spell one of those names (specifierReaches: relative paths and path
// aliases), and those importing it through files that `export *` it, up
// to maxReexportDepth; a file re-exporting one of the names from it by
// name is one too. When the workspace's script files cannot all be read
// (readScriptWorkspace), the answer says which barrel's importers were
// not all found, and why.

// reexportStatement matches an `export … from` statement: what it
// exports (group 1: `*`, `* as ns` or `{ … }`) and its specifier (group 2).
var reexportStatement = regexp.MustCompile(`\bexport\s+(?:type\s+)?(\*(?:\s*as\s+[A-Za-z_$][\w$]*)?|\{[^}]*\})\s*from\s*['"]([^'"\n]+)['"]`)

// exportedDeclaration matches a declaration a module exports by its own
// name (not `export default`): the name is group 1.
var exportedDeclaration = regexp.MustCompile(`(?m)^\s*export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace|module)\s+([A-Za-z_$][\w$]*)`)

// exportedDestructuring matches `export const { a, b } = …` or `export
// const [a, b] = …`, whose names the search does not spell out.
var exportedDestructuring = regexp.MustCompile(`(?m)^\s*export\s+(?:const|let|var)\s*[{\[]`)

// exportList matches a module's own `export { a, b as c }` (group 1);
// the statements with `from` are reexportStatement's.
var exportList = regexp.MustCompile(`\bexport\s+(?:type\s+)?\{([^}]*)\}`)

// reexport is one `export … from` statement.
type reexport struct {
	text  string   // whitespace collapsed
	spec  string   // the module specifier
	star  bool     // `export * from`: every name the module exports
	names []string // the names it exports otherwise
}

// reexportsOf lists a script's `export … from` statements.
func reexportsOf(text string) []reexport {
	var out []reexport
	for _, m := range reexportStatement.FindAllStringSubmatch(text, -1) {
		r := reexport{text: strings.Join(strings.Fields(m[0]), " "), spec: m[2]}
		if what := m[1]; strings.HasPrefix(what, "{") {
			r.names = exportedNames(what[1 : len(what)-1])
		} else if k := strings.Index(what, "as"); k >= 0 {
			r.names = []string{strings.TrimSpace(what[k+2:])}
		} else {
			r.star = true
		}
		out = append(out, r)
	}
	return out
}

// exportedNames is the names an export list's items (`a, b as c, type
// D`) export: a, c, D.
func exportedNames(list string) []string {
	var out []string
	for _, item := range strings.Split(list, ",") {
		f := strings.Fields(strings.TrimSpace(item))
		if len(f) > 0 && f[0] == "type" && len(f) != 1 && !(len(f) == 3 && f[1] == "as") {
			f = f[1:]
		}
		switch {
		case len(f) == 1:
			out = append(out, f[0])
		case len(f) == 3 && f[1] == "as":
			out = append(out, f[2])
		}
	}
	return out
}

// removedReexports is what a change of a script stops re-exporting: the
// statements of before that after no longer has, as stars (the
// specifiers of the `export *` statements removed) and names (those the
// removed statements spell), less the names after's statements spell.
func removedReexports(before, after string) (stars []string, names []string) {
	kept := map[string]bool{}
	still := map[string]bool{}
	for _, r := range reexportsOf(after) {
		kept[r.text] = true
		for _, n := range r.names {
			still[n] = true
		}
	}
	for _, r := range reexportsOf(before) {
		if kept[r.text] {
			continue
		}
		if r.star {
			stars = append(stars, r.spec)
		}
		for _, n := range r.names {
			if !still[n] && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return stars, names
}

// moduleExports is the names a module's text exports by name; complete
// is false when it exports names the search cannot spell (an `export *`
// of another module, a destructuring export).
func moduleExports(text string) (names []string, complete bool) {
	for _, m := range exportedDeclaration.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	for _, m := range exportList.FindAllStringSubmatch(text, -1) {
		names = append(names, exportedNames(m[1])...)
	}
	for _, r := range reexportsOf(text) {
		if r.star {
			return nil, false
		}
	}
	return names, !exportedDestructuring.MatchString(text)
}

// barrelImporters finds, among texts (the workspace's script files by
// relative path), the files importing barrel that spell one of names
// (nil: every importer), directly or through files that `export *` it,
// not counting the files skip holds. Direct importers come first.
func barrelImporters(texts map[string]string, barrel string, names []string, skip map[string]bool) []string {
	rels := slices.Sorted(maps.Keys(texts))
	var out []string
	found := map[string]bool{}
	uses := func(rel string) bool { return names == nil || spellsAny(rel, texts[rel], names) }
	level, seen := []string{barrel}, map[string]bool{barrel: true}
	for depth := 0; depth <= maxReexportDepth && len(level) > 0; depth++ {
		var next []string
		for _, module := range level {
			for _, rel := range rels {
				text := texts[rel]
				for _, m := range moduleSpecifier.FindAllStringSubmatchIndex(text, -1) {
					if rel == module || !specifierReaches(rel, text[m[2]:m[3]], module) {
						continue
					}
					stmt := statementBefore(text, m[0]) + text[m[0]:m[1]]
					if strings.HasPrefix(stmt, "export") && reexportStatement.MatchString(stmt) && reexportsOf(stmt)[0].star {
						if !seen[rel] {
							seen[rel] = true
							next = append(next, rel) // its importers see the barrel's names
						}
						continue
					}
					if !found[rel] && !skip[rel] && uses(rel) {
						found[rel] = true
						out = append(out, rel)
					}
				}
			}
		}
		level = next
	}
	return out
}

// removedNames is the names the changed barrel stops re-exporting, with
// texts the workspace's script files: nil when they cannot all be told
// (every importer counts then).
func removedNames(texts map[string]string, barrel string, stars, names []string) []string {
	out := slices.Clone(names)
	rels := slices.Sorted(maps.Keys(texts))
	for _, spec := range stars {
		i := slices.IndexFunc(rels, func(rel string) bool { return specifierReaches(barrel, spec, rel) })
		if i < 0 || !strings.HasPrefix(spec, ".") {
			return nil // a package's module, or none of the workspace's files
		}
		exported, complete := moduleExports(texts[rels[i]])
		if !complete {
			return nil
		}
		out = append(out, exported...)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// barrelChange is what findDependents learns of changed scripts that stop
// re-exporting names: the files importing those names from them, and a
// notice when they could not all be found.
type barrelChange struct {
	files  []string
	notice string
}

// barrelDependents finds the importers of the changed TypeScript and
// JavaScript files (outside isChanged) that use a name the change stops
// re-exporting.
func (t *Toolbox) barrelDependents(ctx context.Context, r *workspacefs.Root, changed []editedFile, isChanged map[string]bool) barrelChange {
	type barrel struct {
		rel          string
		stars, names []string
	}
	var barrels []barrel
	for _, c := range changed {
		ext := strings.ToLower(path.Ext(c.rel))
		if ext == ".vue" || !slices.Contains(scriptExts, ext) || !strings.Contains(c.before, "export") {
			continue
		}
		if stars, names := removedReexports(c.before, c.after); len(stars)+len(names) > 0 {
			barrels = append(barrels, barrel{c.rel, stars, names})
		}
	}
	if len(barrels) == 0 {
		return barrelChange{}
	}
	ws := t.readScriptWorkspace(ctx, r)
	if ws.reason != "" {
		rels := make([]string, len(barrels))
		for i, b := range barrels {
			rels[i] = b.rel
		}
		return barrelChange{notice: "the files that import " + listOr(rels) + " could not all be found (" + ws.reason + "), and what the change stops re-exporting may break them unseen: not checked"}
	}
	var out barrelChange
	for _, b := range barrels {
		for _, rel := range barrelImporters(ws.texts, b.rel, removedNames(ws.texts, b.rel, b.stars, b.names), isChanged) {
			if !slices.Contains(out.files, rel) {
				out.files = append(out.files, rel)
			}
		}
	}
	return out
}
