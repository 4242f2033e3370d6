package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImpactThroughAliases: an edit's check of other files follows the
// declaration past the lines that rename it (bindings/go/toolbox/
// aliasuses.go). pyright's references of total_area stop at
// `from .base import total_area as area_of` in shapes/__init__.py; two
// other files call area_of, and the signature change's answer must name
// their new errors (before: "… checked, no new problems" while they no
// longer type-checked). tsserver follows `export { describe as
// describeShape }` itself (kept as a guard). tsserver's references of a
// function exported with `module.exports = { toCentimetres }` stop there
// (main.js's `units.toCentimetres(12)` is not among them): the answer
// says so instead of "none refer to what changed".
func TestImpactThroughAliases(t *testing.T) {
	for _, c := range []struct {
		name, server, ws, file string
		files                  map[string]string // written into the fixture's copy
		change                 verifyEdit
		broken                 []impactAt // new errors in other files
		says                   string     // in the answer's text
	}{
		{"py", "pyright-langserver", "py", "shapes/base.py",
			map[string]string{
				"shapes/__init__.py":  "\"\"\"Flat geometric figures.\"\"\"\n\nfrom .base import total_area as area_of\n\n__all__ = [\"area_of\"]\n",
				"shapes/inventory.py": "\"\"\"The area of an inventory of shapes.\"\"\"\n\nfrom shapes import area_of\nfrom shapes.base import Shape\n\n\ndef inventory_area(items: list[Shape]) -> float:\n    return area_of(items)\n",
				"shapes/tally.py":     "\"\"\"A line about the area of shapes.\"\"\"\n\nfrom shapes import area_of\nfrom shapes.base import Shape\n\n\ndef tally(items: list[Shape]) -> str:\n    return f\"total {area_of(items):.1f}\"\n",
			},
			verifyEdit{"def total_area(shapes: Iterable[Shape]) -> float:", "def total_area(shapes: Iterable[Shape], unit: str) -> float:"},
			[]impactAt{{"shapes/inventory.py", 8, 12}, {"shapes/tally.py", 8, 21}}, ""},
		// A name bound by assignment (`sum_areas = total_area`), used
		// in another file: the references at the assigned name.
		{"py assignment", "pyright-langserver", "py", "shapes/base.py",
			map[string]string{
				"shapes/assign.py":    "\"\"\"Another name for total_area.\"\"\"\n\nfrom shapes.base import total_area\n\nsum_areas = total_area\n",
				"shapes/useassign.py": "\"\"\"Uses the other name.\"\"\"\n\nfrom shapes.assign import sum_areas\nfrom shapes.base import Shape\n\n\ndef sized(items: list[Shape]) -> float:\n    return sum_areas(items)\n",
			},
			verifyEdit{"def total_area(shapes: Iterable[Shape]) -> float:", "def total_area(shapes: Iterable[Shape], unit: str) -> float:"},
			[]impactAt{{"shapes/useassign.py", 8, 12}}, ""},
		{"ts", "typescript-language-server", "ts", "src/shape.ts",
			map[string]string{
				"src/index.ts":  "export { describe as describeShape } from \"./shape\";\n",
				"src/banner.ts": "import { describeShape } from \"./index\";\nimport type { Shape } from \"./shape\";\n\nexport function banner(s: Shape): string {\n  return \"== \" + describeShape(s);\n}\n",
			},
			verifyEdit{"export function describe(shape: Shape): string {", "export function describe(shape: Shape, verbose: boolean): string {"},
			[]impactAt{{"src/banner.ts", 5, 18}}, ""},
		{"js", "typescript-language-server", "js", "src/units.cjs", nil,
			verifyEdit{"function toCentimetres(inches) {", "function toCentimetres(inches, unit) {"},
			nil, "The references asked may have missed files: the server's references stop at the CommonJS export toCentimetres (src/units.cjs:12)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			requireServers(t, c.server)
			t.Parallel()
			dir := copyFixture(t, c.ws)
			for rel, text := range c.files {
				writeFixtureFile(t, dir, filepath.FromSlash(rel), text)
			}
			srv := catalogServe(t)
			defer srv.shutdown(t)
			if a := srv.toolCall(t, "read", jsonArgs(map[string]any{"file_path": c.file}), dir); a.IsError {
				t.Fatalf("read: %s", a.StructuredContent)
			}
			a := srv.toolCall(t, "edit", editArgs(c.file, c.change, false), dir)
			text := a.Content[0].Text
			t.Logf("edit:\n%s", text)
			o := othersOf(t, "edit", a)
			for _, b := range c.broken {
				var at []string
				for _, f := range o.Files {
					for _, p := range f.Introduced {
						if f.Path == b.path && p.Severity == "error" {
							at = append(at, fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Column))
						}
					}
				}
				want := fmt.Sprintf("%s:%d:%d", b.path, b.line, b.column)
				if !slices.Contains(o.WithIntroduced, b.path) || slices.Contains(o.Stale, b.path) || !slices.Contains(at, want) || !strings.Contains(text, want+" error") {
					t.Errorf("%s: errors at %v (new problems in %v, stale %v); want %s named in the text", b.path, at, o.WithIntroduced, o.Stale, want)
				}
			}
			if !strings.Contains(text, c.says) {
				t.Errorf("the answer does not say %q", c.says)
			}
		})
	}
}

// TestCallersNameTheAliases: pyright's incoming calls (and references)
// stop where the function is renamed (`from .base import total_area as area_of`): the
// callers through area_of are not among them, and the answer says so,
// naming the alias and where to ask (a tester's callers listed 1 of 4
// call sites with no Incomplete line).
func TestCallersNameTheAliases(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	writeFixtureFile(t, dir, filepath.FromSlash("shapes/__init__.py"), "\"\"\"Flat geometric figures.\"\"\"\n\nfrom .base import total_area as area_of\n\n__all__ = [\"area_of\"]\n")
	writeFixtureFile(t, dir, filepath.FromSlash("shapes/inventory.py"), "\"\"\"The area of an inventory of shapes.\"\"\"\n\nfrom shapes import area_of\nfrom shapes.base import Shape\n\n\ndef inventory_area(items: list[Shape]) -> float:\n    return area_of(items)\n")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_hierarchy", jsonArgs(map[string]any{"target": map[string]any{"path": "shapes/base.py", "symbol": "total_area"}, "kind": "callers"}), dir)
	text := a.Content[0].Text
	t.Logf("callers:\n%s", text)
	if a.IsError || !strings.Contains(text, "Incomplete: ") || !strings.Contains(text, "area_of (shapes/__init__.py:3:33)") {
		t.Errorf("the callers answer does not name the alias area_of (shapes/__init__.py:3:33) in its Incomplete line")
	}
	// The references list the import line, not area_of's uses: so too.
	a = srv.toolCall(t, "code_navigate", jsonArgs(map[string]any{"target": map[string]any{"path": "shapes/base.py", "symbol": "total_area"}, "kind": "references"}), dir)
	text = a.Content[0].Text
	t.Logf("references:\n%s", text)
	if a.IsError || !strings.Contains(text, "Incomplete: uses under other names are not listed") || !strings.Contains(text, "area_of (shapes/__init__.py:3:33)") {
		t.Errorf("the references answer does not name the alias area_of (shapes/__init__.py:3:33) in its Incomplete line")
	}
}
