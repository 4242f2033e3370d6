package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTargetNameOutsideOutline: a by-name target whose name the server's
// outline leaves out — pyright's re-export `from .base import total_area
// as total_area`, clangd's macro `#define shape_summary shape_describe`,
// a member of a TypeScript type alias — is not answered "no symbol" with
// unrelated nearest names: the error names the line the name is on and a
// line target, and that target works.
func TestTargetNameOutsideOutline(t *testing.T) {
	requireServers(t, "pyright-langserver", "clangd", "typescript-language-server")
	py := copyFixture(t, "py")
	writeFixtureFile(t, py, "shapes/__init__.py", "\"\"\"Flat geometric figures.\"\"\"\n\nfrom .base import total_area as total_area\n\n\ndef __getattr__(name: str) -> object:\n    raise AttributeError(name)\n")
	ts := copyFixture(t, "ts")
	writeFixtureFile(t, ts, "src/retry.ts", "export type RetryOptions = {\n\t/** How many times. */\n\tlimit?: number;\n\tmethods?: string[];\n};\n\nexport const retry: RetryOptions = {limit: 2};\n")
	for _, tt := range []struct {
		name, ws, path, symbol string
		line                   string // the line the error must offer
		hover                  string // in the hover of the offered target
	}{
		{"pyright re-export", py, "shapes/__init__.py", "total_area", `"line":3,"matchText":"total_area"`, "total_area"},
		{"clangd macro", copyFixture(t, "c"), "shape.h", "shape_summary", `"line":45,"matchText":"shape_summary"`, "shape_summary"},
		{"typescript alias member", ts, "src/retry.ts", "RetryOptions.limit", `"line":3,"matchText":"limit"`, "limit?: number"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"target": map[string]string{"path": tt.path, "symbol": tt.symbol}})
			out, code, stderr := runCall(t, tt.ws, "code_hover", args)
			if code == 0 || !strings.Contains(stderr, "LSP_TARGET_NOT_FOUND") || !strings.Contains(stderr, tt.line) {
				t.Fatalf("exit %d, %s\n%s; want LSP_TARGET_NOT_FOUND offering %s", code, out, stderr, tt.line)
			}
			if strings.Contains(stderr, "nearest names") {
				t.Errorf("the error offers unrelated nearest names: %s", stderr)
			}
			offered := regexp.MustCompile(`\{"path":[^}]*\}`).FindString(stderr)
			args, _ = json.Marshal(map[string]json.RawMessage{"target": json.RawMessage(offered)})
			out, code, stderr = runCall(t, tt.ws, "code_hover", args)
			if code != 0 || !strings.Contains(string(out), tt.hover) {
				t.Errorf("the offered target %s: exit %d, %s %s; want a hover with %q", offered, code, out, stderr, tt.hover)
			}
		})
	}
}

// writeFixtureFile writes a file into a copied fixture.
func writeFixtureFile(t *testing.T, ws, rel, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(ws, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
