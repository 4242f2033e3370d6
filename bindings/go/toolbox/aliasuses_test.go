package toolbox

import (
	"reflect"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

func TestAliasesOn(t *testing.T) {
	as := func(alias string, offset int) aliasUse { return aliasUse{alias: alias, offset: offset} }
	cjs := func(alias string, offset int) aliasUse { return aliasUse{alias: alias, offset: offset, commonJS: true} }
	for _, tt := range []struct {
		name, file, text string
		line             int // zero-based, of the reference
		ident            string
		want             []aliasUse
	}{
		{"python from-import with as", "app/__init__.py", "from .pricing import compute_price as price_of", 0, "compute_price", []aliasUse{as("price_of", 38)}},
		{"python, the second of two", "a.py", "from m import other as o, compute_price as price_of", 0, "compute_price", []aliasUse{as("price_of", 43)}},
		{"python, imported without a rename", "a.py", "from .pricing import compute_price", 0, "compute_price", nil},
		{"python, another name renamed on the line", "a.py", "from m import compute_price, other as o", 0, "compute_price", nil},
		{"python, a longer name holding it", "a.py", "from m import compute_price_eu as p", 0, "compute_price", nil},
		{"python, a multi-line import list", "a.py", "from .pricing import (\n    bulk,\n    compute_price as price_of,\n)", 2, "compute_price", []aliasUse{as("price_of", 21)}},
		{"python, a with statement is no import", "a.py", "with compute_price as p:", 0, "compute_price", nil},
		{"python, an except clause is no import", "a.py", "except PriceError as e:", 0, "PriceError", nil},
		{"python, after a closed import, a list-like line is not in it", "a.py", "from m import (a)\ncompute_price as p,", 1, "compute_price", nil},
		{"python, a module alias", "a.py", "import app.pricing as pricing", 0, "pricing", []aliasUse{as("pricing", 22)}},
		{"typescript import", "src/main.ts", `import { describe as summarize, totalArea } from "./shape";`, 0, "describe", []aliasUse{as("summarize", 21)}},
		{"typescript type import", "src/main.ts", `import { type Shape as S } from "./shape";`, 0, "Shape", []aliasUse{as("S", 23)}},
		{"typescript re-export", "src/index.ts", `export { describe as describeShape } from "./shape";`, 0, "describe", []aliasUse{as("describeShape", 21)}},
		{"typescript multi-line import", "src/main.ts", "import {\n  totalArea,\n  describe as summarize,\n} from \"./shape\";", 2, "describe", []aliasUse{as("summarize", 14)}},
		{"typescript assertion is no rename", "src/main.ts", "const s = describe as unknown;", 0, "describe", nil},
		{"typescript assertion in a call's arguments", "src/main.ts", "call(\n  describe as Fn,\n);", 1, "describe", nil},
		{"after a multi-byte character: byte offsets", "a.py", "from m import x as y  # ⚠️\nfrom m import compute_price as p  # 价格", 1, "compute_price", []aliasUse{as("p", 31)}},
		{"commonjs object", "src/units.cjs", "module.exports = { toCentimetres };", 0, "toCentimetres", []aliasUse{cjs("toCentimetres", 19)}},
		{"commonjs object, renamed", "src/units.js", "module.exports = { cm: toCentimetres, other };", 0, "toCentimetres", []aliasUse{cjs("cm", 19)}},
		{"commonjs object, another name", "src/units.js", "module.exports = { toCentimetresX };", 0, "toCentimetres", nil},
		{"commonjs multi-line object", "src/units.cjs", "module.exports = {\n  toInches,\n  toCentimetres,\n};", 2, "toCentimetres", []aliasUse{cjs("toCentimetres", 2)}},
		{"commonjs property", "src/units.cjs", "exports.toInches = toInches;", 0, "toInches", []aliasUse{cjs("toInches", 8)}},
		{"commonjs module property, renamed", "src/units.cjs", "module.exports.inches = toInches;", 0, "toInches", []aliasUse{cjs("inches", 15)}},
		{"commonjs property of another value", "src/units.cjs", "exports.toInches = toInchesFast;", 0, "toInches", nil},
		{"commonjs, the module is the value", "src/units.cjs", "module.exports = toInches;", 0, "toInches", []aliasUse{cjs("toInches", 17)}},
		{"commonjs syntax in python is not searched", "a.py", "module.exports = { toInches }", 0, "toInches", nil},
		{"commonjs syntax in typescript is not searched", "a.ts", "module.exports = { toInches };", 0, "toInches", nil},
		{"python assignment", "assign.py", "ct = compute_total", 0, "compute_total", []aliasUse{as("ct", 0)}},
		{"python class attribute, annotated", "calc.py", "class Calc:\n    fn: Callable = compute_total  # the pricing", 1, "compute_total", []aliasUse{as("fn", 4)}},
		{"python assignment of a call is no alias", "a.py", "ct = compute_total(1)", 0, "compute_total", nil},
		{"python comparison is no assignment", "a.py", "ok = x == compute_total", 0, "compute_total", nil},
		{"python, the name assigned, not aliased", "a.py", "compute_total = other", 0, "compute_total", nil},
		{"typescript const", "src/a.ts", "export const summarize = describe;", 0, "describe", []aliasUse{as("summarize", 13)}},
		{"javascript let, member access is no alias", "src/a.js", "let d = describe.bind(null);", 0, "describe", nil},
		{"a line past the end", "a.py", "from m import x as y", 3, "x", nil},
	} {
		lines := strings.Split(tt.text, "\n")
		if got := aliasesOn(tt.file, lines, tt.line, tt.ident); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestAliasFollowerNote: the sites queued for a references answer are at
// zero-based UTF-16 columns, each once, and not past maxAliasDepth; the
// alias the server listed itself is known (followAliases skips it).
func TestAliasFollowerNote(t *testing.T) {
	dir := t.TempDir()
	r, err := workspacefs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a := newAliasFollower(r, map[string]string{"src/index.ts": "import { /* 🚀 */ describe as summarize } from \"./shape\";\n"})
	uri := workspacefs.FileURI(r.Abs("src/index.ts"))
	at := func(line, char uint32) lspseam.Location {
		return lspseam.Location{URI: uri, Range: lspseam.Range{Start: lspseam.Position{Line: line, Character: char}}}
	}
	// "import { /* 🚀 */ " is 18 UTF-16 units (the rocket is 2) and 20 bytes.
	a.note("describe", []lspseam.Location{at(0, 18)}, 0)
	a.note("describe", []lspseam.Location{at(0, 18)}, 0)
	if len(a.sites) != 1 {
		t.Fatalf("sites %+v, want one", a.sites)
	}
	if s := a.sites[0]; s.alias != "summarize" || s.pos != (lspseam.Position{Line: 0, Character: 30}) || s.depth != 1 || s.rel != "src/index.ts" {
		t.Errorf("site %+v, want summarize at 0:30, depth 1", s)
	}
	if a.known[locationKey("src/index.ts", lspseam.Position{Line: 0, Character: 30})] {
		t.Errorf("the alias is known before the server listed it")
	}
	a.note("describe", []lspseam.Location{at(0, 30)}, maxAliasDepth)
	if len(a.sites) != 1 || !a.known[locationKey("src/index.ts", lspseam.Position{Line: 0, Character: 30})] {
		t.Errorf("at the depth bound: sites %+v (want no more), the listed alias known", a.sites)
	}
}
