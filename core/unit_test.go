package core

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Table-driven tests of the small pure functions the methods are built
// from. The methods themselves are covered by the golden cases.

func TestFileURIPath(t *testing.T) {
	tests := []struct {
		uri  string
		path string
		ok   bool
	}{
		{"file:///w/a.go", "/w/a.go", true},
		{"file:///", "/", true},
		{"FILE:///w", "/w", true},
		{"file://localhost/w/a", "/w/a", true},
		{"file://LocalHost/w/a", "/w/a", true},
		{"file:/w/a", "/w/a", true},
		{"file:///w/a%20b/%C3%A9", "/w/a b/é", true},
		{"file:///w/a%2fb", "", false},
		{"file:///w/a%00b", "", false},
		{"file:///w/%zz", "", false},
		{"file:///w/%4", "", false},
		{"file:///w/%FF", "", false},
		{"file:///w/x?query#frag", "/w/x", true},
		{"file:///w/sub/../x", "/w/x", true},
		{"file:///w//x/", "/w/x", true},
		{"file://host/share", "", false},
		{"file://", "", false},
		{"file:a.go", "", false},
		{"https:///w", "", false},
		{"/w/a.go", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		path, ok := FileURIPath(tt.uri)
		if path != tt.path || ok != tt.ok {
			t.Errorf("FileURIPath(%q) = %q, %v; want %q, %v", tt.uri, path, ok, tt.path, tt.ok)
		}
	}
}

func TestDisplayPath(t *testing.T) {
	tests := []struct{ uri, ws, want string }{
		{"file:///w/p/a.go", "/w/p", "a.go"},
		{"file:///w/p", "/w/p", "."},
		{"file:///w/p/", "/w/p", "."},
		{"file:///w/pp/a.go", "/w/p", "/w/pp/a.go"},
		{"file:///a.go", "/", "a.go"},
		{"file:///w/p/d%20e/f.go", "/w/p", "d e/f.go"},
		{"untitled:1", "/w/p", "untitled:1"},
		{"file://h/x", "/w/p", "file://h/x"},
	}
	for _, tt := range tests {
		if got := displayPath(tt.uri, tt.ws); got != tt.want {
			t.Errorf("displayPath(%q, %q) = %q, want %q", tt.uri, tt.ws, got, tt.want)
		}
	}
}

func TestFinalExtension(t *testing.T) {
	tests := map[string]string{
		"a.go": ".go", "Foo.TS": ".ts", "x.d.ts": ".ts", "dir.v2/main": "", "Makefile": "",
		".bashrc": "", ".eslintrc.json": ".json", "a.": "", "a\\b.C": ".c", "/abs/π.Py": ".py", "": "",
	}
	for in, want := range tests {
		if got := FinalExtension(in); got != want {
			t.Errorf("FinalExtension(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeExtension(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{"ts", ".ts", false}, {".TS", ".ts", false}, {".c++", ".c++", false},
		{"", "", true}, {".", "", true}, {".d.ts", "", true}, {"a/b", "", true}, {".a b", "", true}, {".a\tb", "", true},
	}
	for _, tt := range tests {
		got, problem := NormalizeExtension(tt.in)
		if got != tt.want || (problem != "") != tt.bad {
			t.Errorf("NormalizeExtension(%q) = %q, %q", tt.in, got, problem)
		}
	}
}

func TestInteger(t *testing.T) {
	tests := []struct {
		raw  string
		n    int64
		ok   bool
		low  int64
		high int64
	}{
		{"1", 1, true, 1, 10}, {"10", 10, true, 1, 10}, {"11", 0, false, 1, 10}, {"0", 0, false, 1, 10},
		{"1.0", 1, true, 1, 10}, {"1e1", 10, true, 1, 10}, {"1.5", 0, false, 1, 10}, {"-1", 0, false, 0, 10},
		{`"1"`, 0, false, 1, 10}, {"true", 0, false, 1, 10}, {"99999999999999999999", 0, false, 0, maxSafeInteger},
		{"1e400", 0, false, 0, maxSafeInteger}, {"-0", 0, true, 0, 1},
	}
	for _, tt := range tests {
		n, ok := integer(gjson.Parse(tt.raw), tt.low, tt.high)
		if n != tt.n || ok != tt.ok {
			t.Errorf("integer(%s in [%d,%d]) = %d, %v; want %d, %v", tt.raw, tt.low, tt.high, n, ok, tt.n, tt.ok)
		}
	}
}

func TestFenced(t *testing.T) {
	tests := []struct{ lang, code, want string }{
		{"go", "func F()", "```go\nfunc F()\n```"},
		{"go", "func F()\n", "```go\nfunc F()\n```"},
		{"md", "a ``` b", "````md\na ``` b\n````"},
		{"", "x", "```\nx\n```"},
	}
	for _, tt := range tests {
		if got := fenced(tt.lang, tt.code); got != tt.want {
			t.Errorf("fenced(%q, %q) = %q, want %q", tt.lang, tt.code, got, tt.want)
		}
	}
}

// TestAppendStringMatchesEncodingJSON: core's string encoder must produce
// JSON that decodes to the same string encoding/json would (for valid
// UTF-8), so every host reads what core meant.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\slash", "tab\tnl\ncr\r", "\x00\x01\x1f\x7f", "<>&", "é🚀", "\u2028\u2029", "ctl\u0085"} {
		var back string
		if err := json.Unmarshal(appendString(nil, s), &back); err != nil || back != s {
			t.Errorf("appendString(%q) = %s, decodes to %q (%v)", s, appendString(nil, s), back, err)
		}
	}
	if got := string(appendString(nil, "a\xffb")); got != "\"a\uFFFDb\"" {
		t.Errorf("invalid UTF-8 encoded as %q", got)
	}
}

func TestCallNeverPanics(t *testing.T) {
	for _, m := range append(Methods, "nope", "") {
		for _, in := range []string{"", "null", "{}", "[]", `"x"`, "1", `{"result":{}}`, "{\"a\":", "\xff"} {
			env := Call(m, []byte(in))
			if !json.Valid(env) || strings.Contains(string(env), string(CodeInternal)) {
				t.Errorf("Call(%q, %q) = %s", m, in, env)
			}
		}
	}
	if env := string(Call("nope", []byte("{}"))); !strings.Contains(env, string(CodeUnknownMethod)) {
		t.Errorf("unknown method: %s", env)
	}
}

// TestRenderBounds checks the limits on generated results of many sizes:
// the text never exceeds maxResultChars code points, shown+omitted is the
// number of locations, and cut lists end in whole lines.
func TestRenderBounds(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 99, 100, 101, 1000} {
		locs := make([]Location, n)
		for i := range locs {
			locs[i] = Location{URI: "file:///w/dir/fïle" + strings.Repeat("🚀", i%5) + ".go", Range: Range{Start: Position{Line: uint32(i), Character: uint32(i * 3)}}}
		}
		for _, max := range []int{1, 5, 11, 12, 40, 70, 100, 1000, 16000} {
			for _, maxLocs := range []int{1, 3, 100} {
				r, err := Render(Result{Kind: KindLocations, Locations: locs}, "file:///w", Limits{MaxLocations: maxLocs, MaxResultChars: max})
				if err != nil {
					t.Fatal(err)
				}
				if c := utf8.RuneCountInString(r.Text); c > max || c == 0 {
					t.Fatalf("n=%d max=%d: %d code points", n, max, c)
				}
				if n > 0 && r.Shown+r.Omitted != n {
					t.Fatalf("n=%d: shown %d + omitted %d", n, r.Shown, r.Omitted)
				}
				lines := strings.Split(r.Text, "\n")
				if r.Shown > 0 && len(lines) < r.Shown {
					t.Fatalf("n=%d max=%d: %d lines for %d shown", n, max, len(lines), r.Shown)
				}
				for _, l := range lines[:r.Shown] {
					if !strings.HasPrefix(l, "dir/fïle") || strings.Count(l, ":") != 2 {
						t.Fatalf("n=%d max=%d: partial or foreign line %q", n, max, l)
					}
				}
			}
		}
	}
}
