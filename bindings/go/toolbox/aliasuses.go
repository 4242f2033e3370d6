package toolbox

import (
	"context"
	"path"
	"regexp"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The uses of a changed declaration under another name, for the impact
// check (findDependents).
//
// A server's references of a declaration may stop where it is renamed:
// pyright lists `from .pricing import compute_price as price_of` among
// compute_price's references, but not the calls of price_of in the files
// that import it from there. A tester changed compute_price's signature,
// broke two such files, and the edit answered "1 other file checked, no
// new problems". So each reference whose line renames the name (`NAME as
// ALIAS` in an import or export clause) is followed: the references
// asked at the alias are dependents too, and so on along a chain
// (maxAliasDepth), at most maxAliasFollowUps requests per change, within
// the impact budget. An alias the server already listed among the
// references (tsserver follows renames itself) is not asked again.
//
// A CommonJS export (`module.exports = { NAME }`, `exports.NAME = NAME`)
// is asked the same way, at the exported property; when that reaches no
// other file (tsserver does not find `units.NAME(…)` through require or a
// default import of a CommonJS module), the answer says that the
// references stopped there rather than that no file uses NAME.

const (
	// maxAliasFollowUps bounds the references asked at aliases, per change.
	maxAliasFollowUps = 8
	// maxAliasDepth bounds a chain of aliases followed (an alias of an
	// alias of the declaration is depth 2).
	maxAliasDepth = 3
	// maxExportLookBack bounds the lines looked back from a line inside
	// a multi-line import, export or module.exports list for its start.
	maxExportLookBack = 50
	// maxAliasNoticeSites bounds the places a notice names.
	maxAliasNoticeSites = 3
)

// aliasUse is a reference's line renaming or exporting the name it refers
// to: the name the uses go by after it, and where to ask their references.
type aliasUse struct {
	alias    string // the name after the rename (the exported property for CommonJS)
	offset   int    // byte offset in the line of alias
	commonJS bool   // a CommonJS export: the server's references may stop there
}

var (
	identPattern = `[\p{L}_$][\p{L}\p{N}_$]*`
	// asRename is what follows NAME in `NAME as ALIAS`.
	asRename = regexp.MustCompile(`^\s+as\s+(` + identPattern + `)`)
	// listLine is a line of a multi-line import or export list: names,
	// `type` modifiers, `as` renames and commas, maybe opened or closed by
	// a bracket (the closing one followed by the clause's rest).
	listItem = `(?:type\s+)?` + identPattern + `(?:\s+as\s+` + identPattern + `)?`
	listLine = regexp.MustCompile(`^\s*[({]?\s*(?:` + listItem + `\s*,\s*)*(?:` + listItem + `)?\s*,?\s*(?:[)}].*)?$`)
	// Python's `from m import (` and `import`/`export {` of TypeScript
	// and JavaScript open a clause whose names may rename.
	clauseStart = regexp.MustCompile(`^\s*(?:from|import|export)\b`)
	// assignAlias is `ALIAS = ` (Python; a class attribute too), `const
	// ALIAS = ` and its let, var and exported forms (TypeScript,
	// JavaScript), a type annotation allowed: the value after it is
	// looked at for the name alone.
	assignAlias = regexp.MustCompile(`^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?(` + identPattern + `)\s*(?::[^=]+)?=\s*`)
	// exportsProperty is `exports.PROP = ` or `module.exports.PROP = `.
	exportsProperty = regexp.MustCompile(`^\s*(?:module\.)?exports\.(` + identPattern + `)\s*=\s*`)
	// exportsObject is `module.exports = {`, the object's items after it.
	exportsObject = regexp.MustCompile(`^\s*module\.exports\s*=\s*\{`)
	// exportsValue is `module.exports = ` (the module is the value).
	exportsValue = regexp.MustCompile(`^\s*module\.exports\s*=\s*`)
	// objectItem is one item of an object literal: `NAME` or `KEY: NAME`.
	objectItem = regexp.MustCompile(`(` + identPattern + `)\s*(?::\s*(` + identPattern + `))?\s*(?:,|\}|$)`)
)

// commonJSPaths are the extensions of the files that may export with
// module.exports.
var commonJSPaths = map[string]bool{".js": true, ".cjs": true, ".mjs": true, ".jsx": true}

// aliasesOn is the renames and exports of name on line n of lines (a
// file at path): `NAME as ALIAS` in an import or export clause (Python,
// TypeScript, JavaScript; on the clause's first line or a line of its
// multi-line list), and in JavaScript a CommonJS export of NAME.
func aliasesOn(file string, lines []string, n int, name string) []aliasUse {
	if n < 0 || n >= len(lines) || name == "" {
		return nil
	}
	line := lines[n]
	var out []aliasUse
	inClause := clauseStart.MatchString(line) || listLine.MatchString(line) && inList(lines, n, clauseStart)
	for _, off := range core.IdentifierOffsets(file, line, name) {
		rest := off + len(name)
		if m := asRename.FindStringSubmatchIndex(line[rest:]); m != nil && inClause {
			out = append(out, aliasUse{alias: line[rest+m[2] : rest+m[3]], offset: rest + m[2]})
		}
	}
	// startsWithName: text begins with name as a whole identifier.
	startsWithName := func(text string) bool {
		offs := core.IdentifierOffsets(file, text, name)
		return len(offs) > 0 && offs[0] == 0
	}
	// An assignment whose value is the name alone binds another name to
	// it (`ct = compute_total`, `const s = describe`): its uses are the
	// references of that name.
	if m := assignAlias.FindStringSubmatchIndex(line); m != nil && !strings.HasPrefix(line[m[1]:], "=") {
		alias, rhs := line[m[2]:m[3]], line[m[1]:]
		if alias != name && startsWithName(rhs) && valueEnds(rhs[len(name):]) {
			return append(out, aliasUse{alias: alias, offset: m[2]})
		}
	}
	if !commonJSPaths[strings.ToLower(path.Ext(file))] {
		return out
	}
	if m := exportsProperty.FindStringSubmatchIndex(line); m != nil {
		if startsWithName(line[m[1]:]) {
			return append(out, aliasUse{alias: line[m[2]:m[3]], offset: m[2], commonJS: true})
		}
		return out
	}
	items, base := "", 0
	switch {
	case exportsObject.MatchString(line):
		base = len(exportsObject.FindString(line))
		items = line[base:]
	case listLine.MatchString(line) && inList(lines, n, exportsObject):
		items = line
	case exportsValue.MatchString(line):
		rhs := line[len(exportsValue.FindString(line)):]
		if startsWithName(rhs) && strings.TrimRight(strings.TrimSpace(rhs[len(name):]), ";") == "" {
			return append(out, aliasUse{alias: name, offset: len(line) - len(rhs), commonJS: true})
		}
		return out
	default:
		return out
	}
	for _, m := range objectItem.FindAllStringSubmatchIndex(items, -1) {
		key := items[m[2]:m[3]]
		value := key
		if m[4] >= 0 {
			value = items[m[4]:m[5]]
		}
		if value == name {
			out = append(out, aliasUse{alias: key, offset: base + m[2], commonJS: true})
		}
	}
	return out
}

// valueEnds says whether what follows a value on its line ends the
// statement: nothing, a semicolon, a comment.
func valueEnds(rest string) bool {
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ";"))
	return rest == "" || strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "//")
}

// inList says whether line n is inside a list opened by a line matching
// start, with only list lines between them.
func inList(lines []string, n int, start *regexp.Regexp) bool {
	for k := n - 1; k >= 0 && k >= n-maxExportLookBack; k-- {
		if start.MatchString(lines[k]) {
			return opens(lines[k])
		}
		if !listLine.MatchString(lines[k]) || strings.ContainsAny(lines[k], ")}") {
			return false
		}
	}
	return false
}

// opens says whether line opens a bracket it does not close: a list
// that goes on below it.
func opens(line string) bool {
	return strings.Count(line, "(") > strings.Count(line, ")") || strings.Count(line, "{") > strings.Count(line, "}")
}

// aliasSite is an aliasUse at a reference's line: where to ask.
type aliasSite struct {
	aliasUse
	rel, uri string
	pos      lspseam.Position
	depth    int
}

// aliasFollower collects the aliases among a change's references and
// follows them.
type aliasFollower struct {
	r        *workspacefs.Root
	before   map[string]string   // the changed files' texts before the change
	texts    map[string][]string // lines of the files read, by rel
	known    map[string]bool     // rel:line:character of every location the server listed
	queued   map[string]bool     // rel:line:character of every site queued
	sites    []aliasSite         // to follow, in order
	skipped  []aliasSite         // over the bound or out of time
	stopped  []aliasSite         // CommonJS exports past which the server's references found no other file
	followed int                 // requests asked
}

// newAliasFollower follows aliases in the workspace r, reading the
// changed files' lines from their texts before the change (before, by
// workspace-relative path).
func newAliasFollower(r *workspacefs.Root, before map[string]string) *aliasFollower {
	return &aliasFollower{r: r, before: before, texts: map[string][]string{}, known: map[string]bool{}, queued: map[string]bool{}}
}

func locationKey(rel string, p lspseam.Position) string {
	return rel + ":" + strconv.Itoa(int(p.Line)) + ":" + strconv.Itoa(int(p.Character))
}

// note records a references answer for name, asked at depth (0 for the
// changed declaration itself): its locations are known, and their lines'
// renames of name are queued.
func (a *aliasFollower) note(name string, locs []lspseam.Location, depth int) {
	type at struct {
		rel string
		l   lspseam.Location
	}
	var in []at
	for _, l := range locs {
		p, ok := workspacefs.HostPaths.URIPath(l.URI)
		if !ok {
			continue
		}
		rel, err := a.r.Rel(p)
		if err != nil {
			continue
		}
		a.known[locationKey(rel, l.Range.Start)] = true
		in = append(in, at{rel, l})
	}
	if depth >= maxAliasDepth {
		return
	}
	for _, x := range in {
		lines := a.lines(x.rel)
		n := int(x.l.Range.Start.Line)
		for _, u := range aliasesOn(x.rel, lines, n, name) {
			pos := lspseam.Position{Line: uint32(n), Character: uint32(core.ColumnOfByteOffset(lines[n], u.offset))}
			key := locationKey(x.rel, pos)
			if a.queued[key] {
				continue
			}
			a.queued[key] = true
			a.sites = append(a.sites, aliasSite{aliasUse: u, rel: x.rel, uri: x.l.URI, pos: pos, depth: depth + 1})
		}
	}
}

// lines is rel's lines as the server had them before the change.
func (a *aliasFollower) lines(rel string) []string {
	if l, ok := a.texts[rel]; ok {
		return l
	}
	text, ok := a.before[rel]
	if !ok {
		if f, err := a.r.Read(a.r.Abs(rel)); err == nil && f.Exists {
			text = f.Text
		}
	}
	l := core.SplitLines(text)
	a.texts[rel] = l
	return l
}

// followAliases asks the references at each queued alias, breadth first
// (those it finds are noted and followed in turn, up to maxAliasDepth),
// and returns the workspace-relative files they name.
func (t *Toolbox) followAliases(ctx context.Context, s lspseam.Session, a *aliasFollower) []string {
	var files []string
	for i := 0; i < len(a.sites); i++ {
		site := a.sites[i]
		if !site.commonJS && a.known[locationKey(site.rel, site.pos)] {
			continue // the server listed the alias itself: it follows the rename
		}
		if a.followed >= maxAliasFollowUps || ctx.Err() != nil {
			a.skipped = append(a.skipped, site)
			continue
		}
		a.followed++
		var locs []lspseam.Location
		if _, err := s.Open(ctx, site.rel); err == nil {
			if raw, err := t.request(ctx, s, "textDocument/references", site.uri, site.pos); err == nil {
				if refs, err := t.core.Translate(ctx, lspseam.OpReferences, raw); err == nil {
					locs = refs.Locations
				}
			}
		}
		elsewhere := false
		for _, l := range locs {
			if p, ok := workspacefs.HostPaths.URIPath(l.URI); ok {
				if rel, err := a.r.Rel(p); err == nil {
					files = append(files, rel)
					elsewhere = elsewhere || rel != site.rel
				}
			}
		}
		if site.commonJS && !elsewhere {
			a.stopped = append(a.stopped, site)
		}
		a.note(site.alias, locs, site.depth)
	}
	return files
}

// notice says where the references may have stopped: CommonJS exports
// past which they found no other file, and aliases not followed.
func (a *aliasFollower) notice() string {
	where := func(sites []aliasSite) string {
		var at []string
		for _, s := range sites {
			at = append(at, s.alias+" ("+s.rel+":"+strconv.Itoa(int(s.pos.Line)+1)+")")
		}
		return core.Listed(at, maxAliasNoticeSites)
	}
	var out []string
	if len(a.stopped) > 0 {
		out = append(out, "the server's references stop at the CommonJS "+plural(len(a.stopped), "export", "exports")+" "+where(a.stopped)+": files that use "+plural(len(a.stopped), "it", "them")+" through require or an import were not found")
	}
	if len(a.skipped) > 0 {
		out = append(out, "the uses under the "+plural(len(a.skipped), "alias", "aliases")+" "+where(a.skipped)+" were not asked (over the bound of "+strconv.Itoa(maxAliasFollowUps)+" or out of time)")
	}
	return joinNotices(out...)
}
