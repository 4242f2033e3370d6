package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The uses a references answer of a dynamically typed language cannot
// list. A tester asked pyright for the references of httpx's
// URL.copy_with: 30 locations in 6 files, and 16 calls in 6 more test
// files, `server.url.copy_with(path="/json")` on an unannotated pytest
// fixture, were missing with nothing said; the agent judging whether a
// change is safe from that list misses them. code_delete and code_rename
// already search the language's files for the name (textualuses.go); a
// references answer now does too, and names the lines that spell a use
// the server did not list — a member where it is reached as an attribute
// (`.copy_with`), anything else where it is called or reached through a
// module (`name(`, `.name`) — so a local variable or a parameter of the
// same name is not counted. The search runs beside the server's.

// spelledUse is one line spelling a possible use: "rel:line" one-based.
type spelledUse = string

// maxSpelledUses bounds the lines a search keeps before the server's
// references are taken out (the answer lists maxTextualUses of those
// left, and counts the rest).
const maxSpelledUses = 20000

// spelledUses is the search's result: the lines, and whether every file
// of the language was read.
type spelledUses struct {
	lines    []spelledUse
	complete bool
}

// findSpelledUses searches the workspace's files of rt's language for the
// lines that may use rt without the server knowing (see above); nothing
// when the language is statically typed or rt is not a declaration
// other code names.
func (t *Toolbox) findSpelledUses(ctx context.Context, ws string, rt lspseam.ResolvedTarget) spelledUses {
	member := false
	switch rt.Kind {
	case "method", "property", "field":
		member = rt.Container != ""
	case "function", "class":
	default:
		return spelledUses{complete: true}
	}
	r, err := t.openFSRoot(ws)
	if err != nil {
		return spelledUses{}
	}
	defer r.Close()
	sel, ok := t.service.Selection(ctx, rt.Path, r.Dir)
	if !ok || !dynamicLanguages[sel.LanguageID] || rt.Identifier == "" {
		return spelledUses{complete: true}
	}
	var out spelledUses
	out.complete = t.ownedTexts(ctx, r, sel.ID, rt.Identifier, nil, func(rel string, text string) {
		for n, line := range strings.Split(text, "\n") {
			if len(out.lines) < maxSpelledUses && spellsUse(rel, line, rt.Identifier, member) {
				out.lines = append(out.lines, path.Clean(rel)+":"+strconv.Itoa(n+1))
			}
		}
	})
	return out
}

// spellsUse says whether line spells name as a possible use: after a
// `.` (an attribute), or, unless member, before a `(` (a call); not in
// a declaration of another symbol of that name, not only in strings.
func spellsUse(rel, line, name string, member bool) bool {
	offsets := core.IdentifierOffsets(rel, line, name)
	if offsets == nil || onlyInStrings(line, offsets) || declaresOther(rel, line, name) {
		return false
	}
	for _, k := range offsets {
		if k > 0 && line[k-1] == '.' {
			return true
		}
		if !member && strings.HasPrefix(strings.TrimLeft(line[k+len(name):], " \t"), "(") {
			return true
		}
	}
	return false
}

// unlistedUsesNotice is what a references answer says of the lines found
// that are not among its locations (locs, the server's list of
// Locations: all of them, not only the page's): "" when there are none.
func (t *Toolbox) unlistedUsesNotice(ws string, found spelledUses, rt lspseam.ResolvedTarget, locs json.RawMessage) string {
	if len(found.lines) == 0 && found.complete {
		return ""
	}
	r, err := t.openFSRoot(ws)
	if err != nil {
		return ""
	}
	defer r.Close()
	var items []struct {
		URI   string        `json:"uri"`
		Range lspseam.Range `json:"range"`
	}
	json.Unmarshal(locs, &items)
	listed := map[string]bool{}
	for _, l := range items {
		if p, ok := workspacefs.HostPaths.URIPath(l.URI); ok {
			if rel, err := r.Rel(p); err == nil {
				listed[path.Clean(rel)+":"+strconv.Itoa(int(l.Range.Start.Line)+1)] = true
			}
		}
	}
	var shown []string
	total := 0
	for _, u := range found.lines {
		if listed[u] {
			continue
		}
		total++
		if len(shown) < maxTextualUses {
			shown = append(shown, u)
		}
	}
	if total == 0 {
		if !found.complete {
			return "the files of the language could not all be searched for uses of `" + rt.Identifier + "` the server cannot see (the workspace is over the search's bounds)"
		}
		return ""
	}
	more := ""
	if total > len(shown) {
		more = " and " + strconv.Itoa(total-len(shown)) + " more"
	}
	return strconv.Itoa(total) + " other " + plural(total, "line spells", "lines spell") + " `" + rt.Identifier + "` as a use and " + plural(total, "is", "are") + " not listed (calls on values the server cannot type, or another symbol of the same name): " + strings.Join(shown, ", ") + more + "; read them to tell"
}
