package core

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Document symbols, flattened.
//
// textDocument/documentSymbol answers either a DocumentSymbol tree (name,
// kind, range, selectionRange, children) or a flat SymbolInformation list
// (name, kind, location, containerName); both become one flat list of
// Symbol in document order, each with the qualified name of the symbol
// that contains it. Targets (target.go) match names against it and
// locations (codelocation.go) find the symbol they lie in.
//
// Servers spell members differently: gopls names a method "(*Circle).Area"
// at the top level, clangd an out-of-line definition "Circle::area", buf a
// field "shapes.v1.Circle.radius" in the container "shapes.v1.Circle", the
// others nest the member under its class. All three become the member
// "Area"/"area" in the container "Circle", so `Circle.Area` finds it in
// every language.
//
// Positions are checked against the file's text: a symbol whose name
// position is not in the text (stale symbols for a changed file) is
// dropped, and a name position that is not on the name (SymbolInformation
// gives the start of the whole declaration, "func Helper…") moves to the
// first occurrence of the name in the symbol's range.

// SymbolKind is LSP's SymbolKind (1 File … 26 TypeParameter).
type SymbolKind int

// The SymbolKinds the core tells apart by number.
const (
	symbolKindConstructor SymbolKind = 9
	symbolKindInterface   SymbolKind = 11
)

// symbolKindNames are LSP's SymbolKind names with a lower-case first
// letter, indexed by kind.
var symbolKindNames = [...]string{"", "file", "module", "namespace", "package", "class", "method", "property",
	"field", "constructor", "enum", "interface", "function", "variable", "constant", "string", "number",
	"boolean", "array", "object", "key", "null", "enumMember", "struct", "event", "operator", "typeParameter"}

// String is the kind's name as the tools show and accept it ("function",
// "enumMember"), or "" for a kind outside LSP's list.
func (k SymbolKind) String() string {
	if k <= 0 || int(k) >= len(symbolKindNames) {
		return ""
	}
	return symbolKindNames[k]
}

// ParseSymbolKind reads a kind name, case-insensitively ("Function",
// "enummember"); ok is false for anything else.
func ParseSymbolKind(name string) (SymbolKind, bool) {
	for k := 1; k < len(symbolKindNames); k++ {
		if strings.EqualFold(symbolKindNames[k], name) {
			return SymbolKind(k), true
		}
	}
	return 0, false
}

// SymbolKindNames lists the accepted kind names in LSP's order.
func SymbolKindNames() []string { return append([]string(nil), symbolKindNames[1:]...) }

// Symbol is one document symbol: its name as written in the code, its
// kind, the qualified name of the symbol containing it ("" at the top
// level), its whole range (the body) and the range of its name.
type Symbol struct {
	Name      string
	Kind      SymbolKind
	Container string
	Range     Range
	Selection Range
}

// QualifiedName is Container.Name, or Name at the top level.
func (s Symbol) QualifiedName() string {
	if s.Container == "" {
		return s.Name
	}
	return s.Container + "." + s.Name
}

// maxSymbolDepth bounds the nesting FlattenSymbols follows (and its
// recursion on hostile input).
const maxSymbolDepth = 64

// FlattenSymbols reads a textDocument/documentSymbol result (null, an
// array of DocumentSymbol, or an array of SymbolInformation) for the file
// whose text is given, and returns its symbols in document order (see
// above). A result of the wrong shape is LSP_MALFORMED_RESPONSE.
func FlattenSymbols(result gjson.Result, text string) ([]Symbol, *Error) {
	if result.Type == gjson.Null || !result.Exists() {
		return []Symbol{}, nil
	}
	if !result.IsArray() {
		return nil, symbolsMalformed("result must be null or an array of DocumentSymbol or SymbolInformation, got " + describe(result))
	}
	return flattenSymbols(result, &flattener{lines: SplitLines(text), checked: true, seen: map[symbolKey]bool{}})
}

// FlattenSymbolsUnchecked is FlattenSymbols without the file's text: the
// positions stay as the server gave them. Enough to find the symbol a
// location lies in (and a body's lines), not to target names.
func FlattenSymbolsUnchecked(result gjson.Result) ([]Symbol, *Error) {
	if result.Type == gjson.Null || !result.Exists() {
		return []Symbol{}, nil
	}
	if !result.IsArray() {
		return nil, symbolsMalformed("result must be null or an array of DocumentSymbol or SymbolInformation, got " + describe(result))
	}
	return flattenSymbols(result, &flattener{seen: map[symbolKey]bool{}})
}

func flattenSymbols(result gjson.Result, f *flattener) ([]Symbol, *Error) {
	i := 0
	var problem string
	result.ForEach(func(_, item gjson.Result) bool {
		problem = f.add(item, at{"result", i}, "", 0)
		i++
		return problem == ""
	})
	if problem != "" {
		return nil, symbolsMalformed(problem)
	}
	f.addAccessorGetters()
	sortSymbols(f.out)
	return f.out, nil
}

func symbolsMalformed(detail string) *Error {
	return &Error{Code: CodeMalformedResponse, Message: "the language server's textDocument/documentSymbol response is malformed: " + detail}
}

type symbolKey struct {
	name, container string
	pos             Position
}

type flattener struct {
	lines   []string
	checked bool // lines holds the file's text: place names on it
	out     []Symbol
	seen    map[symbolKey]bool
}

// add reads one DocumentSymbol (with its children) or SymbolInformation.
func (f *flattener) add(v gjson.Result, where at, parent string, depth int) string {
	if !v.IsObject() {
		return where.String() + " must be a DocumentSymbol or SymbolInformation object, got " + describe(v)
	}
	var name, kind, rng, sel, children, location, containerName gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "name":
			name = first(name, val)
		case "kind":
			kind = first(kind, val)
		case "range":
			rng = first(rng, val)
		case "selectionRange":
			sel = first(sel, val)
		case "children":
			children = first(children, val)
		case "location":
			location = first(location, val)
		case "containerName":
			containerName = first(containerName, val)
		}
		return true
	})
	if name.Type != gjson.String {
		return where.field("name") + " must be a string, got " + describe(name)
	}
	k, ok := integer(kind, 1, maxUint31)
	if !ok {
		return where.field("kind") + " must be a SymbolKind number, got " + describe(kind)
	}
	s := Symbol{Name: name.Str, Kind: SymbolKind(k), Container: parent}
	var problem string
	if location.Exists() && !rng.Exists() {
		// SymbolInformation.
		f2 := fields(location, "range")
		if !location.IsObject() {
			return where.field("location") + " must be a Location object, got " + describe(location)
		}
		if s.Range, problem = rangeOf(f2[0], at{where.field("location"), -1}, "range"); problem != "" {
			return problem
		}
		s.Selection = s.Range
		if containerName.Type == gjson.String && parent == "" {
			s.Container = containerName.Str
			s.Name = nameInContainer(s.Name, s.Container)
		}
	} else {
		if s.Range, problem = rangeOf(rng, where, "range"); problem != "" {
			return problem
		}
		s.Selection = s.Range
		if sel.Exists() && sel.Type != gjson.Null {
			if s.Selection, problem = rangeOf(sel, where, "selectionRange"); problem != "" {
				return problem
			}
		}
	}
	s.Name, s.Container = splitMemberName(s.Name, s.Container)
	qualified := s.QualifiedName()
	if f.place(&s) {
		key := symbolKey{s.Name, s.Container, s.Selection.Start}
		if !f.seen[key] {
			f.seen[key] = true
			f.out = append(f.out, s)
		}
	}
	if !children.Exists() || children.Type == gjson.Null {
		return ""
	}
	if !children.IsArray() {
		return where.field("children") + " must be an array, got " + describe(children)
	}
	if depth+1 >= maxSymbolDepth {
		return "" // deeper levels are left out
	}
	i := 0
	children.ForEach(func(_, c gjson.Result) bool {
		problem = f.add(c, at{where.field("children"), i}, qualified, depth+1)
		i++
		return problem == ""
	})
	return problem
}

// nameInContainer is a SymbolInformation's name without its container:
// buf names each symbol in full ("shapes.v1.Point.x" in the container
// "shapes.v1.Point"), the others by itself ("x"), which stays as it is.
func nameInContainer(name, container string) string {
	if rest, ok := strings.CutPrefix(name, container+"."); ok && container != "" && rest != "" {
		return rest
	}
	return name
}

func first(have, v gjson.Result) gjson.Result {
	if have.Exists() {
		return have
	}
	return v
}

// splitMemberName turns gopls's "(*T).M" / "(T[K]).M" and clangd's
// "T::m" / "Box<T>::get" into the member name and its container.
func splitMemberName(name, container string) (string, string) {
	join := func(outer, inner string) string {
		if outer == "" {
			return inner
		}
		return outer + "." + inner
	}
	if strings.HasPrefix(name, "(") {
		if i := strings.Index(name, ")."); i > 1 && i+2 < len(name) {
			recv := strings.TrimPrefix(name[1:i], "*")
			if j := strings.IndexByte(recv, '['); j > 0 {
				recv = recv[:j]
			}
			if recv != "" {
				return name[i+2:], join(container, recv)
			}
		}
	}
	if i := strings.LastIndex(name, "::"); i > 0 && i+2 < len(name) && !strings.Contains(name, "operator") {
		parts := strings.Split(name[:i], "::")
		for k, p := range parts {
			if j := strings.IndexByte(p, '<'); j > 0 {
				parts[k] = p[:j] // Box<T>::get is a member of Box
			}
		}
		return name[i+2:], join(container, strings.Join(parts, "."))
	}
	return name, container
}

// place checks the symbol's name position against the text and moves it
// onto the name when it is elsewhere in the symbol's range; false drops a
// symbol whose name position is not in the text.
func (f *flattener) place(s *Symbol) bool {
	if !f.checked {
		return true
	}
	start := s.Selection.Start
	if int64(start.Line) >= int64(len(f.lines)) {
		return false
	}
	line := f.lines[start.Line]
	if w := utf16Len(line); int(start.Character) > w {
		start.Character = uint32(w)
	}
	if id, _ := identifierAt(line, int(start.Character)); id == s.Name {
		s.Selection.Start = start
		s.Selection.End = Position{Line: start.Line, Character: start.Character + uint32(utf16Len(s.Name))}
		return true
	}
	// Look for the name from the name position to the end of the range
	// (a few lines at most: a declaration's head).
	last := min(int64(s.Range.End.Line), int64(start.Line)+8, int64(len(f.lines))-1)
	for l := int64(start.Line); l <= last && identifierLike(s.Name); l++ {
		from := 0
		if l == int64(start.Line) {
			from = byteOffsetOfColumn(f.lines[l], int(start.Character))
		}
		if col, ok := findIdentifier(f.lines[l], s.Name, from); ok {
			s.Selection.Start = Position{Line: uint32(l), Character: uint32(col)}
			s.Selection.End = Position{Line: uint32(l), Character: uint32(col + utf16Len(s.Name))}
			return true
		}
	}
	s.Selection.Start = start
	if s.Selection.End.Line < start.Line || (s.Selection.End.Line == start.Line && s.Selection.End.Character < start.Character) {
		s.Selection.End = start
	}
	return true
}

// sortSymbols orders symbols by name position (stable: a parent before
// its children at the same position).
func sortSymbols(list []Symbol) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && positionLess(list[j].Selection.Start, list[j-1].Selection.Start); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

func positionLess(a, b Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

func rangeContains(r Range, p Position) bool {
	return !positionLess(p, r.Start) && (positionLess(p, r.End) || p == r.End)
}

// EnclosingSymbol returns the innermost symbol whose range contains p
// (the one whose name is at p first), or ok false.
func EnclosingSymbol(symbols []Symbol, p Position) (Symbol, bool) {
	best, found := -1, false
	for i, s := range symbols {
		if rangeContains(s.Selection, p) && s.Selection.Start.Line == p.Line {
			if !found || s.Range.Within(symbols[best].Range) || !rangeContains(symbols[best].Selection, p) {
				best, found = i, true
			}
			continue
		}
		if rangeContains(s.Range, p) {
			if !found || (!rangeContains(symbols[best].Selection, p) && s.Range.Within(symbols[best].Range)) {
				best, found = i, true
			}
		}
	}
	if !found {
		return Symbol{}, false
	}
	return symbols[best], true
}

// SymbolAt returns the symbol defined at p: the innermost one whose name
// holds p, or whose range starts at p (a server that points a definition
// at the start of the declaration); ok false when p is not on a symbol's
// definition.
func SymbolAt(symbols []Symbol, p Position) (Symbol, bool) {
	best := -1
	for i, s := range symbols {
		on := (rangeContains(s.Selection, p) && s.Selection.Start.Line == p.Line) || s.Range.Start == p
		if on && (best < 0 || s.Range.Within(symbols[best].Range)) {
			best = i
		}
	}
	if best < 0 {
		return Symbol{}, false
	}
	return symbols[best], true
}

// Within reports whether r lies inside outer (its ends included).
func (r Range) Within(outer Range) bool {
	return !positionLess(r.Start, outer.Start) && !positionLess(outer.End, r.End)
}
