package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHierarchyLabelsAgree: a code_hierarchy answer names each node as
// the target's line does, from the outline: gopls's items call a struct
// "class" and every method "function" with no receiver, so the answer
// said `Circle` (struct) on its Target line and (class) in its heading,
// and listed an interface's Area as a bare function.
func TestHierarchyLabelsAgree(t *testing.T) {
	requireServers(t, "gopls")
	ws := copyFixture(t, "go")
	for _, tt := range []struct {
		name, args string
		want       []string
	}{
		{"supertypes of a struct", `{"target":{"path":"circle.go","symbol":"Circle"},"kind":"supertypes"}`,
			[]string{"Target: `Circle` (struct)", "Supertypes of `Circle` (struct)", "↑ Shape (interface)"}},
		{"callers of a method", `{"target":{"path":"circle.go","symbol":"Circle.Area"},"kind":"callers"}`,
			[]string{"Target: `Area` (method Circle.Area)", "Callers of `Area` (method Circle.Area)"}},
		{"callees: an interface's methods", `{"target":{"path":"shape.go","symbol":"Describe"},"kind":"callees"}`,
			[]string{"→ Area (method Shape.Area) shape.go:9:2", "→ Perimeter (method Shape.Perimeter) shape.go:11:2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, code, stderr := runCall(t, ws, "code_hierarchy", json.RawMessage(tt.args))
			if code != 0 {
				t.Fatalf("exit %d: %s %s", code, out, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the answer lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(string(out), "(class)") || strings.Contains(string(out), " Area (function)") {
				t.Errorf("the answer labels a node with the item's kind, not the outline's:\n%s", out)
			}
		})
	}
}

// TestHierarchyPagesSayWhatIsBeyond: a graph cut at its node limit
// said "(no callers found)" under a root whose callers were all past the
// limit, "1 of 3 nodes found" where more may lie beyond the unexpanded
// nodes, and named the root by the server's item kind, "(function)", on
// every page after the first (its outline was read only for the page's
// nodes, and page 2 has a node of the root's file).
func TestHierarchyPagesSayWhatIsBeyond(t *testing.T) {
	requireServers(t, "gopls")
	ws := copyFixture(t, "go")
	out, code, stderr := runCall(t, ws, "code_hierarchy", json.RawMessage(`{"target":{"path":"shape.go","symbol":"Shape.Area"},"kind":"callers","limit":1}`), "--pages", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	text := string(out)
	for _, w := range []string{"(callers found past the limit: 2; they follow on the next page)", "1 of at least 3 nodes found are shown", "Callers of `Area` (method Shape.Area) at shape.go:9:2, depth 1 — nodes 2–2"} {
		if !strings.Contains(text, w) {
			t.Errorf("the pages lack %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "no callers found") || strings.Contains(text, "`Area` (function)") {
		t.Errorf("the pages say there are no callers, or name the root by the item's kind:\n%s", text)
	}
}

// TestImplementationDirection: gopls answers implementation of a
// concrete method with the interface method it implements, which under
// "Target: `Area` (method Circle.Area)" read as "implemented by
// Shape.Area"; the answer says which way it goes. An interface method's
// implementations are listed as before.
func TestImplementationDirection(t *testing.T) {
	requireServers(t, "gopls")
	ws := copyFixture(t, "go")
	const note = "are what `Area` implements (interfaces or their methods), not implementations of it"
	out, code, stderr := runCall(t, ws, "code_navigate", json.RawMessage(`{"target":{"path":"circle.go","symbol":"Circle.Area"},"kind":"implementation"}`))
	if code != 0 || !strings.Contains(string(out), note) || !strings.Contains(string(out), "(method Shape.Area)") {
		t.Errorf("implementation of a concrete method: exit %d, %s %s; want Shape.Area, said to be what it implements", code, out, stderr)
	}
	out, code, stderr = runCall(t, ws, "code_navigate", json.RawMessage(`{"target":{"path":"shape.go","symbol":"Shape.Area"},"kind":"implementation"}`))
	if code != 0 || strings.Contains(string(out), "implements") || !strings.Contains(string(out), "(method Circle.Area)") {
		t.Errorf("implementation of an interface method: exit %d, %s %s; want Circle.Area, with no note", code, out, stderr)
	}
}
