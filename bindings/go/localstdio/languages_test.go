package localstdio

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

func writeTree(t testing.TB, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// censusConfig routes .go to "gopls" and Makefile to "make" (a language
// the table does not know), as a validated config would.
func censusConfig() lspseam.Config {
	return lspseam.Config{Servers: map[string]lspseam.ServerConfig{
		"gopls": {Command: "gopls", Known: "gopls", ExtensionToLanguage: map[string]string{".go": "go"}},
		"make":  {Command: "make-ls", FileNameToLanguage: map[string]string{"Makefile": "makefile"}},
	}}
}

func TestCountLanguages(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root,
		"main.go", "pkg/a.go", "pkg/b.GO", // .GO: extensions are compared lowercase
		"web/app.ts", "web/view.tsx",
		"Dockerfile", "docs/README.md", "Makefile",
		"notes.txt", ".gitignore", // no language
		// .bashrc is a whole file name of the table's (Bash)
		".bashrc",
		"node_modules/x/index.js", "vendor/y/y.go", ".git/config.go", "build/gen.go", "dist/app.js", // skipped dirs
		".hidden/secret.py", "target/debug/x.rs", "bazel-out/x.go",
	)
	outside := t.TempDir()
	writeTree(t, outside, "far/away.py")
	if err := os.Symlink(filepath.Join(outside, "far"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "far", "away.py"), filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	c, err := CountLanguages(context.Background(), root, censusConfig(), CensusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range c.Languages {
		got[l.LanguageID] = fmt.Sprintf("%s %d %v %v", l.Name, l.Files, l.Kinds, l.Servers)
	}
	want := map[string]string{
		"go":              "Go 3 [.go] map[gopls:3]",
		"typescript":      "TypeScript 1 [.ts] map[:1]",
		"typescriptreact": "TSX 1 [.tsx] map[:1]",
		"dockerfile":      "Dockerfile 1 [Dockerfile] map[:1]",
		"markdown":        "Markdown 1 [.md] map[:1]",
		"makefile":        "makefile 1 [Makefile] map[make:1]",
		"shellscript":     "Bash 1 [.bashrc] map[:1]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("census:\n got %v\nwant %v", got, want)
	}
	if c.Files != 11 || c.Counted != 9 || c.Incomplete != "" || c.SkippedDirs != 8 {
		t.Errorf("files %d, counted %d, skipped dirs %d, incomplete %q", c.Files, c.Counted, c.SkippedDirs, c.Incomplete)
	}
	if c.Languages[0].LanguageID != "go" || c.Languages[0].Example != "main.go" {
		t.Errorf("most files first, with an example: %+v", c.Languages[0])
	}
}

func TestCountLanguagesBounds(t *testing.T) {
	root := t.TempDir()
	var files []string
	for i := 0; i < 50; i++ {
		files = append(files, fmt.Sprintf("d%d/f%d.go", i%5, i))
	}
	writeTree(t, root, files...)
	c, err := CountLanguages(context.Background(), root, censusConfig(), CensusOptions{MaxFiles: 20})
	if err != nil {
		t.Fatal(err)
	}
	if c.Files != 20 || c.Languages[0].Files != 20 || !strings.Contains(c.Incomplete, "stopped after 20 files") {
		t.Errorf("file bound: %d files, %q", c.Files, c.Incomplete)
	}
	c, _ = CountLanguages(context.Background(), root, censusConfig(), CensusOptions{MaxFiles: 50})
	if c.Files != 50 || c.Incomplete != "" {
		t.Errorf("exactly the bound is complete: %d files, %q", c.Files, c.Incomplete)
	}
	// A time bound: checked every 256 entries, so the walk needs more.
	many := t.TempDir()
	files = files[:0]
	for i := 0; i < 600; i++ {
		files = append(files, fmt.Sprintf("f%d.go", i))
	}
	writeTree(t, many, files...)
	c, _ = CountLanguages(context.Background(), many, censusConfig(), CensusOptions{Timeout: time.Nanosecond})
	if !strings.Contains(c.Incomplete, "stopped after 1ns") || c.Files >= 600 {
		t.Errorf("time bound: %d files, %q", c.Files, c.Incomplete)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, _ = CountLanguages(ctx, many, censusConfig(), CensusOptions{})
	if !strings.Contains(c.Incomplete, "canceled") {
		t.Errorf("cancelled: %q", c.Incomplete)
	}
	if _, err := CountLanguages(context.Background(), filepath.Join(root, "absent"), censusConfig(), CensusOptions{}); err == nil {
		t.Error("a missing root is an error")
	}
}

func TestServing(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, "a.go", "b.go", "c.py", "Makefile", "x.rs", "y.sh")
	cfg := censusConfig()
	cfg.Servers["pyright"] = lspseam.ServerConfig{Command: "pyright-langserver", Known: "pyright", ExtensionToLanguage: map[string]string{".py": "python"}}
	table := &Table{
		Config:  cfg,
		Servers: []Server{{ID: "gopls", Config: cfg.Servers["gopls"], Path: "/x/gopls"}, {ID: "make", Config: cfg.Servers["make"], Path: "/x/make-ls"}},
		Missing: []MissingServer{{ID: "pyright", Config: cfg.Servers["pyright"], NotFound: "pyright-langserver was not found on PATH"}},
	}
	c, err := CountLanguages(context.Background(), root, cfg, CensusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	langs := table.Serving(c)
	for _, l := range langs {
		got[l.LanguageID] = strings.Join([]string{l.State, l.Entry, l.Install, clipText(l.Manual, 20)}, "|")
	}
	want := map[string]string{
		"go":          "served|||",
		"makefile":    "served|||",
		"python":      "missing|pyright|lspseam servers install python|",
		"rust":        "unconfigured|rust-analyzer||rustup component add",
		"shellscript": "unconfigured|bashls|lspseam servers install bash|",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("serving:\n got %v\nwant %v", got, want)
	}
	if Served(langs) {
		t.Error("served with languages missing")
	}
	if !Served(langs[:0]) {
		t.Error("nothing present is served")
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func TestInstallArgument(t *testing.T) {
	for _, c := range []struct{ lang, entry, want string }{
		{"python", "pyright", "python"},
		{"python", "basedpyright", "basedpyright"},
		{"go", "gopls", "go"},
		{"cpp", "clangd", "c++"},
		{"csharp", "csharp-ls", "csharp"}, // its name has a '#': by language id
		{"jsonc", "jsonls", "jsonc"},
		{"shellscript", "bashls", "bash"},
		{"unknown", "x", "x"},
	} {
		if got := InstallArgument(c.lang, c.entry); got != c.want {
			t.Errorf("InstallArgument(%s, %s) = %q, want %q", c.lang, c.entry, got, c.want)
		}
	}
}

// BenchmarkCountLanguages10k: a census of a 10,000-file workspace (Go,
// TypeScript, Python, Markdown and unmapped files in 100 directories,
// plus a node_modules it skips).
func BenchmarkCountLanguages10k(b *testing.B) {
	root := b.TempDir()
	GenerateCensusWorkspace(b, root, 10_000)
	cfg := censusConfig()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := CountLanguages(context.Background(), root, cfg, CensusOptions{})
		if err != nil || c.Files != 10_000 {
			b.Fatalf("%v: %d files", err, c.Files)
		}
	}
}

// GenerateCensusWorkspace writes n files under root for census
// benchmarks: a mix of languages and unmapped files in 100 directories,
// and a node_modules (not counted) beside them.
func GenerateCensusWorkspace(tb testing.TB, root string, n int) {
	tb.Helper()
	exts := []string{".go", ".ts", ".py", ".md", ".txt", ".json", ".sh", ".c"}
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("pkg%02d/sub%d/f%d%s", i%100, i%3, i, exts[i%len(exts)]))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	nm := filepath.Join(root, "node_modules", "dep")
	if err := os.MkdirAll(nm, 0o755); err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		if err := os.WriteFile(filepath.Join(nm, fmt.Sprintf("m%d.js", i)), nil, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}
