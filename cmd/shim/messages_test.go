package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
)

// An LSP_TIMEOUT names the budget that ran out and how to change it:
// --timeout when it came from the flag, else the config's timeoutMs. The
// fake server never answers references, so the budget always runs out.
func TestTimeoutNamesBudgetAndFlag(t *testing.T) {
	f := newMCPFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
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

// serve names the budget too: the request's own timeoutMs, else --timeout.
func TestServeTimeoutNamesBudget(t *testing.T) {
	f := newMCPFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run([]string{"serve", "--config", f.config, "--timeout", "400"}, inR, outW, &stderr)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	ask := func(id int, params map[string]any) string {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "lsp/query", "params": params})
		fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(body), body)
		length := 0
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the response: %v; stderr:\n%s", err, stderr.String())
			}
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &length)
		}
		resp := make([]byte, length)
		if _, err := io.ReadFull(out, resp); err != nil {
			t.Fatal(err)
		}
		return string(resp)
	}
	query := map[string]any{"operation": "findReferences", "filePath": "a.go", "position": map[string]int{"line": 2, "character": 5}, "workspaceRoot": f.workspace}
	if resp := ask(1, query); !strings.Contains(resp, "LSP_TIMEOUT") || !strings.Contains(resp, "400 ms, set by --timeout 400") {
		t.Errorf("--timeout 400: %s", resp)
	}
	query["timeoutMs"] = 300
	if resp := ask(2, query); !strings.Contains(resp, "LSP_TIMEOUT") || !strings.Contains(resp, "300 ms, the request's timeoutMs") {
		t.Errorf("timeoutMs 300: %s", resp)
	}
	inW.Close()
	if code := <-exit; code != exitOK {
		t.Errorf("exit %d", code)
	}
}
