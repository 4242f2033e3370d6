package toolbox

import "testing"

func TestKebabSpellings(t *testing.T) {
	for _, c := range []struct {
		name, line, ident string
		want              int
	}{
		{"prop attribute", `  <hamburger :is-active="sidebar.opened" />`, "isActive", 1},
		{"component tag, both ends", `  <screen-full /><screen-full></screen-full>`, "ScreenFull", 3},
		{"event listener", `  <Hamburger @toggle-click="toggleSidebar" />`, "toggleClick", 1},
		{"camel case is no kebab spelling", `  <Hamburger :isActive="x" />`, "isActive", 0},
		{"inside a longer kebab word", `  <x :is-active-now="y" />`, "isActive", 0},
		{"prefixed", `  <x :not-is-active="y" />`, "isActive", 0},
		{"one word has no kebab form", `  <x :collapse="y" />`, "collapse", 0},
		{"another name's lower case", `import Screenfull from "screenfull"`, "ScreenFull", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := kebabSpellings(c.line, c.ident); got != c.want {
				t.Errorf("kebabSpellings(%q, %s) = %d, want %d", c.line, c.ident, got, c.want)
			}
		})
	}
}
