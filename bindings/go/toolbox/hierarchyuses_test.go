package toolbox

import (
	"reflect"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

func TestReferenceUse(t *testing.T) {
	at := func(line, col uint32, n int) core.Range {
		return core.Range{Start: core.Position{Line: line, Character: col}, End: core.Position{Line: line, Character: col + uint32(n)}}
	}
	const text = "import { go } from './go';\nexport { go };\n  go();\n  <Button onClick={go} />\n  </Go>\n  list.map(go);\n  go?.(1);\nexport const { go, stop } = make();\nconst x = go;\nexport function go() {}\n  return { go: () => 1, stop: ok ? go : x };\n"
	for _, c := range []struct {
		name string
		r    core.Range
		id   string
		want useKind
	}{
		{"an import", at(0, 9, 2), "go", useImport},
		{"a re-export", at(1, 9, 2), "go", useImport},
		{"a call", at(2, 2, 2), "go", useCall},
		{"a JSX prop's value", at(3, 19, 2), "go", useValue},
		{"a JSX element", at(3, 3, 6), "Button", useTag},
		{"a closing tag", at(4, 4, 2), "Go", useTag},
		{"a callback argument", at(5, 11, 2), "go", useValue},
		{"an optional call", at(6, 2, 2), "go", useCall},
		{"a destructuring declaration", at(7, 15, 2), "go", useDeclaration},
		{"an assignment's value", at(8, 10, 2), "go", useValue},
		{"a function declaration", at(9, 16, 2), "go", useDeclaration},
		{"a property's key", at(10, 11, 2), "go", useDeclaration},
		{"a ternary's branch", at(10, 37, 2), "go", useValue},
	} {
		if got := referenceUse("file:///w/a.tsx", text, c.r, c.id); got != c.want {
			t.Errorf("%s: referenceUse = %d, want %d", c.name, got, c.want)
		}
	}
}

// unlistedCalls finds the calls of bare names and the JSX elements in a
// body that the server's sites do not hold, and no word in a string, a
// comment, a member call or a declaration.
func TestUnlistedCalls(t *testing.T) {
	const text = `export const Landing = () => {
  const user = useUser();
  const nav = useNavigate();
  if (user) { console.log("see(this)"); } // not(this)
  function local(x: number) { return x; }
  return (
    <div>
      <Button onClick={() => nav('/')} />
      <Head title="x" />
      {/* <Hidden /> */}
      <Button.Icon />
    </div>
  );
};
outside();
`
	body := core.Range{Start: core.Position{Line: 0, Character: 22}, End: core.Position{Line: 13, Character: 1}}
	listed := []core.Range{
		{Start: core.Position{Line: 2, Character: 14}, End: core.Position{Line: 2, Character: 25}}, // useNavigate
		{Start: core.Position{Line: 8, Character: 7}, End: core.Position{Line: 8, Character: 11}},  // Head
	}
	got := unlistedCalls(text, body, listed)
	want := []unlistedCall{{"useUser", []int{2}}, {"Button", []int{8, 11}}, {"nav", []int{8}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unlistedCalls = %+v, want %+v", got, want)
	}
	if n := unlistedCallsNotice(want); n == "" || !strings.Contains(n, "useUser (line 2), Button (lines 8, 11), nav (line 8)") {
		t.Errorf("unlistedCallsNotice = %q", n)
	}
}

// innermostFunction names a site by the innermost function holding it,
// a callback inside a constant included, and none for a module's code.
func TestInnermostFunction(t *testing.T) {
	r := func(l1, c1, l2, c2 uint32) core.Range {
		return core.Range{Start: core.Position{Line: l1, Character: c1}, End: core.Position{Line: l2, Character: c2}}
	}
	outline := []lspseam.OutlineEntry{
		{Name: "Button", Kind: 14, Range: r(8, 13, 10, 2), SelectionRange: r(8, 13, 8, 19)},
		{Name: "forwardRef() callback", Kind: 12, Container: "Button", Range: r(8, 33, 10, 1), SelectionRange: r(8, 33, 8, 33)},
		{Name: "cn", Kind: 12, Range: r(0, 0, 2, 1), SelectionRange: r(0, 16, 0, 18)},
	}
	if e, ok := innermostFunction(outline, core.Position{Line: 9, Character: 28}); !ok || e.Name != "forwardRef() callback" {
		t.Errorf("a site in the callback: %+v, %v", e, ok)
	}
	if e, ok := innermostFunction(outline, core.Position{Line: 12, Character: 0}); ok {
		t.Errorf("a site at the module's level: %+v", e)
	}
}
