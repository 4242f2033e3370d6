package toolbox

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The uses of a TypeScript or JavaScript symbol in component files the
// searching server does not read. typescript-language-server never reads
// .svelte files, so in a Svelte project the references of a .ts helper
// answered its declaration alone (findings s26b #2: formatDate, used by 3
// components, "1 location in 1 file"), a rename from the .ts file broke
// the 3 components, and a signature change found no dependent to check.
// svelte-language-server, asked from a .svelte file, searches .svelte and
// .ts files alike (all 7 uses of formatDate, asked from Comment.svelte).
// So after such a search the toolbox asks it too, from a .svelte file
// that imports the symbol by name, at the imported name, and merges its
// locations: the search then covers the .svelte files
// (lspseam.ComponentGapper), or says precisely what it left out.
//
// Only an answer that holds the very location the first server was asked
// at is taken: it is then the same symbol (a component importing another
// module's function of the same name is not). A component that names the
// symbol but imports it in no form this finds (a namespace import) leaves
// the search saying so. No component naming it at all is a complete
// answer: a use spells the name.

// componentSearchers are the extensions of the component files whose
// server answers a search of a .ts symbol asked from one of them.
var componentSearchers = map[string]string{".svelte": "svelte-language-server"}

const (
	// maxComponentAsks bounds the component files a search is asked
	// from (one whose answer is of another symbol leads to the next).
	maxComponentAsks = 3
	// maxComponentScan bounds the component files read for the name.
	maxComponentScan = 2000
)

// namedImports matches an import of names in braces: the names, and the
// module specifier.
var namedImports = regexp.MustCompile(`import\s+(?:type\s+)?(?:[A-Za-z_$][\w$]*\s*,\s*)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]`)

// componentSite is a component file that imports the symbol by name:
// where the name is in its import, and whether the import's module is
// the symbol's file by its name.
type componentSite struct {
	rel, abs string
	pos      lspseam.Position
	module   bool
}

// referencesWithComponents asks s for the references at (uri, pos), then
// the server of the component files the search left out
// (withComponentUses), within ctx.
func (t *Toolbox) referencesWithComponents(ctx context.Context, s lspseam.Session, uri string, pos lspseam.Position) (json.RawMessage, error) {
	raw, err := t.request(ctx, s, "textDocument/references", uri, pos)
	if err != nil {
		return raw, err
	}
	return t.withComponentUses(ctx, s, uri, pos, raw), nil
}

// withComponentUses is raw, a references answer of s at (uri, pos), with
// the uses the servers of the component files its search left out find
// (their locations added, duplicates dropped), and the session told what
// those searches covered. raw as it is when there is no such gap.
func (t *Toolbox) withComponentUses(ctx context.Context, s lspseam.Session, uri string, pos lspseam.Position, raw json.RawMessage) json.RawMessage {
	t.eachComponentSearch(ctx, s, uri, pos, func(_ lspseam.ComponentGap, locs []referenceLocation, instead string) (string, bool) {
		merged, err := mergeLocations(raw, locs)
		if err != nil {
			return "", false
		}
		raw = merged
		return instead, true
	})
	return raw
}

// eachComponentSearch asks, for each component-file gap of s's search
// whose files a component server searches, that server for the symbol at
// (uri, pos) (componentUses), and passes what it found and left out to
// use; the gap is covered, with the notice use returns, when use takes
// the answer (ok), and keeps its own notice otherwise, as when the
// server could not be asked at all.
func (t *Toolbox) eachComponentSearch(ctx context.Context, s lspseam.Session, uri string, pos lspseam.Position, use func(gap lspseam.ComponentGap, locs []referenceLocation, instead string) (notice string, ok bool)) {
	g, ok := s.(lspseam.ComponentGapper)
	if !ok {
		return
	}
	for _, gap := range g.ComponentGaps() {
		server, ok := componentSearchers[gap.Ext]
		if !ok {
			continue
		}
		locs, instead, ok := t.componentUses(ctx, s, gap, server, uri, pos)
		if !ok {
			continue
		}
		if notice, ok := use(gap, locs, instead); ok {
			g.CoverComponentGap(gap.Ext, notice)
		}
	}
}

// componentUses is the locations server finds for the symbol at (uri,
// pos) when asked from one of gap's files (of that symbol: they hold
// (uri, pos)), and what its search left out ("" nothing); ok false when
// it could not be asked at all (the gap's own notice then stands).
func (t *Toolbox) componentUses(ctx context.Context, s lspseam.Session, gap lspseam.ComponentGap, server, uri string, pos lspseam.Position) (locs []referenceLocation, instead string, ok bool) {
	p, ok := workspacefs.HostPaths.URIPath(uri)
	if !ok {
		return nil, "", false
	}
	src, err := s.Read(p)
	if err != nil {
		return nil, "", false
	}
	name := identifierAt(src.Text, pos)
	if name == "" {
		return nil, "", false
	}
	ws, ok := workspacefs.HostPaths.URIPath(s.WorkspaceURI())
	if !ok {
		return nil, "", false
	}
	sites, naming, scanned := componentSites(s, ws, gap.Files, name, p)
	if !scanned {
		return nil, "", false
	}
	if len(naming) == 0 {
		return nil, "", true // no component spells the name: none uses it
	}
	kindFiles := func(n int) string { return fmt.Sprintf("%d %s %s", n, gap.Kind, plural(n, "file", "files")) }
	if len(sites) == 0 {
		return nil, fmt.Sprintf("%s of the workspace %s `%s` (such as %s) but none imports it by name (import { %s } from …), so %s was not asked and uses there may be missing; ask code_navigate references from one of them to have them found", kindFiles(len(naming)), plural(len(naming), "names", "name"), name, naming[0], name, server), true
	}
	var tried []string
	for _, site := range sites[:min(len(sites), maxComponentAsks)] {
		tried = append(tried, site.rel)
		locs, notice, err := t.componentReferences(ctx, ws, site)
		if err != nil {
			if ctx.Err() != nil {
				return nil, "", false
			}
			continue
		}
		if !holdsPosition(locs, uri, pos) {
			continue // another symbol of that name
		}
		if notice != "" {
			notice = fmt.Sprintf("the search of the %s files by %s (asked from %s) may be incomplete: %s", gap.Kind, server, site.rel, notice)
		}
		return locs, notice, true
	}
	return nil, fmt.Sprintf("%s of the workspace %s `%s` (such as %s), but %s, asked from %s, did not find this symbol's uses there (an import of another symbol of that name, or it failed), so uses there may be missing; ask code_navigate references from one of them to have them found", kindFiles(len(naming)), plural(len(naming), "names", "name"), name, naming[0], server, strings.Join(tried, ", ")), true
}

// componentReferences asks the server of site's file for the references
// at its import of the name: their locations and its session's notice.
func (t *Toolbox) componentReferences(ctx context.Context, ws string, site componentSite) ([]referenceLocation, string, error) {
	var locs []referenceLocation
	var notice string
	err := t.service.Session(ctx, site.abs, ws, func(ctx context.Context, cs lspseam.Session) error {
		f, err := cs.Open(ctx, site.abs)
		if err != nil {
			return err
		}
		raw, err := t.request(ctx, cs, "textDocument/references", f.URI, site.pos)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &locs); err != nil {
			return lspseam.Errorf(lspseam.CodeMalformedResponse, "language server %q answered references with no list of locations: %v", cs.Server(), err)
		}
		notice = cs.Notice()
		return nil
	})
	return locs, notice, err
}

// componentSites is the component files of files (absolute paths) that
// import name by name, those importing it from a module named as the
// symbol's file (declaredIn) first; naming, the workspace-relative paths
// of those that spell it at all; scanned false when they could not all
// be read.
func componentSites(s lspseam.Session, ws string, files []string, name, declaredIn string) (sites []componentSite, naming []string, scanned bool) {
	if len(files) > maxComponentScan {
		return nil, nil, false
	}
	word := regexp.MustCompile(`(^|[^\w$])` + regexp.QuoteMeta(name) + `($|[^\w$])`)
	inBraces := regexp.MustCompile(`(^|[\s,])` + regexp.QuoteMeta(name) + `(\s*(,|$|\bas\b))`)
	deadline := time.Now().Add(unsearchedSearchBudget)
	for _, abs := range files {
		if time.Now().After(deadline) {
			return nil, nil, false
		}
		src, err := s.Read(abs)
		if err != nil {
			return nil, nil, false
		}
		if !word.MatchString(src.Text) {
			continue
		}
		rel := relTo(ws, abs)
		naming = append(naming, rel)
		for _, m := range namedImports.FindAllStringSubmatchIndex(src.Text, -1) {
			names := src.Text[m[2]:m[3]]
			at := inBraces.FindStringSubmatchIndex(names)
			if at == nil {
				continue
			}
			offset := m[2] + at[3] // the name's first byte
			sites = append(sites, componentSite{rel: rel, abs: abs, pos: positionOf(src.Text, offset), module: sameModule(src.Text[m[4]:m[5]], declaredIn)})
			break
		}
	}
	slices.SortStableFunc(sites, func(a, b componentSite) int {
		switch {
		case a.module == b.module:
			return 0
		case a.module:
			return -1
		}
		return 1
	})
	return sites, naming, true
}

// sameModule says whether an import's module specifier names the file
// declaredIn by its last part: "$lib/format" and "./format.js" name
// src/lib/format.ts, "./lib" names src/lib/index.ts.
func sameModule(specifier, declaredIn string) bool {
	last := strings.TrimSuffix(path.Base(specifier), path.Ext(specifier))
	base := filepath.Base(declaredIn)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "index" {
		stem = filepath.Base(filepath.Dir(declaredIn))
	}
	return last == stem || path.Base(specifier) == stem
}

// referenceLocation is a location of a references answer.
type referenceLocation struct {
	URI   string        `json:"uri"`
	Range lspseam.Range `json:"range"`
}

// holdsPosition says whether locs hold pos in the file at uri.
func holdsPosition(locs []referenceLocation, uri string, pos lspseam.Position) bool {
	key := workspacefs.HostPaths.URIKey(uri)
	for _, l := range locs {
		if workspacefs.HostPaths.URIKey(l.URI) == key && !positionBefore(pos, l.Range.Start) && !positionBefore(l.Range.End, pos) {
			return true
		}
	}
	return false
}

// positionBefore says whether a comes before b.
func positionBefore(a, b lspseam.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// mergeLocations is raw's locations (a references answer) and more's
// that it does not hold.
func mergeLocations(raw json.RawMessage, more []referenceLocation) (json.RawMessage, error) {
	var locs []referenceLocation
	if t := strings.TrimSpace(string(raw)); t != "" && t != "null" {
		if err := json.Unmarshal(raw, &locs); err != nil {
			return nil, err
		}
	}
	type key struct {
		uri string
		r   lspseam.Range
	}
	seen := map[key]bool{}
	for _, l := range locs {
		seen[key{workspacefs.HostPaths.URIKey(l.URI), l.Range}] = true
	}
	for _, l := range more {
		k := key{workspacefs.HostPaths.URIKey(l.URI), l.Range}
		if !seen[k] {
			seen[k] = true
			locs = append(locs, l)
		}
	}
	return json.Marshal(locs)
}

// identifierAt is the identifier of text at pos ("" none).
func identifierAt(text string, pos lspseam.Position) string {
	lines := strings.Split(text, "\n")
	if int(pos.Line) >= len(lines) {
		return ""
	}
	line := lines[pos.Line]
	at := byteOffsetOfUTF16(line, int(pos.Character))
	isWord := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	start, end := at, at
	for start > 0 && isWord(line[start-1]) {
		start--
	}
	for end < len(line) && isWord(line[end]) {
		end++
	}
	return line[start:end]
}

// positionOf is the LSP position (UTF-16 columns) of byte offset in text.
func positionOf(text string, offset int) lspseam.Position {
	before := text[:offset]
	line := strings.Count(before, "\n")
	col := before[strings.LastIndexByte(before, '\n')+1:]
	return lspseam.Position{Line: uint32(line), Character: uint32(len(utf16.Encode([]rune(col))))}
}
