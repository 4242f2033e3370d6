package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImpactTypeUsers: a change to a TypeScript type breaks files that
// never name it, and the edit's delta must check them (findings s28 F1,
// F3; bindings/go/toolbox/typeusers.go).
//
//   - A props type (a type alias, an interface) other files use only
//     through the function whose parameter it types: a required member
//     added breaks the callers (`layout({ title })`), whose files refer to
//     the function, not the type. Before, the type's references stayed in
//     its own file: "Other files: none refer to what changed".
//   - A member of an object type inside a generic argument
//     (`Entity<{ body: string }>`), renamed: a file reading `.body` off an
//     inferred result breaks without naming the type. Before, only the
//     files naming `Discussion` were checked: "no new problems".
//
// Each edit's other-file problems are asserted exactly, at their
// one-based positions; undone, they are resolved.
func TestImpactTypeUsers(t *testing.T) {
	requireServers(t, "typescript-language-server")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{
		"package.json":  "{\"name\": \"typeusers\", \"private\": true}\n",
		"tsconfig.json": "{\"compilerOptions\": {\"strict\": true, \"target\": \"es2020\", \"module\": \"esnext\", \"moduleResolution\": \"bundler\", \"noEmit\": true}, \"include\": [\"src\"]}\n",
		// F1: a type alias typing an arrow function's parameter, not exported.
		"src/layout.ts": "type LayoutProps = {\n  title: string;\n};\n\nexport const layout = ({ title }: LayoutProps): string => `<h1>${title}</h1>`;\n",
		"src/page.ts":   "import { layout } from \"./layout\";\n\nexport const page = layout({ title: \"Home\" });\n",
		// F1: an exported interface typing a function declaration's parameter.
		"src/spinner.ts": "export interface SpinnerProps {\n  size: number;\n}\n\nexport function spinner({ size }: SpinnerProps): string {\n  return \"o\".repeat(size);\n}\n",
		"src/button.ts":  "import { spinner } from \"./spinner\";\n\nexport const busy = spinner({ size: 3 });\n",
		// F3: a member of a generic argument's literal, read off an
		// inferred result by a file that names neither the type nor it.
		"src/model.ts": "export type Entity<T> = { id: string } & T;\n\nexport type Discussion = Entity<{\n  title: string;\n  body: string;\n}>;\n",
		"src/api.ts":   "import type { Discussion } from \"./model\";\n\nexport function fetchDiscussion() {\n  return JSON.parse(\"{}\") as Discussion;\n}\n",
		"src/view.ts":  "import { fetchDiscussion } from \"./api\";\n\nexport const text = fetchDiscussion().body;\n",
	})
	srv := catalogServe(t)
	defer srv.shutdown(t)
	// The project loaded before the edits, so that finding the
	// dependents is not spent waiting for it (a cold first write is
	// another matter: findings s28 F4).
	for _, p := range []string{"src/page.ts", "src/button.ts", "src/view.ts"} {
		if a := srv.toolCall(t, "code_diagnostics", jsonArgs(map[string]any{"path": p}), dir); a.IsError || !strings.Contains(a.Content[0].Text, "No problems in "+p) {
			t.Fatalf("code_diagnostics of %s before the edits: %s", p, a.Content[0].Text)
		}
	}
	for _, c := range []struct {
		file   string
		change verifyEdit
		want   []string // the other files' errors introduced: path:line:column code
	}{
		{"src/layout.ts", verifyEdit{"  title: string;\n};", "  title: string;\n  subtitle: string;\n};"}, []string{"src/page.ts:3:28 2345"}},
		{"src/spinner.ts", verifyEdit{"  size: number;\n}", "  size: number;\n  label: string;\n}"}, []string{"src/button.ts:3:29 2345"}},
		{"src/model.ts", verifyEdit{"  body: string;", "  content: string;"}, []string{"src/view.ts:3:39 2339"}},
	} {
		if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
			t.Fatalf("read %s: %s", c.file, a.Content[0].Text)
		}
		for _, back := range []bool{false, true} {
			what := fmt.Sprintf("edit of %s (undone: %v)", c.file, back)
			a := srv.toolCall(t, "edit", editArgs(c.file, c.change, back), dir)
			t.Logf("%s:\n%s", what, a.Content[0].Text)
			o := othersOf(t, what, a)
			var got []string
			for _, f := range o.Files {
				list := f.Introduced
				if back {
					list = f.Resolved
				}
				for _, p := range list {
					if p.Severity == "error" {
						got = append(got, fmt.Sprintf("%s:%d:%d %s", p.Path, p.Line, p.Column, p.Code))
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) || len(o.Stale) != 0 {
				t.Errorf("%s: other files' errors %s %v (stale %v), want %v", what, map[bool]string{false: "introduced", true: "resolved"}[back], got, o.Stale, c.want)
			}
			if !back && !strings.Contains(a.Content[0].Text, "with new problems") {
				t.Errorf("%s: the text does not say other files have new problems", what)
			}
		}
	}
}
