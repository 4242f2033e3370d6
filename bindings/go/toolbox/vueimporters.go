package toolbox

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// The files that use a Vue component whose public surface a change may
// change (vuesurface.go): its importers, found textually, which become
// the change's dependents (findDependents), checked before and after it
// as the references' files are. A tester added a required prop to
// Logo/index.vue, which three layouts use as `<Logo :collapse=…/>`, and
// the answer said "Other files: none refer to what changed" while each of
// them no longer type-checked: tsserver's references of a prop stop at
// the component (and it gives no outline of a .vue file to ask them
// from), so no reference led there.
//
// An importer is a workspace script or component file with an import,
// export-from, dynamic import or `typeof import(…)` whose specifier may
// name the component: a relative path, or a non-relative one (a
// tsconfig path alias such as `@/…` or `@@/…`, or a baseUrl path) whose
// path, or whose path past its first segment, ends the component's path
// — over-approximated, without reading tsconfig: a file too many is a
// file checked needlessly. A file that re-exports the component
// (components/index.ts: `export { default as Logo } from
// "./Logo/index.vue"`) is followed: its importers that spell a name it
// exports the component under are importers too. A declaration file
// registering the component globally (unplugin-vue-components'
// components.d.ts, `Logo: typeof import('…')['default']`), or a script
// registering it with `app.component("Logo", Logo)`, makes every
// component whose template has its tag an importer. When the search
// cannot be complete (the workspace walk stopped, over the files or bytes
// read) the answer says the users of the component were not all found.

// scriptExts are the extensions of the files searched for importers.
var scriptExts = []string{".vue", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// moduleSpecifier matches a module specifier: after `from`, `import` (a
// side-effect import) or `import(` — group 1.
var moduleSpecifier = regexp.MustCompile(`(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"\n]+)['"]`)

// vueReexportName matches `default as Name` in an export-from.
var vueReexportName = regexp.MustCompile(`\bdefault\s+as\s+([A-Za-z_$][\w$]*)`)

// vueDefaultImport matches the default import's local name of an import
// statement: `import Name from` or `import Name, {…} from`.
var vueDefaultImport = regexp.MustCompile(`^import\s+(?:type\s+)?([A-Za-z_$][\w$]*)\s*(?:,|from\b)`)

// vueRegistration matches a global registration in a script,
// `app.component("Name", Local)`: the name (group 1) and the registered
// value (group 2).
var vueRegistration = regexp.MustCompile(`\.component\(\s*['"]([A-Za-z][\w-]*)['"]\s*,\s*([A-Za-z_$][\w$]*)\s*[,)]`)

// vueGlobalName matches `Name: typeof import(` of a global components
// declaration.
var vueGlobalName = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*:\s*typeof\s*$`)

// vueUsers is what the search for a component's users found.
type vueUsers struct {
	files []string            // the users, direct importers first, then by path
	names map[string][]string // by component: the names its users may give it (tags)
}

// specifierReaches reports whether spec, written in the file from, may
// name the workspace file target (all relative paths).
func specifierReaches(from, spec, target string) bool {
	variants := func(p string) []string {
		p = strings.TrimSuffix(p, "/")
		out := []string{p}
		for _, ext := range scriptExts {
			out = append(out, p+ext, p+"/index"+ext)
		}
		if stem := moduleStem(p); stem != p {
			// An ECMAScript module's specifier names the emitted file:
			// "./parse.js" is parse.ts.
			for _, ext := range scriptExts {
				out = append(out, stem+ext)
			}
		}
		return append(out, p+".d.ts", p+"/index.d.ts")
	}
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		return slices.Contains(variants(path.Join(path.Dir(from), spec)), target)
	}
	spec = strings.TrimPrefix(spec, "/")
	if !strings.Contains(spec, "/") {
		return false // a package's name ("vue"), not a path
	}
	candidates := []string{spec}
	if k := strings.IndexByte(spec, '/'); k >= 0 {
		candidates = append(candidates, spec[k+1:])
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		for _, v := range variants(c) {
			if target == v || strings.HasSuffix(target, "/"+v) {
				return true
			}
		}
	}
	return false
}

// statementBefore is the start of the import or export statement whose
// specifier's match (moduleSpecifier) is at offset at of text: the last `import` or `export` word
// before it (at most 2000 bytes back).
func statementBefore(text string, at int) string {
	from := max(0, at-2000)
	window := text[from:at]
	k := max(strings.LastIndex(window, "import"), strings.LastIndex(window, "export"))
	if k < 0 {
		return ""
	}
	return window[k:]
}

// componentUsers finds, among texts (the workspace's script and component
// files by relative path), the users of the components (relative paths
// of .vue files), not counting the files skip holds.
func componentUsers(texts map[string]string, components []string, skip map[string]bool) vueUsers {
	users := vueUsers{names: map[string][]string{}}
	rels := slices.Sorted(maps.Keys(texts))
	found := map[string]bool{}
	var direct, indirect []string
	add := func(rel string, isDirect bool) {
		if found[rel] || skip[rel] {
			return
		}
		found[rel] = true
		if isDirect {
			direct = append(direct, rel)
		} else {
			indirect = append(indirect, rel)
		}
	}
	addName := func(comp, name string) {
		if name != "" && !slices.Contains(users.names[comp], name) {
			users.names[comp] = append(users.names[comp], name)
		}
	}
	for _, comp := range components {
		addName(comp, componentFileName(comp))
		// A queue of the files naming the component: itself, then each
		// file re-exporting it, with the names it exports it under (nil:
		// any, `export *`).
		type via struct {
			rel   string
			names []string
		}
		queue := []via{{comp, nil}}
		seen := map[string]bool{comp: true}
		var globals []string // names a declaration file registers it under
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, rel := range rels {
				text := texts[rel]
				for _, m := range moduleSpecifier.FindAllStringSubmatchIndex(text, -1) {
					if !specifierReaches(rel, text[m[2]:m[3]], v.rel) {
						continue
					}
					stmt := statementBefore(text, m[0]) + text[m[0]:m[1]]
					line := text[strings.LastIndexByte(text[:m[0]], '\n')+1 : m[0]]
					if g := vueGlobalName.FindStringSubmatch(line); g != nil && strings.HasSuffix(rel, ".d.ts") {
						globals = append(globals, g[1])
						continue
					}
					if v.names != nil && !spellsAny(rel, text, v.names) {
						continue // imports other names the re-exporter exports
					}
					add(rel, v.rel == comp)
					if v.rel == comp {
						if d := vueDefaultImport.FindStringSubmatch(stmt); d != nil {
							addName(comp, d[1])
							globals = append(globals, registeredAs(text, d[1])...)
						}
					}
					if strings.HasPrefix(stmt, "export") && !seen[rel] && !strings.HasSuffix(rel, ".vue") {
						seen[rel] = true
						var names []string
						if v.rel == comp {
							for _, n := range vueReexportName.FindAllStringSubmatch(stmt, -1) {
								names = append(names, n[1])
								addName(comp, n[1])
							}
						}
						if !strings.Contains(stmt, "*") && names == nil {
							names = v.names
						}
						queue = append(queue, via{rel, names})
					}
				}
			}
		}
		for _, g := range globals {
			addName(comp, g)
		}
		if len(globals) > 0 {
			for _, rel := range rels {
				if strings.HasSuffix(rel, ".vue") && rel != comp && slices.ContainsFunc(globals, func(n string) bool { return hasComponentTag(texts[rel], n) }) {
					add(rel, false)
				}
			}
		}
	}
	users.files = append(direct, indirect...)
	return users
}

// registeredAs returns the names a script registers the component it
// imports as local under, globally (`app.component("SvgIcon", SvgIcon)`
// in a plugin): templates use those tags with no import of their own.
func registeredAs(text, local string) []string {
	var names []string
	for _, m := range vueRegistration.FindAllStringSubmatch(text, -1) {
		if m[2] == local {
			names = append(names, m[1])
		}
	}
	return names
}

// spellsAny reports whether a file's text spells one of names as a whole
// identifier (or, in a component, as a kebab-case tag).
func spellsAny(rel, text string, names []string) bool {
	for _, n := range names {
		if identifierIn(text, n) || strings.HasSuffix(rel, ".vue") && hasComponentTag(text, n) {
			return true
		}
	}
	return false
}

// hasComponentTag reports whether a component's text has an opening tag
// of the component name (PascalCase as written, or kebab-case).
func hasComponentTag(text, name string) bool {
	for _, n := range []string{name, kebabCase(name)} {
		for i := 0; ; {
			k := strings.Index(text[i:], "<"+n)
			if k < 0 {
				break
			}
			end := i + k + 1 + len(n)
			if end == len(text) || strings.IndexByte(" \t\r\n/>", text[end]) >= 0 {
				return true
			}
			i += k + 1
		}
	}
	return false
}

// componentFileName is the name a component file gives the component by
// convention: its base name without .vue, or its directory's for an
// index.vue.
func componentFileName(rel string) string {
	base := strings.TrimSuffix(path.Base(rel), ".vue")
	if base == "index" {
		if d := path.Base(path.Dir(rel)); d != "." && d != "/" {
			return d
		}
	}
	return base
}
