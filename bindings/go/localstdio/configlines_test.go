package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
				`the config has an unknown field "bogus" at line 11 `,
				`servers.x has an unknown field "comand" at line 4 (did you mean "command"?)`,
				"servers.x.command at line 3 must be a non-empty string",
				"servers.x.args[1] at line 5 must be a string",
				`servers.x.extensionToLanguage[".x"] at line 6 must be a string`,
				"servers.y.maxOpenDocuments at line 10 must be a positive integer",
			}},
		{"JSON", "{\"servers\": {\"x\": {\"command\": \"/bin/sh\",\n  \"extensionToLanguage\": {\".x\": \"x\"},\n  \"killGraceMs\": \"soon\"}}}\n",
			[]string{"servers.x.killGraceMs at line 3 must be a positive integer"}},
		{"a command not found", "servers:\n  x:\n    extensionToLanguage: {.x: x}\n    command: no-such-server-lspseam-test\n",
			[]string{"servers.x.command at line 4: no-such-server-lspseam-test was not found"}},
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
