package toolbox

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The importers a file move leaves broken (code_rename_file). The server
// updates the imports of the files it knows: tsserver, those of the
// tsconfig.json project holding the moved file. A tester moved
// src/testing/data-generators.ts; e2e/tests/auth.setup.ts and
// smoke.spec.ts, outside the project, import it as
// '../../src/testing/data-generators' and were left broken, while the
// preview showed "3 edits in 3 files" and the applied answer said only
// that files "may" have been missed. A relative specifier names one file,
// so the workspace's script files are read for the imports whose
// relative specifier names the moved file and not its new path, in the
// files the server's edit does not touch: each is named, with its line,
// as not updated. (A path alias is the project's; a file outside the
// project does not resolve it, so only relative specifiers are named.)

// maxStaleImportsListed bounds the imports a notice names (the rest
// counted).
const maxStaleImportsListed = 10

// staleImport is an import a move leaves naming the old path.
type staleImport struct {
	rel  string
	line int // one-based
	spec string
}

// staleImports finds, among texts (the workspace's script files by
// relative path), the imports whose relative specifier names oldRel and
// not newRel, outside the files updated holds and the moved file, by
// path and line.
func staleImports(texts map[string]string, oldRel, newRel string, updated map[string]bool) []staleImport {
	var out []staleImport
	for _, rel := range slices.Sorted(maps.Keys(texts)) {
		if rel == oldRel || updated[rel] {
			continue
		}
		text := texts[rel]
		for _, m := range moduleSpecifier.FindAllStringSubmatchIndex(text, -1) {
			spec := text[m[2]:m[3]]
			if !strings.HasPrefix(spec, ".") || !specifierReaches(rel, spec, oldRel) || specifierReaches(rel, spec, newRel) {
				continue
			}
			out = append(out, staleImport{rel, strings.Count(text[:m[2]], "\n") + 1, spec})
		}
	}
	return out
}

// staleImportsNotice says which imports of oldRel a move to newRel leaves
// naming the old path (imports), with what to do; "" when none.
func staleImportsNotice(oldRel, newRel string, imports []staleImport) string {
	if len(imports) == 0 {
		return ""
	}
	files, listed := staleImportList(imports, func(im staleImport) string { return fmt.Sprintf("%s:%d (%q)", im.rel, im.line, im.spec) })
	return fmt.Sprintf("%d %s %s %s by a relative path the move does not update (outside what the server updates), and will not find it at %s: %s; update %s (edit) to the new path",
		files, plural(files, "file", "files"), plural(files, "imports", "import"), oldRel, newRel, listed,
		plural(len(imports), "that import", "those imports"))
}

// staleImportList is how many files imports are in, and the imports
// shown each by show, the first maxStaleImportsListed listed and the
// rest counted.
func staleImportList(imports []staleImport, show func(staleImport) string) (files int, listed string) {
	var rels, shown []string
	for _, im := range imports {
		if !slices.Contains(rels, im.rel) {
			rels = append(rels, im.rel)
		}
		shown = append(shown, show(im))
	}
	return len(rels), core.Listed(shown, maxStaleImportsListed)
}

// movedFileImporters is the notice of the imports a move of oldRel to
// newRel leaves broken, outside the files the change edits (files), or
// of why they could not all be found.
func (t *Toolbox) movedFileImporters(ctx context.Context, r *workspacefs.Root, oldRel, newRel string, files []plannedFile) string {
	if !slices.Contains(scriptExts, strings.ToLower(path.Ext(oldRel))) {
		return ""
	}
	ws := t.readScriptWorkspace(ctx, r)
	if ws.reason != "" {
		return "the files that import " + oldRel + " by a relative path could not all be read (" + ws.reason + "): those the server did not update still import the old path"
	}
	updated := map[string]bool{}
	for _, f := range files {
		updated[f.rel] = true
	}
	return staleImportsNotice(oldRel, newRel, staleImports(ws.texts, oldRel, newRel, updated))
}
