package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A change to a Vue component's public surface (its props, emits and
// exposed members) is followed to the files that use it (findings s27
// #1–#3): tsserver's references of a prop, an emitted event or an exposed
// function stop at the component, so the answer said "Other files: none
// refer to what changed" while the parents broke. The fixture's cards/
// holds a component (TitleCard.vue: a required prop, an emitted event, an
// exposed function), a re-export (cards/index.ts), a parent using all
// three through it (CardPage.vue) and a test-like .ts mounting it with
// props (TitleCard.test.ts). Templates are type-checked only with vue in
// the project's node_modules: the fixture's copy links the one installed
// with the servers (tools/servers/package.json).

// vueModules is a node_modules directory holding vue, for a fixture's
// templates to be type-checked: LSPSEAM_TEST_VUE_MODULES, else the one
// typescript-language-server is installed in (make servers; the one the
// tests run, in .tools/bin, not the one PATH may name).
func vueModules(t *testing.T) string {
	t.Helper()
	var dirs []string
	if d := os.Getenv("LSPSEAM_TEST_VUE_MODULES"); d != "" {
		dirs = append(dirs, d)
	}
	// The server the tests run (make servers' .tools/bin), else the one
	// on PATH.
	server := filepath.Join(toolsBin, "typescript-language-server")
	if _, err := os.Stat(server); err != nil {
		server, _ = exec.LookPath("typescript-language-server")
	}
	if server != "" {
		if real, err := filepath.EvalSymlinks(server); err == nil {
			for d := filepath.Dir(real); d != filepath.Dir(d); d = filepath.Dir(d) {
				if filepath.Base(d) == "node_modules" {
					dirs = append(dirs, d)
					break
				}
			}
		}
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "vue", "package.json")); err == nil {
			return d
		}
	}
	t.Fatalf("vue is not installed beside typescript-language-server (%v): make servers installs it (tools/servers/package.json), or set LSPSEAM_TEST_VUE_MODULES to a node_modules holding vue", dirs)
	return ""
}

// vueFixtureWithVue is a copy of the vue fixture whose node_modules/vue
// links an installed vue.
func vueFixtureWithVue(t *testing.T) string {
	t.Helper()
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "vue")
	withVue(t, dir)
	return dir
}

// withVue links an installed vue (vueModules) into dir's node_modules.
func withVue(t *testing.T, dir string) {
	t.Helper()
	modules := vueModules(t)
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(modules, "vue"), filepath.Join(dir, "node_modules", "vue")); err != nil {
		t.Fatal(err)
	}
}

// TestVueComponentSurfaceChanges: each change of TitleCard.vue's surface
// checks its users and reports what it breaks there, or, for an emitted
// event no checker reports, names the listener left on the old name.
func TestVueComponentSurfaceChanges(t *testing.T) {
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
		want []string // in the answer
	}{
		{"required prop added", "edit",
			map[string]any{"file_path": "src/cards/TitleCard.vue", "old_string": "  heading: string;\n", "new_string": "  heading: string;\n  subtitle: string;\n"},
			[]string{"src/cards/CardPage.vue:17:", "Property 'subtitle' is missing", "src/cards/TitleCard.test.ts:17:"}},
		{"exposed function's signature", "edit",
			map[string]any{"file_path": "src/cards/TitleCard.vue", "old_string": "function scrollOffset(index: number): number {", "new_string": "function scrollOffset(index: number, gap: number): number {"},
			[]string{"src/cards/CardPage.vue:12:", "Expected 2 arguments, but got 1"}},
		{"prop renamed", "code_rename",
			map[string]any{"target": map[string]any{"path": "src/cards/TitleCard.vue", "line": 3, "matchText": "heading"}, "newName": "title"},
			[]string{"src/cards/TitleCard.test.ts:17:"}},
		{"emitted event renamed", "code_rename",
			map[string]any{"target": map[string]any{"path": "src/cards/TitleCard.vue", "line": 9, "matchText": "cardClick"}, "newName": "cardPicked"},
			[]string{"Incomplete:", "no longer declares the event `cardClick`", "src/cards/CardPage.vue:17 listens to it by its old name", "`@card-picked`"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := vueFixtureWithVue(t)
			srv := catalogServe(t)
			defer srv.shutdown(t)
			srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "src/cards/TitleCard.vue"}), dir)
			a := srv.toolCall(t, c.tool, jsonArgs(c.args), dir)
			text := a.Content[0].Text
			t.Logf("%s:\n%s", c.tool, text)
			if a.IsError {
				t.Fatalf("refused")
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("the answer does not say %q", w)
				}
			}
			if strings.Contains(text, "none refer to what changed") || strings.Contains(text, "changed files refer to what changed") {
				t.Errorf("the answer says no other file refers to what changed")
			}
		})
	}
}
