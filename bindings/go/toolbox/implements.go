package toolbox

import (
	"path/filepath"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// For a concrete type or method, gopls answers textDocument/implementation
// the other way round: with the interfaces (and interface methods) it
// satisfies. Listed under the Target line as they come, `Circle.Area`'s
// answer "7:2 (method Shape.Area)" reads as "implemented by Shape.Area".
// The outlines say which results are interfaces or their methods; when
// the target is neither, those results are named for what they are.

const symbolKindInterface = 11

// implementsNote is the line that says which of an implementation
// answer's locations are interfaces the target implements; "" when none
// is, or the target is itself abstract (an interface or its method: its
// results are the implementations).
func implementsNote(rt lspseam.ResolvedTarget, targetOutline []lspseam.OutlineEntry, locs []lspseam.CodeLocation, outlines map[string][]lspseam.OutlineEntry, files []lspseam.FileRead) string {
	if rt.Kind == "interface" || isInterface(targetOutline, rt.Container) || rt.Identifier == "" {
		return ""
	}
	abstract := 0
	for _, l := range locs {
		container := l.Container
		if i := strings.LastIndex(l.Symbol, "."); container == "" && i > 0 {
			container = l.Symbol[:i] // a location on a member's name
		}
		if l.Kind == "interface" || isInterface(outlines[uriOfLocation(files, l.Path)], container) {
			abstract++
		}
	}
	switch {
	case abstract == 0:
		return ""
	case abstract == len(locs):
		return "These are what " + quoteIdent(rt) + " implements (interfaces or their methods), not implementations of it: asked for the implementations of a concrete type or method, the server answers with the interfaces it satisfies."
	}
	return "The locations in an interface are what " + quoteIdent(rt) + " implements, not implementations of it."
}

// isInterface reports whether the outline's symbol of that qualified name
// is an interface.
func isInterface(outline []lspseam.OutlineEntry, qualified string) bool {
	if qualified == "" {
		return false
	}
	for _, e := range outline {
		name := e.Name
		if e.Container != "" {
			name = e.Container + "." + e.Name
		}
		if e.Kind == symbolKindInterface && name == qualified {
			return true
		}
	}
	return false
}

// uriOfLocation is the URI of a location's file among the planned reads
// (their paths are absolute, a location's workspace-relative).
func uriOfLocation(files []lspseam.FileRead, path string) string {
	for _, f := range files {
		if f.Path == path || strings.HasSuffix(filepath.ToSlash(f.Path), "/"+path) {
			return f.URI
		}
	}
	return ""
}
