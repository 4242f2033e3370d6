package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// TestTypeScriptServerBackendKilled: typescript-language-server runs
// tsserver as a child process; when that child dies (killed here, out of
// memory in real use) the server stays up and answers every request with
// nothing, after logging "[tsserver] Exited. …". lspseam takes the log as
// the server's crash: the server is stopped, and the next call starts a
// fresh one — references are found again, not "No locations found", and
// code_delete of a function other files use is refused, not applied with
// "no language server covers" the file.
func TestTypeScriptServerBackendKilled(t *testing.T) {
	requireServers(t, "typescript-language-server")
	if runtime.GOOS != "linux" {
		t.Skip("finds tsserver through /proc")
	}
	dir := copyFixture(t, "ts")
	srv := catalogServe(t)
	call := func(tool string, args map[string]any) toolCallAnswer {
		raw, _ := json.Marshal(args)
		return srv.toolCall(t, tool, raw, dir)
	}
	// A call that was in flight when the server logged the exit answers
	// LSP_SERVER_FAILED; the one after it runs on a fresh server.
	again := func(tool string, args map[string]any) toolCallAnswer {
		a := call(tool, args)
		if a.IsError && strings.Contains(a.Content[0].Text, "LSP_SERVER_FAILED") && strings.Contains(a.Content[0].Text, "[tsserver] Exited") {
			a = call(tool, args)
		}
		return a
	}
	references := func(when string) {
		t.Helper()
		a := again("code_navigate", map[string]any{"target": map[string]any{"path": "src/shape.ts", "symbol": "totalArea"}, "kind": "references"})
		if text := a.Content[0].Text; a.IsError || !strings.Contains(text, "totalArea(shapes)") || !strings.Contains(text, "totalArea(all)") {
			t.Fatalf("references of totalArea %s miss its uses in src/report.ts and src/main.ts:\n%s", when, text)
		}
	}
	references("before tsserver was killed")

	killTsserver(t, srv.cmd.Process.Pid)
	references("after tsserver was killed")

	killTsserver(t, srv.cmd.Process.Pid)
	a := again("code_delete", map[string]any{"target": map[string]any{"path": "src/shape.ts", "symbol": "totalArea"}})
	if !a.IsError || !strings.Contains(a.Content[0].Text, "src/report.ts") {
		t.Errorf("code_delete of totalArea, used by two files, after tsserver was killed: %s", a.Content[0].Text)
	}
	if text := string(readFile(t, dir+"/src/shape.ts")); !strings.Contains(text, "export function totalArea") {
		t.Error("code_delete deleted totalArea, which other files use")
	}
}

// killTsserver kills the semantic tsserver (not the syntax-only one,
// --serverMode partialSemantic) under the shim pid and waits until it is
// gone.
func killTsserver(t *testing.T, shim int) {
	t.Helper()
	tsserver := 0
	for _, pid := range descendants(shim) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if bytes.Contains(cmdline, []byte("tsserver")) && !bytes.Contains(cmdline, []byte("partialSemantic")) {
			tsserver = pid
		}
	}
	if tsserver == 0 {
		t.Fatalf("no tsserver process under the shim (pid %d)", shim)
	}
	if err := killPid(tsserver); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testenv.StepBudget(t))
	for isDescendant(shim, tsserver) {
		if time.Now().After(deadline) {
			t.Fatalf("tsserver (pid %d) still runs %v after SIGKILL", tsserver, testenv.StepBudget(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
