package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
)

// `lspseam call` on an answer cut at its limit says how to see more from
// the command line (a larger limit), not to call again with the cursor:
// the cursor lives in the process, which ends with the call. The
// structured answer keeps the cursor, as it keeps a preview's previewId.
func TestCallCutAnswerSaysHowToSeeMore(t *testing.T) {
	f := newApprovalFixture(t)
	dir := filepath.Dir(f.bin)
	at := func(line int) map[string]any {
		pos := map[string]any{"line": line, "character": 13}
		return map[string]any{"uri": "file://" + filepath.Join(f.mcpFixture.workspace, "a.go"), "range": map[string]any{"start": pos, "end": pos}}
	}
	script, _ := json.Marshal(map[string]any{"methods": map[string]any{
		"textDocument/references": map[string]any{"result": []any{at(0), at(2), at(4)}},
	}})
	writeFile(t, filepath.Join(dir, "pages-script.json"), string(script))
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": map[string]any{
		"command": f.fakelsp, "args": []string{"--script", filepath.Join(dir, "pages-script.json")},
		"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0,
	}}})
	config := filepath.Join(dir, "pages.json")
	writeFile(t, config, string(cfg))
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	args := `{"target":{"path":"a.go","line":3,"column":6},"kind":"references","limit":1}`
	code, out, stderr := runCLI(t, "call", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if code != exitOK || !strings.Contains(out, "(1 of 3 locations shown; limit is 1") {
		t.Fatalf("exit %d, %q %q", code, out, stderr)
	}
	if !strings.Contains(out, `run the same lspseam call code_navigate with a larger "limit"`) || strings.Contains(out, "Next page") {
		t.Errorf("the cut answer does not say how to see more from the command line:\n%s", out)
	}
	code, out, stderr = runCLI(t, "call", "--format", "json", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if code != exitOK || !strings.Contains(out, `"cursor":`) {
		t.Errorf("--format json: exit %d, no cursor: %q %q", code, out, stderr)
	}
}
