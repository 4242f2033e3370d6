package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// referencesConfig writes a config named name beside f's binaries whose
// fake server answers textDocument/references with a location of f's a.go
// at each of lines (zero-based) and character, and returns its path.
func referencesConfig(t *testing.T, f approvalFixture, name string, lines []int, character int) string {
	t.Helper()
	dir := filepath.Dir(f.bin)
	var locs []any
	for _, line := range lines {
		pos := map[string]any{"line": line, "character": character}
		locs = append(locs, map[string]any{"uri": "file://" + filepath.Join(f.mcpFixture.workspace, "a.go"), "range": map[string]any{"start": pos, "end": pos}})
	}
	script, _ := json.Marshal(map[string]any{"methods": map[string]any{"textDocument/references": map[string]any{"result": locs}}})
	writeFile(t, filepath.Join(dir, name+"-script.json"), string(script))
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": map[string]any{
		"command": f.fakelsp, "args": []string{"--script", filepath.Join(dir, name+"-script.json")},
		"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0,
	}}})
	config := filepath.Join(dir, name+".json")
	writeFile(t, config, string(cfg))
	return config
}

// `lspseam call` on an answer cut at its limit says how to see more from
// the command line (a larger limit), not to call again with the cursor:
// the cursor lives in the process, which ends with the call. The
// structured answer keeps the cursor, as it keeps a preview's previewId.
func TestCallCutAnswerSaysHowToSeeMore(t *testing.T) {
	f := newApprovalFixture(t)
	config := referencesConfig(t, f, "pages", []int{0, 2, 4}, 13)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	args := `{"target":{"path":"a.go","line":3,"column":6},"kind":"references","limit":1}`
	code, out, stderr := runCLI(t, "call", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if code != exitOK || !strings.Contains(out, "(1 of 3 locations shown; limit is 1") {
		t.Fatalf("exit %d, %q %q", code, out, stderr)
	}
	if !strings.Contains(out, `run the same lspseam call code_navigate with a larger "limit" or with --pages 2`) || strings.Contains(out, "Next page") {
		t.Errorf("the cut answer does not say how to see more from the command line:\n%s", out)
	}
	// --pages follows the cursor in the process: every location once, in
	// order, and no hint but after the last page cut.
	code, out, stderr = runCLI(t, "call", "--pages", "3", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if code != exitOK || strings.Count(out, "Target: ") != 3 || !strings.Contains(out, "3–3 of 3: the last page") || strings.Contains(out, "--pages") {
		t.Fatalf("--pages 3: exit %d, %q %q", code, out, stderr)
	}
	if i1, i3, i5 := strings.Index(out, "  1:14"), strings.Index(out, "  3:14"), strings.Index(out, "  5:14"); !(i1 >= 0 && i1 < i3 && i3 < i5) {
		t.Errorf("--pages 3 did not show lines 1, 3 and 5 in order:\n%s", out)
	}
	code, out, _ = runCLI(t, "call", "--pages", "2", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if code != exitOK || strings.Count(out, "Target: ") != 2 || !strings.Contains(out, "--pages 3") {
		t.Errorf("--pages 2 of 3 pages: exit %d, want two pages and the hint for more:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "call", "--pages", "3", "--format", "json", "--config", config, "--workspace", f.mcpFixture.workspace, "code_navigate", args)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != exitOK || len(lines) != 3 || !json.Valid([]byte(lines[2])) {
		t.Errorf("--pages 3 --format json: exit %d, want three lines of JSON:\n%s", code, out)
	}
	if code, _, stderr = runCLI(t, "call", "--pages", "0", "code_navigate", args); code != exitUsage || !strings.Contains(stderr, "--pages must be from 1 to 100") {
		t.Errorf("--pages 0: exit %d, %q", code, stderr)
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

// An lsp answer cut at the render's 100 locations names maxLocations, a
// limit the lsp tool has no argument for: the answer says that
// code_navigate pages through the rest, when it is offered.
func TestLSPCutAnswerPointsToPaging(t *testing.T) {
	f := newApprovalFixture(t)
	var lines []int
	for i := range 120 {
		lines = append(lines, i%5)
	}
	config := referencesConfig(t, f, "many", lines, 0)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	args := `{"operation":"findReferences","file_path":"a.go","line":3,"character":6}`
	const hint = "code_navigate (kind references, implementation or definition) pages through all of them"
	code, out, stderr := runCLI(t, "call", "--config", config, "--workspace", f.mcpFixture.workspace, "lsp", args)
	if code != exitOK || !strings.Contains(out, "(20 more locations not shown; maxLocations is 100)") || !strings.Contains(out, hint) {
		t.Fatalf("exit %d, %q %q", code, out, stderr)
	}
	// With the lsp toolset alone there is no code_navigate to point to.
	mf := f.mcpFixture
	mf.config = config
	cs := mf.connect(t, mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil), f.mcpFixture.workspace, "--tools", "lsp")
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "findReferences", "file_path": "a.go", "line": 3, "character": 6}, nil)
	if err != nil || res.IsError || !strings.Contains(resultText(res), "maxLocations is 100") || strings.Contains(resultText(res), hint) {
		t.Errorf("with the lsp toolset alone: %v %s", err, resultText(res))
	}
}

// `lspseam tools --tools all` lists what the default lists (its help says
// the default is all), and mcp takes "all" too.
func TestToolsetsAll(t *testing.T) {
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	code, all, stderr := runCLI(t, "tools", "--tools", "all", "--format", "json")
	if code != exitOK {
		t.Fatalf("tools --tools all: exit %d: %s", code, stderr)
	}
	code, def, _ := runCLI(t, "tools", "--format", "json")
	if code != exitOK || all != def || !strings.Contains(all, `"code_delete"`) || !strings.Contains(all, `"edit"`) {
		t.Errorf("tools --tools all differs from the default, or lacks a toolset")
	}
	if got := toolsetList("all"); strings.Join(got, ",") != "lsp,code,fs,refactor" {
		t.Errorf("toolsetList(all) = %v", got)
	}
}

// `lspseam call code_diagnostics` waits for a report that comes later than
// a session's default wait (3 s): each call of the command line starts its
// servers anew, so "stale: ask again shortly" would be its answer every
// time (pyright on click, call after call). The fake server reports 3.3 s
// after the file is opened; the call's budget is the default 60 s.
func TestCallWaitsForLateReports(t *testing.T) {
	f := newApprovalFixture(t)
	dir := filepath.Dir(f.bin)
	uri := "file://" + filepath.Join(f.mcpFixture.workspace, "a.go")
	pos := map[string]any{"line": 0, "character": 0}
	publish := map[string]any{"notification": "textDocument/publishDiagnostics", "params": map[string]any{
		"uri": uri, "version": 1, "diagnostics": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "severity": 1, "message": "a late problem"}},
	}}
	script, _ := json.Marshal(map[string]any{"methods": map[string]any{"textDocument/didOpen": map[string]any{
		"action": "none", "after": []any{map[string]any{"sleepMs": 3300}, publish},
	}}})
	writeFile(t, filepath.Join(dir, "late-script.json"), string(script))
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": map[string]any{
		"command": f.fakelsp, "args": []string{"--script", filepath.Join(dir, "late-script.json")},
		"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0,
	}}})
	config := filepath.Join(dir, "late.json")
	writeFile(t, config, string(cfg))
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	code, out, stderr := runCLI(t, "call", "--config", config, "--workspace", f.mcpFixture.workspace, "code_diagnostics", `{"path":"a.go"}`)
	if code != exitOK || !strings.Contains(out, "a late problem") || strings.Contains(out, "stale") {
		t.Errorf("exit %d: the call answered before the report came:\n%s%s", code, out, stderr)
	}
}
