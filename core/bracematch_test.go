package core

import (
	"go/scanner"
	"go/token"
	"strings"
	"testing"
)

// braceCases are the brace matcher's cases, each language's literal
// forms among them; they are FuzzMatchBodyBraces's seeds too.
var braceCases = []struct {
	name                   string
	lang                   string // "go" or "c"
	text                   string
	first, last            int
	changedFrom, changedTo int
	wantOpen               int
	wantOK                 bool
}{
	{"go: a body", "go", "func f() {\n\treturn\n}", 0, 2, 0, 0, 0, true},
	{"go: the opening brace on its own line", "go", "func f(\n\ta int,\n)\n{\n\treturn\n}", 0, 5, 0, 0, 3, true},
	{"go: a brace in a string", "go", "func f() {\n\t_ = \"}\"\n}", 0, 2, 0, 0, 0, true},
	{"go: a brace in a rune", "go", "func f() {\n\t_ = '}'\n}", 0, 2, 0, 0, 0, true},
	{"go: escaped quotes before braces", "go", "func f() {\n\t_ = '\\''; _ = \"\\\"}\"\n}", 0, 2, 0, 0, 0, true},
	{"go: a raw string spanning lines", "go", "func f() {\n\t_ = `\n}\n`\n}", 0, 4, 0, 0, 0, true},
	{"go: a backslash ends no raw string", "go", "func f() {\n\t_ = `\\`\n}", 0, 2, 0, 0, 0, true},
	{"go: an unterminated raw string", "go", "func f() {\n\t_ = `\n}", 0, 2, 0, 0, 0, false},
	{"go: an unterminated string", "go", "func f() {\n\t_ = \"}\n}", 0, 2, 0, 0, 0, false},
	{"go: a block comment spanning lines", "go", "func f() {\n\t/* {\n\t} */\n}", 0, 3, 0, 0, 0, true},
	{"go: braces in a line comment", "go", "func f() {\n\t// }\n}", 0, 2, 0, 0, 0, true},
	{"go: a struct result type", "go", "func f() struct {\n\tA int\n} {\n\treturn x\n}", 0, 4, 0, 0, 2, true},
	{"go: an interface result type on the name's line", "go", "func f() interface{ M() } {\n\treturn nil\n}", 0, 2, 0, 0, 0, true},
	{"go: a comment after the closing brace", "go", "func f() {\n} // end /* x */", 0, 1, 0, 0, 0, true},
	{"go: code after the closing brace", "go", "func f() {\n} ; var x = 1", 0, 1, 0, 0, 0, false},
	{"go: a block comment left open after the closing brace", "go", "func f() {\n} /* x", 0, 1, 0, 0, 0, false},
	{"go: the body closes before the last line", "go", "func f() {\n}\n// after", 0, 2, 0, 0, 0, false},
	{"go: a mismatched bracket", "go", "func f() {\n\tg(]\n}", 0, 2, 0, 0, 0, false},
	{"go: no body", "go", "func f()\n", 0, 0, 0, 0, 0, false},
	{"go: # and a trailing backslash are nothing special", "go", "func f() {\n#if x \\\n}", 0, 2, 0, 0, 0, true},
	{"go: R\"( is a word and a string", "go", "func f() {\n\t_ = R\"(}\"\n}", 0, 2, 0, 0, 0, true},
	{"go: ' after a digit is a rune", "go", "func f() {\n\treturn 1'000 + '}'\n}", 0, 2, 0, 0, 0, false},

	{"c: a body", "c", "int f(void)\n{\n    return 0;\n}", 0, 3, 0, 0, 1, true},
	{"c: a brace in a character literal", "c", "void f() {\n    c = '}';\n}", 0, 2, 0, 0, 0, true},
	{"c: escaped quotes before braces", "c", "void f() {\n    c = '\\''; s = \"\\\"}\";\n}", 0, 2, 0, 0, 0, true},
	{"c: an unterminated character literal", "c", "void f() {\n    c = '}\n}", 0, 2, 0, 0, 0, false},
	{"c: digit separators are no character literal", "c", "int f() {\n    return 1'000 + '}';\n}", 0, 2, 0, 0, 0, true},
	{"c: a hexadecimal float's exponent", "c", "double f() {\n    return 0x1p-3 + 1.5e+10f + .5;\n}", 0, 2, 0, 0, 0, true},
	{"c: a raw string spanning lines", "c", "void f() {\n    s = R\"x(\n)\" }\n)x\";\n}", 0, 4, 0, 0, 0, true},
	{"c: a raw string's prefix", "c", "void f() {\n    s = u8R\"(})\";\n}", 0, 2, 0, 0, 0, true},
	{"c: a raw string's malformed delimiter", "c", "void f() {\n    s = R\"a b(})a b\";\n}", 0, 2, 0, 0, 0, false},
	{"c: an unterminated raw string", "c", "void f() {\n    s = R\"x(\n}", 0, 2, 0, 0, 0, false},
	{"c: backquotes are nothing special", "c", "void f() {\n    `\n}", 0, 2, 0, 0, 0, true},
	{"c: a block comment spanning lines", "c", "void f() {\n    /* {\n    } */\n}", 0, 3, 0, 0, 0, true},
	{"c: a // comment continued by a backslash", "c", "void f() {\n    // x \\\n}", 0, 2, 0, 0, 0, false},
	{"c: a continued // comment after the closing brace", "c", "void f() {\n} // x \\", 0, 1, 0, 0, 0, false},
	{"c: a line continued outside a directive", "c", "void f() {\n    x = 1 + \\\n    2;\n}", 0, 3, 0, 0, 0, false},
	{"c: an unchanged #pragma is skipped", "c", "void f() {\n#pragma omp barrier\n}", 0, 2, 0, 0, 0, true},
	{"c: a continued #define holding braces is skipped", "c", "void f() {\n#define X { \\\n    }\n}", 0, 3, 0, 0, 0, true},
	{"c: a null directive", "c", "void f() {\n  #\n}", 0, 2, 0, 0, 0, true},
	{"c: a conditional", "c", "void f() {\n#ifdef X\n#endif\n}", 0, 3, 0, 0, 0, false},
	{"c: a conditional spelled with blanks", "c", "void f() {\n  #  if X\n  # endif\n}", 0, 3, 0, 0, 0, false},
	{"c: a directive in the change", "c", "void f() {\n#pragma once\n}", 0, 2, 1, 2, 0, false},
	{"c: a directive's continuation in the change", "c", "void f() {\n#define X \\\n    1\n}", 0, 3, 2, 3, 0, false},
	{"c: a change next to a directive", "c", "void f() {\n#pragma once\n    x();\n}", 0, 3, 2, 3, 0, true},
	{"c: a directive opening a block comment", "c", "void f() {\n#pragma x /*\n*/\n}", 0, 3, 0, 0, 0, false},
	{"c: a directive after a comment", "c", "void f() {\n    /* x */ #define Y\n}", 0, 2, 0, 0, 0, false},
	{"c: a directive inside a block comment", "c", "void f() {\n/*\n#if X\n*/\n}", 0, 4, 0, 0, 0, true},
	{"c: a digraph", "c", "void f() {\n    if (x) <% %>\n}", 0, 2, 0, 0, 0, false},
	{"c: a trigraph in a comment", "c", "void f() {\n    // ??<\n}", 0, 2, 0, 0, 0, false},
	{"c: a member initializer's braces first", "c", "S::S() : a{1} {\n}", 0, 1, 0, 0, 0, false},
	{"c: a lambda in the body", "c", "int f() {\n    auto g = [&] { return 1; };\n    return g();\n}", 0, 3, 0, 0, 0, true},
}

func TestMatchBodyBraces(t *testing.T) {
	for _, c := range braceCases {
		t.Run(c.name, func(t *testing.T) {
			syn := map[string]*braceSyntax{"go": &goSyntax, "c": &cSyntax}[c.lang]
			lines := SplitLines(c.text)
			open, ok := matchBodyBraces(syn, lines, c.first, c.last, c.changedFrom, c.changedTo)
			if ok != c.wantOK || ok && open != c.wantOpen {
				t.Errorf("matchBodyBraces = %d, %v, want %d, %v", open, ok, c.wantOpen, c.wantOK)
			}
		})
	}
}

// FuzzMatchBodyBraces: the matcher reads file text as it is being
// edited, so any text and lines: no panic, a matched body's opening line
// among the lines; and for Go, a body matched in text Go's own scanner
// reads without error has balanced brackets and ends in its "}" on the
// last line, as go/scanner sees it.
func FuzzMatchBodyBraces(f *testing.F) {
	for _, c := range braceCases {
		f.Add(c.text, c.first, c.last, c.changedFrom, c.changedTo)
	}
	f.Fuzz(func(t *testing.T, text string, first, last, changedFrom, changedTo int) {
		lines := SplitLines(text)
		if first < 0 || last >= len(lines) || first > last {
			return // the callers' bounds
		}
		for _, syn := range []*braceSyntax{&goSyntax, &cSyntax} {
			if open, ok := matchBodyBraces(syn, lines, first, last, changedFrom, changedTo); ok && (open < first || open > last) {
				t.Fatalf("opening line %d outside lines %d–%d", open, first, last)
			}
		}
		if _, ok := matchBodyBraces(&goSyntax, lines, first, last, 0, 0); ok {
			checkGoScannerAgrees(t, strings.Join(lines[first:last+1], "\n"), last-first+1)
		}
	})
}

// checkGoScannerAgrees checks, when go/scanner reads src without error,
// that its brackets balance and its last token is a "}" on line lastLine
// (one-based).
func checkGoScannerAgrees(t *testing.T, src string, lastLine int) {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile("f.go", -1, len(src))
	var s scanner.Scanner
	errs := 0
	s.Init(file, []byte(src), func(token.Position, string) { errs++ }, scanner.ScanComments)
	depth := map[token.Token]int{}
	var last token.Token
	lastAt := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT || tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		switch tok {
		case token.LBRACE, token.LPAREN, token.LBRACK:
			depth[tok]++
		case token.RBRACE:
			depth[token.LBRACE]--
		case token.RPAREN:
			depth[token.LPAREN]--
		case token.RBRACK:
			depth[token.LBRACK]--
		}
		last, lastAt = tok, fset.Position(pos).Line
	}
	if errs > 0 {
		return
	}
	for tok, d := range depth {
		if d != 0 {
			t.Errorf("matched, but go/scanner's %s are unbalanced by %d in %q", tok, d, src)
		}
	}
	if last != token.RBRACE || lastAt != lastLine {
		t.Errorf("matched, but go/scanner's last token is %s on line %d, not } on line %d, in %q", last, lastAt, lastLine, src)
	}
}
