package localstdio

import (
	"errors"
	"fmt"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Config errors name the line to fix: YAML syntax errors the line where
// the file stops parsing (libyaml names where the enclosing block starts),
// and the core's problems, which name paths in the converted JSON, the
// line of each path in the file.
func TestLoadFileErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"a key indented wrongly", "servers:\n  x:\n    command: a\n   args: [b]\n",
			[]string{`line 4: did not find expected key: "   args: [b]"`}},
		{"an unclosed flow sequence", "servers:\n  x:\n    command: [a\n  y: 1\n",
			[]string{`line 3: did not find expected ',' or ']': "    command: [a"`}},
		{"fields and values", "timeoutMs: 60000\nservers:\n  x:\n    comand: /bin/sh\n    args: [a, 3]\n    extensionToLanguage: {.x: 1}\n  y:\n    command: /bin/sh\n    extensionToLanguage: {.y: y}\n    maxOpenDocuments: -1\nbogus: 1\n",
			[]string{
				"invalid lspseam config in CONFIG: ",
				`line 11: the config has an unknown field "bogus" `,
				`line 4: servers.x has an unknown field "comand" (did you mean "command"?)`,
				"line 3: servers.x.command must be a non-empty string",
				"line 5: servers.x.args[1] must be a string",
				`line 6: servers.x.extensionToLanguage[".x"] must be a string`,
				"line 10: servers.y.maxOpenDocuments must be a positive integer",
			}},
		{"JSON", "{\"servers\": {\"x\": {\"command\": \"/bin/sh\",\n  \"extensionToLanguage\": {\".x\": \"x\"},\n  \"killGraceMs\": \"soon\"}}}\n",
			[]string{"line 3: servers.x.killGraceMs must be a positive integer"}},
		{"a command not found", "servers:\n  x:\n    extensionToLanguage: {.x: x}\n    command: no-such-server-lspseam-test\n",
			[]string{"line 4: servers.x.command: no-such-server-lspseam-test was not found"}},
	} {
		path := filepath.Join(t.TempDir(), "lspseam.yaml")
		if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFile(context.Background(), sharedCore(t), path, LoadOptions{HostEnv: []string{"PATH=/nonexistent"}})
		if err == nil {
			t.Errorf("%s: loaded", tc.name)
			continue
		}
		for _, w := range tc.want {
			if w = strings.ReplaceAll(w, "CONFIG", path); !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nlacks %q", tc.name, err, w)
			}
		}
	}
}

// The lines come from the problems' paths, not from reading the message:
// each problem keeps its path and gets its line, and a message that has
// "; " or a path-like word inside it stays one problem.
func TestConfigProblemsCarryPathAndLine(t *testing.T) {
	file := "servers:\n  x:\n    command: no-such-server-lspseam-test\n    extensionToLanguage: {.x: x}\n  y:\n    extensionToLanguage: {.y: y}\n    optinal: true\n"
	path := filepath.Join(t.TempDir(), "lspseam.yaml")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(context.Background(), sharedCore(t), path, LoadOptions{HostEnv: []string{"PATH=/nonexistent"}})
	var lerr *lspseam.Error
	if !errors.As(err, &lerr) {
		t.Fatalf("LoadFile: %v, want an *Error", err)
	}
	var got []string
	for _, p := range lerr.Problems {
		got = append(got, fmt.Sprintf("%s@%d", p.Path, p.Line))
	}
	// y's problems come from the core (validation stops there); x's
	// missing command is LoadConfig's and would come only after.
	want := []string{"servers.y.optinal@7", "servers.y.command@5"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("problems %v, want %v (%v)", got, want, err)
	}

	file = "servers:\n  x:\n    command: no-such-server-lspseam-test\n    extensionToLanguage: {.x: x}\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadFile(context.Background(), sharedCore(t), path, LoadOptions{HostEnv: []string{"PATH=/nonexistent"}})
	if !errors.As(err, &lerr) || len(lerr.Problems) != 1 || lerr.Problems[0].Path != "servers.x.command" || lerr.Problems[0].Line != 3 ||
		!strings.Contains(lerr.Message, "line 3: servers.x.command: no-such-server-lspseam-test was not found") {
		t.Errorf("a command not found: %v, problems %+v", err, lerr)
	}
}

func TestParentPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"servers.gopls.command", "servers.gopls"},
		{"servers.gopls", "servers"},
		{"servers", ""},
		{`servers.x.env["A.B"]`, "servers.x.env"},
		{`servers.x.env["a[1]"]`, "servers.x.env"},
		{"servers.x.args[12]", "servers.x.args"},
		{"", ""},
	} {
		if got := parentPath(tc.in); got != tc.want {
			t.Errorf("parentPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
