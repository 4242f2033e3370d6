package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// TestKilledServeTakesItsServersAlong starts real servers through `lspseam
// serve` — typescript-language-server runs tsserver processes of its own,
// and gopls is started by a wrapper that leaves `sleep 86400 &` behind in
// its process group, as wrapper scripts do — kills serve with SIGKILL
// (nothing runs in it after that), and checks that every process it had
// started, at any depth, is gone. (tsserver exits by itself when its
// parent's pipe closes; the sleep does not, which is what the supervisor
// is for.) The test waits a share of its own deadline for that, never
// long enough for the sleep to end by itself.
func TestKilledServeTakesItsServersAlong(t *testing.T) {
	requireServers(t, "gopls", "typescript-language-server")
	cfg := filepath.Join(t.TempDir(), "lspseam.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`servers:
  gopls:
    command: /bin/sh
    args: ["-c", "sleep 86400 & exec \"$0\"", %[1]q]
    extensionToLanguage: {.go: go}
  typescript:
    command: %[2]q
    args: [--stdio]
    extensionToLanguage: {.ts: typescript}
`, filepath.Join(toolsBin, "gopls"), filepath.Join(toolsBin, "typescript-language-server"))), 0o644)
	c := startServe(t, cfg)
	for _, e := range loadExpectations(t) {
		if e.ID != "ts-def-cross" && e.ID != "go-def-cross" {
			continue
		}
		if _, rpcErr := c.query(e, workspaceDir(e.Workspace)); rpcErr != nil {
			t.Fatalf("%s: %+v", e.ID, rpcErr)
		}
	}
	tree := descendants(c.cmd.Process.Pid)
	names := map[string]int{}
	for _, pid := range tree {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		names[string(comm[:max(len(comm)-1, 0)])]++
	}
	// A supervisor each, the two servers, and tsserver's own processes.
	if names["gopls"] == 0 || names["sleep"] != 1 || names["node"] < 2 {
		t.Fatalf("expected gopls with its sleep, and typescript-language-server with tsserver under serve, found %v", names)
	}
	// The sleep is gone at the end either way; the test's assertion is that
	// the supervisor, not this cleanup, ends it.
	t.Cleanup(func() {
		for _, pid := range tree {
			killPid(pid)
		}
	})
	c.kill()
	deadline := time.Now().Add(testenv.StepBudget(t))
	for {
		var left []int
		for _, pid := range tree {
			if state, _ := procState(pid); state != "" && state != "Z" {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the %d processes serve started survived its SIGKILL (waited %v): %v", len(left), len(tree), testenv.StepBudget(t), left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// descendants lists the live processes under pid, at any depth.
func descendants(pid int) []int {
	var out []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		p, err := strconv.Atoi(filepath.Base(d))
		if err == nil && p != pid && isDescendant(pid, p) {
			out = append(out, p)
		}
	}
	return out
}
