package localstdio

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestProjectOutsideMemo: the project's outside directories are read
// again exactly when something they were found from changed, and the
// answer is always what a fresh reading gives.
func TestProjectOutsideMemo(t *testing.T) {
	// Inputs are made older than workspacefs.RacyWindow: settle at setup,
	// settleChanged after a change (a later time, as a real change gives:
	// putting the old time back would hide it from any stamp).
	old := time.Now().Add(-time.Hour)
	settleAt := func(t *testing.T, when time.Time, paths ...string) {
		t.Helper()
		for _, p := range paths {
			if err := os.Chtimes(p, when, when); err != nil {
				t.Fatal(err)
			}
		}
	}
	settle := func(t *testing.T, paths ...string) { settleAt(t, old, paths...) }
	settleChanged := func(t *testing.T, paths ...string) { settleAt(t, old.Add(time.Minute), paths...) }
	link := func(t *testing.T, target, at string) {
		t.Helper()
		os.Remove(at)
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
	}
	type project struct{ tmp, ws string }
	for _, c := range []struct {
		name   string
		lang   string
		setup  func(t *testing.T, p project)
		change func(t *testing.T, p project) // nil: nothing changes
		racy   bool                          // an input stays too recent to trust
	}{
		{name: "go module unchanged", lang: "go", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "lib/lib.go"), "package lib\n")
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n\nreplace example.com/lib => ../lib\n")
			settle(t, filepath.Join(p.ws, "go.mod"), filepath.Join(p.tmp, "lib"))
		}},
		{name: "go.mod's replace changed", lang: "go", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "lib/lib.go"), "package lib\n")
			write(t, filepath.Join(p.tmp, "lib2/lib.go"), "package lib\n")
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n\nreplace example.com/lib => ../lib\n")
			settle(t, filepath.Join(p.ws, "go.mod"), filepath.Join(p.tmp, "lib"), filepath.Join(p.tmp, "lib2"))
		}, change: func(t *testing.T, p project) {
			// Same size, edited in place: only the time tells.
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n\nreplace example.com/lib => ../lib2\n")
			settleChanged(t, filepath.Join(p.ws, "go.mod"))
		}},
		{name: "go.work appears", lang: "go", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "other/go.mod"), "module other\n")
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n")
			settle(t, filepath.Join(p.ws, "go.mod"), filepath.Join(p.tmp, "other"))
		}, change: func(t *testing.T, p project) {
			write(t, filepath.Join(p.ws, "go.work"), "go 1.22\n\nuse (\n\t.\n\t../other\n)\n")
			settleChanged(t, filepath.Join(p.ws, "go.work"))
		}},
		{name: "replace target's link retargeted", lang: "go", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "real1/lib.go"), "package lib\n")
			write(t, filepath.Join(p.tmp, "real2/lib.go"), "package lib\n")
			link(t, "real1", filepath.Join(p.tmp, "lib"))
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n\nreplace example.com/lib => ../lib\n")
			settle(t, filepath.Join(p.ws, "go.mod"), filepath.Join(p.tmp, "real1"), filepath.Join(p.tmp, "real2"))
		}, change: func(t *testing.T, p project) {
			link(t, "real2", filepath.Join(p.tmp, "lib"))
		}},
		{name: "linked package's target renamed and relinked", lang: "typescript", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "pkg/index.d.ts"), "")
			write(t, filepath.Join(p.ws, "node_modules/.keep"), "")
			link(t, "../../pkg", filepath.Join(p.ws, "node_modules/pkg"))
			settle(t, filepath.Join(p.ws, "node_modules"), filepath.Join(p.tmp, "pkg"))
		}, change: func(t *testing.T, p project) {
			if err := os.Rename(filepath.Join(p.tmp, "pkg"), filepath.Join(p.tmp, "moved")); err != nil {
				t.Fatal(err)
			}
			link(t, "../../moved", filepath.Join(p.ws, "node_modules/pkg"))
			settleChanged(t, filepath.Join(p.ws, "node_modules"))
		}},
		{name: "scoped package linked", lang: "typescript", setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "scoped/index.d.ts"), "")
			write(t, filepath.Join(p.ws, "node_modules/@org/.keep"), "")
			settle(t, filepath.Join(p.ws, "node_modules"), filepath.Join(p.ws, "node_modules/@org"), filepath.Join(p.tmp, "scoped"))
		}, change: func(t *testing.T, p project) {
			link(t, "../../../scoped", filepath.Join(p.ws, "node_modules/@org/s"))
			settleChanged(t, filepath.Join(p.ws, "node_modules/@org"))
		}},
		{name: "recently written go.mod", lang: "go", racy: true, setup: func(t *testing.T, p project) {
			write(t, filepath.Join(p.tmp, "lib/lib.go"), "package lib\n")
			write(t, filepath.Join(p.ws, "go.mod"), "module m\n\nreplace example.com/lib => ../lib\n")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := canonicalTemp(t)
			p := project{tmp: tmp, ws: filepath.Join(tmp, "ws")}
			if err := os.MkdirAll(p.ws, 0o755); err != nil {
				t.Fatal(err)
			}
			c.setup(t, p)
			s := &Server{ID: "s", Config: lspseam.ServerConfig{ExtensionToLanguage: map[string]string{".x": c.lang}}}
			ws := Workspace{Path: p.ws}
			reads := 0
			read := func() ([]outsideDir, []string) {
				reads++
				return projectOutsideDirs(s, ws, ws, "")
			}
			var m projectOutsideMemo
			first := m.find(read)
			if len(first) == 0 && c.name != "scoped package linked" && c.name != "go.work appears" {
				t.Fatalf("no outside directory found: the setup is wrong")
			}
			if c.change != nil {
				c.change(t, p)
			}
			before := reads
			got := m.find(read)
			want, _ := projectOutsideDirs(s, ws, ws, "")
			if !slices.Equal(got, want) {
				t.Fatalf("memo answered %v, a fresh reading %v", got, want)
			}
			switch reread := reads > before; {
			case c.change == nil && !c.racy && reread:
				t.Errorf("read again although nothing changed")
			case c.change != nil && !reread:
				t.Errorf("not read again after the change")
			case c.racy && !reread:
				t.Errorf("a recently modified input was trusted")
			}
			if c.change != nil && slices.Equal(first, got) {
				t.Errorf("the change did not change the answer (%v): the case tests nothing", got)
			}
		})
	}
}
