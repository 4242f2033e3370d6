package toolbox

import (
	"context"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The imports of a moved Python module that a move leaves naming its old
// place. pyright and basedpyright do not update imports when a file is
// renamed (no workspace/willRenameFiles), and the answer only said
// "check the files that import httpx/_urlparse.py": a tester's move of
// it left `from ._urlparse import …` in httpx/_urls.py and `from
// httpx._urlparse import …` in a test broken, unnamed. The language's
// files are read for the import statements whose module is the moved
// one — absolute (`import a.b`, `from a.b import c`, `from a import b`
// for the module b, with the workspace root or a top `src/` as the
// source root) or relative to the importing file (`from .b import c`,
// `from . import b`, `from ..a import b`) — and each is named, with its
// line, as the relative imports of a script file are (movedimporters.go).

// pythonModuleNames are the dotted names rel (a .py or .pyi file of the
// workspace) is imported by: from the workspace root, and from below a
// top-level src/ directory; a package's __init__ is the package.
func pythonModuleNames(rel string) []string {
	p := strings.TrimSuffix(strings.TrimSuffix(rel, ".pyi"), ".py")
	p = strings.TrimSuffix(p, "/__init__")
	if p == "__init__" || p == "" {
		return nil
	}
	names := []string{strings.ReplaceAll(p, "/", ".")}
	if rest, ok := strings.CutPrefix(p, "src/"); ok && rest != "" {
		names = append(names, strings.ReplaceAll(rest, "/", "."))
	}
	return names
}

// pythonImportedModules are the modules an import statement on line (in
// the file rel) may name, resolved to dotted names from the workspace
// root: `import a.b as c, d` → a.b, d; `from a.b import c, d` → a.b,
// a.b.c, a.b.d (a name imported from a package may be its module);
// `from .x import y` in pkg/m.py → pkg.x, pkg.x.y.
func pythonImportedModules(rel, line string) []string {
	t := strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(t, "import "); ok {
		var out []string
		for _, part := range strings.Split(stripPyComment(rest), ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
			if name != "" {
				out = append(out, name)
			}
		}
		return out
	}
	rest, ok := strings.CutPrefix(t, "from ")
	if !ok {
		return nil
	}
	module, names, ok := strings.Cut(rest, " import ")
	if !ok {
		return nil
	}
	module = strings.TrimSpace(module)
	if strings.HasPrefix(module, ".") {
		dots := len(module) - len(strings.TrimLeft(module, "."))
		dir := path.Dir(rel)
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		base := strings.ReplaceAll(strings.Trim(dir, "./"), "/", ".")
		if dir == "." {
			base = ""
		}
		rest := module[dots:]
		switch {
		case base == "":
			module = rest
		case rest == "":
			module = base
		default:
			module = base + "." + rest
		}
	}
	var out []string
	if module != "" {
		out = append(out, module)
	}
	for _, part := range strings.Split(strings.Trim(stripPyComment(names), " ()\\"), ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
		if name == "" || name == "*" {
			continue
		}
		if module == "" {
			out = append(out, name)
		} else {
			out = append(out, module+"."+name)
		}
	}
	return out
}

func stripPyComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// pythonStaleImports finds, among texts (the workspace's Python files by
// relative path), the import statements naming the module oldRel that do
// not name newRel, outside oldRel itself, by path and line.
func pythonStaleImports(texts map[string]string, oldRel, newRel string) []staleImport {
	oldNames, newNames := pythonModuleNames(oldRel), pythonModuleNames(newRel)
	var out []staleImport
	for _, rel := range slices.Sorted(maps.Keys(texts)) {
		if rel == oldRel || rel == newRel {
			continue
		}
		for n, line := range strings.Split(texts[rel], "\n") {
			mods := pythonImportedModules(rel, line)
			if slices.ContainsFunc(mods, func(m string) bool { return slices.Contains(oldNames, m) }) &&
				!slices.ContainsFunc(mods, func(m string) bool { return slices.Contains(newNames, m) }) {
				out = append(out, staleImport{rel, n + 1, strings.TrimSpace(line)})
			}
		}
	}
	return out
}

// movedPythonImporters is the notice of the imports of the Python module
// oldRel that a move to newRel leaves naming the old module ("" when
// none, or oldRel is not Python).
func (t *Toolbox) movedPythonImporters(ctx context.Context, r *workspacefs.Root, oldRel, newRel string) string {
	ext := strings.ToLower(path.Ext(oldRel))
	if ext != ".py" && ext != ".pyi" {
		return ""
	}
	sel, ok := t.service.Selection(ctx, oldRel, r.Dir)
	if !ok {
		return ""
	}
	word := path.Base(strings.TrimSuffix(strings.TrimSuffix(oldRel, ext), "/__init__"))
	texts := map[string]string{}
	complete := t.ownedTexts(ctx, r, sel.ID, word, nil, func(rel, text string) { texts[rel] = text })
	notice := pythonStaleImportsNotice(oldRel, newRel, pythonStaleImports(texts, oldRel, newRel))
	if !complete {
		notice = joinNotices(notice, "the files that may import "+oldRel+" could not all be read (the workspace is over the search's bounds): others may still import the old module")
	}
	return notice
}

// pythonStaleImportsNotice names the import statements a move leaves
// naming the old module; "" when none.
func pythonStaleImportsNotice(oldRel, newRel string, imports []staleImport) string {
	if len(imports) == 0 {
		return ""
	}
	files, listed := staleImportList(imports, func(im staleImport) string { return im.rel + ":" + strconv.Itoa(im.line) + " (" + im.spec + ")" })
	return strconv.Itoa(files) + " " + plural(files, "file imports", "files import") + " the module of " + oldRel + " by its old name, which the server does not update and which no longer resolves once it is at " + newRel + ": " + listed + "; update " + plural(len(imports), "that import", "those imports") + " (edit)"
}
