package toolbox

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// rootedProvider is a SessionProvider whose project roots are the
// directories named in roots (relative to the workspace), as localstdio's
// rootMarkers make them; it runs nothing.
type rootedProvider struct {
	ws    string
	roots []string
}

func (p rootedProvider) Query(context.Context, lspseam.ProviderQuery) (lspseam.Result, error) {
	return lspseam.Result{}, nil
}
func (p rootedProvider) Session(context.Context, lspseam.ProviderQuery, func(context.Context, lspseam.Session) error) error {
	return lspseam.Errorf(lspseam.CodeUnavailable, "not running")
}
func (p rootedProvider) Running(lspseam.ProviderQuery) bool { return false }
func (p rootedProvider) ProjectRoot(q lspseam.ProviderQuery) string {
	for _, r := range p.roots {
		if strings.HasPrefix(q.FilePath, r+"/") {
			return filepath.Join(p.ws, r)
		}
	}
	return p.ws
}

func censusToolbox(t testing.TB, ws string, roots []string) *Toolbox {
	t.Helper()
	ctx := context.Background()
	c := newTestCore(t)
	svc := lspseam.NewService(c)
	for id, exts := range map[string]map[string]string{
		"gopls":      {".go": "go"},
		"typescript": {".ts": "typescript", ".js": "javascript"},
	} {
		if _, err := svc.RegisterProvider(ctx, lspseam.Registration{ID: id, ExtensionToLanguage: exts, Provider: rootedProvider{ws, roots}}); err != nil {
			t.Fatal(err)
		}
	}
	tb, err := NewToolbox(ctx, c, svc, "code")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestWorkspaceCensus: the files each provider owns and their languages,
// the dependency and hidden directories left out, the files no provider
// owns counted by extension, and a provider's files grouped by project
// root, the workspace's first, each group's shallowest file first.
func TestWorkspaceCensus(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{
		"main.go", "sub/deep/b.go", "sub/a.go", "mod2/x.go", "web/c.ts", "web/lib/d.js",
		"node_modules/pkg/index.js", ".git/hooks/h.go", "vendor/v/v.go", "tools/__pycache__/p.go", ".venv/lib/site.go",
		"README.md", "tools/t.rb", "tools/u.rb", "Makefile",
	} {
		p := filepath.Join(ws, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(ws, "main.go"), filepath.Join(ws, "link.go")); err != nil {
		t.Fatal(err)
	}
	tb := censusToolbox(t, ws, []string{"mod2"})
	ctx := context.Background()
	c := tb.takeCensus(ctx, ws, ws, true)

	if c.stopped {
		t.Error("the walk stopped")
	}
	if !slices.Equal(c.providers, []string{"gopls", "typescript"}) {
		t.Errorf("providers %v", c.providers)
	}
	rels := func(files []sourceFile) []string {
		out := filePaths(files)
		slices.Sort(out)
		return out
	}
	if got := rels(c.owned["gopls"]); !slices.Equal(got, []string{"main.go", "mod2/x.go", "sub/a.go", "sub/deep/b.go"}) {
		t.Errorf("gopls owns %v (dependency, hidden and linked files must be left out)", got)
	}
	if got := rels(c.owned["typescript"]); !slices.Equal(got, []string{"web/c.ts", "web/lib/d.js"}) {
		t.Errorf("typescript owns %v", got)
	}
	if !slices.Equal(c.languages["typescript"], []string{"javascript", "typescript"}) {
		t.Errorf("typescript's languages %v", c.languages["typescript"])
	}
	if c.unowned[".rb"] != 2 || c.unowned[".md"] != 1 || c.unowned[""] != 1 || len(c.unowned) != 3 {
		t.Errorf("unowned %v, want .rb 2, .md 1, no extension 1", c.unowned)
	}
	if c.eligible() != 6 {
		t.Errorf("eligible %d, want 6", c.eligible())
	}

	groups := c.projects(ctx, tb.service, "gopls", ws)
	var got []string
	for _, g := range groups {
		got = append(got, g.root+":"+strings.Join(filePaths(g.files), ","))
	}
	if want := []string{".:main.go,sub/a.go,sub/deep/b.go", "mod2:mod2/x.go"}; !slices.Equal(got, want) {
		t.Errorf("projects %q, want %q", got, want)
	}
}

// filePaths lists the files' paths in their order.
func filePaths(files []sourceFile) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.rel)
	}
	return out
}

// TestWorkspaceCensusStops: a walk past maxWalkEntries stops and says so.
func TestWorkspaceCensusStops(t *testing.T) {
	ws := t.TempDir()
	tb := censusToolbox(t, ws, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c := tb.takeCensus(ctx, ws, ws, true); !c.stopped {
		t.Error("a census whose context ended must say it stopped")
	}
}

// BenchmarkWorkspaceCensus walks the Go toolchain's source tree (about
// 15,000 files), the cost a workspace-wide read pays before asking any
// server.
func BenchmarkWorkspaceCensus(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src")
	tb := censusToolbox(b, dir, nil)
	ctx := context.Background()
	for _, timed := range []bool{false, true} {
		b.Run(map[bool]string{false: "untimed", true: "timed"}[timed], func(b *testing.B) {
			for b.Loop() {
				c := tb.takeCensus(ctx, dir, dir, timed)
				b.ReportMetric(float64(c.eligible()), "files")
			}
		})
	}
}
