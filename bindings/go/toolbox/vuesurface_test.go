package toolbox

import (
	"reflect"
	"strings"
	"testing"
)

const logoVue = `<script lang="ts" setup>
import type { Size } from "./size"
import { helper } from "./helper"

interface Props {
  collapse?: boolean
}

const { collapse = true } = defineProps<Props>()

const emit = defineEmits<{
  toggleClick: []
}>()

function getScrollTop(index: number) {
  return index * 2
}

function local() {
  return helper(1)
}

defineExpose({ getScrollTop })
</script>

<template>
  <div :class="{ collapse }">{{ local() }}</div>
</template>
`

func TestVueSurfaceChanged(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     bool
	}{
		{"required prop added", "  collapse?: boolean\n", "  collapse?: boolean\n  title: string\n", true},
		{"prop renamed", "  collapse?: boolean\n", "  collapsed?: boolean\n", true},
		{"destructure default changed", "const { collapse = true }", "const { collapse = false }", true},
		{"emit renamed", "  toggleClick: []", "  toggled: []", true},
		{"exposed function's signature", "function getScrollTop(index: number) {", "function getScrollTop(index: number, extra: number) {", true},
		{"exposed function's body", "  return index * 2", "  return index * 3", true},
		{"expose list", "defineExpose({ getScrollTop })", "defineExpose({ getScrollTop, local })", true},
		{"script tag attribute", `<script lang="ts" setup>`, `<script lang="ts" setup generic="T">`, true},
		{"local function's body", "  return helper(1)", "  return helper(2)", false},
		{"local function's signature", "function local() {", "function local(n = 1) {", false},
		{"template only", `<div :class="{ collapse }">`, `<section :class="{ collapse }">`, false},
		{"import of an unexposed helper", `import { helper } from "./helper"`, `import { helper, other } from "./helper"`, false},
		{"import spelled by nothing on the surface", `import type { Size } from "./size"`, `import type { Size, Width } from "./size"`, false},
		{"no change", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after := strings.Replace(logoVue, tc.old, tc.new, 1)
			if tc.old != "" && after == logoVue {
				t.Fatalf("%q not in the component", tc.old)
			}
			if got := vueSurfaceChanged(logoVue, after); got != tc.want {
				t.Errorf("vueSurfaceChanged = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestVueSurfaceChangedOptionsAPI(t *testing.T) {
	before := "<script lang=\"ts\">\nexport default defineComponent({\n  props: { a: String },\n  methods: { go() { return 1 } },\n})\n</script>\n<template><p/></template>\n"
	after := strings.Replace(before, "return 1", "return 2", 1)
	if !vueSurfaceChanged(before, after) {
		t.Errorf("a change in a non-setup <script> does not count")
	}
	if vueSurfaceChanged(before, strings.Replace(before, "<p/>", "<span/>", 1)) {
		t.Errorf("a template change counts")
	}
	// A type a Props type names, imported: the import counts.
	withImport := "<script setup lang=\"ts\">\nimport type { Item } from \"./item\"\nimport { x } from \"./x\"\ndefineProps<{ items: Item[] }>()\n</script>\n"
	if !vueSurfaceChanged(withImport, strings.Replace(withImport, "./item\"", "./item2\"", 1)) {
		t.Errorf("the import of a type the props name does not count")
	}
	if vueSurfaceChanged(withImport, strings.Replace(withImport, "./x\"", "./y\"", 1)) {
		t.Errorf("an import the surface does not spell counts")
	}
}

func TestVueEvents(t *testing.T) {
	tests := []struct {
		name, script string
		want         []string
	}{
		{"type literal", "const emit = defineEmits<{\n  toggleClick: []\n  'update:value': [v: string]\n}>()", []string{"update:value", "toggleClick"}},
		{"call signatures", "const emit = defineEmits<{\n  (e: \"change\", id: number): void\n  (e: 'close'): void\n}>()", []string{"change", "close"}},
		{"array", `const emit = defineEmits(["open", 'close'])`, []string{"open", "close"}},
		{"object", "const emit = defineEmits({\n  submit: (p: { a: number }) => true,\n  'cancel': null,\n})", []string{"submit", "cancel"}},
		{"named type", "interface Emits {\n  (e: \"picked\", v: string): void\n}\nconst emit = defineEmits<Emits>()", []string{"picked"}},
		{"models", "const a = defineModel<string>()\nconst b = defineModel(\"count\", { default: 0 })", []string{"update:modelValue", "update:count"}},
		{"none", "const x = 1", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := vueEvents("<script setup lang=\"ts\">\n" + tc.script + "\n</script>\n")
			if len(got) != len(tc.want) || !sameSet(got, tc.want) {
				t.Errorf("vueEvents = %q, want %q", got, tc.want)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestSpecifierReaches(t *testing.T) {
	tests := []struct {
		from, spec, target string
		want               bool
	}{
		{"src/layouts/components/Sidebar/index.vue", "../index", "src/layouts/components/index.ts", true},
		{"src/layouts/modes/TopMode.vue", "../components", "src/layouts/components/index.ts", true},
		{"src/layouts/components/index.ts", "./Logo/index.vue", "src/layouts/components/Logo/index.vue", true},
		{"tests/components/Notify.test.ts", "@@/components/Notify/List.vue", "src/common/components/Notify/List.vue", true},
		{"src/a.ts", "@/common/components/Notify/List.vue", "src/common/components/Notify/List.vue", true},
		{"types/auto/components.d.ts", "./../../src/components/X.vue", "src/components/X.vue", true},
		{"src/a.ts", "src/components/X.vue", "src/components/X.vue", true},
		{"src/a.ts", "./List.vue", "src/common/components/Notify/List.vue", false},
		{"src/a.ts", "@/components/Notify/MyList.vue", "src/common/components/Notify/List.vue", false},
		{"src/a.ts", "vue", "src/vue.ts", false},
		{"e2e/a.spec.ts", "../src/testing/gen.js", "src/testing/gen.ts", true},
		{"src/a.ts", "@/testing/gen.js", "src/testing/gen.tsx", true},
		{"src/a.ts", "./gen.js", "src/gen.vue.ts", false},
	}
	for _, tc := range tests {
		if got := specifierReaches(tc.from, tc.spec, tc.target); got != tc.want {
			t.Errorf("specifierReaches(%q, %q, %q) = %v, want %v", tc.from, tc.spec, tc.target, got, tc.want)
		}
	}
}

func TestComponentUsers(t *testing.T) {
	texts := map[string]string{
		"src/layouts/components/Logo/index.vue":    "<script setup lang=\"ts\">\ndefineProps<{ collapse?: boolean }>()\n</script>\n",
		"src/layouts/components/index.ts":          "export { default as AppMain } from \"./AppMain/index.vue\"\nexport { default as Logo } from \"./Logo/index.vue\"\n",
		"src/layouts/components/Sidebar/index.vue": "<script setup lang=\"ts\">\nimport { Logo } from \"../index\"\n</script>\n<template><Logo :collapse=\"x\" /></template>\n",
		"src/layouts/modes/TopMode.vue":            "<script setup lang=\"ts\">\nimport { AppMain, Logo } from \"../components\"\n</script>\n",
		"src/layouts/modes/LeftMode.vue":           "<script setup lang=\"ts\">\nimport { AppMain } from \"../components\"\n</script>\n",
		"src/layouts/Other.vue":                    "<script setup lang=\"ts\">\nimport MyLogo from \"@/layouts/components/Logo/index.vue\"\n</script>\n",
		"tests/Logo.test.ts":                       "import {\n  mount,\n} from \"@vue/test-utils\"\nimport Logo from \"@/layouts/components/Logo/index.vue\"\n",
		"types/components.d.ts":                    "declare module 'vue' {\n  export interface GlobalComponents {\n    TheLogo: typeof import('./../src/layouts/components/Logo/index.vue')['default']\n  }\n}\n",
		"src/pages/Home.vue":                       "<template><the-logo /></template>\n",
		"src/pages/Away.vue":                       "<template><the-logos /></template>\n",
		"src/plugins/logo.ts":                      "import type { App } from \"vue\"\nimport PluginLogo from \"@/layouts/components/Logo/index.vue\"\nexport function install(app: App) {\n  app.component(\"AppLogo\", PluginLogo)\n  app.component(\"Unrelated\", Other)\n}\n",
		"src/pages/Plugged.vue":                    "<template><div><app-logo /></div></template>\n",
		"src/pages/Unplugged.vue":                  "<template><Unrelated /></template>\n",
	}
	got := componentUsers(texts, []string{"src/layouts/components/Logo/index.vue"}, map[string]bool{"src/layouts/components/Logo/index.vue": true})
	wantFiles := []string{"src/layouts/Other.vue", "src/layouts/components/index.ts", "src/plugins/logo.ts", "tests/Logo.test.ts",
		"src/layouts/components/Sidebar/index.vue", "src/layouts/modes/TopMode.vue", "src/pages/Home.vue", "src/pages/Plugged.vue"}
	if !reflect.DeepEqual(got.files, wantFiles) {
		t.Errorf("files = %q, want %q", got.files, wantFiles)
	}
	if want := []string{"AppLogo", "Logo", "MyLogo", "PluginLogo", "TheLogo"}; !sameSet(got.names["src/layouts/components/Logo/index.vue"], want) {
		t.Errorf("names = %q, want %q", got.names, want)
	}
}

func TestDeadListenerNotices(t *testing.T) {
	comp := "src/Hamburger.vue"
	before := "<script setup lang=\"ts\">\nconst emit = defineEmits<{\n  toggleClick: []\n}>()\n</script>\n"
	after := strings.Replace(before, "toggleClick", "toggled", 1)
	texts := map[string]string{
		comp:               after,
		"src/Nav.vue":      "<script setup lang=\"ts\">\nimport Hamburger from \"./Hamburger.vue\"\n</script>\n<template>\n  <Hamburger\n    :is-active=\"a\"\n    @toggle-click=\"toggle\"\n  />\n  <hamburger v-on:toggleClick.stop=\"toggle\" />\n  <Other @toggle-click=\"other\" />\n  <button @toggle-click-more=\"x\">@toggle-click</button>\n</template>\n",
		"src/Dyn.vue":      "<template>\n  <component :is=\"c\" @toggle-click=\"toggle\" />\n</template>\n",
		"src/Render.ts":    "import Hamburger from \"./Hamburger.vue\"\nexport default () => h(Hamburger, { onToggleClick: go })\n",
		"src/Unrelated.ts": "export const onToggleClick = 1\n",
	}
	got := deadListenerNotices(texts, comp, []string{"Hamburger"}, before, after)
	want := []string{
		"src/Hamburger.vue no longer declares the event `toggleClick`, and src/Nav.vue:7, src/Nav.vue:9 listen to it by its old name (a listener of an event a component does not declare is a fallthrough attribute: no checker reports it): rename them too (edit), to the new name `toggled` (`@toggled`)",
		"src/Hamburger.vue no longer declares the event `toggleClick`, and src/Dyn.vue:2, src/Render.ts:2 may listen to it by its old name (a dynamic component or a render function's onEvent, which cannot be told to be src/Hamburger.vue): check them",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("deadListenerNotices =\n%q\nwant\n%q", got, want)
	}
	if got := deadListenerNotices(texts, comp, []string{"Hamburger"}, before, before); got != nil {
		t.Errorf("no event gone, yet %q", got)
	}
}
