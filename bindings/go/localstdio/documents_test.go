package localstdio

import (
	"slices"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// One file is one open document: where the volumes ignore case (macOS,
// Windows) the spellings of its path find the same document, and on Linux
// they are the different files they are there. Every OS's route runs here.
func TestDocumentCacheKeys(t *testing.T) {
	tests := []struct {
		goos, opened, asked string
		same                bool
	}{
		{"linux", "/w/Shape.go", "/w/Shape.go", true},
		{"linux", "/w/Shape.go", "/w/shape.go", false},
		{"darwin", "/Users/me/w/Shape.go", "/users/me/W/shape.go", true},
		{"darwin", "/Users/me/w/Shape.go", "/Users/me/w/Shape2.go", false},
		{"windows", `C:\w\Shape.go`, `c:\W\shape.go`, true},
		{"windows", `C:\w\Shape.go`, `C:/w/Shape.go`, true},
		{"windows", `C:\w\Shape.go`, `\\?\C:\w\Shape.go`, true},
		{"windows", `C:\w\Shape.go`, `D:\w\Shape.go`, false},
		{"windows", `\\srv\share\a.go`, `\\SRV\Share\A.go`, true},
	}
	for _, tt := range tests {
		c := newDocumentCache(4, core.PathRulesFor(tt.goos))
		d := &openDocument{path: tt.opened, uri: core.PathRulesFor(tt.goos).FileURI(tt.opened)}
		c.put(d)
		if got := c.get(tt.asked) == d; got != tt.same {
			t.Errorf("%s: opened %q, get(%q) found it: %v, want %v", tt.goos, tt.opened, tt.asked, got, tt.same)
		}
		if got := c.paths(); !slices.Equal(got, []string{tt.opened}) {
			t.Errorf("%s: paths() = %q, want the path as opened %q", tt.goos, got, tt.opened)
		}
		c.remove(&openDocument{path: tt.asked})
		if gone := len(c.docs) == 0; gone != tt.same {
			t.Errorf("%s: remove(%q) forgot %q: %v, want %v", tt.goos, tt.asked, tt.opened, gone, tt.same)
		}
	}
}
