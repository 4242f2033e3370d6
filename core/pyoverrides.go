package core

import (
	"slices"
	"strings"
)

// The overrides of a Python method, for the Toolbox's rename check.
//
// Pyright renames a method's declaration and the uses it can type, not
// the methods of subclasses that override it: a tester renamed
// Item.label and PerishableItem.label quietly stopped overriding it
// ("0 introduced": nothing is an error in Python). The subclasses are
// found from the classes' written bases, by the last name of each (a
// base written `models.Item` is Item, one written `BaseItem` in a file
// that imports `from m import Item as BaseItem` is Item too), through
// any number of levels; two classes of the same name in different files are not told apart,
// so a method listed is one to look at, which the notice says.

// SourceText is one file of a workspace and its text.
type SourceText struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// FileLine is a one-based line of a workspace file.
type FileLine struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// pyClass is one class of the files: its bases' last names, and its
// methods of the name asked.
type pyClass struct {
	bases   []string
	methods []FileLine
}

// pythonClasses reads the classes of files, by name, with their methods
// named method.
func pythonClasses(files []SourceText, method string) map[string][]*pyClass {
	classes := map[string][]*pyClass{}
	for _, f := range files {
		aliases := pythonImportAliases(f.Text)
		type open struct {
			indent int
			c      *pyClass // nil for a def
		}
		var stack []open
		for n, line := range strings.Split(f.Text, "\n") {
			trimmed := strings.TrimSpace(line)
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			indent := len(line) - len(strings.TrimLeft(line, " \t"))
			for len(stack) > 0 && indent <= stack[len(stack)-1].indent {
				stack = stack[:len(stack)-1]
			}
			if m := scanPatterns().pyClassLine.FindStringSubmatch(line); m != nil {
				c := &pyClass{}
				for _, b := range strings.Split(m[3], ",") {
					b = strings.TrimSpace(b)
					if b == "" || strings.Contains(b, "=") { // metaclass=…
						continue
					}
					if i := strings.LastIndexByte(b, '.'); i >= 0 {
						b = b[i+1:]
					}
					if i := strings.IndexByte(b, '['); i >= 0 { // Generic[T]
						b = b[:i]
					}
					if name, ok := aliases[b]; ok {
						b = name
					}
					c.bases = append(c.bases, b)
				}
				classes[m[2]] = append(classes[m[2]], c)
				stack = append(stack, open{indent, c})
				continue
			}
			if m := scanPatterns().pyDefLine.FindStringSubmatch(line); m != nil {
				// A method is a def whose innermost enclosing block is
				// a class; a def's own block (c nil) holds locals.
				if top := len(stack) - 1; m[2] == method && top >= 0 && stack[top].c != nil {
					stack[top].c.methods = append(stack[top].c.methods, FileLine{f.Path, n + 1})
				}
				stack = append(stack, open{indent, nil})
			}
		}
	}
	return classes
}

// PythonOverrides returns the methods named method, one-based, of the
// classes in files that derive from class (directly or through other
// classes of files), in files' order.
func PythonOverrides(files []SourceText, class, method string) []FileLine {
	classes := pythonClasses(files, method)
	// The classes deriving from class, breadth first.
	derived := map[string]bool{class: true}
	for grew := true; grew; {
		grew = false
		for name, cs := range classes {
			if derived[name] {
				continue
			}
			for _, c := range cs {
				for _, b := range c.bases {
					if derived[b] {
						derived[name], grew = true, true
					}
				}
			}
		}
	}
	var out []FileLine
	for name, cs := range classes {
		if name == class || !derived[name] {
			continue
		}
		for _, c := range cs {
			out = append(out, c.methods...)
		}
	}
	return inFilesOrder(files, out)
}

// PythonOverridden returns the methods named method, one-based, of the
// classes in files that class derives from (directly or through other
// classes of files): those a method of class named so overrides.
func PythonOverridden(files []SourceText, class, method string) []FileLine {
	classes := pythonClasses(files, method)
	ancestors := map[string]bool{}
	queue := []string{class}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, c := range classes[name] {
			for _, b := range c.bases {
				if !ancestors[b] && b != class {
					ancestors[b] = true
					queue = append(queue, b)
				}
			}
		}
	}
	var out []FileLine
	for name := range ancestors {
		for _, c := range classes[name] {
			out = append(out, c.methods...)
		}
	}
	return inFilesOrder(files, out)
}

// inFilesOrder sorts lines by their file's place in files, then by line.
func inFilesOrder(files []SourceText, lines []FileLine) []FileLine {
	at := map[string]int{} // a file's place in files
	for i, f := range files {
		at[f.Path] = i
	}
	slices.SortFunc(lines, func(a, b FileLine) int {
		if d := at[a.Path] - at[b.Path]; d != 0 {
			return d
		}
		return a.Line - b.Line
	})
	return lines
}

// pythonImportAliases maps the names text's `from m import X as Y`
// statements bind (Y) to the names they import (X), parenthesized lists
// over several lines included. `import m as n` binds a module, which a
// base reaches as n.X, by its last name.
func pythonImportAliases(text string) map[string]string {
	aliases := map[string]string{}
	lines := strings.Split(text, "\n")
	uncommented := func(line string) string {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		return strings.TrimSpace(line)
	}
	for i := 0; i < len(lines); i++ {
		rest, ok := strings.CutPrefix(uncommented(lines[i]), "from ")
		if !ok {
			continue
		}
		_, names, ok := strings.Cut(rest, " import ")
		if !ok {
			continue
		}
		if names = strings.TrimSpace(names); strings.HasPrefix(names, "(") {
			for !strings.Contains(names, ")") && i+1 < len(lines) {
				i++
				names += "," + uncommented(lines[i])
			}
			names, _, _ = strings.Cut(names[1:], ")")
		}
		for _, n := range strings.Split(names, ",") {
			if name, alias, ok := strings.Cut(n, " as "); ok && strings.TrimSpace(alias) != "" {
				aliases[strings.TrimSpace(alias)] = strings.TrimSpace(name)
			}
		}
	}
	return aliases
}
