package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCMacroReturnType: clangd's symbol range of a C function whose
// return type is written through a function-like macro (`API(int)
// make_one(void)`, cJSON's `CJSON_PUBLIC(cJSON *) f(void)`) starts at the
// macro's argument, inside its parentheses. code_replace with the
// function's whole new text wrote `API(API(int) make_one(void)` and
// answered "Applied"; code_delete of an unused one was refused as sharing
// its lines with other code (a tester's finding). On a workspace the test
// writes (a header defining the macro, a compilation database with
// absolute paths), the replacement holds the new declaration exactly
// once and the file compiles, and the unused function is deleted with
// its doc comment, the plain function beside it untouched. Prototypes in
// the header, through the macro or not, rewritten whole with their `;`,
// hold one `;` each (the file's stayed after the text: `;;`).
func TestCMacroReturnType(t *testing.T) {
	requireServers(t, "clangd")
	const header = "#ifndef API_H\n#define API_H\n\n#define API(t) t\n\nAPI(int) make_one(void);\nAPI(int) scaled(int x);\nint plain(void);\nint twice(int x);\n\n#endif\n"
	const lib = "#include \"api.h\"\n\n/* make_one makes one. */\nAPI(int) make_one(void)\n{\n    return 1;\n}\n\n/* unused_two is used nowhere. */\nAPI(int) unused_two(void)\n{\n    return 2;\n}\n\nint plain(void)\n{\n    return make_one();\n}\n\nAPI(int) scaled(int x)\n{\n    return x * 2;\n}\n\nint twice(int x)\n{\n    return scaled(x);\n}\n"
	dir := cWorkspace(t, map[string]string{"api.h": header, "lib.c": lib}, "lib.c")
	path := filepath.Join(dir, "lib.c")
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	call := structuredCaller(t, srv, dir)

	const replaced = "API(int) make_one(void)\n{\n    return 42;\n}"
	a, s := call("code_replace", map[string]any{"target": map[string]any{"path": "lib.c", "symbol": "make_one"}, "text": replaced})
	if a.IsError || s["applied"] != true {
		t.Fatalf("code_replace of make_one: %s", a.Content[0].Text)
	}
	want := strings.Replace(lib, "API(int) make_one(void)\n{\n    return 1;\n}", replaced, 1)
	if got := string(readFile(t, path)); got != want {
		t.Fatalf("after code_replace of make_one, lib.c holds:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(a.Content[0].Text, "Introduced:") || strings.Contains(a.Content[0].Text, "Unterminated") {
		t.Errorf("code_replace of make_one reports a problem it introduced: %s", a.Content[0].Text)
	}
	if cc, err := exec.LookPath("cc"); err == nil {
		if out, err := exec.Command(cc, "-std=c99", "-fsyntax-only", "-I"+dir, path).CombinedOutput(); err != nil {
			t.Errorf("lib.c does not compile after code_replace: %v\n%s", err, out)
		}
	}

	// A prototype rewritten whole, its `;` included: clangd's range stops
	// before the file's `;`, which stayed after the text (`;;`, an error
	// under -pedantic-errors), through the macro or not.
	hpath := filepath.Join(dir, "api.h")
	wantHeader := header
	for _, p := range []struct{ symbol, old, new string }{
		{"scaled", "API(int) scaled(int x);", "API(int) scaled(int factor);"},
		{"twice", "int twice(int x);", "int twice(int n);"},
	} {
		a, s = call("code_replace", map[string]any{"target": map[string]any{"path": "api.h", "symbol": p.symbol}, "text": p.new})
		if a.IsError || s["applied"] != true {
			t.Fatalf("code_replace of the prototype %s in api.h: %s", p.symbol, a.Content[0].Text)
		}
		if strings.Contains(a.Content[0].Text, "Introduced:") {
			t.Errorf("code_replace of the prototype %s reports a problem it introduced: %s", p.symbol, a.Content[0].Text)
		}
		wantHeader = strings.Replace(wantHeader, p.old, p.new, 1)
		if got := string(readFile(t, hpath)); got != wantHeader {
			t.Fatalf("after code_replace of the prototype %s, api.h holds:\n%s\nwant:\n%s", p.symbol, got, wantHeader)
		}
	}
	if cc, err := exec.LookPath("cc"); err == nil {
		if out, err := exec.Command(cc, "-std=c99", "-pedantic-errors", "-fsyntax-only", "-I"+dir, path).CombinedOutput(); err != nil {
			t.Errorf("lib.c does not compile under -pedantic-errors after the prototypes' code_replace: %v\n%s", err, out)
		}
	}

	a, s = call("code_delete", map[string]any{"target": map[string]any{"path": "lib.c", "symbol": "unused_two"}})
	if a.IsError || s["applied"] != true {
		t.Fatalf("code_delete of unused_two, which nothing calls: %s", a.Content[0].Text)
	}
	want = strings.Replace(want, "/* unused_two is used nowhere. */\nAPI(int) unused_two(void)\n{\n    return 2;\n}\n\n", "", 1)
	if got := string(readFile(t, path)); got != want {
		t.Errorf("after code_delete of unused_two, lib.c holds:\n%s\nwant:\n%s", got, want)
	}
}

// TestCObjectMacroPrefix: a declaration after an object-like macro
// (`SDS_API int sds_len(…)`, `#define SDS_API`): clangd's range starts
// after the macro, so a code_replace whose text brings the macro wrote it
// twice and code_delete refused the function as sharing its line with
// other code (findings s26, `SDS_API int f`).
func TestCObjectMacroPrefix(t *testing.T) {
	requireServers(t, "clangd")
	const header = "#ifndef SDS_H\n#define SDS_H\n\n#define SDS_API\n\nSDS_API int sds_len(const char *s);\n\n#endif\n"
	const lib = "#include \"sds.h\"\n\nSDS_API int sds_len(const char *s)\n{\n    int n = 0;\n    while (s[n])\n        n++;\n    return n;\n}\n\n/* sds_unused is used nowhere. */\nSDS_API int sds_unused(void)\n{\n    return 2;\n}\n"
	dir := cWorkspace(t, map[string]string{"sds.h": header, "sds.c": lib}, "sds.c")
	srv := catalogServe(t, "--approval", "auto")
	defer srv.shutdown(t)
	call := structuredCaller(t, srv, dir)

	const proto = "SDS_API int sds_len(const char *str);"
	a, s := call("code_replace", map[string]any{"target": map[string]any{"path": "sds.h", "symbol": "sds_len"}, "text": proto})
	if a.IsError || s["applied"] != true {
		t.Fatalf("code_replace of the prototype sds_len: %s", a.Content[0].Text)
	}
	if got, want := string(readFile(t, filepath.Join(dir, "sds.h"))), strings.Replace(header, "SDS_API int sds_len(const char *s);", proto, 1); got != want {
		t.Errorf("after code_replace of the prototype, sds.h holds:\n%s\nwant:\n%s", got, want)
	}

	a, s = call("code_delete", map[string]any{"target": map[string]any{"path": "sds.c", "symbol": "sds_unused"}})
	if a.IsError || s["applied"] != true {
		t.Fatalf("code_delete of sds_unused: %s", a.Content[0].Text)
	}
	want := strings.TrimSuffix(lib[:strings.Index(lib, "/* sds_unused")], "\n")
	if got := string(readFile(t, filepath.Join(dir, "sds.c"))); got != want {
		t.Errorf("after code_delete of sds_unused, sds.c holds:\n%q\nwant:\n%q", got, want)
	}
}

// structuredCaller calls a tool through srv on dir and returns the answer
// with its structured content decoded.
func structuredCaller(t *testing.T, srv *serveClient, dir string) func(tool string, args map[string]any) (toolCallAnswer, map[string]any) {
	return func(tool string, args map[string]any) (toolCallAnswer, map[string]any) {
		a := srv.toolCall(t, tool, jsonArgs(args), dir)
		var s map[string]any
		json.Unmarshal(a.StructuredContent, &s)
		return a, s
	}
}
