package e2e

import (
	"strings"
	"testing"
)

// TestVueTemplateCallers: the server's call hierarchy has no calls made in
// a .vue template (canEdit is called only in EditGate.vue's v-if), and
// the callers answered "(no callers found)"; the references list the
// call, and the answer has the template as its caller (findings s27 #4).
func TestVueTemplateCallers(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "vue")
	withVue(t, dir)
	srv := catalogServe(t)
	defer srv.shutdown(t)
	target := map[string]any{"path": "src/gate/permissions.ts", "symbol": "canEdit"}
	a := srv.toolCall(t, "code_hierarchy", jsonArgs(map[string]any{"target": target, "kind": "callers"}), dir)
	text := a.Content[0].Text
	t.Logf("callers:\n%s", text)
	if a.IsError || strings.Contains(text, "no callers found") || !strings.Contains(text, "← EditGate.vue <template>") || !strings.Contains(text, "call at src/gate/EditGate.vue:8:17") {
		t.Errorf("callers of canEdit miss the call in EditGate.vue's template (8:17):\n%s", text)
	}
	a = srv.toolCall(t, "code_hierarchy", jsonArgs(map[string]any{"target": target, "kind": "callers", "depth": 3}), dir)
	text = a.Content[0].Text
	t.Logf("callers, depth 3:\n%s", text)
	if a.IsError || !strings.Contains(text, "call at src/gate/EditGate.vue:8:17") || !strings.Contains(text, "the component is no function the server's call hierarchy can expand") {
		t.Errorf("callers of canEdit at depth 3 do not keep the template's caller and say why it is not expanded:\n%s", text)
	}
}

// TestVuePropRenames: renaming a prop at its declaration, the Vue plugin
// renames the public name, keeps a destructure's local binding as an
// alias (`isOpen: isActive`) and rewrites the parent's kebab-case
// attribute (`:is-active=` to `:isOpen=`). The answer told the agent to
// rename the alias too "or the code breaks" and explained the attribute
// as a C macro's expansion (findings s27 #5); it says what the server
// did instead, and a kebab attribute the rename rewrote is no left use.
// (The answers are previews: the checks are the same.)
func TestVuePropRenames(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir := copyFixture(t, "vue")
	withVue(t, dir)
	srv := catalogServe(t)
	defer srv.shutdown(t)
	for _, c := range []struct {
		file, old, new, want string
		line                 int
		wantText             map[string]string
	}{
		{"src/toggle/SwitchKnob.vue", "isActive", "isOpen", "kept the local binding `isActive` as an alias", 3,
			map[string]string{"SwitchKnob.vue": "const { isOpen: isActive = false }", "SwitchPanel.vue": `:isOpen="open"`}},
		{"src/toggle/SwitchLamp.vue", "isLit", "isGlowing", "", 2,
			map[string]string{"SwitchLamp.vue": "props.isGlowing", "SwitchPanel.vue": `:isGlowing="open"`}},
	} {
		a := srv.toolCall(t, "code_rename", jsonArgs(map[string]any{"target": map[string]any{"path": c.file, "line": c.line, "matchText": c.old}, "newName": c.new}), dir)
		text := a.Content[0].Text
		t.Logf("rename %s:\n%s", c.old, text)
		if a.IsError {
			t.Fatalf("rename of %s refused:\n%s", c.old, text)
		}
		for file, want := range c.wantText {
			if !strings.Contains(text, "+++ b/src/toggle/"+file) || !strings.Contains(text, want) {
				t.Fatalf("the server's rename of %s changed: its preview does not write %q in %s:\n%s", c.old, want, file, text)
			}
		}
		for _, wrong := range []string{"or the code breaks", "macro", "does not spell"} {
			if strings.Contains(text, wrong) {
				t.Errorf("rename of %s says %q, but the rename is complete:\n%s", c.old, wrong, text)
			}
		}
		if c.want != "" && !strings.Contains(text, c.want) {
			t.Errorf("rename of %s does not say %q:\n%s", c.old, c.want, text)
		}
	}
}
