package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImpactNewDeclarationClash: an edit that adds a declaration touches
// none that was there, so no reference leads to the other files it
// breaks (bindings/go/toolbox/clashdependents.go). gopls: a function
// added to shape.go that report.go of the same package already declares;
// tsserver: an export added to b.ts that a barrel's `export *` of a.ts
// already exports (TS2308 in the barrel). Each edit's answer names the
// other file with its new problem; undone, resolved. Testers' edits of
// cobra and zod answered "Other files: none use what changed" here.
func TestImpactNewDeclarationClash(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	for _, c := range []struct {
		ws, file string
		files    map[string]string // written before the session starts
		change   verifyEdit
		broken   string // the other file the change breaks
	}{
		{"go", "shape.go", nil,
			verifyEdit{"func TotalArea(all []Shape) float64 {", "func Report(all []Shape) string { return \"\" }\n\nfunc TotalArea(all []Shape) float64 {"},
			"report.go"},
		{"ts", "src/lib/b.ts", map[string]string{
			"src/lib/a.ts":     "export function clone(x: number): number {\n  return x;\n}\n",
			"src/lib/b.ts":     "export const other = 1;\n",
			"src/lib/index.ts": "export * from \"./a\";\nexport * from \"./b\";\n",
		},
			verifyEdit{"export const other = 1;\n", "export const other = 1;\n\nexport function clone(x: string): string {\n  return x;\n}\n"},
			"src/lib/index.ts"},
	} {
		t.Run(c.ws, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, c.ws)
			for rel, text := range c.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			srv := catalogServe(t)
			defer srv.shutdown(t)
			if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			for _, back := range []bool{false, true} {
				a := srv.toolCall(t, "edit", editArgs(c.file, c.change, back), dir)
				t.Logf("edit (undone: %v):\n%s", back, a.Content[0].Text)
				o := othersOf(t, fmt.Sprintf("edit (undone: %v)", back), a)
				list, what := o.WithIntroduced, "introduced"
				if back {
					list, what = o.WithResolved, "resolved"
				}
				if !slices.Contains(list, c.broken) || slices.Contains(o.Stale, c.broken) {
					t.Errorf("edit (undone: %v): no problem %s in %s (stale: %v)", back, what, c.broken, o.Stale)
				}
				if strings.Contains(a.Content[0].Text, "none use what changed") {
					t.Errorf("edit (undone: %v): says no other file uses what changed", back)
				}
			}
		})
	}
}

// TestImpactAsksChangedSignaturesFirst: the declarations whose references
// are asked are bounded (8 a change); those whose name line the change
// replaced (a signature, a rename's declaration) are asked before those
// changed further down. Nine two-line variables changed on their second
// line come, by size, before Describe, whose signature the same edit
// changes: Describe's callers in other files must still be checked (a
// tester's apply of a rename answered "none refer to what changed" when
// the bound went to a test file's declarations).
func TestImpactAsksChangedSignaturesFirst(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	var vars, changed strings.Builder
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&vars, "var width%d = len(\n\t\"a\")\n\n", i)
		fmt.Fprintf(&changed, "var width%d = len(\n\t\"ab\")\n\n", i)
	}
	const describe = "// Describe returns a one-line, human-readable summary of s.\nfunc Describe(s Shape) string {"
	shape := filepath.Join(dir, "shape.go")
	text := strings.Replace(string(readFile(t, shape)), describe, vars.String()+describe, 1)
	if err := os.WriteFile(shape, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t)
	defer srv.shutdown(t)
	if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": "shape.go"}), dir); a.IsError {
		t.Fatalf("read: %s", a.StructuredContent)
	}
	e := verifyEdit{vars.String() + describe, changed.String() + "// Describe returns a one-line, human-readable summary of s.\nfunc Describe(s Shape, verbose bool) string {"}
	a := srv.toolCall(t, "edit", editArgs("shape.go", e, false), dir)
	t.Logf("edit:\n%s", a.Content[0].Text)
	if o := othersOf(t, "edit", a); !hasAll(o.WithIntroduced, []string{"cmd/shapes/main.go", "report.go"}) {
		t.Errorf("Describe's callers not among the files with new problems %v (unasked %d)", o.WithIntroduced, o.Unasked)
	}
}

// TestImpactCreatedFileClash: a file write creates declares only new
// names; one that another file of the Go package already declares breaks
// that file too ("TotalArea redeclared in this block" in shape.go), and
// the write's answer names it (a tester's answered the new file's error
// alone).
func TestImpactCreatedFileClash(t *testing.T) {
	requireServers(t, "gopls")
	dir := copyFixture(t, "go")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	a := srv.toolCall(t, "write", jsonArgs(map[string]any{"file_path": "newfile.go", "content": "package shapes\n\nfunc TotalArea(all []Shape) float64 { return 0 }\n"}), dir)
	t.Logf("write:\n%s", a.Content[0].Text)
	if o := othersOf(t, "write", a); !slices.Contains(o.WithIntroduced, "shape.go") || slices.Contains(o.Stale, "shape.go") {
		t.Errorf("shape.go not among the other files with new problems %v (stale %v)", o.WithIntroduced, o.Stale)
	}
}
