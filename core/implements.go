package core

// The direction of an implementation answer. For a concrete type or
// method, gopls answers textDocument/implementation the other way round:
// with the interfaces (and interface methods) it satisfies. Listed under
// the Target line as they come, Circle.Area's answer "7:2 (method
// Shape.Area)" reads as "implemented by Shape.Area". codeLocations is
// given the target (implementationOf) and the outline entries on its line
// beside the locations' (outlines): when the target lies in no interface
// and results do, the answer names them for what they are.

// implementationOf is where codeLocations' implementation answer was
// asked: the target's file and zero-based position, and its name.
type implementationOf struct {
	URI      string
	Position Position
	Name     string // the target's name, for the line ("" : "the target")
}

// inInterface reports whether p lies in an interface of symbols (the
// interface's name or one of its members).
func inInterface(symbols []Symbol, p Position) bool {
	for _, s := range symbols {
		if s.Kind == symbolKindInterface && rangeContains(s.Range, p) {
			return true
		}
	}
	return false
}

// implementsNote is the line under the Target line that says which of an
// implementation answer's locations are what the target implements; ""
// when none is, or when the target is itself in an interface (then its
// results are its implementations). plan and cl list the same locations
// in the same order.
func implementsNote(of implementationOf, plan SnippetPlan, cl CodeLocations, symbols map[string][]Symbol) string {
	if inInterface(symbols[of.URI], of.Position) {
		return ""
	}
	abstract := 0
	for i, l := range plan.Locations {
		if i < len(cl.Locations) && (cl.Locations[i].Kind == "interface" || inInterface(symbols[l.URI], l.Range.Start)) {
			abstract++
		}
	}
	target := "the target"
	if of.Name != "" {
		target = quoteCode(clip(of.Name, maxQuotedLine))
	}
	switch {
	case abstract == 0:
		return ""
	case abstract == len(plan.Locations):
		return "These are what " + target + " implements (interfaces or their methods), not implementations of it: asked for the implementations of a concrete type or method, the server answers with the interfaces it satisfies."
	}
	return "The locations in an interface are what " + target + " implements, not implementations of it."
}
