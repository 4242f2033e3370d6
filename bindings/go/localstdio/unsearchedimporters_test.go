package localstdio

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// A tsserver search says which files of the workspace that can import
// TypeScript it did not read: .svelte (and the like) always, .vue files
// all without the Vue plugin, their templates where vue is not installed.
func TestUnsearchedImportersNotice(t *testing.T) {
	const plugin = `{"plugins":[{"name":"@vue/typescript-plugin","location":"${commandNodeModules}","languages":["vue"]}]}`
	cases := []struct {
		name    string
		files   []string // slash paths under the workspace; "" content
		options string   // initializationOptions
		plugin  bool     // the plugin's package is installed beside the server
		want    []string // fragments of the notice; none: ""
		impl    bool     // an implementation search (no template holds one)
	}{
		{"plain TypeScript", []string{"src/a.ts", "src/b.js"}, plugin, true, nil, false},
		{"svelte components", []string{"src/a.ts", "src/App.svelte", "src/lib/Badge.svelte"}, plugin, true,
			[]string{`2 Svelte files of the workspace are not searched (such as src/App.svelte)`, `does not read .svelte files`}, false},
		{"one astro page and one mdx", []string{"src/pages/index.astro", "docs/intro.mdx"}, plugin, true,
			[]string{"1 Astro file of the workspace is not searched (such as src/pages/index.astro)", "1 MDX file of the workspace is not searched (such as docs/intro.mdx)"}, false},
		{"vue with vue installed", []string{"src/App.vue", "node_modules/vue/package.json"}, plugin, true, nil, false},
		{"vue installed in a parent", []string{"web/src/App.vue", "web/node_modules/vue/package.json"}, plugin, true, nil, false},
		{"vue without vue installed", []string{"src/App.vue", "src/components/Badge.vue"}, plugin, true,
			[]string{"2 Vue files of the workspace are in no directory whose node_modules holds vue (such as src/App.vue", "templates were not searched", "npm install"}, false},
		{"vue installed beside one app only", []string{"a/App.vue", "a/node_modules/vue/package.json", "b/App.vue"}, plugin, true,
			[]string{"1 Vue file of the workspace is in no directory whose node_modules holds vue (such as b/App.vue"}, false},
		{"implementations without vue installed", []string{"src/App.vue"}, plugin, true, nil, true},
		{"implementations without the plugin", []string{"src/App.vue"}, plugin, false, []string{"1 Vue file of the workspace is not searched"}, true},
		{"vue plugin not installed", []string{"src/App.vue", "node_modules/vue/package.json"}, plugin, false,
			[]string{"1 Vue file of the workspace is not searched (such as src/App.vue)", "@vue/typescript-plugin"}, false},
		{"no plugin configured", []string{"src/App.vue", "node_modules/vue/package.json"}, `{}`, true,
			[]string{"1 Vue file of the workspace is not searched"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tools := t.TempDir()
			modules := filepath.Join(tools, "node_modules")
			bin := filepath.Join(modules, ".bin", "typescript-language-server")
			write(t, bin, "")
			if c.plugin {
				write(t, filepath.Join(modules, "@vue", "typescript-plugin", "package.json"), "{}")
			}
			ws := t.TempDir()
			for _, f := range c.files {
				write(t, filepath.Join(ws, filepath.FromSlash(f)), "")
			}
			in := &instance{server: &Server{ID: "typescript", Path: bin}, ws: Workspace{Path: ws}}
			in.server.Config.InitializationOptions = core.RawJSON(c.options)
			got := in.unsearchedImportersNotice(context.Background(), !c.impl)
			if len(c.want) == 0 && got != "" {
				t.Fatalf("notice %q, want none", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("notice %q lacks %q", got, w)
				}
			}
		})
	}
}
