package core

import (
	"strings"
	"testing"
)

func TestKebabIdentifierAt(t *testing.T) {
	for _, c := range []struct {
		line, at, want string // at: the text the position is on (its first occurrence)
	}{
		{`    <Hamburger :is-active="sidebar.opened" @toggle-click="toggleSidebar" />`, "is-active", "is-active"},
		{`    <Hamburger :is-active="sidebar.opened" @toggle-click="toggleSidebar" />`, "active", "is-active"},
		{`    <Hamburger :is-active="sidebar.opened" @toggle-click="toggleSidebar" />`, "toggle-click", "toggle-click"},
		{`    <Hamburger :is-active="sidebar.opened" @toggle-click="toggleSidebar" />`, "toggleSidebar", "toggleSidebar"},
		{`  <screen-full v-if="show" />`, "full", "screen-full"},
		{`  </screen-full>`, "screen", "screen-full"},
		{`  <Item @toggle-click.stop />`, "toggle", "toggle-click"},
		{`  <input aria-label = "x">`, "label", "aria-label"},
		// script: '-' is subtraction
		{`const d = total-offset`, "total", "total"},
		{`const d = total-offset`, "offset", "offset"},
		{`x = a-b`, "b", "b"},
		{`if (count-1 > 0) {}`, "count", "count"},
	} {
		col := strings.Index(c.line, c.at)
		got, _ := kebabIdentifierAt(c.line, col)
		if got != c.want {
			t.Errorf("kebabIdentifierAt(%q, at %q) = %q, want %q", c.line, c.at, got, c.want)
		}
		rules := identRulesFor("file:///w/src/A.vue")
		if around := rules.identifierAround(c.line, col); around != c.want {
			t.Errorf("identifierAround(%q, at %q) = %q, want %q", c.line, c.at, around, c.want)
		}
	}
	// A .ts file keeps its names at the hyphen.
	if got := identRulesFor("file:///w/a.ts").identifierAround(`<a-b =`, 1); got != "a" {
		t.Errorf(".ts identifierAround = %q, want a", got)
	}
}
