package toolbox

import (
	"context"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// The uses a references answer of a dynamically typed language cannot
// list. A tester asked pyright for the references of httpx's
// URL.copy_with: 30 locations in 6 files, and 16 calls in 6 more test
// files, `server.url.copy_with(path="/json")` on an unannotated pytest
// fixture, were missing with nothing said; the agent judging whether a
// change is safe from that list misses them. code_delete and code_rename
// already search the language's files for the name (textualuses.go); a
// references answer of a class member now does too, and names the lines
// that reach a member of that name as an attribute (`.copy_with`) the
// server did not list. An attribute of `self`, `cls` or `this`, or of a
// name the file imports (a module, a class), is one the server types, so
// such a line is another symbol's, not a blind spot, and is not counted;
// nor are module-level functions searched: the server resolves the
// imports that reach them, and the lines spelling a same-named method
// (`s.area()` beside a function `area`) would be noise. The search runs
// beside the server's.

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
// when the language is statically typed or rt is not a class member.
func (t *Toolbox) findSpelledUses(ctx context.Context, ws string, rt lspseam.ResolvedTarget) spelledUses {
	switch rt.Kind {
	case "method", "property", "field":
		if rt.Container == "" {
			return spelledUses{complete: true}
		}
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
		lines := strings.Split(text, "\n")
		imported := importedNames(lines)
		for n, line := range lines {
			if len(out.lines) < maxSpelledUses && spellsAttributeUse(rel, line, rt.Identifier, imported) {
				out.lines = append(out.lines, path.Clean(rel)+":"+strconv.Itoa(n+1))
			}
		}
	})
	return out
}

// typedQualifiers are the receivers a server always types.
var typedQualifiers = map[string]bool{"self": true, "cls": true, "this": true, "super()": true}

// spellsAttributeUse says whether line reaches name as an attribute of a
// value the server may not type: `x.name` where x is not self, cls,
// this, nor a name the file imports; not in a declaration of another
// symbol of that name, not only in strings.
func spellsAttributeUse(rel, line, name string, imported map[string]bool) bool {
	offsets := core.IdentifierOffsets(rel, line, name)
	if offsets == nil || onlyInStrings(line, offsets) || declaresOther(rel, line, name) {
		return false
	}
	for _, k := range offsets {
		if k == 0 || line[k-1] != '.' {
			continue
		}
		q := qualifierBefore(line, k-1)
		if !typedQualifiers[q] && !imported[q] {
			return true
		}
	}
	return false
}

// qualifierBefore is the expression's last part before the dot at
// line[dot]: the identifier there ("url" of `server.url.copy_with`),
// "super()" for `super().`, "" after a call, an index or a literal
// (values the server may not type either).
func qualifierBefore(line string, dot int) string {
	if strings.HasSuffix(line[:dot], "super()") {
		return "super()"
	}
	i := dot
	for i > 0 && isWordByte(line[i-1]) {
		i--
	}
	return line[i:dot]
}

// isWordByte is isIdentByte (vuenames.go) with the bytes of non-ASCII
// letters, which Python and JavaScript names may hold.
func isWordByte(c byte) bool { return isIdentByte(c) || c >= 0x80 }

// importedNames are the names a file's import statements bind (Python's
// `import a.b as c`, `from m import (x, y as z)`; JavaScript's `import X,
// { a as b } from`, `import * as ns`), over-approximated as every word
// of those statements: a name too many only leaves a line uncounted.
func importedNames(lines []string) map[string]bool {
	names := map[string]bool{}
	open := false // inside a parenthesized or braced import list
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !open && !strings.HasPrefix(t, "import ") && !strings.HasPrefix(t, "from ") && !strings.HasPrefix(t, "import{") {
			continue
		}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r >= 0x80 || !isWordByte(byte(r)) }) {
			names[w] = true
		}
		switch {
		case strings.ContainsAny(t, "({") && !strings.ContainsAny(t, ")}"):
			open = true
		case strings.ContainsAny(t, ")}"):
			open = false
		}
	}
	return names
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
	var items []lspseam.Location
	json.Unmarshal(locs, &items)
	listed := referenceLines(r, items)
	var unlisted []string
	for _, u := range found.lines {
		if !listed[u] {
			unlisted = append(unlisted, u)
		}
	}
	total := len(unlisted)
	if total == 0 {
		if !found.complete {
			return "the files of the language could not all be searched for uses of `" + rt.Identifier + "` the server cannot see (the workspace is over the search's bounds)"
		}
		return ""
	}
	return strconv.Itoa(total) + " other " + plural(total, "line spells", "lines spell") + " `" + rt.Identifier + "` as a use and " + plural(total, "is", "are") + " not listed (calls on values the server cannot type, or another symbol of the same name): " + core.Listed(unlisted, maxTextualUses) + "; read them to tell"
}
