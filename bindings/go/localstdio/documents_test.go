package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// One file is one open document: where the volumes ignore case (macOS,
// Windows) the spellings of its path find the same document, and on Linux
// they are the different files they are there. Every OS's route runs here.
func TestDocumentCacheKeys(t *testing.T) {
	tests := []struct {
		goos, opened, asked string
		same                bool
		sensitive           bool // the volume tells the spellings apart
	}{
		{"linux", "/w/Shape.go", "/w/Shape.go", true, false},
		{"linux", "/w/Shape.go", "/w/shape.go", false, false},
		{"darwin", "/Users/me/w/Shape.go", "/users/me/W/shape.go", true, false},
		{"darwin", "/Users/me/w/Shape.go", "/Users/me/w/Shape2.go", false, false},
		{"windows", `C:\w\Shape.go`, `c:\W\shape.go`, true, false},
		{"windows", `C:\w\Shape.go`, `C:/w/Shape.go`, true, false},
		{"windows", `C:\w\Shape.go`, `\\?\C:\w\Shape.go`, true, false},
		{"windows", `C:\w\Shape.go`, `D:\w\Shape.go`, false, false},
		{"windows", `\\srv\share\a.go`, `\\SRV\Share\A.go`, true, false},
		{"darwin", "/Volumes/cs/Shape.go", "/Volumes/cs/shape.go", false, true},
		{"windows", `C:\cs\Shape.go`, `C:\cs\shape.go`, false, true},
	}
	for _, tt := range tests {
		c := newDocumentCache(4, core.PathRulesFor(tt.goos))
		c.same = func(a, b string) bool { return !tt.sensitive }
		d := &openDocument{path: tt.opened, uri: core.PathRulesFor(tt.goos).FileURI(tt.opened)}
		c.put(d)
		if got := c.get(tt.asked) == d; got != tt.same {
			t.Errorf("%s: opened %q, get(%q) found it: %v, want %v", tt.goos, tt.opened, tt.asked, got, tt.same)
		}
		if got := c.paths(); !slices.Equal(got, []string{tt.opened}) {
			t.Errorf("%s: paths() = %q, want the path as opened %q", tt.goos, got, tt.opened)
		}
		folded := core.PathRulesFor(tt.goos).Key(tt.opened) == core.PathRulesFor(tt.goos).Key(tt.asked)
		if got := c.other(tt.asked) == d; got != (folded && !tt.same) {
			t.Errorf("%s: other(%q) found %q: %v, want %v", tt.goos, tt.asked, tt.opened, got, folded && !tt.same)
		}
		c.remove(&openDocument{path: tt.asked})
		if gone := len(c.docs) == 0; gone != folded {
			t.Errorf("%s: remove(%q) forgot %q: %v, want %v", tt.goos, tt.asked, tt.opened, gone, folded)
		}
	}
}

// The freshness barrier's file changes on each OS's route, through the
// embedded core: a Windows host's paths cross as /C:/x, its events name
// the files as it named them to the server, and the paths to re-verify
// come back as Windows paths; the POSIX route leaves the input as it is.
func TestWatchPathsRoute(t *testing.T) {
	tests := []struct {
		goos, root, file, uri string
	}{
		{"linux", "/w", "/w/a.go", "file:///w/a.go"},
		{"darwin", "/Users/me/w", "/Users/me/w/a.go", "file:///Users/me/w/a.go"},
		{"windows", `C:\w`, `C:\w\a b.go`, "file:///C:/w/a%20b.go"},
	}
	for _, tt := range tests {
		rules := core.PathRulesFor(tt.goos)
		in := lspseam.FileChangesInput{
			Changes: []lspseam.PathChange{
				{Path: tt.file, First: "deleted", Last: "created"},
				{Path: tt.file + ".go", First: "created", Last: "created"},
			},
			Extensions:    []string{".go"},
			Root:          tt.root,
			OpenDocuments: []string{tt.file},
		}
		if !toWatchPaths(rules, &in) {
			t.Fatalf("%s: toWatchPaths refused %q", tt.goos, tt.file)
		}
		if got := in.Changes[0].Path == tt.file; got != !rules.Windows {
			t.Errorf("%s: the change's path crossed as %q", tt.goos, in.Changes[0].Path)
		}
		plan, err := sharedCore(t).FileChanges(context.Background(), in)
		if err != nil {
			t.Fatalf("%s: %v", tt.goos, err)
		}
		fromWatchPaths(rules, &plan)
		if !slices.Equal(plan.Reverify, []string{tt.file}) {
			t.Errorf("%s: reverify %q, want %q", tt.goos, plan.Reverify, tt.file)
		}
		if len(plan.Batches) != 1 || len(plan.Batches[0].Changes) != 1 || plan.Batches[0].Changes[0].URI != rules.FileURI(tt.file+".go") {
			t.Errorf("%s: batches %+v, want one event for %s", tt.goos, plan.Batches, rules.FileURI(tt.file+".go"))
		}
		if rules.FileURI(tt.file) != tt.uri {
			t.Errorf("%s: FileURI(%q) = %q, want %q", tt.goos, tt.file, rules.FileURI(tt.file), tt.uri)
		}
	}
}

// sameFile, which decides whether two spellings under one key are one
// file, asks the file system: a hard link (what two spellings of one file
// are, seen from a case-sensitive volume) is the same file, a copy is not.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, link, other := filepath.Join(dir, "Shape.go"), filepath.Join(dir, "shape.go"), filepath.Join(dir, "SHAPE.go")
	for _, p := range []string{a, other} {
		if err := os.WriteFile(p, []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(a, link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{a, a, true}, {a, link, true}, {a, other, false}, {a, filepath.Join(dir, "missing.go"), false},
	} {
		if got := sameFile(tt.a, tt.b); got != tt.want {
			t.Errorf("sameFile(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// A Windows network share's paths have no form fileChanges reads: the
// barrier is told so (and restarts the server) instead of sending them.
func TestWatchPathsUNC(t *testing.T) {
	win := core.PathRulesFor("windows")
	tests := []struct {
		root, file string
		ok         bool
	}{
		{`C:\w`, `C:\w\a.go`, true},
		{`\\srv\share\w`, `\\srv\share\w\a.go`, false},
		{`C:\w`, `\\srv\share\a.go`, false},
	}
	for _, tt := range tests {
		in := lspseam.FileChangesInput{Changes: []lspseam.PathChange{{Path: tt.file, First: "changed", Last: "changed"}}, Root: tt.root}
		if got := toWatchPaths(win, &in); got != tt.ok {
			t.Errorf("toWatchPaths(root %q, %q) = %v, want %v", tt.root, tt.file, got, tt.ok)
		}
	}
}
