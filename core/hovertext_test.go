package core

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestHoverContentsText(t *testing.T) {
	tests := []struct {
		name, md, want string
	}{
		{"code then paragraph", "```go\nfunc F()\n```\n\nF does it.\nReally.\n\nMore.", "func F()\n\nF does it.\nReally."},
		{"paragraph before code", "F does it.\n\n```go\nfunc F()\n```", "func F()\n\nF does it."},
		{"only the first code block", "```go\nfunc F()\n```\n\n```go\nfunc G()\n```\n\nDocs.", "func F()\n\nDocs."},
		{"tilde fence and longer backtick fence", "~~~\nx := 1\n~~~\n\n````md\n```\ninner\n```\n````", "x := 1"},
		{"unclosed fence takes the rest", "```go\nfunc F()\nfunc G()", "func F()\nfunc G()"},
		{"rule and heading skipped", "# Title\n\n---\nDoc line.", "Doc line."},
		{"#include is not a heading", "#include <x>\nDoc.", "#include <x>\nDoc."},
		{"heading only is the text", "### function `add`", "function add"},
		{"link-only paragraph skipped", "```go\nvar x int\n```\n\n[`x` on pkg.go.dev](https://pkg.go.dev/x#x)", "var x int"},
		{"link inside prose kept as text", "See [the docs](https://x.y/z) now.", "See the docs now."},
		{"clangd facts skipped", "→ `int`\nParameters:\n- `int a`\n\nAdds.", "Adds."},
		{"clangd 22 parameter list paragraph skipped", "### function `add`\n\nprovided by `\"m.h\"`\n\n---\n→ `int`\n\nParameters:\n\n- `int a`\n- `int b`\n\nAdds.\n\n---\n```cpp\nint add(int a, int b)\n```", "int add(int a, int b)\n\nAdds."},
		{"a list after other prose is documentation", "Notes:\n\n- one\n- two", "Notes:"},
		{"intelephense bold name skipped", "__Shapes\\\\total\\_area__\n\nReturns the sum.\n\n```php\n<?php\nfunction total_area(array $shapes): float { }\n```\n\n_@param_ `Shape[] $shapes`", "<?php\nfunction total_area(array $shapes): float { }\n\nReturns the sum."},
		{"bold inside a paragraph is kept", "**Note** this is **it**.", "Note this is it."},
		{"a list first is documentation", "- `a` first\n- `b` second", "- a first\n- b second"},
		{"rust-analyzer module path first", "```rust\ncrate::geom\n```\n\n```rust\npub fn area(r: f64) -> f64\n```\n\n---\n\nComputes the area.", "pub fn area(r: f64) -> f64\n\nComputes the area."},
		{"one-line signature then more code", "```go\nvar x int\n```\n\n```go\nfunc F()\n```", "var x int"},
		{"lone path and no second block", "```rust\ncrate::geom\n```", "crate::geom"},
		{"three blocks: second is the signature", "```rust\ncrate\n```\n```rust\nfn a()\n```\n```rust\nfn b()\n```", "fn a()"},
		{"plain text", "just words", "just words"},
		{"blank", "  \n\n", ""},
		{"crlf", "```py\r\ndef f(): ...\r\n```\r\n\r\nDoc.\r\n", "def f(): ...\n\nDoc."},
	}
	for _, tt := range tests {
		if got := hoverContentsText(tt.md); got != tt.want {
			t.Errorf("%s: hoverContentsText(%q) = %q, want %q", tt.name, tt.md, got, tt.want)
		}
	}
}

func TestFlattenInline(t *testing.T) {
	tests := []struct{ in, want string }{
		{"`x`", "x"},
		{"`` a`b ``", "a`b"},
		{"unclosed `x", "unclosed `x"},
		{"**bold** and *em* and _em_", "bold and em and em"},
		{"snake_case_name stays", "snake_case_name stays"},
		{"*args and **kwargs", "*args and **kwargs"},
		{"a * b * c", "a * b * c"},
		{"2*3*4", "2*3*4"},
		{`\_\_init\_\_ and \*`, "__init__ and *"},
		{"[text](http://u) and ![img](x.png)", "text and img"},
		{"[not a link] (x)", "[not a link] (x)"},
		{"a&nbsp;b &lt;T&gt; &amp; &copy;", "a b <T> & &copy;"},
		{"*@param* `r` — radius", "@param r — radius"},
		{"é*ü*", "é*ü*"},
		{strings.Repeat("[", 20) + "a" + strings.Repeat("](u)", 20), strings.Repeat("[", 19) + "a" + strings.Repeat("](u)", 19)},
	}
	for _, tt := range tests {
		if got := flattenInline(tt.in, 0); got != tt.want {
			t.Errorf("flattenInline(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReadSignatureHelp(t *testing.T) {
	tests := []struct {
		name, in   string
		label      string // the bolded label as codeHover writes it; "" for none
		active     string
		hasActive  bool
		params     []string
		wantErr    string
		noSignture bool
	}{
		{name: "string labels", in: `{"signatures":[{"label":"f(a int, b int)","parameters":[{"label":"a int"},{"label":"b int"}]}],"activeParameter":1}`,
			label: "f(a int, **b int**)", active: "b int", hasActive: true, params: []string{"a int", "b int"}},
		{name: "repeated string label found in order", in: `{"signatures":[{"label":"f(x, x)","parameters":[{"label":"x"},{"label":"x"}]}],"activeParameter":1}`,
			label: "f(x, **x**)", active: "x", hasActive: true, params: []string{"x", "x"}},
		{name: "name also before the parenthesis", in: `{"signatures":[{"label":"a(a)","parameters":[{"label":"a"}]}]}`,
			label: "a(**a**)", active: "a", hasActive: true, params: []string{"a"}},
		{name: "offsets with a surrogate pair", in: `{"signatures":[{"label":"f(🚀: T, b)","parameters":[{"label":[2,7]},{"label":[9,10]}]}],"activeParameter":0}`,
			label: "f(**🚀: T**, b)", active: "🚀: T", hasActive: true, params: []string{"🚀: T", "b"}},
		{name: "signature's activeParameter wins", in: `{"signatures":[{"label":"f(a, b)","parameters":[{"label":"a"},{"label":"b"}],"activeParameter":1}],"activeParameter":0}`,
			label: "f(a, **b**)", active: "b", hasActive: true, params: []string{"a", "b"}},
		{name: "active out of range: none", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":"a"}]}],"activeParameter":3}`,
			label: "f(a)", params: []string{"a"}},
		{name: "activeSignature out of range: the first", in: `{"signatures":[{"label":"f()"},{"label":"g()"}],"activeSignature":9}`,
			label: "f()", params: []string{}},
		{name: "label not in the signature: listed, not bolded", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":"zz"}]}]}`,
			label: "f(a)", active: "zz", hasActive: true, params: []string{"zz"}},
		{name: "no signatures", in: `{"signatures":[]}`, noSignture: true},
		{name: "not an object", in: `[]`, wantErr: "result must be null or a SignatureHelp object"},
		{name: "signatures missing", in: `{}`, wantErr: "result.signatures must be an array"},
		{name: "label missing", in: `{"signatures":[{"parameters":[]}]}`, wantErr: "result.signatures[0].label must be a string"},
		{name: "reversed offsets", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":[3,2]}]}]}`, wantErr: "offsets [3, 2] do not lie within"},
		{name: "three offsets", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":[1,2,3]}]}]}`, wantErr: "got an array of 3"},
		{name: "negative offset", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":[-1,2]}]}]}`, wantErr: "offsets must be non-negative integers"},
		{name: "label number", in: `{"signatures":[{"label":"f(a)","parameters":[{"label":4}]}]}`, wantErr: "parameters[0].label must be a string or [start, end]"},
		{name: "bad activeParameter", in: `{"signatures":[{"label":"f(a)","activeParameter":"a"}]}`, wantErr: "result.signatures[0].activeParameter must be a non-negative integer or null"},
		{name: "bad activeSignature", in: `{"signatures":[],"activeSignature":-1}`, wantErr: "result.activeSignature must be a non-negative integer"},
		{name: "second signature not an object", in: `{"signatures":[{"label":"f()"},3]}`, wantErr: "result.signatures[1] must be a SignatureInformation object"},
	}
	for _, tt := range tests {
		sig, err := readSignatureHelp(gjson.Parse(tt.in))
		switch {
		case tt.wantErr != "":
			if err == nil || err.Code != CodeMalformedResponse || !strings.Contains(err.Message, tt.wantErr) {
				t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.wantErr)
			}
			continue
		case err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, err)
			continue
		case tt.noSignture:
			if sig != nil {
				t.Errorf("%s: got %+v, want no signature", tt.name, sig)
			}
			continue
		case sig == nil:
			t.Errorf("%s: no signature", tt.name)
			continue
		}
		env := Call("codeHover", []byte(`{"hover":null,"signatureHelp":`+tt.in+`}`))
		if got := gjson.GetBytes(env, "ok.text").Str; got != "In a call to: "+tt.label {
			t.Errorf("%s: text %q, want %q", tt.name, got, "In a call to: "+tt.label)
		}
		if sig.HasActive != tt.hasActive || sig.ActiveParameter != tt.active || strings.Join(sig.Parameters, "|") != strings.Join(tt.params, "|") {
			t.Errorf("%s: got active %v %q params %q, want %v %q %q", tt.name, sig.HasActive, sig.ActiveParameter, sig.Parameters, tt.hasActive, tt.active, tt.params)
		}
	}
}

func TestCodeHoverBounds(t *testing.T) {
	long := "```go\n" + strings.Repeat("x", 3*maxHoverTextRunes) + "\n```"
	in := `{"hover":{"contents":{"kind":"markdown","value":` + string(appendString(nil, long)) + `}}}`
	text := gjson.GetBytes(Call("codeHover", []byte(in)), "ok.text").Str
	if n := len([]rune(text)); n != maxHoverTextRunes || !strings.HasSuffix(text, "…") {
		t.Errorf("text of %d runes, want %d ending with …", n, maxHoverTextRunes)
	}
}

func TestHoverEntities(t *testing.T) {
	tests := []struct{ in, want string }{
		{":param x: the value\n&nbsp;&nbsp;&nbsp;&nbsp;continued", ":param x: the value\n    continued"},
		{"a &lt;b&gt; &amp;lt; `&nbsp;` &quot;q&quot;", "a <b> &lt; `&nbsp;` \"q\""},
		{"```python\nx = '&nbsp;'\n```\n&nbsp;after", "```python\nx = '&nbsp;'\n```\n after"},
		{"no entity", "no entity"},
	}
	for _, tt := range tests {
		if got := hoverEntities(tt.in); got != tt.want {
			t.Errorf("hoverEntities(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
