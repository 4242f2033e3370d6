package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// tsserver reads TypeScript and JavaScript files, and .vue files only
// through the Vue plugin; the component files of other frameworks import
// TypeScript and JavaScript but are compiled by their own servers, and
// tsserver never reads them. On the svelte fixture, references of a
// function of src/lib/shapes.ts used only in .svelte files answered the
// declaration alone, unmarked, and code_delete, trusting it, deleted the
// function App.svelte imports. svelte-language-server, asked from a
// .svelte file, searches .svelte and .ts files alike (it found all 5
// uses). A search from tsserver therefore says which such files the
// workspace holds that it did not read.

// unsearchedComponentKinds are the extensions of files that import
// TypeScript or JavaScript and that tsserver never reads, with the name a
// notice gives them and what searches them.
var unsearchedComponentKinds = []struct {
	ext, kind, searchedBy string
}{
	{".svelte", "Svelte", "svelte-language-server searches .svelte and .ts files alike when asked from a .svelte file"},
	{".astro", "Astro", "the Astro language server searches them"},
	{".mdx", "MDX", "no TypeScript server searches them"},
}

// The Vue plugin (@vue/typescript-plugin, loaded into tsserver by the
// server's initializationOptions) makes tsserver read .vue files; it
// finds uses in a template only when vue's types resolve from the file
// (node_modules/vue in its directory or a parent). On the vue fixture
// without node_modules, references of a component's `label` answered its
// declaration alone (the template's {{ label }} missing) and a rename of
// a prop left the template's uses as they were, both unmarked; after
// `npm install vue@3` both were complete.

// vueTypes is the file whose presence in a parent's node_modules lets the
// Vue plugin type a template.
const vueTypes = "node_modules/vue/package.json"

// unsearchedImportersNotice is the incomplete notice for a search by
// tsserver when the workspace holds files that can import the searched
// file but that it did not read, or read only in part (Vue templates,
// when templates says the search is one a template can answer: uses,
// not implementations): "" when there is none.
func (in *instance) unsearchedImportersNotice(ctx context.Context, templates bool) string {
	notice, gaps := in.unsearchedImporters(ctx, templates)
	return joinNotices(notice, gapsNotice(gaps))
}

// componentGap is a kind of component file a search by tsserver left out
// (unsearchedComponentKinds), with the notice that says so.
type componentGap struct {
	lspseam.ComponentGap
	notice string
}

// gapsNotice is the notices of gaps, one after the other.
func gapsNotice(gaps []componentGap) string {
	notices := make([]string, len(gaps))
	for i, g := range gaps {
		notices[i] = g.notice
	}
	return joinNotices(notices...)
}

// unsearchedImporters is unsearchedImportersNotice's in two parts: what
// of the .vue files the search left out (notice), and the component files
// of other kinds, which it does not read at all (gaps): another server
// can search those (the toolbox's componentsearch.go asks
// svelte-language-server), and the session says, search by search,
// whether one did.
func (in *instance) unsearchedImporters(ctx context.Context, templates bool) (string, []componentGap) {
	files := in.importerWalks.files(ctx, in.ws.Path, "importers", func(p string) bool {
		return unsearchedKind(p) >= 0 || strings.EqualFold(filepath.Ext(p), ".vue")
	})
	byKind := make([][]string, len(unsearchedComponentKinds))
	var vue []string
	for _, p := range files {
		if k := unsearchedKind(p); k >= 0 {
			byKind[k] = append(byKind[k], p)
		} else {
			vue = append(vue, p)
		}
	}
	var gaps []componentGap
	for k, paths := range byKind {
		if len(paths) == 0 {
			continue
		}
		c := unsearchedComponentKinds[k]
		gaps = append(gaps, componentGap{
			ComponentGap: lspseam.ComponentGap{Ext: c.ext, Kind: c.kind, Files: paths},
			notice:       fmt.Sprintf("%s not searched (such as %s): language server %q does not read %s files, which can import TypeScript and JavaScript, so uses there may be missing (%s)", filesOfWorkspace(len(paths), c.kind), in.wsRel(paths[0]), in.server.ID, c.ext, c.searchedBy),
		})
	}
	notice := ""
	if len(vue) > 0 {
		notice = in.vueNotice(vue, templates)
	}
	return notice, gaps
}

// vueNotice says what of the workspace's .vue files (paths) the server's
// search did not cover: all of them without the Vue plugin, their
// templates (when the search is one of templates) where vue's types are
// not installed.
func (in *instance) vueNotice(paths []string, templates bool) string {
	if !in.vuePluginInstalled() {
		return fmt.Sprintf("%s not searched (such as %s): language server %q reads .vue files only through @vue/typescript-plugin, which its initializationOptions do not load from an installed directory; install it beside typescript-language-server", filesOfWorkspace(len(paths), "Vue"), in.wsRel(paths[0]), in.server.ID)
	}
	if !templates {
		return ""
	}
	var untyped []string
	typed := map[string]bool{} // by directory: .vue files share a few
	for _, p := range paths {
		dir := filepath.Dir(p)
		ok, seen := typed[dir]
		if !seen {
			ok = foundAbove(p, []string{vueTypes})
			typed[dir] = ok
		}
		if !ok {
			untyped = append(untyped, p)
		}
	}
	if len(untyped) == 0 {
		return ""
	}
	return fmt.Sprintf("%s in no directory whose node_modules holds vue (such as %s; tsserver resolves vue from the file's directory and its parents), so their templates were not searched (the Vue plugin finds uses in a template only with vue's types) and uses there may be missing; install the project's dependencies (npm install) to have them found", filesOfWorkspace(len(untyped), "Vue"), in.wsRel(untyped[0]))
}

// vuePluginInstalled says whether the server's initializationOptions name
// a tsserver plugin for the "vue" language whose package is in the
// directory they give (typescript-language-server's plugins: name,
// location — a node_modules directory, or one holding node_modules).
func (in *instance) vuePluginInstalled() bool {
	raw := expandInitializationOptions(json.RawMessage(in.server.Config.InitializationOptions), in.server.Path)
	var opts struct {
		Plugins []struct {
			Name      string   `json:"name"`
			Location  string   `json:"location"`
			Languages []string `json:"languages"`
		} `json:"plugins"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &opts) != nil {
		return false
	}
	for _, p := range opts.Plugins {
		vue := false
		for _, l := range p.Languages {
			vue = vue || l == "vue"
		}
		if !vue || p.Name == "" || p.Location == "" {
			continue
		}
		for _, dir := range []string{p.Location, filepath.Join(p.Location, "node_modules")} {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p.Name), "package.json")); err == nil {
				return true
			}
		}
	}
	return false
}

// unsearchedKind is the index in unsearchedComponentKinds of path's
// extension, or -1.
func unsearchedKind(path string) int {
	ext := strings.ToLower(filepath.Ext(path))
	for i, c := range unsearchedComponentKinds {
		if c.ext == ext {
			return i
		}
	}
	return -1
}
