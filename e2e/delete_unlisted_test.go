package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodeDeleteUnlistedFiles: a compile_commands.json never lists the
// examples and fuzzers a C project vendors, and code_delete refused every
// deletion there ("cannot tell whether `unused_helper` is still used …
// compile_commands.json has no entry for 50 C/C++ source files", a
// tester on cJSON). The files the database leaves out, and what they
// include, are searched for the name instead: with an unlisted
// fuzzing/extra.c that does not spell it, an unused function is deleted;
// one that spells it refuses the deletion naming its line. A static
// function is reached only from units including its file: an unlisted
// file with its own static of the same name does not stop the deletion,
// and one including the declaring .c file through a header (cJSON's
// tests/common.h does `#include "../cJSON.c"`) does.
func TestCodeDeleteUnlistedFiles(t *testing.T) {
	requireServers(t, "clangd")
	const util = "#include \"util.h\"\n\nint used(void) { return 1; }\n\nint orphan(void)\n{\n    return 2;\n}\n\nstatic int lonely(void)\n{\n    return 3;\n}\n\nint last(void) { return used(); }\n"
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	for _, c := range []struct {
		name, symbol string
		vendor       map[string]string // files beside the listed ones, under fuzzing/
		refusedAt    string            // "" when deleted
	}{
		{"unlisted file without the name", "orphan", map[string]string{"extra.c": "int unrelated(void) { return 0; }\n"}, ""},
		{"unlisted file calling it", "orphan", map[string]string{"extra.c": "int orphan(void);\nint calls(void) { return orphan(); }\n"}, "fuzzing/extra.c:1, fuzzing/extra.c:2 spell `orphan`"},
		{"unlisted file with its own static of the name", "lonely", map[string]string{"extra.c": "static int lonely(void) { return 9; }\nint f(void) { return lonely(); }\n"}, ""},
		{"unlisted file including the .c file through a header", "lonely", map[string]string{"t.h": "#include \"../util.c\"\n", "extra.c": "#include \"t.h\"\nint g(void) { return lonely(); }\n"}, "fuzzing/extra.c:2 spells `lonely`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{
				"util.h": "int used(void);\n",
				"util.c": util,
				"main.c": "#include \"util.h\"\n\nint main(void) { return used(); }\n",
			}
			for name, text := range c.vendor {
				files["fuzzing/"+name] = text
			}
			var entries []map[string]string
			for _, name := range []string{"util.c", "main.c"} {
				entries = append(entries, map[string]string{"directory": dir, "file": name, "command": "cc -c " + name})
			}
			db, _ := json.Marshal(entries)
			files["compile_commands.json"] = string(db)
			writeTree(t, dir, files)
			a := srv.toolCall(t, "code_delete", jsonArgs(map[string]any{"target": map[string]any{"path": "util.c", "symbol": c.symbol}}), dir)
			var s map[string]any
			json.Unmarshal(a.StructuredContent, &s)
			got := string(readFile(t, filepath.Join(dir, "util.c")))
			if c.refusedAt == "" {
				if a.IsError || s["applied"] != true || strings.Contains(got, c.symbol+"(void)") {
					t.Fatalf("deleting %s, which no unlisted file can use: %s", c.symbol, a.Content[0].Text)
				}
				return
			}
			errObj, _ := s["error"].(map[string]any)
			if !a.IsError || errObj["reason"] != "usesUnknown" || !strings.Contains(a.Content[0].Text, c.refusedAt) || !strings.Contains(a.Content[0].Text, "fuzzing/extra.c") {
				t.Fatalf("deleting %s, which an unlisted file uses: %s", c.symbol, a.Content[0].Text)
			}
			if got != util {
				t.Fatalf("a refused delete changed util.c:\n%s", got)
			}
		})
	}
}
