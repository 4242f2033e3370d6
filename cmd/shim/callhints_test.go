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

// `lspseam call edit` of an existing file is refused (no call of the
// command line has read it), and the refusal says what works instead of
// "read it first", which no later call could do.
func TestCallEditSaysWhatWorks(t *testing.T) {
	f := newApprovalFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	ws := f.workspace(t)
	code, _, stderr := runCLI(t, "call", "--config", f.configs[""], "--workspace", ws, "edit", `{"file_path":"a.go","old_string":"Hello","new_string":"Hi","replace_all":true}`)
	if code != exitError || !strings.HasPrefix(stderr, "FS_NOT_OBSERVED: ") || !strings.Contains(stderr, "lspseam call can create files but not update them") || !strings.Contains(stderr, "lspseam serve or lspseam mcp") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	if a := readA(t, ws); a != approvalSource {
		t.Errorf("a.go changed: %q", a)
	}
}
