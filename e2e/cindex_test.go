package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCIndexNoticeBeyondReferences: clangd without compile_commands.json
// has no index and answers from the files it has opened. References said
// so; the callers of a function and a symbol search did not — 3 callers
// of 23, and "no symbols match" for a function of another .c file,
// unmarked (findings s26 #4). On a two-file workspace (app.c calls
// helper, defined in lib.c) without a database, code_hierarchy callers
// and code_symbols (with path and without) say which database is missing,
// in the text and in the structured incomplete; with a database listing
// both files they do not.
func TestCIndexNoticeBeyondReferences(t *testing.T) {
	requireServers(t, "clangd")
	srv := catalogServe(t)
	defer srv.shutdown(t)
	workspace := func(t *testing.T, withDB bool) string {
		t.Helper()
		files := map[string]string{
			"lib.h": "#ifndef LIB_H\n#define LIB_H\nint helper(int x);\n#endif\n",
			"lib.c": "#include \"lib.h\"\n\nint helper(int x) { return x + 1; }\n\nint twice(int x) { return helper(helper(x)); }\n",
			"app.c": "#include \"lib.h\"\n\nint app_entry(void) { return helper(41); }\n\nint main(void) { return app_entry(); }\n",
		}
		if withDB {
			return cWorkspace(t, files, "lib.c", "app.c")
		}
		return cWorkspace(t, files)
	}
	calls := []struct{ name, tool string }{
		{"callers", `{"target":{"path":"lib.c","symbol":"helper"},"kind":"callers"}`},
		{"symbols with path", `{"query":"app_entry","path":"lib.c"}`},
		{"symbols", `{"query":"app_entry"}`},
	}
	tools := map[string]string{"callers": "code_hierarchy", "symbols with path": "code_symbols", "symbols": "code_symbols"}

	noDB := workspace(t, false)
	for _, c := range calls {
		a := srv.toolCall(t, tools[c.name], json.RawMessage(c.tool), noDB)
		const want = `language server "clangd" found no compile_commands.json`
		if a.IsError || !strings.Contains(incomplete(a.StructuredContent), want) || !strings.Contains(a.Content[0].Text, want) {
			t.Errorf("%s without compile_commands.json is not marked incomplete (%q):\n%s\n%s", c.name, want, a.Content[0].Text, a.StructuredContent)
		}
	}

	withDB := workspace(t, true)
	for _, c := range calls {
		a := srv.toolCall(t, tools[c.name], json.RawMessage(c.tool), withDB)
		if a.IsError || strings.Contains(a.Content[0].Text, "compile_commands.json") || strings.Contains(string(a.StructuredContent), "compile_commands.json") {
			t.Errorf("%s with a compile_commands.json listing every file says it is missing:\n%s", c.name, a.Content[0].Text)
		}
		if c.name == "callers" && !strings.Contains(a.Content[0].Text, "app_entry") {
			t.Errorf("callers with compile_commands.json miss app.c's app_entry:\n%s", a.Content[0].Text)
		}
	}
}
