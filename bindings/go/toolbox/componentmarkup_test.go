package toolbox

import (
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestInComponentMarkup: the entries svelte-language-server lists for a
// component's template expressions are not declarations to follow into
// other files; those of its <script> are, and no entry of a file that is
// no component is left out.
func TestInComponentMarkup(t *testing.T) {
	const app = "<script lang=\"ts\">\n  const shapes = [1, 2];\n  export let title = \"\";\n</script>\n\n<main>\n  <h1>{shapes.length} {title}</h1>\n</main>\n<style>\n  h1 { color: red; }\n</style>\n"
	at := func(line uint32) lspseam.OutlineEntry {
		var e lspseam.OutlineEntry
		e.Range.Start.Line, e.Range.End.Line = line, line
		return e
	}
	for _, c := range []struct {
		name, rel, text string
		line            uint32
		want            bool
	}{
		{"a script's variable", "src/App.svelte", app, 1, false},
		{"a script's prop", "src/App.svelte", app, 2, false},
		{"a template expression", "src/App.svelte", app, 6, true},
		{"a style rule", "src/App.svelte", app, 9, false},
		{"a Vue template", "src/App.vue", app, 6, true},
		{"not a component", "src/app.ts", app, 6, false},
	} {
		if got := inComponentMarkup(c.rel, c.text, at(c.line)); got != c.want {
			t.Errorf("%s: inComponentMarkup(%s, line %d) = %v, want %v", c.name, c.rel, c.line+1, got, c.want)
		}
	}
}
