package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameNamesOverridesLeft: pyright renames a method's declaration
// and typed uses, not the subclasses' methods overriding it, which then
// quietly stop overriding (a tester's Item.label → describe: "0
// introduced"). The rename's answer names each override it leaves
// (bindings/go/toolbox/renameoverrides.go); the fixture's Shape.perimeter
// is overridden by Circle.perimeter and Rect.perimeter, and by a class
// whose base is Shape imported under another name and its subclass's
// (a tester's were missed). The untyped use `it.perimeter()`, which
// pyright neither sees nor renames, is named too (textualuses.go).
func TestRenameNamesOverridesLeft(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	special := `from shapes.base import Shape as BaseShape


class Gadget(BaseShape):
    def area(self) -> float:
        return 0.0

    def perimeter(self) -> float:
        return 0.0


class Plain(BaseShape):
    pass


class Deep(Plain):
    def perimeter(self) -> float:
        return 1.0


def show(it):
    return it.perimeter()
`
	if err := os.WriteFile(filepath.Join(dir, "shapes", "special.py"), []byte(special), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := catalogServe(t, "--approval", "preview")
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_rename", json.RawMessage(`{"target":{"path":"shapes/base.py","symbol":"Shape.perimeter"},"newName":"outline_length"}`), dir)
	text := a.Content[0].Text
	t.Logf("preview:\n%s", text)
	var r struct {
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal(a.StructuredContent, &r); err != nil || a.IsError {
		t.Fatalf("rename: %v: %s", err, text)
	}
	renamed := map[string]bool{}
	for _, f := range r.Files {
		renamed[f.Path] = true
	}
	for _, o := range []string{"shapes/circle.py:17", "shapes/rect.py:16", "shapes/special.py:8", "shapes/special.py:17"} {
		path, _, _ := strings.Cut(o, ":")
		if !renamed[path] && !strings.Contains(text, o) {
			t.Errorf("the override %s is neither renamed nor named in the answer", o)
		}
	}
	if !strings.Contains(text, "shapes/special.py:22") || !strings.Contains(text, "not renamed") {
		t.Errorf("the untyped use shapes/special.py:22 is not named as a line the rename leaves")
	}
	if strings.Contains(text, "shapes/measure.py") {
		t.Errorf("a method of an unrelated class is named as an override")
	}
}

// TestRenameNamesOverriddenLeft: renaming a subclass's method that
// overrides its base's leaves the base's with the old name, and the
// subclass quietly stops overriding it (a tester renamed httpx's
// BasicAuth.auth_flow: BasicAuth fell back to Auth's NotImplementedError,
// and pyright said nothing). The answer names the base's method.
func TestRenameNamesOverriddenLeft(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	srv := catalogServe(t, "--approval", "preview")
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_rename", json.RawMessage(`{"target":{"path":"shapes/circle.py","symbol":"Circle.perimeter"},"newName":"circumference"}`), dir)
	text := a.Content[0].Text
	if a.IsError {
		t.Fatalf("rename: %s", text)
	}
	if !strings.Contains(text, "perimeter overrides the method of that name in a base class of Circle (shapes/base.py:") || !strings.Contains(text, "no longer overrides it") {
		t.Errorf("the base's method the rename leaves is not named:\n%s", text)
	}
	if strings.Contains(text, "shapes/rect.py") {
		t.Errorf("a sibling class's method is named:\n%s", text)
	}
}
