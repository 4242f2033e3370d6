package core

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// globCases is the glob table: each pattern against paths that must and
// must not match. FuzzGlobMatch seeds from it.
var globCases = []struct {
	pattern string
	yes, no []string
}{
	{"*.go", []string{"a.go", ".go", "x.y.go"}, []string{"a/b.go", "a.GO", "a.go/x", "a.gox"}},
	{"**/*.go", []string{"a.go", "x/y/a.go", "/abs/x.go", "//a.go"}, []string{"a.go/x", "x/a.g"}},
	{"**/*.{go,mod,sum,work,s}", []string{"go.mod", "x/go.sum", "a/b/c.s", "go.work", "/w/p/main.go"}, []string{"go.mod.bak", "x.S", "x.c"}},
	{"a/**", []string{"a", "a/b", "a/b/c", "a/"}, []string{"b", "ab", "b/a"}},
	{"a/**/b", []string{"a/b", "a/x/b", "a/x/y/b", "a//b"}, []string{"a", "ab", "a/xb", "a/b/c", "x/a/b"}},
	{"**", []string{"", "a", "a/b", "/", "/a/b/"}, nil},
	{"**/**", []string{"", "a", "a/b/c"}, nil},
	{"/**/x", []string{"/x", "/a/b/x"}, []string{"x", "a/x"}},
	{"a**b", []string{"ab", "axxb"}, []string{"a/b", "a/x/b"}},
	{"**a", []string{"a", "xxa"}, []string{"x/a"}},
	{"a/**b/c", []string{"a/b/c", "a/xb/c"}, []string{"a/x/b/c"}},
	{"?", []string{"a", "é", "🚀"}, []string{"", "ab", "/"}},
	{"a?c", []string{"abc", "a.c"}, []string{"a/c", "ac"}},
	{"*", []string{"", "abc"}, []string{"a/b", "/"}},
	{"*/", []string{"a/", "/"}, []string{"a", "a/b"}},
	{"[abc]", []string{"a", "c"}, []string{"d", "ab", ""}},
	{"[a-z]x", []string{"mx"}, []string{"Mx", "x"}},
	{"[!a-z]", []string{"A", "0", "é"}, []string{"a", "/", ""}},
	{"[^a-z]", []string{"A"}, []string{"q"}},
	{"[]]", []string{"]"}, []string{"a"}},
	{"[!]]", []string{"a"}, []string{"]"}},
	{"[]-a]", []string{"]", "^", "a"}, []string{"b"}},
	{"[a-]", []string{"a", "-"}, []string{"b"}},
	{"[-a]", []string{"a", "-"}, []string{"b"}},
	{"[+-0]", []string{"+", ".", "0"}, []string{"a/"}},
	{"[{,}]", []string{"{", ",", "}"}, []string{"a"}},
	{"[α-γ]", []string{"β"}, []string{"δ"}},
	{"{a,b/c}", []string{"a", "b/c"}, []string{"b", "c", "a/c"}},
	{"{**/x,y}", []string{"x", "p/q/x", "y"}, []string{"p/y"}},
	{"x{,.bak}", []string{"x", "x.bak"}, []string{"x.b"}},
	{"{a,{b,{c,d}}}e", []string{"ae", "be", "ce", "de"}, []string{"e", "abe"}},
	{"{}", []string{""}, []string{"a"}},
	{"a}b,c", []string{"a}b,c"}, []string{"a"}},
	{`a\*b`, []string{`a\xb`, `a\b`}, []string{"a*b", "axb"}},
	{`\[a]`, []string{`\a`}, []string{"[a]", "a"}},
	{"src/**/*_test.go", []string{"src/a_test.go", "src/x/y/b_test.go"}, []string{"a_test.go", "src/a.go"}},
	{"A.go", []string{"A.go"}, []string{"a.go"}},
	{"a//b", []string{"a//b"}, []string{"a/b"}},
	{"*a*a*a*a*a*a*a*a*a*b", []string{strings.Repeat("a", 30) + "b"}, []string{strings.Repeat("a", 200)}},
	{strings.Repeat("**/", 40) + "x", []string{"x", strings.Repeat("d/", 60) + "x"}, []string{strings.Repeat("d/", 60) + "y"}},
	{strings.Repeat("*/", 30) + "*", []string{strings.Repeat("d/", 30) + "x"}, []string{strings.Repeat("d/", 31) + "x"}},
	{strings.Repeat("{a,b}", 8), []string{"abababab"}, []string{"abababa"}},
	{"\xff*", []string{"\xff", "\xfex", "\uFFFD"}, []string{"x"}},
}

func TestGlobMatch(t *testing.T) {
	for _, c := range globCases {
		g, err := CompileGlob(c.pattern)
		if err != nil {
			t.Errorf("CompileGlob(%q): %v", c.pattern, err)
			continue
		}
		for _, p := range c.yes {
			if !g.Match(p) {
				t.Errorf("%q should match %q", c.pattern, p)
			}
			if !referenceGlob(t, c.pattern).MatchString("/" + p) {
				t.Errorf("reference: %q should match %q", c.pattern, p)
			}
		}
		for _, p := range c.no {
			if g.Match(p) {
				t.Errorf("%q should not match %q", c.pattern, p)
			}
			if referenceGlob(t, c.pattern).MatchString("/" + p) {
				t.Errorf("reference: %q should not match %q", c.pattern, p)
			}
		}
	}
}

func TestCompileGlobErrors(t *testing.T) {
	tests := []struct{ pattern, want string }{
		{"", "must not be empty"},
		{strings.Repeat("a", maxGlobBytes+1), "longer than the 4096 bytes"},
		{"[abc", "unclosed '[' at byte 0"},
		{"x/[a/b]", "unclosed '[' at byte 2"},
		{"[]", "unclosed '['"},
		{"[!]", "unclosed '['"},
		{"{a,b", "unclosed '{' at byte 0"},
		{"x{a,{b,c}", "unclosed '{' at byte 1"},
		{"{[,}]", "unclosed '{'"},
		{strings.Repeat("{a,b}", 9), "more than 256 alternatives"},
		{"{" + strings.Repeat("a,", 256) + "a}", "more than 256 alternatives"},
		{"{a,b}{" + strings.Repeat("a,", 128) + "}", "more than 256 alternatives"},
		{strings.Repeat("{a,b}", 60), "more than 256 alternatives"},
		{"[z-a]", `the range "z-a"`},
	}
	for _, tt := range tests {
		g, err := CompileGlob(tt.pattern)
		if err == nil || err.Code != CodeInvalidArgument || !strings.Contains(err.Message, tt.want) {
			t.Errorf("CompileGlob(%q) = %v, %v; want LSP_INVALID_ARGUMENT containing %q", clip(tt.pattern, 40), g, err, tt.want)
		}
	}
	// The longest and widest patterns allowed still compile.
	for _, ok := range []string{strings.Repeat("a", maxGlobBytes), strings.Repeat("{a,b}", 8), "{" + strings.Repeat("a,", 255) + "a}"} {
		if _, err := CompileGlob(ok); err != nil {
			t.Errorf("CompileGlob(%q): %v", clip(ok, 40), err)
		}
	}
	_, err := CompileGlob(strings.Repeat("x", 300) + "[")
	if err == nil || !strings.Contains(err.Message, "(301 bytes)") || len(err.Message) > 300 {
		t.Errorf("a long pattern is not clipped with its length: %v", err)
	}
}

// referenceGlob is an independent implementation of the glob semantics for
// FuzzGlobMatch: braces expanded by naive rewriting, each alternative
// translated to a regular expression over "/"+path in which every pattern
// segment is "/seg" and ** is (?:/[^/]*)* — zero or more whole segments.
func referenceGlob(t *testing.T, pattern string) *regexp.Regexp {
	t.Helper()
	var alts []string
	for _, alt := range refExpand(pattern) {
		alts = append(alts, refAlternative(alt))
	}
	re, err := regexp.Compile(`^(?:` + strings.Join(alts, "|") + `)$`)
	if err != nil {
		t.Fatalf("reference regexp for %q: %v", pattern, err)
	}
	return re
}

// refExpand rewrites the first top-level {…} group into one pattern per
// alternative and recurses.
func refExpand(s string) []string {
	depth, open, commas := 0, -1, []int(nil)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			if end := refBracketEnd(s, i); end > 0 {
				i = end - 1
			}
		case '{':
			if depth == 0 {
				open, commas = i, nil
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				var out []string
				from := open + 1
				for _, c := range append(commas, i) {
					out = append(out, refExpand(s[:open]+s[from:c]+s[i+1:])...)
					from = c + 1
				}
				return out
			}
		}
	}
	return []string{s}
}

func refBracketEnd(s string, open int) int {
	i := open + 1
	if strings.HasPrefix(s[i:], "!") || strings.HasPrefix(s[i:], "^") {
		i++
	}
	if strings.HasPrefix(s[i:], "]") {
		i++
	}
	end := strings.IndexByte(s[i:], ']')
	if end < 0 || strings.Contains(s[i:i+end], "/") {
		return -1
	}
	return i + end + 1
}

func refAlternative(alt string) string {
	var b strings.Builder
	lit := func(r rune) string { return fmt.Sprintf(`\x{%x}`, r) }
	for _, seg := range strings.Split(alt, "/") {
		if seg == "**" {
			b.WriteString(`(?:/[^/]*)*`)
			continue
		}
		b.WriteString("/")
		rs := []rune(seg)
		for i := 0; i < len(rs); i++ {
			switch rs[i] {
			case '*':
				b.WriteString(`[^/]*`)
			case '?':
				b.WriteString(`[^/]`)
			case '[':
				j := i + 1
				neg := j < len(rs) && (rs[j] == '!' || rs[j] == '^')
				if neg {
					j++
				}
				body := []rune{}
				for first := true; rs[j] != ']' || first; j++ {
					body, first = append(body, rs[j]), false
				}
				b.WriteString("[")
				if neg {
					b.WriteString("^/")
				}
				for k := 0; k < len(body); k++ {
					lo, hi := body[k], body[k]
					if k+2 < len(body) && body[k+1] == '-' {
						hi = body[k+2]
						k += 2
					}
					if !neg && lo <= '/' && '/' <= hi { // never '/' within a segment
						if lo < '/' {
							b.WriteString(lit(lo) + "-" + lit('/'-1))
						}
						if hi > '/' {
							b.WriteString(lit('/'+1) + "-" + lit(hi))
						}
						continue
					}
					b.WriteString(lit(lo) + "-" + lit(hi))
				}
				b.WriteString("]")
				i = j
			default:
				b.WriteString(lit(rs[i]))
			}
		}
	}
	return b.String()
}
