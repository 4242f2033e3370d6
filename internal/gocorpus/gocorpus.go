// Package gocorpus generates a Go workspace of a real project's size for
// benchmarks, deterministically, so no third-party code is committed: one
// 2,000-line file (command.go, a type with ~120 methods of varied length,
// like cobra's command.go) and a dozen files that call its methods. It also
// gives what gopls would answer about it: each file's outline (a
// DocumentSymbol tree, gopls-shaped: methods at the top level named
// "(*Command).Name") and the references of Command.Name, so the core's
// benchmarks can replay a by-name call natively without a server.
package gocorpus

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Position, Range and Location are LSP's, zero-based.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Symbol is a DocumentSymbol.
type Symbol struct {
	Name           string   `json:"name"`
	Detail         string   `json:"detail,omitempty"`
	Kind           int      `json:"kind"`
	Range          Range    `json:"range"`
	SelectionRange Range    `json:"selectionRange"`
	Children       []Symbol `json:"children,omitempty"`
}

// File is one generated file: its path relative to the workspace, its
// text and its outline.
type File struct {
	Path    string
	Text    string
	Symbols []Symbol
}

// Outline is the file's textDocument/documentSymbol answer.
func (f File) Outline() json.RawMessage {
	b, _ := json.Marshal(f.Symbols)
	return b
}

// Workspace is the generated workspace: go.mod first, then command.go,
// then the callers.
type Workspace struct {
	Files []File
	// NameRefs are the references of Command.Name (its declaration
	// included), relative paths in Location.URI: join them to the
	// workspace's URI.
	NameRefs []Location
}

// Callers is how many files call into command.go.
const Callers = 12

// The targets the benchmarks ask about.
const (
	LargeFile  = "command.go"
	NameMethod = "Command.Name" // referenced in command.go and every caller
	LongMethod = "Command.Execute"
)

// writer accumulates a file's lines and the positions in it.
type writer struct {
	lines []string
}

func (w *writer) add(format string, a ...any) int {
	w.lines = append(w.lines, fmt.Sprintf(format, a...))
	return len(w.lines) - 1
}

func (w *writer) text() string { return strings.TrimRight(strings.Join(w.lines, "\n"), "\n") + "\n" }

func span(line, start, end int) Range {
	return Range{Position{line, start}, Position{line, end}}
}

func lines(from, to, endChar int) Range {
	return Range{Position{from, 0}, Position{to, endChar}}
}

// Generate builds the workspace.
func Generate() Workspace {
	var ws Workspace
	ws.Files = append(ws.Files, File{Path: "go.mod", Text: "module example.com/big\n\ngo 1.22\n"})
	cmd, refs := commandFile()
	ws.Files = append(ws.Files, cmd)
	ws.NameRefs = refs
	for i := 0; i < Callers; i++ {
		f, r := callerFile(i)
		ws.Files = append(ws.Files, f)
		ws.NameRefs = append(ws.NameRefs, r...)
	}
	return ws
}

// nameCall records a call of c.Name() on a line.
func nameCall(path string, line int, text string) Location {
	i := strings.Index(text, ".Name()") + 1
	return Location{URI: path, Range: span(line, i, i+len("Name"))}
}

// commandFile is command.go: the Command type, Name, a long Execute and
// 120 methods of 8–31 lines, a quarter of which call Name.
func commandFile() (File, []Location) {
	const path = LargeFile
	w := &writer{}
	var syms []Symbol
	var refs []Location
	w.add("// Package big is generated (internal/gocorpus): a large file and its callers, for benchmarks.")
	w.add("package big")
	w.add("")
	w.add("import (")
	w.add("\t\"fmt\"")
	w.add("\t\"strings\"")
	w.add(")")
	w.add("")
	w.add("// Command is one command of a command tree.")
	typeStart := w.add("type Command struct {")
	var fields []Symbol
	for i := 0; i < 24; i++ {
		l := w.add("\tfield%02d  string // field %d of the command", i, i)
		name := fmt.Sprintf("field%02d", i)
		fields = append(fields, Symbol{Name: name, Detail: "string", Kind: 8, Range: span(l, 1, 1+len(name)+len("  string")), SelectionRange: span(l, 1, 1+len(name))})
	}
	l := w.add("\tname     string")
	fields = append(fields, Symbol{Name: "name", Detail: "string", Kind: 8, Range: span(l, 1, 15), SelectionRange: span(l, 1, 5)})
	l = w.add("\tchildren []*Command")
	fields = append(fields, Symbol{Name: "children", Detail: "[]*Command", Kind: 8, Range: span(l, 1, 20), SelectionRange: span(l, 1, 9)})
	typeEnd := w.add("}")
	syms = append(syms, Symbol{Name: "Command", Detail: "struct{...}", Kind: 23, Range: lines(typeStart, typeEnd, 1), SelectionRange: span(typeStart, 5, 12), Children: fields})
	w.add("")

	// Name.
	w.add("// Name returns the command's name.")
	start := w.add("func (c *Command) Name() string {")
	refs = append(refs, Location{URI: path, Range: span(start, 18, 22)})
	w.add("\treturn c.name")
	end := w.add("}")
	syms = append(syms, Symbol{Name: "(*Command).Name", Detail: "func() string", Kind: 6, Range: lines(start, end, 1), SelectionRange: span(start, 18, 22)})
	w.add("")

	// Execute: long, like cobra's ExecuteC.
	w.add("// Execute runs the command tree on args.")
	start = w.add("func (c *Command) Execute(args []string) error {")
	for i := 0; i < 150; i++ {
		switch i % 5 {
		case 0:
			w.add("\tif len(args) > %d && args[%d] == \"step%d\" {", i, i, i)
		case 1:
			w.add("\t\tc.field%02d = strings.ToUpper(args[%d])", i%24, i-1)
		case 2:
			l := w.add("\t\tfmt.Println(c.Name(), %d)", i)
			if i%20 == 2 {
				refs = append(refs, nameCall(path, l, w.lines[l]))
			} else {
				w.lines[l] = fmt.Sprintf("\t\tfmt.Println(c.field%02d, %d)", i%24, i)
			}
		case 3:
			w.add("\t}")
		case 4:
			w.add("")
		}
	}
	w.add("\treturn nil")
	end = w.add("}")
	syms = append(syms, Symbol{Name: "(*Command).Execute", Detail: "func(args []string) error", Kind: 6, Range: lines(start, end, 1), SelectionRange: span(start, 18, 25)})
	w.add("")

	for m := 0; len(w.lines) < 1990; m++ {
		name := fmt.Sprintf("Step%03d", m)
		w.add("// %s is step %d of the command's work: it checks its arguments,", name, m)
		w.add("// records them and hands the rest on.")
		start := w.add("func (c *Command) %s(args []string) (int, error) {", name)
		w.add("\tif c == nil {")
		w.add("\t\treturn 0, fmt.Errorf(\"%s: no command\")", name)
		w.add("\t}")
		for k := 0; k < (m*7)%24; k++ {
			w.add("\tc.field%02d += fmt.Sprint(len(args), %d) // %s", (m+k)%24, k+10, strings.Repeat("x", 1+(m*k)%30))
		}
		if m%4 == 0 {
			l := w.add("\tif strings.HasPrefix(c.Name(), \"step\") {")
			refs = append(refs, nameCall(path, l, w.lines[l]))
			w.add("\t\treturn len(args), nil")
			w.add("\t}")
		}
		w.add("\treturn len(args) + %d, nil", m)
		end := w.add("}")
		w.add("")
		syms = append(syms, Symbol{Name: "(*Command)." + name, Detail: "func(args []string) (int, error)", Kind: 6, Range: lines(start, end, 1), SelectionRange: span(start, 18, 18+len(name))})
	}
	return File{Path: path, Text: w.text(), Symbols: syms}, refs
}

// callerFile is callers_NN.go: eight functions, four of which call Name.
func callerFile(n int) (File, []Location) {
	path := fmt.Sprintf("callers_%02d.go", n)
	w := &writer{}
	var syms []Symbol
	var refs []Location
	w.add("package big")
	w.add("")
	w.add("import \"strings\"")
	w.add("")
	for f := 0; f < 8; f++ {
		name := fmt.Sprintf("Use%02d_%d", n, f)
		w.add("// %s uses a command.", name)
		start := w.add("func %s(c *Command, args []string) string {", name)
		w.add("\tif c == nil {")
		w.add("\t\treturn \"\"")
		w.add("\t}")
		w.add("\tn, _ := c.Step%03d(args)", (n*8+f)%60)
		if f%2 == 0 {
			l := w.add("\tif strings.Contains(c.Name(), \"%d\") {", f)
			refs = append(refs, nameCall(path, l, w.lines[l]))
			w.add("\t\tn++")
			w.add("\t}")
		}
		w.add("\treturn strings.Repeat(\"%d\", n)", f)
		end := w.add("}")
		w.add("")
		syms = append(syms, Symbol{Name: name, Detail: "func(c *Command, args []string) string", Kind: 12, Range: lines(start, end, 1), SelectionRange: span(start, 5, 5+len(name))})
	}
	return File{Path: path, Text: w.text(), Symbols: syms}, refs
}
