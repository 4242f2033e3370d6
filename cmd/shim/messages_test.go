package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An LSP_TIMEOUT names the budget that ran out and how to change it:
// --timeout when it came from the flag, else the config's timeoutMs. The
// fake server never answers references, so the budget always runs out.
func TestTimeoutNamesBudgetAndFlag(t *testing.T) {
	f := newMCPFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", filepath.Join(filepath.Dir(f.bin), "cache"))
	query := []string{"--workspace", f.workspace, "findReferences", "a.go:3:6"}

	code, _, stderr := runCLI(t, append([]string{"query", "--config", f.config, "--timeout", "300"}, query...)...)
	if code != exitError || !strings.HasPrefix(stderr, "LSP_TIMEOUT: ") || !strings.Contains(stderr, "300 ms, set by --timeout 300") {
		t.Errorf("--timeout 300: exit %d, stderr %q", code, stderr)
	}

	var cfg map[string]any
	data, err := os.ReadFile(f.config)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(data, &cfg)
	cfg["timeoutMs"] = 300
	data, _ = json.Marshal(cfg)
	withBudget := filepath.Join(t.TempDir(), "lspseam.json")
	writeFile(t, withBudget, string(data))
	code, _, stderr = runCLI(t, append([]string{"query", "--config", withBudget}, query...)...)
	if code != exitError || !strings.HasPrefix(stderr, "LSP_TIMEOUT: ") || !strings.Contains(stderr, "300 ms, the config's timeoutMs; raise it with --timeout MS or timeoutMs") {
		t.Errorf("timeoutMs 300: exit %d, stderr %q", code, stderr)
	}
}
