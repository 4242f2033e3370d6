package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
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
		if code := coreCodeKB(t, pid); code.size < 1024 {
			t.Fatalf("round %d: before the release the shim maps %d KB of machine code; the core module should be compiled", round, code.size)
		}
		// The release: the machine code's pages given back (unmapped by a
		// finalizer after a collection, or, where the code lives in a file
		// mapping, dropped from the process), so give it a moment.
		wait := testenv.StepBudget(t)
		deadline := time.Now().Add(wait)
		for coreCodeKB(t, pid).rss >= 1024 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the core module was not released %v after the last query (%d KB of machine code resident)", round, wait.Round(time.Second), coreCodeKB(t, pid).rss)
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

// codeKB is the size and the resident size of the core's machine code.
type codeKB struct{ size, rss int }

// coreCodeKB measures pid's executable mappings that hold wazero's
// compiled machine code: anonymous ones (a Go binary has no other), and
// the file mappings internal/residency moves the code into (named
// lspseam-code-*, unlinked).
func coreCodeKB(t *testing.T, pid int) codeKB {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kb codeKB
	counting := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-") && len(fields[1]) == 4:
			// A mapping's header: range, perms, offset, dev, inode[, path].
			counting = fields[1][2] == 'x' && (len(fields) == 5 || strings.Contains(fields[5], "/lspseam-code-"))
		case counting && len(fields) >= 2 && (fields[0] == "Rss:" || fields[0] == "Size:"):
			n, _ := strconv.Atoi(fields[1])
			if fields[0] == "Rss:" {
				kb.rss += n
			} else {
				kb.size += n
			}
		}
	}
	return kb
}
