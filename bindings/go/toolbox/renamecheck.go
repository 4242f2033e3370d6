package toolbox

import (
	"context"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// A rename checked against the server's own references.
//
// A server's rename may change fewer places than its references list:
// bash-language-server renames only in the files it reaches through a
// `source` line it can resolve, so a function its references found in 3
// files was renamed in 1, and the callers failed at run time while the
// answer said "no new problems" (the other files were stale). So after
// planning a rename, its references are asked too, and a use on a line
// the rename leaves as it was (in a file it does not change, or on a line
// still naming it) is named in the answer's incomplete notice. Renames
// keep lines in place (a new name has no line break), so a use's line in
// the file before is the same line after, and the uses left on it are the
// name's occurrences there beyond those that were not references. A use
// on a line that spells the name in kebab case is a template's spelling of
// it (kebabspellings.go); one on a line that does not spell the name is,
// in a C-family file, one through a macro's expansion, whose body is the
// line to edit (macrouses.go), and elsewhere one to check; a use in a
// file that no longer exists is left out (gonefiles.go).

// maxLeftUses bounds the uses a notice names.
const maxLeftUses = 8

// renameLeftUses is the notice for the uses the server's references list
// at rt (in the file at uri) on lines the rename's files leave unchanged
// ("" when none, or when references cannot be asked). When the rename
// wrote an alias (renamealias.go), it says so instead of naming the uses
// on the lines the rename changed and in the files it leaves: the public
// name's, right as they are.
func (t *Toolbox) renameLeftUses(ctx context.Context, s lspseam.Session, r *workspacefs.Root, rt lspseam.ResolvedTarget, uri, newName string, files []plannedFile) string {
	if !s.Methods()["textDocument/references"] {
		return ""
	}
	raw, err := t.referencesWithComponents(ctx, s, uri, rt.Position)
	if err != nil {
		return ""
	}
	refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw)
	if err != nil {
		return ""
	}
	alias, aliasAt, keepsLocal := renameAlias(files, rt.Identifier, newName)
	// A local alias keeps the old name public: the uses the rename leaves
	// are the public name's. One that keeps the local binding renamed
	// the public name: the uses left elsewhere are still checked.
	publicKept := alias != "" && !keepsLocal
	planned := map[string]plannedFile{}
	for _, f := range files {
		planned[f.rel] = f
	}
	type fileLine struct {
		rel  string
		line int
	}
	var order []fileLine
	onLine := map[fileLine]int{}  // the references on each line
	refLines := map[string]bool{} // rel:line, one-based
	for _, l := range refs.Locations {
		p, ok := workspacefs.HostPaths.URIPath(l.URI)
		if !ok {
			continue
		}
		rel, err := r.Rel(p)
		if err != nil {
			continue // outside the workspace: a library's, not renamed
		}
		at := fileLine{rel, int(l.Range.Start.Line)}
		if onLine[at] == 0 {
			order = append(order, at)
		}
		onLine[at]++
		refLines[rel+":"+strconv.Itoa(at.line+1)] = true
	}
	// The files the rename leaves, read once each: a line that does not
	// spell the name is a use through a macro's expansion (macrouses.go),
	// and a file that no longer exists one the server's index outlives
	// (gonefiles.go). A file that cannot be read keeps its uses.
	unplanned := map[string]*workspacefs.File{}
	var gone goneUses
	var expansions []macroExpansion
	var left []string
	total := 0
	for _, at := range order {
		n := onLine[at]
		var before, after string
		f, isPlanned := planned[at.rel]
		if publicKept && !isPlanned {
			continue // the public name's use, which the alias keeps
		}
		if isPlanned {
			before, after = lineAt(f.before, at.line), lineAt(f.after, at.line)
			if alias != "" && before != after {
				continue // a line the alias rename edited
			}
			if publicKept && core.IdentifierOffsets(at.rel, after, rt.Identifier) != nil {
				continue // the public name's, spelled as before
			}
		} else {
			file, read := unplanned[at.rel]
			if !read {
				if got, err := r.Read(at.rel); err == nil {
					file = &got
				}
				unplanned[at.rel] = file
			}
			if file != nil && !file.Exists {
				for range n {
					gone.add(at.rel)
				}
				continue
			}
			if file != nil {
				before = lineAt(file.Text, at.line)
				after = before
			}
		}
		where := at.rel + ":" + strconv.Itoa(at.line+1)
		if (isPlanned || unplanned[at.rel] != nil) && core.IdentifierOffsets(at.rel, before, rt.Identifier) == nil {
			if kebabSpellings(before, rt.Identifier) == 0 {
				expansions = append(expansions, macroExpansion{at: where, rel: at.rel, text: before})
				continue
			}
			// A template's kebab-case spelling (kebabspellings.go):
			// left when the rename did not rewrite it.
			n = min(n, kebabSpellings(after, rt.Identifier))
		} else if isPlanned {
			// The line's other occurrences of the name are not the
			// symbol's; those still there beyond them are uses left.
			n = min(n, max(0, len(core.IdentifierOffsets(at.rel, after, rt.Identifier))-(len(core.IdentifierOffsets(at.rel, before, rt.Identifier))-n)))
		}
		if n == 0 {
			continue
		}
		total += n
		if len(left) < maxLeftUses {
			left = append(left, where)
		}
	}
	notice := ""
	if alias != "" {
		notice = renameAliasNotice(rt.Identifier, newName, alias, aliasAt, keepsLocal)
	}
	if total > 0 {
		more := ""
		if total > len(left) {
			more = " and " + strconv.Itoa(total-len(left)) + " more"
		}
		notice = joinNotices(notice, "the rename leaves "+strconv.Itoa(total)+" "+plural(total, "use", "uses")+" the server's references list unchanged ("+strings.Join(left, ", ")+more+"): rename "+plural(total, "it", "them")+" too (edit), or the code breaks")
	}
	return joinNotices(notice, t.renameMacroLeft(ctx, r, rt, files, refLines, expansions), gone.notice("use", "uses"))
}
