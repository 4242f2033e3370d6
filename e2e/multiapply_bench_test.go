package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkMultiFileApply measures what a change of many files costs to
// apply with its diagnostics delta, against a change of one file: on a
// generated workspace, `code_rename` through `lspseam serve --approval
// auto` renames an exported symbol that 58 other files use (59 files
// written, each one's diagnostics before and after in the answer), and,
// in turns with it, a symbol used only in the file that declares it (one
// file). Each call renames the symbol back and forth, so every call
// changes the files. It reports the p50 of each and their ratio (target
// ≤ 2×: the many files' reports are awaited together, not one after
// another), and how many files the many-file answers left stale; it
// asserts no time, only that every answer applied the whole change.
// multiApplyLangs are the workspaces the multi-file rename benchmark and
// test generate: one per server.
var multiApplyLangs = []multiApplyLang{
	{name: "ts", server: "typescript-language-server", ext: ".ts", gen: genTSRenameWorkspace, shared: "shared", lonely: "lonely", decl: "src/sym.ts"},
	{name: "go", server: "gopls", ext: ".go", gen: genGoRenameWorkspace, shared: "Shared", lonely: "lonely", decl: "sym.go"},
}

// multiApplyWorkspace generates c's workspace with multiApplyUsers users
// of the shared symbol in a temporary directory (symlinks resolved).
func multiApplyWorkspace(tb testing.TB, c multiApplyLang) string {
	tb.Helper()
	base, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	ws := filepath.Join(base, c.name)
	c.gen(tb, ws, multiApplyUsers)
	return ws
}

func BenchmarkMultiFileApply(b *testing.B) {
	for _, c := range multiApplyLangs {
		b.Run(c.name, func(b *testing.B) {
			if _, err := os.Stat(filepath.Join(toolsBin, c.server)); err != nil {
				b.Fatalf("%s missing: run make servers (%v)", c.server, err)
			}
			ws := multiApplyWorkspace(b, c)
			srv := languageServe(b, []string{"--approval", "auto"})
			names := map[string]string{c.shared: c.shared + "Renamed", c.lonely: c.lonely + "Renamed"}
			cur := map[string]string{c.shared: c.shared, c.lonely: c.lonely}
			stale := 0
			rename := func(sym string, wantFiles int) {
				from := cur[sym]
				to := names[sym]
				if from != sym {
					to = sym
				}
				args := jsonArgs(map[string]any{"target": map[string]any{"path": c.decl, "symbol": from}, "newName": to})
				a := benchToolCall(b, srv, "code_rename", args, ws)
				var r struct {
					Applied     bool             `json:"applied"`
					Files       []map[string]any `json:"files"`
					Diagnostics *struct {
						Files []deltaFile `json:"files"`
						Stale []string    `json:"stale"`
					} `json:"diagnostics"`
				}
				json.Unmarshal(a.StructuredContent, &r)
				if a.IsError || !r.Applied || len(r.Files) != wantFiles || r.Diagnostics == nil || len(r.Diagnostics.Files) != wantFiles {
					b.Fatalf("rename %s → %s (want %d files): %s", from, to, wantFiles, clip(string(a.StructuredContent), 2000))
				}
				if wantFiles > 1 {
					stale += len(r.Diagnostics.Stale)
				}
				cur[sym] = to
			}
			many := func() { rename(c.shared, multiApplyUsers+1) }
			one := func() { rename(c.lonely, 1) }
			sides := []func(){many, one}
			for range 2 { // warm: the server loaded, both symbols back to their names
				for _, f := range sides {
					f()
				}
			}
			stale = 0
			times := timeAlternated(b, sides, 1, 0)
			m, o := percentile(times[0], 0.5), percentile(times[1], 0.5)
			b.ReportMetric(float64(m)/float64(o), "many/one-p50")
			b.ReportMetric(float64(m.Microseconds())/1000, "many-p50-ms")
			b.ReportMetric(float64(o.Microseconds())/1000, "one-p50-ms")
			b.ReportMetric(float64(stale)/float64(b.N), "stale-files/many")
		})
	}
}

// multiApplyUsers is how many files use the shared symbol besides the one
// declaring it.
const multiApplyUsers = 58

type multiApplyLang struct {
	name, server, ext string
	gen               func(tb testing.TB, dir string, users int)
	shared, lonely    string // the symbol many files use; one used only where declared
	decl              string // the file declaring both
}

// genTSRenameWorkspace writes a TypeScript project: src/sym.ts exports
// shared (used by src/useNN.ts) and lonely (used only in src/sym.ts).
func genTSRenameWorkspace(tb testing.TB, dir string, users int) {
	files := map[string]string{
		"package.json":  `{"name": "multi-apply", "version": "0.0.0", "private": true}` + "\n",
		"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "lib": ["ES2022"], "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "noEmit": true, "skipLibCheck": true}, "include": ["src"]}` + "\n",
		"src/sym.ts":    "export function shared(x: number): number {\n  return x + 1;\n}\n\nfunction lonely(x: number): number {\n  return x * 2;\n}\n\nexport const twice = lonely(21);\n",
	}
	for i := range users {
		files[fmt.Sprintf("src/use%02d.ts", i)] = fmt.Sprintf("import { shared } from \"./sym\";\n\nexport function use%02d(n: number): number {\n  return shared(n) + %d;\n}\n", i, i)
	}
	writeTree(tb, dir, files)
}

// genGoRenameWorkspace is the Go equivalent: package multi, whose sym.go
// declares Shared (used by useNN.go) and lonely.
func genGoRenameWorkspace(tb testing.TB, dir string, users int) {
	files := map[string]string{
		"go.mod": "module example.com/multi\n\ngo 1.21\n",
		"sym.go": "package multi\n\n// Shared adds one.\nfunc Shared(x int) int {\n\treturn x + 1\n}\n\nfunc lonely(x int) int {\n\treturn x * 2\n}\n\n// Twice is lonely's only use.\nvar Twice = lonely(21)\n",
	}
	for i := range users {
		files[fmt.Sprintf("use%02d.go", i)] = fmt.Sprintf("package multi\n\n// Use%02d uses Shared.\nfunc Use%02d(n int) int {\n\treturn Shared(n) + %d\n}\n", i, i, i)
	}
	writeTree(tb, dir, files)
}

// writeTree writes files (slash-separated relative path → text) under
// dir, making the directories they need.
func writeTree(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// TestMultiFileRenameDelta: a rename of a symbol 58 other files use,
// applied through serve on typescript-language-server and gopls, writes
// all 59 files right and answers with the delta of every one of them,
// each fresh (the server reported on every new content within the one
// wait), none stale.
func TestMultiFileRenameDelta(t *testing.T) {
	requireServers(t, "typescript-language-server", "gopls")
	for _, c := range multiApplyLangs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ws := multiApplyWorkspace(t, c)
			srv := languageServe(t, []string{"--approval", "auto"})
			args := jsonArgs(map[string]any{"target": map[string]any{"path": c.decl, "symbol": c.shared}, "newName": c.shared + "Renamed"})
			a := srv.toolCall(t, "code_rename", args, ws)
			var r struct {
				Applied     bool             `json:"applied"`
				Files       []map[string]any `json:"files"`
				Diagnostics *struct {
					Files  []deltaFile `json:"files"`
					Stale  []string    `json:"stale"`
					Counts struct {
						Introduced int `json:"introduced"`
					} `json:"counts"`
				} `json:"diagnostics"`
			}
			json.Unmarshal(a.StructuredContent, &r)
			if a.IsError || !r.Applied || len(r.Files) != multiApplyUsers+1 || r.Diagnostics == nil {
				t.Fatalf("rename: %s", clip(string(a.StructuredContent), 3000))
			}
			if len(r.Diagnostics.Files) != multiApplyUsers+1 || len(r.Diagnostics.Stale) != 0 || r.Diagnostics.Counts.Introduced != 0 {
				t.Errorf("delta: %d files, stale %v, introduced %d: %s", len(r.Diagnostics.Files), r.Diagnostics.Stale, r.Diagnostics.Counts.Introduced, clip(a.Content[0].Text, 3000))
			}
			for _, f := range r.Diagnostics.Files {
				if !f.Fresh || f.How == "none" {
					t.Errorf("%s: how %s, fresh %v", f.Path, f.How, f.Fresh)
				}
			}
			// The files on disk: the old name gone, the new one in each.
			err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, c.ext) {
					return err
				}
				text := string(readFile(t, p))
				if strings.Contains(text, c.shared+"(") || !strings.Contains(text, c.shared+"Renamed(") {
					t.Errorf("%s after the rename:\n%s", p, text)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
