package core

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// The workspace-wide symbol search: code_symbols with query and no path.
// The host asks the server of every language the workspace has (one
// workspace/symbol request per server and project root, or per opened
// document for a server whose search follows its last document), and
// codeSymbols merges the answers: it reads each, drops the duplicates two
// project roots' servers both report, ranks the matches by how well their
// names match the query (rankWorkspaceSymbols), keeps the first limit, and
// says which languages were searched and which were not, and why. An
// answer that could not search a language is marked incomplete: an empty
// list never stands for languages nobody asked.
//
// Input (workspace mode with results instead of result):
//
//	results       [{server, languages?, root?, document?, followsDocument?,
//	                cap?, result, incomplete?}]: one per request, in the host's
//	                order (the ranking keeps it among equals). root is the
//	                project root the server ran in ("." the workspace);
//	                document and followsDocument: the server searched the
//	                projects of that open document only; incomplete: why
//	                this server's answer may be partial (still loading);
//	                cap: the most matches the server answers with (its
//	                answer is incomplete when it reaches it). A result that
//	                is not a workspace/symbol answer costs that request's
//	                part (notSearched, with why), not the answer.
//	notSearched   [{server?, languages?, root?, files?, reason}]: servers
//	                the host could not ask (not installed, timed out,
//	                failed, no workspace/symbol) or project roots past its
//	                bound.
//	unconfigured  [{extension, files}]: files no configured server owns; the
//	                source languages among them (sourcelangs.go) were not
//	                searched.
//	partial       why the host's view of the workspace is partial (its walk
//	                stopped at a bound).
//
// Output adds, to workspace mode's fields, server on each match, searched
// [{server, languages, roots, documents?, found}], notSearched [{server?,
// languages, extensions?, roots?, files?, reason}] and incomplete (a
// summary, set when anything was not searched or may be partial).

// Bounds of a merged search's input, so a host's list cannot grow the
// answer without limit.
const (
	maxSearchRequests = 256 // results entries
	maxSearchGaps     = 256 // notSearched and unconfigured entries
	maxSearchReason   = 2000
	maxListedDocs     = 8 // documents and roots named per server in the text
)

// symbolSearchSource is one server's part of a merged search.
type symbolSearchSource struct {
	Server          string
	Languages       []string
	Roots           []string
	Documents       []string
	FollowsDocument bool
	Found           int
	incomplete      []string
}

func (s *symbolSearchSource) appendJSON(b []byte) []byte {
	b = append(b, `{"server":`...)
	b = appendString(b, s.Server)
	b = append(b, `,"languages":`...)
	b = appendStrings(b, s.Languages)
	b = append(b, `,"roots":`...)
	b = appendStrings(b, s.Roots)
	if s.FollowsDocument {
		b = append(b, `,"documents":`...)
		b = appendStrings(b, s.Documents)
	}
	b = append(b, `,"found":`...)
	b = appendInt(b, int64(s.Found))
	return append(b, '}')
}

// symbolSearchGap is a language (or a server's project roots) the search
// did not reach.
type symbolSearchGap struct {
	Server     string
	Languages  []string
	Extensions []string
	Roots      []string
	Files      int
	Reason     string
	// Unsupported: the server offers no workspace symbol search at all (a
	// JSON or YAML server). Such a gap is listed but does not make the
	// answer incomplete: no search could cover those files, and with
	// some forty languages in the presets nearly every workspace has one,
	// so counting it would mark every answer and teach the reader to
	// ignore the mark.
	Unsupported bool
}

func (g symbolSearchGap) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if g.Server != "" {
		b = append(b, `"server":`...)
		b = appendString(b, g.Server)
		b = append(b, ',')
	}
	b = append(b, `"languages":`...)
	b = appendStrings(b, g.Languages)
	if len(g.Extensions) > 0 {
		b = append(b, `,"extensions":`...)
		b = appendStrings(b, g.Extensions)
	}
	if len(g.Roots) > 0 {
		b = append(b, `,"roots":`...)
		b = appendStrings(b, g.Roots)
	}
	if g.Files > 0 {
		b = append(b, `,"files":`...)
		b = appendInt(b, int64(g.Files))
	}
	b = append(b, `,"reason":`...)
	b = appendString(b, g.Reason)
	if g.Unsupported {
		b = append(b, `,"unsupported":true`...)
	}
	return append(b, '}')
}

// workspaceSearch answers a merged search (codeSymbolsCall's workspace
// mode with results).
func workspaceSearch(in gjson.Result, out CodeSymbols, wsPath string, limit int) (jsonAppender, *Error) {
	results := get(in, "results")
	if !results.IsArray() || len(results.Array()) > maxSearchRequests {
		return nil, Errorf(CodeInvalidArgument, "results must be an array of at most %d {server, result, …} (one per workspace/symbol request), got %s", maxSearchRequests, describe(results))
	}
	if out.Query == nil || *out.Query == "" {
		return nil, Errorf(CodeInvalidArgument, "a workspace-wide search (results) needs query, the name searched for")
	}
	out.Merged = true
	var all []workspaceSymbol
	bySource := map[string]*symbolSearchSource{}
	seen := map[string]bool{}
	var malformed []symbolSearchGap // answers that cost their server's part, not the whole answer
	var problem *Error
	i := 0
	results.ForEach(func(_, r gjson.Result) bool {
		where := "results[" + strconv.Itoa(i) + "]"
		i++
		server := get(r, "server")
		if server.Type != gjson.String || server.Str == "" {
			problem = Errorf(CodeInvalidArgument, "%s.server must be the server's id, got %s", where, describe(server))
			return false
		}
		langs, err := stringList(get(r, "languages"), where+".languages")
		if err != nil {
			problem = err
			return false
		}
		result := get(r, "result")
		if !result.Exists() {
			problem = workspaceSymbolsMalformed(where + " has no result: pass the server's workspace/symbol result (null for none)")
			return false
		}
		matches, err := readWorkspaceSymbols(result, wsPath)
		if err != nil {
			gap := symbolSearchGap{Server: server.Str, Languages: langs, Reason: err.Message}
			if root := get(r, "root"); root.Type == gjson.String && root.Str != "" && root.Str != "." {
				gap.Roots = []string{root.Str}
			}
			malformed = append(malformed, gap)
			return true
		}
		src := bySource[server.Str]
		if src == nil {
			src = &symbolSearchSource{Server: server.Str}
			bySource[server.Str] = src
			out.Searched = append(out.Searched, src)
		}
		src.Languages = addUnique(src.Languages, langs...)
		root := get(r, "root")
		if root.Type == gjson.String && root.Str != "" {
			src.Roots = addUnique(src.Roots, root.Str)
		} else {
			src.Roots = addUnique(src.Roots, ".")
		}
		if get(r, "followsDocument").Type == gjson.True {
			src.FollowsDocument = true
			if d := get(r, "document"); d.Type == gjson.String && d.Str != "" {
				src.Documents = addUnique(src.Documents, d.Str)
			}
		}
		if inc := get(r, "incomplete"); inc.Type == gjson.String && inc.Str != "" {
			src.incomplete = addUnique(src.incomplete, clip(inc.Str, maxSearchReason))
		}
		if c, _ := integer(get(r, "cap"), 1, maxUint31); c > 0 && int64(len(matches)) >= c {
			src.incomplete = addUnique(src.incomplete, capReached(c))
		}
		for _, m := range matches {
			key := m.Path + "\x00" + m.Name + "\x00" + m.Kind.String() + "\x00" + strconv.FormatBool(m.HasPos) + strconv.FormatUint(uint64(m.Pos.Line), 10) + ":" + strconv.FormatUint(uint64(m.Pos.Character), 10)
			if seen[key] {
				continue
			}
			seen[key] = true
			m.Server = server.Str
			src.Found++
			all = append(all, m)
		}
		return true
	})
	if problem != nil {
		return nil, problem
	}
	gaps, err := searchGaps(in)
	if err != nil {
		return nil, err
	}
	out.NotSearched = append(malformed, gaps...)
	partial := get(in, "partial")
	if partial.Exists() && partial.Type != gjson.Null && partial.Type != gjson.String {
		return nil, Errorf(CodeInvalidArgument, "partial must be a string (why the host's view of the workspace is partial), got %s", describe(partial))
	}
	var derr *Error
	if all, out.DependenciesLeftOut, derr = workspaceOwn(in, all); derr != nil {
		return nil, derr
	}
	if get(in, "dependencies").Type == gjson.True {
		var servers []string
		for _, src := range out.Searched {
			servers = append(servers, src.Server)
		}
		out.NoDependencies = withoutDependencies(all, servers, true)
	}
	rankWorkspaceSymbols(all, *out.Query)
	out.TotalFound = len(all)
	out.Exact = exactMatches(all, out.Query)
	if out.Matches, derr = symbolPage(in, &out, all, limit); derr != nil {
		return nil, derr
	}
	out.Incomplete = searchIncomplete(out, clip(partial.Str, maxSearchReason))
	if out.TotalFound == 0 {
		out.Notice = searchNotice(out)
		if out.DependenciesLeftOut > 0 {
			out.Notice = dependenciesNotice(out)
		}
	}
	out.Rendered = renderWorkspaceSearch(out, limit)
	return out, nil
}

// searchGaps reads notSearched and unconfigured.
func searchGaps(in gjson.Result) ([]symbolSearchGap, *Error) {
	var gaps []symbolSearchGap
	ns := get(in, "notSearched")
	if ns.Exists() && ns.Type != gjson.Null {
		if !ns.IsArray() || len(ns.Array()) > maxSearchGaps {
			return nil, Errorf(CodeInvalidArgument, "notSearched must be an array of at most %d {server?, languages?, root?, files?, reason}, got %s", maxSearchGaps, describe(ns))
		}
		for i, g := range ns.Array() {
			where := "notSearched[" + strconv.Itoa(i) + "]"
			reason := get(g, "reason")
			if reason.Type != gjson.String || reason.Str == "" {
				return nil, Errorf(CodeInvalidArgument, "%s.reason must say why it was not searched, got %s", where, describe(reason))
			}
			langs, err := stringList(get(g, "languages"), where+".languages")
			if err != nil {
				return nil, err
			}
			files, _ := integer(get(g, "files"), 0, maxUint31)
			gap := symbolSearchGap{Server: get(g, "server").Str, Languages: langs, Files: int(files), Reason: clip(reason.Str, maxSearchReason), Unsupported: get(g, "unsupported").Type == gjson.True}
			if root := get(g, "root"); root.Type == gjson.String && root.Str != "" && root.Str != "." {
				gap.Roots = []string{root.Str}
			}
			if n := len(gaps); n > 0 && gap.Server != "" && gaps[n-1].Server == gap.Server && gaps[n-1].Reason == gap.Reason && gaps[n-1].Unsupported == gap.Unsupported && len(gap.Roots) > 0 {
				// Several roots of one server, for one reason: one entry.
				gaps[n-1].Roots = append(gaps[n-1].Roots, gap.Roots...)
				gaps[n-1].Languages = addUnique(gaps[n-1].Languages, gap.Languages...)
				gaps[n-1].Files += gap.Files
				continue
			}
			gaps = append(gaps, gap)
		}
	}
	un := get(in, "unconfigured")
	if un.Exists() && un.Type != gjson.Null {
		if !un.IsArray() || len(un.Array()) > maxSearchGaps {
			return nil, Errorf(CodeInvalidArgument, "unconfigured must be an array of at most %d {extension, files}, got %s", maxSearchGaps, describe(un))
		}
		byLang := map[string]*symbolSearchGap{}
		var order []string
		for i, u := range un.Array() {
			ext := get(u, "extension")
			if ext.Type != gjson.String {
				return nil, Errorf(CodeInvalidArgument, "unconfigured[%d].extension must be a string, got %s", i, describe(ext))
			}
			lang := SourceLanguage(ext.Str)
			if lang == "" {
				continue // not source code lspseam knows of: nothing to search
			}
			files, _ := integer(get(u, "files"), 0, maxUint31)
			g := byLang[lang]
			if g == nil {
				g = &symbolSearchGap{Languages: []string{lang}}
				byLang[lang] = g
				order = append(order, lang)
			}
			g.Extensions = addUnique(g.Extensions, strings.ToLower(ext.Str))
			g.Files += int(files)
		}
		sort.Strings(order)
		for _, lang := range order {
			g := byLang[lang]
			sort.Strings(g.Extensions)
			g.Reason = "no language server is configured for " + strings.Join(g.Extensions, ", ") + " files; add one to the server table (--config), or search the files for the name"
			gaps = append(gaps, *g)
		}
	}
	return gaps, nil
}

// stringList reads an optional array of strings.
func stringList(v gjson.Result, what string) ([]string, *Error) {
	if !v.Exists() || v.Type == gjson.Null {
		return nil, nil
	}
	if !v.IsArray() || len(v.Array()) > 64 {
		return nil, Errorf(CodeInvalidArgument, "%s must be an array of at most 64 strings, got %s", what, describe(v))
	}
	var out []string
	for _, s := range v.Array() {
		if s.Type != gjson.String {
			return nil, Errorf(CodeInvalidArgument, "%s must be an array of strings, got %s", what, describe(v))
		}
		out = append(out, clip(s.Str, 200))
	}
	return out, nil
}

// addUnique appends the values of vs not yet in list.
func addUnique(list []string, vs ...string) []string {
	for _, v := range vs {
		found := false
		for _, x := range list {
			if x == v {
				found = true
				break
			}
		}
		if !found {
			list = append(list, v)
		}
	}
	return list
}

// Match classes of rankWorkspaceSymbols, best first.
const (
	matchExact = iota
	matchExactFold
	matchPrefix
	matchPrefixFold
	matchSubstring
	matchFuzzy
)

// symbolMatchClass says how well a symbol's name matches query: the same
// name, the same ignoring case, a prefix, a prefix ignoring case, a
// substring ignoring case, or anything else the server matched (its fuzzy
// match). A query naming a member ("Circle.Area", "geom::parse") is also
// compared with the symbol's Container.name, and the better class counts.
func symbolMatchClass(name, container, query string) int {
	best := nameMatchClass(name, query)
	if !strings.ContainsAny(query, ".:") && strings.ContainsAny(name, ".:") {
		// gopls names a method Shape.Area, clangd ns::f: the query Area
		// names it as well as a bare Area.
		best = min(best, nameMatchClass(lastNameSegment(strings.ReplaceAll(name, "::", ".")), query))
	}
	if container != "" && strings.ContainsAny(query, ".:") {
		q := strings.ReplaceAll(query, "::", ".")
		best = min(best, nameMatchClass(strings.ReplaceAll(container, "::", ".")+"."+name, q), nameMatchClass(lastNameSegment(container)+"."+name, q))
	}
	return best
}

func nameMatchClass(name, query string) int {
	switch {
	case name == query:
		return matchExact
	case strings.EqualFold(name, query):
		return matchExactFold
	case strings.HasPrefix(name, query):
		return matchPrefix
	case len(name) >= len(query) && strings.EqualFold(name[:len(query)], query):
		return matchPrefixFold
	case strings.Contains(strings.ToLower(name), strings.ToLower(query)):
		return matchSubstring
	}
	return matchFuzzy
}

// rankWorkspaceSymbols orders matches from several servers by their match
// class (symbolMatchClass), the workspace's own symbols before those of
// its dependencies (gopls also searches the Go toolchain) within a class,
// and keeps the given order among equals: the host's order of servers,
// then each server's own ranking.
func rankWorkspaceSymbols(matches []workspaceSymbol, query string) {
	query = strings.TrimSpace(query)
	type ranked struct {
		class int
		m     workspaceSymbol
	}
	list := make([]ranked, len(matches))
	for i, m := range matches {
		class := 2 * symbolMatchClass(m.Name, m.Container, query)
		if outsideWorkspace(m.Path) {
			class++
		}
		list[i] = ranked{class, m}
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].class < list[b].class })
	for i, r := range list {
		matches[i] = r.m
	}
}

// exactMatches counts the matches named as query is (symbolMatchClass: a
// member by its Container.name too); a case-insensitive match is not one.
func exactMatches(matches []workspaceSymbol, query *string) int {
	if query == nil || strings.TrimSpace(*query) == "" {
		return 0
	}
	q := strings.TrimSpace(*query)
	n := 0
	for _, m := range matches {
		if symbolMatchClass(m.Name, m.Container, q) == matchExact {
			n++
		}
	}
	return n
}

// outsideWorkspace reports whether a displayed path is outside the
// workspace (displayPath: absolute, or a URI that is not a local file).
func outsideWorkspace(p string) bool {
	return strings.HasPrefix(p, "/") || strings.Contains(p, "://") || (len(p) > 2 && p[1] == ':' && (p[2] == '/' || p[2] == '\\'))
}

// searchIncomplete summarizes what makes a merged answer partial.
func searchIncomplete(c CodeSymbols, partial string) string {
	var parts []string
	var names []string
	for _, g := range c.NotSearched {
		if !g.Unsupported {
			names = append(names, gapName(g))
		}
	}
	if len(names) > 0 {
		parts = append(parts, "not searched: "+strings.Join(names, "; ")+" (see notSearched for why)")
	}
	for _, s := range c.Searched {
		for _, inc := range s.incomplete {
			parts = append(parts, s.Server+": "+inc)
		}
	}
	if partial != "" {
		parts = append(parts, partial)
	}
	return strings.Join(parts, "; ")
}

// gapName names what a gap left out: "python (pyright)", "Ruby (.rb, 3
// files)", "typescript (typescript) in test, web".
func gapName(g symbolSearchGap) string {
	var detail []string
	if g.Server != "" && len(g.Languages) > 0 {
		detail = append(detail, g.Server)
	}
	detail = append(detail, g.Extensions...)
	if g.Files > 0 {
		detail = append(detail, strconv.Itoa(g.Files)+" "+plural(g.Files, "file", "files"))
	}
	s := strings.Join(g.Languages, ", ")
	if s == "" {
		s = g.Server
	}
	if len(detail) > 0 {
		s += " (" + strings.Join(detail, ", ") + ")"
	}
	if len(g.Roots) > 0 {
		s += " in " + Listed(g.Roots, maxListedDocs)
	}
	return s
}

// sourceName names a searched server: "go (gopls)".
func sourceName(s *symbolSearchSource) string {
	if len(s.Languages) == 0 {
		return s.Server
	}
	return strings.Join(s.Languages, ", ") + " (" + s.Server + ")"
}

// Listed joins up to n names, counting the rest ("a, b and 3 more").
func Listed(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + " and " + strconv.Itoa(len(names)-n) + " more"
}

// searchNotice explains an empty merged answer by what was searched, never
// as "not in the workspace" when something was not.
func searchNotice(c CodeSymbols) string {
	var names []string
	for _, s := range c.Searched {
		names = append(names, sourceName(s))
	}
	q := quoteCode(clip(*c.Query, 200))
	if len(names) == 0 {
		return "no symbols match " + q + ": no language server could be asked (see notSearched); search the files for the name instead"
	}
	n := "no symbols match " + q + " in the files of " + strings.Join(names, "; ") + ": try a shorter or different name (servers match names, often fuzzily)"
	if c.Incomplete != "" {
		n += "; the search is incomplete (see below), so the name may still be in what it did not reach"
	}
	return n
}

// renderWorkspaceSearch writes a merged answer: the matches, best first,
// then what was searched and what was not.
func renderWorkspaceSearch(c CodeSymbols, limit int) Rendered {
	var b strings.Builder
	b.WriteString(renderWorkspaceSymbols(c, limit).Text)
	b.WriteString("\nSearched:")
	if len(c.Searched) == 0 {
		b.WriteString(" nothing")
	}
	for _, s := range c.Searched {
		b.WriteString("\n  " + sourceName(s) + " — " + strconv.Itoa(s.Found) + " found")
		if len(s.Roots) > 1 || (len(s.Roots) == 1 && s.Roots[0] != ".") {
			b.WriteString("; project " + plural(len(s.Roots), "root", "roots") + " " + Listed(s.Roots, maxListedDocs))
		}
		if s.FollowsDocument {
			b.WriteString("; asked once per project, with " + Listed(s.Documents, maxListedDocs) + " (" + s.Server + " searches only the projects of the document it is given)")
		}
	}
	if len(c.NotSearched) > 0 {
		b.WriteString("\nNot searched:")
		for _, g := range c.NotSearched {
			b.WriteString("\n  " + gapName(g) + ": " + briefReason(g.Reason))
		}
	}
	shown := len(c.Matches)
	return Rendered{Text: b.String(), Shown: shown, Omitted: c.TotalFound - shown}
}

// briefReason is a gap's reason as the text gives it: a missing server's
// message (what was not found, then how to install it, then what to use
// meanwhile) is cut after its first sentence, since every search of a
// workspace with a README would repeat the install paragraph; the
// structured notSearched keeps it whole, and lspseam doctor says it too.
func briefReason(reason string) string {
	const installs = " To install it: "
	i := strings.Index(reason, installs)
	if i < 0 || !strings.HasSuffix(reason[:i], ".") {
		return reason
	}
	return reason[:i] + " (lspseam doctor, or this answer's notSearched, says how to install it)"
}

// searchScope words what one server's search (code_symbols with path and
// query) covered, from scope {server, path, root?, followsDocument?,
// cap?}: never "the workspace", since one server of one project root
// answered. (cap: as a merged search's, read by codeSymbolsCall.)
func searchScope(v gjson.Result) (string, *Error) {
	if !v.Exists() || v.Type == gjson.Null {
		return "", nil
	}
	server, path, root := get(v, "server"), get(v, "path"), get(v, "root")
	if !v.IsObject() || server.Type != gjson.String || server.Str == "" || path.Type != gjson.String || path.Str == "" {
		return "", Errorf(CodeInvalidArgument, "scope must be {server, path, root?, followsDocument?}: the server asked and the file it was asked for, got %s", describe(v))
	}
	name, file := clip(server.Str, 80), clip(path.Str, 300)
	if get(v, "followsDocument").Type == gjson.True {
		return "the projects " + name + " has for " + file + " (it searches only the projects of the file it is given)", nil
	}
	where := "the workspace root"
	if root.Type == gjson.String && root.Str != "" && root.Str != "." {
		where = clip(root.Str, 300)
	}
	return "the project " + name + " serves for " + file + " (its root: " + where + ")", nil
}

// capReached says a server's answer reached its cap on matches.
func capReached(limit int64) string {
	n := strconv.FormatInt(limit, 10)
	return "the server answers at most " + n + " matches and gave " + n + ", so more may match: narrow the query"
}

// workspaceOwn keeps a search's matches inside the workspace unless the
// input asks for dependencies (true): gopls searches the Go toolchain and
// the module cache, tsserver the packages a project imports, and an agent
// asking for a name almost always means its own code (67 matches where the
// workspace has 35). It returns how many it left out.
func workspaceOwn(in gjson.Result, matches []workspaceSymbol) ([]workspaceSymbol, int, *Error) {
	d := get(in, "dependencies")
	switch {
	case d.Type == gjson.True:
		return matches, 0, nil
	case d.Exists() && d.Type != gjson.False && d.Type != gjson.Null:
		return nil, 0, Errorf(CodeInvalidArgument, "dependencies must be a boolean (true: keep the matches outside the workspace), got %s", describe(d))
	}
	kept := matches[:0]
	for _, m := range matches {
		if !outsideWorkspace(m.Path) {
			kept = append(kept, m)
		}
	}
	return kept, len(matches) - len(kept), nil
}

// withoutDependencies names the servers with no match outside the
// workspace (byServer: matches name their server, a merged search's; else
// every match is the one server's).
func withoutDependencies(matches []workspaceSymbol, servers []string, byServer bool) []string {
	outside := map[string]bool{}
	for _, m := range matches {
		if outsideWorkspace(m.Path) {
			if !byServer {
				return nil
			}
			outside[m.Server] = true
		}
	}
	var none []string
	for _, s := range servers {
		if !outside[s] && !slices.Contains(none, s) {
			none = append(none, s)
		}
	}
	return none
}

// noDependenciesLine says which servers found nothing in the dependencies
// they were asked to search.
func noDependenciesLine(servers []string) string {
	return "dependencies: true found no match outside the workspace from " + Listed(servers, maxListedDocs) +
		": a server may not search libraries at all, so a library's symbol may still exist; search its files (e.g. node_modules, site-packages) for the name"
}

// dependenciesLine tells a model the matches left out and how to get them.
func dependenciesLine(n int) string {
	return strconv.Itoa(n) + " more outside the workspace (dependencies, the standard library) left out; dependencies: true lists them."
}

// dependenciesNotice is the notice of a search whose only matches were
// outside the workspace.
func dependenciesNotice(c CodeSymbols) string {
	return "no symbols match " + quoteCode(clip(*c.Query, 200)) + " in the workspace; " + strconv.Itoa(c.DependenciesLeftOut) + " " +
		plural(c.DependenciesLeftOut, "match", "matches") + " outside it (dependencies, the standard library) left out: dependencies: true lists them"
}

// symbolPage keeps one page of a search's ranked matches: from the input's
// offset (0: the first page), at most limit. It sets the answer's
// Offset, Truncated (matches follow the page) and ResultKey (the whole
// list's).
func symbolPage(in gjson.Result, out *CodeSymbols, matches []workspaceSymbol, limit int) ([]workspaceSymbol, *Error) {
	offset, err := offsetArg(in, "matches")
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(matches))
	for i, m := range matches {
		keys[i] = m.Path + "\x00" + m.Name + "\x00" + m.Container + "\x00" + m.Kind.String() + "\x00" +
			strconv.FormatUint(uint64(m.Pos.Line), 10) + ":" + strconv.FormatUint(uint64(m.Pos.Character), 10)
	}
	out.ResultKey = listKey(keys)
	start := min(offset, len(matches))
	end := min(start+limit, len(matches))
	out.Offset, out.Truncated = start, end < len(matches)
	return matches[start:end], nil
}

// offsetArg reads an optional offset: the items of earlier pages, skipped.
func offsetArg(in gjson.Result, items string) (int, *Error) {
	v := get(in, "offset")
	if !v.Exists() || v.Type == gjson.Null {
		return 0, nil
	}
	n, ok := integer(v, 0, maxUint31)
	if !ok {
		return 0, Errorf(CodeInvalidArgument, "offset must be 0 or more (%s skipped: the first of a page), got %s", items, describe(v))
	}
	return int(n), nil
}
