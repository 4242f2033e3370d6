package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRenameNamesOverridesLeft: pyright renames a method's declaration
// and typed uses, not the subclasses' methods overriding it, which then
// quietly stop overriding (a tester's Item.label → describe: "0
// introduced"). The rename's answer names each override it leaves
// (bindings/go/toolbox/renameoverrides.go); the fixture's Shape.perimeter
// is overridden by Circle.perimeter and Rect.perimeter.
func TestRenameNamesOverridesLeft(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
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
	for _, o := range []string{"shapes/circle.py:17", "shapes/rect.py:16"} {
		path, _, _ := strings.Cut(o, ":")
		if !renamed[path] && !strings.Contains(text, o) {
			t.Errorf("the override %s is neither renamed nor named in the answer", o)
		}
	}
	if strings.Contains(text, "shapes/measure.py") {
		t.Errorf("a method of an unrelated class is named as an override")
	}
}
