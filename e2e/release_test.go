package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestQueriesAcrossCoreRelease: with the core released after 200 ms idle,
// every language's queries are answered the same before the release, after
// it (the module loaded again from the compilation cache) and after the
// next one: giving the core's memory back changes no answer.
func TestQueriesAcrossCoreRelease(t *testing.T) {
	t.Setenv("LSPSEAM_CORE_RELEASE_AFTER", "200ms")
	serve := startServe(t, writeConfig(t))
	// Two rows per workspace that expect an answer, not an error.
	var rows []expectation
	per := map[string]int{}
	for _, e := range loadExpectations(t) {
		if e.ErrorCode == "" && per[e.Workspace] < 2 {
			rows = append(rows, e)
			per[e.Workspace]++
		}
	}
	if len(per) != 4 {
		t.Fatalf("rows for %d workspaces, want 4 (%v)", len(per), per)
	}
	ask := func(round int) map[string]string {
		answers := map[string]string{}
		for _, e := range rows {
			res, rpcErr := serve.query(e, workspaceDir(e.Workspace))
			if rpcErr != nil {
				t.Fatalf("round %d, %s: %s: %s", round, e.ID, rpcErr.Data.Code, rpcErr.Data.Message)
			}
			text, err := renderResult(res, workspaceDir(e.Workspace))
			if err != nil {
				t.Fatalf("round %d, %s: %v", round, e.ID, err)
			}
			checkAnswer(t, e, text, "")
			answers[e.ID] = text
		}
		return answers
	}
	first := ask(1)
	pid := serve.cmd.Process.Pid
	for round := 2; round <= 3; round++ {
		if kb := executableAnonKB(t, pid); kb < 1024 {
			t.Fatalf("round %d: before the release the shim maps %d KB of machine code; the core module should be compiled", round, kb)
		}
		// The release: its machine code unmapped (by a finalizer after a
		// collection, so give it a moment).
		deadline := time.Now().Add(10 * time.Second)
		for executableAnonKB(t, pid) >= 1024 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the core module was not released 10 s after the last query (%d KB of machine code mapped)", round, executableAnonKB(t, pid))
			}
			time.Sleep(100 * time.Millisecond)
		}
		again := ask(round)
		for id, text := range first {
			if again[id] != text {
				t.Errorf("round %d, %s: the answer changed across a release:\n%s\nvs\n%s", round, id, again[id], text)
			}
		}
	}
}

// executableAnonKB is the resident size of pid's anonymous executable
// mappings: wazero's compiled machine code (a Go binary has no other).
func executableAnonKB(t *testing.T, pid int) int {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kb, counting := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-") && len(fields[1]) == 4:
			// A mapping's header: range, perms, offset, dev, inode[, path].
			counting = fields[1][2] == 'x' && len(fields) == 5
		case counting && len(fields) >= 2 && fields[0] == "Rss:":
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
	return kb
}
