package toolbox

import (
	"fmt"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// spanEntry is an outline entry spanning (l1,c1)-(l2,c2), its name at
// (nl,nc), zero-based.
func spanEntry(name string, kind, l1, c1, l2, c2, nl, nc int) lspseam.OutlineEntry {
	pos := func(l, c int) lspseam.Position { return lspseam.Position{Line: uint32(l), Character: uint32(c)} }
	return lspseam.OutlineEntry{Name: name, Kind: kind, Range: lspseam.Range{Start: pos(l1, c1), End: pos(l2, c2)},
		SelectionRange: lspseam.Range{Start: pos(nl, nc), End: pos(nl, nc+len(name))}}
}

func TestSignatureUsers(t *testing.T) {
	// typescript-language-server's outline of the text (a type alias is
	// a variable; a destructured parameter a variable inside the const).
	text := "type LayoutProps = {\n  title: string;\n};\n\nexport const layout = ({ title }: LayoutProps): string => `<h1>${title}</h1>`;\n" +
		"export function render(p: LayoutProps): string {\n  const q: LayoutProps = p;\n  return q.title;\n}\n" +
		"export function body(): string {\n  return (null as unknown as LayoutProps).title;\n}\n" +
		"export const wrapped = forwardRef<HTMLElement, LayoutProps>((props, ref) => {\n  return props.title;\n});\n" +
		"type Extended = LayoutProps & { extra: number };\n" +
		"export function named(p: { inner: LayoutProps }): { out: LayoutProps } {\n  return { out: p.inner };\n}\n"
	lines := core.SplitLines(text)
	typ := spanEntry("LayoutProps", 13, 0, 0, 2, 2, 0, 5)
	outline := []lspseam.OutlineEntry{typ,
		spanEntry("layout", 14, 4, 13, 4, 77, 4, 13), spanEntry("title", 13, 4, 25, 4, 30, 4, 25),
		spanEntry("render", 12, 5, 0, 8, 1, 5, 16), spanEntry("q", 13, 6, 8, 6, 26, 6, 8),
		spanEntry("body", 12, 9, 0, 11, 1, 9, 16),
		spanEntry("wrapped", 14, 12, 13, 14, 2, 12, 13),
		spanEntry("Extended", 13, 15, 0, 15, 47, 15, 5),
		spanEntry("named", 12, 16, 0, 18, 1, 16, 16),
	}
	refsAt := func(line int) lspseam.Position {
		col := strings.Index(lines[line], "LayoutProps")
		return lspseam.Position{Line: uint32(line), Character: uint32(col)}
	}
	refs := []lspseam.Position{{Line: 0, Character: 5}, refsAt(4), refsAt(5), refsAt(6), refsAt(10), refsAt(12), refsAt(15), refsAt(16),
		{Line: 16, Character: uint32(strings.LastIndex(lines[16], "LayoutProps"))}}
	var got []string
	for _, e := range signatureUsers(outline, lines, typ, refs) {
		got = append(got, e.Name)
	}
	// layout and render name it in their parameters, wrapped in its
	// call's type arguments, named in a parameter's and the return
	// type's literals; not body (in its body), q (a local), Extended (a
	// type: one level), nor the type itself.
	if want := "[layout render wrapped named]"; fmt.Sprint(got) != want {
		t.Errorf("signatureUsers = %v, want %s", got, want)
	}
}

func TestTypeMemberName(t *testing.T) {
	for _, c := range []struct {
		line string
		name string
		col  int
	}{
		{"  body: string;", "body", 2},
		{"  body?: string;", "body", 2},
		{"\treadonly teamId: string;", "teamId", 10},
		{"  format(unit: string): string;", "format", 2},
		{"  map<T>(f: (x: number) => T): T[];", "map", 2},
		{"  $ref : Ref;", "$ref", 2},
		{"};", "", 0},
		{"  [key: string]: unknown;", "", 0},
		{"  // body: string;", "", 0},
		{"  'quoted': string;", "", 0},
		{"  | { kind: 'a' }", "", 0},
		{"  2: string;", "", 0},
		{"export type Discussion = Entity<{", "", 0},
	} {
		name, col, ok := typeMemberName(c.line)
		if name != c.name || col != c.col || ok != (c.name != "") {
			t.Errorf("typeMemberName(%q) = %q, %d, %v; want %q, %d", c.line, name, col, ok, c.name, c.col)
		}
	}
}

func TestIsTypeDeclaration(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"type Props = {", true},
		{"export type Discussion = Entity<{", true},
		{"export interface Shape {", true},
		{"declare type X = number;", true},
		{"export const Spinner = ({ size }: SpinnerProps) => {", false},
		{"const subtype = 1;", false},
		{"export class Circle implements Shape {", false},
	} {
		name := strings.Fields(strings.NewReplacer("(", " ", "=", " ", "{", " ").Replace(c.line))
		col := 0
		for _, w := range name {
			if w[0] >= 'A' && w[0] <= 'Z' || w == "subtype" {
				col = strings.Index(c.line, w)
				break
			}
		}
		e := spanEntry("x", 13, 0, 0, 0, len(c.line), 0, col)
		if got := isTypeDeclaration([]string{c.line}, e); got != c.want {
			t.Errorf("isTypeDeclaration(%q at %d) = %v, want %v", c.line, col, got, c.want)
		}
	}
}

func TestTypeMembers(t *testing.T) {
	before := core.SplitLines("export type Discussion = Entity<{\n  title: string;\n  body: string;\n  teamId: string;\n}>;\n")
	typ := spanEntry("Discussion", 13, 0, 0, 4, 3, 0, 12)
	listed := spanEntry("teamId", 7, 3, 2, 3, 17, 3, 2)
	outline := []lspseam.OutlineEntry{typ, listed}
	// The hunk replaced lines 1-3 (title, body, teamId): title and body
	// are asked, at their names; teamId is the outline's already.
	got := typeMembers(outline, typ, before, []core.ChangedSpan{{Start: 1, End: 4}})
	var names []string
	for _, e := range got {
		names = append(names, fmt.Sprintf("%s@%d:%d-%d", e.Name, e.SelectionRange.Start.Line, e.SelectionRange.Start.Character, e.SelectionRange.End.Character))
	}
	if want := "[title@1:2-7 body@2:2-6]"; fmt.Sprint(names) != want {
		t.Errorf("typeMembers = %v, want %s", names, want)
	}
	// A pure insertion replaced no member; the type's name line is no member.
	if got := typeMembers(outline, typ, before, []core.ChangedSpan{{Start: 2, End: 2}, {Start: 0, End: 1}}); len(got) != 0 {
		t.Errorf("typeMembers of an insertion and the name line = %v, want none", got)
	}
}
