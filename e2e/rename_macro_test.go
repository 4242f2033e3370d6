package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenameLeavesMacroBody: clangd 14 renames a function's declaration
// and definition but not its name in a macro's body, and lists the uses
// through the macro at its invocations, whose lines do not spell the
// name. A tester's rename of cJSON_SetNumberHelper (called from the body
// of cJSON_SetNumberValue, cJSON.h:284) was told to edit 5 invocations
// of the macro, never told of cJSON.h:284, and applied with "no new
// problems" while the link failed. The preview and the applied answer
// name the macro's body as the line to edit.
func TestRenameLeavesMacroBody(t *testing.T) {
	requireServers(t, "clangd")
	files := map[string]string{
		"num.h": "#ifndef NUM_H\n#define NUM_H\nint set_number_helper(int *o, int n);\n" +
			"#define SET_NUMBER(o, n) ((o) != 0 ? set_number_helper((o), (n)) : (n))\n#endif\n",
		"num.c": "#include \"num.h\"\n\nint set_number_helper(int *o, int n) {\n\t*o = n;\n\treturn n;\n}\n",
		"use.c": "#include \"num.h\"\n\nint use(void) {\n\tint x;\n\treturn SET_NUMBER(&x, 3);\n}\n",
	}
	dir := cWorkspace(t, files, "num.c", "use.c")
	srv := catalogServe(t, "--approval", "preview")
	defer srv.shutdown(t)
	args := map[string]any{"target": map[string]any{"path": "num.c", "symbol": "set_number_helper"}, "newName": "set_number_helper2"}
	check := func(what string, a toolCallAnswer) {
		t.Helper()
		text := a.Content[0].Text
		if a.IsError || !strings.Contains(incomplete(a.StructuredContent), "num.h:4 spells `set_number_helper` in the body of macro `SET_NUMBER`, which the server's rename does not change: rename it there (edit)") {
			t.Fatalf("%s does not name the macro's body:\n%s", what, text)
		}
		if strings.Contains(text, "use.c:5") && !strings.Contains(text, "at use.c:5 reaches it through `SET_NUMBER`") || strings.Contains(text, "the rename leaves") {
			t.Fatalf("%s tells to edit the macro's invocation:\n%s", what, text)
		}
	}
	a := srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	check("the preview", a)
	var s map[string]any
	json.Unmarshal(a.StructuredContent, &s)
	id, _ := s["previewId"].(string)
	if id == "" {
		t.Fatalf("no previewId: %s", a.Content[0].Text)
	}
	args["previewId"] = id
	a = srv.toolCall(t, "code_rename", jsonArgs(args), dir)
	json.Unmarshal(a.StructuredContent, &s)
	if s["applied"] != true {
		t.Fatalf("apply: %s", a.Content[0].Text)
	}
	check("the applied answer", a)
	if got := string(readFile(t, filepath.Join(dir, "num.c"))); !strings.Contains(got, "int set_number_helper2(") {
		t.Fatalf("num.c after the rename: %s", got)
	}
}
