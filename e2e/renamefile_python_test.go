package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRenameFileNamesPythonImporters: pyright updates no import when a
// module is moved (no workspace/willRenameFiles), and the answer said
// only "check the files that import" it (a tester's move of httpx's
// _urlparse.py left two imports broken, unnamed). The preview names each
// import statement that still names the old module.
func TestRenameFileNamesPythonImporters(t *testing.T) {
	requireServers(t, "pyright-langserver")
	dir := copyFixture(t, "py")
	srv := catalogServe(t, "--approval", "preview")
	defer srv.shutdown(t)
	a := srv.toolCall(t, "code_rename_file", json.RawMessage(`{"path":"shapes/units.py","newPath":"shapes/measures.py"}`), dir)
	text := a.Content[0].Text
	if a.IsError {
		t.Fatalf("rename_file: %s", text)
	}
	if !strings.Contains(text, "main.py:3 (import shapes.units as units)") || !strings.Contains(text, "update that import (edit)") {
		t.Errorf("the import of shapes.units in main.py is not named:\n%s", text)
	}
}
