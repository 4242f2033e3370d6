package toolbox

import (
	"testing"

	"github.com/lspseam/lspseam/core"
)

func TestDeclaresOther(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"def price_of(item, qty):", true},
		{"    async def price_of(self):", true},
		{"class price_of:", true},
		{"export function price_of(a) {", true},
		{"export default function price_of() {}", true},
		{"  public static function price_of($x) {", true},
		{"local function price_of(x)", true},
		{"price_of() {", true},
		{"price_of () {", true},
		{"def price_of_all(items):", false},
		{"    total += price_of(item, n)", false},
		{"from .report import price_of as p", false},
		{"x = obj.price_of(3)", false},
		{"# def price_of was here", false},
	} {
		if got := declaresOther("shop.py", c.line, "price_of"); got != c.want {
			t.Errorf("declaresOther(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestOnlyInStrings(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`import { Badge } from "./Badge.jsx";`, false},
		{`import { ShapeBadge } from "./Badge.jsx";`, true},
		{`x = getattr(obj, 'Badge')`, true},
		{`s = "say \"Badge\" twice"`, true},
		{"t = `${Badge}`", false},
		{`print(Badge, "Badge")`, false},
		{`no badge here`, false},
	} {
		if got := onlyInStrings(c.line, core.IdentifierOffsets("a.js", c.line, "Badge")); got != c.want {
			t.Errorf("onlyInStrings(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestLineAt(t *testing.T) {
	text := "a\nb\n\nd"
	for n, want := range []string{"a", "b", "", "d", ""} {
		if got := lineAt(text, n); got != want {
			t.Errorf("lineAt(%d) = %q, want %q", n, got, want)
		}
	}
}
