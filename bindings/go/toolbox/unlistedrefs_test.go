package toolbox

import (
	"strings"
	"testing"
)

func TestSpellsAttributeUse(t *testing.T) {
	file := strings.Split("import shapes.units as units\nfrom shapes import (\n    Circle,\n    geom as g,\n)\nimport * as ns from \"./ns\"\n", "\n")
	imported := importedNames(file)
	for _, w := range []string{"units", "Circle", "g", "geom", "ns"} {
		if !imported[w] {
			t.Errorf("importedNames misses %q: %v", w, imported)
		}
	}
	tests := []struct {
		line string
		want bool
	}{
		{"    server.url.copy_with(path=\"/json\")", true},
		{"    return c.copy_with()", true},
		{"    x = items[0].copy_with", true}, // of an indexed value: the server may not type it
		{"    self.copy_with()", false},
		{"    cls.copy_with()", false},
		{"    super().copy_with()", false},
		{"    units.copy_with()", false}, // a module the file imports: typed
		{"    Circle.copy_with(c)", false},
		{"    copy_with = 3", false},
		{"    print(\"x.copy_with\")", false},
		{"    def copy_with(self):", false},
		{"    x.copy_without()", false},
	}
	for _, tt := range tests {
		if got := spellsAttributeUse("a.py", tt.line, "copy_with", imported); got != tt.want {
			t.Errorf("spellsAttributeUse(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
