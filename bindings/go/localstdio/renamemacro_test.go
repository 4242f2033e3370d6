package localstdio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolboxRenameNamesTheMacroBodyItLeaves: clangd 14 lists a use
// through a macro's expansion at the macro's invocation, whose line does
// not spell the name, and neither lists nor renames the macro's body. A
// tester's rename of cJSON_SetNumberHelper was told to "rename (edit)" 5
// invocations of cJSON_SetNumberValue and never told of cJSON.h:284, the
// macro's body, and the applied rename said "no new problems" while the
// link failed. The preview and the applied answer name the body's line
// as the one to edit and the invocation as reaching it.
func TestToolboxRenameNamesTheMacroBodyItLeaves(t *testing.T) {
	f := newFake(t, nil, map[string]any{"extensionToLanguage": map[string]string{".c": "c", ".h": "c"}})
	f.cleanPull = true // not about the change's diagnostics
	for name, text := range map[string]string{
		"lib.h":  "int helper(int x);\n#define USE(x) \\\n\t(helper(x) + 1)\n",
		"lib.c":  "#include \"lib.h\"\nint helper(int x) { return x; }\n",
		"main.c": "#include \"lib.h\"\nint main(void) { return USE(1); }\n",
	} {
		if err := os.WriteFile(filepath.Join(f.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pos := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	name := map[string]any{"start": pos(1, 4), "end": pos(1, 10)}
	helper := []map[string]any{{"name": "helper", "kind": 12, "range": map[string]any{"start": pos(1, 0), "end": pos(1, 31)}, "selectionRange": name}}
	edit := func(line int) []any {
		return []any{map[string]any{"newText": "helper2", "range": map[string]any{"start": pos(line, 4), "end": pos(line, 10)}}}
	}
	f.setScript(map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "referencesProvider": true,
		"renameProvider": map[string]any{"prepareProvider": true}}, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": helper},
		"textDocument/prepareRename":  map[string]any{"result": name},
		"textDocument/references":     map[string]any{"result": []any{f.loc("lib.c", 1, 4), f.loc("lib.h", 0, 4), f.loc("main.c", 1, 24)}},
		"textDocument/rename":         map[string]any{"result": map[string]any{"changes": map[string]any{f.uri("lib.c"): edit(1), f.uri("lib.h"): edit(0)}}},
	}})
	tb := f.toolbox()
	args := `{"target":{"path":"lib.c","symbol":"helper"},"newName":"helper2"}`
	check := func(what, text string) {
		t.Helper()
		for _, want := range []string{"lib.h:3 spells `helper` in the body of macro `USE`, which the server's rename does not change: rename it there (edit)",
			"the use the server lists at main.c:2 reaches it through `USE`"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", what, want, text)
			}
		}
		if strings.Contains(text, "the rename leaves") {
			t.Errorf("%s tells to edit the macro's invocation:\n%s", what, text)
		}
	}
	preview, applied := f.previewThenApply(tb, "code_rename", args)
	check("the preview", preview)
	check("the applied answer", applied)
}
