package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Writes through real `lspseam serve` processes, the way the issue's
// probe found them lost: two agents' serves changing one file at once,
// and a serve killed with SIGKILL while it applies a 60-file rename. The
// language server is the scripted fake (what it answers is fixed; what is
// tested is lspseam's writing).

// writesScript is a fake server with an outline (function A on line 3),
// empty pulled diagnostics, and a rename answering renameEdit.
func writesScript(renameEdit map[string]any) map[string]any {
	return map[string]any{
		"capabilities": map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": true,
			"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}},
		"methods": map[string]any{
			"textDocument/diagnostic": map[string]any{"result": map[string]any{"kind": "full", "items": []any{}}},
			"textDocument/documentSymbol": map[string]any{"result": []map[string]any{{
				"name": "A", "kind": 12,
				"range":          map[string]any{"start": map[string]any{"line": 2, "character": 0}, "end": map[string]any{"line": 2, "character": 11}},
				"selectionRange": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}},
			}}},
			"textDocument/rename": map[string]any{"result": renameEdit},
		},
	}
}

func wsURI(t *testing.T, ws, file string) string {
	real, err := filepath.EvalSymlinks(ws)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + real + "/" + file
}

func answerCode(a toolCallAnswer) string {
	var s struct {
		Error struct{ Code string } `json:"error"`
	}
	json.Unmarshal(a.StructuredContent, &s)
	return s.Error.Code
}

// TestServesNeverLoseAnEdit: two `lspseam serve --approval auto`
// processes each `edit` and `code_insert` into one file at the same
// moment, 40 rounds of each: every round ends with both changes in the
// file or one refused (FS_STALE, LSP_CONFLICT). On the code before
// cross-process locks 35–38 of 40 rounds lost one.
func TestServesNeverLoseAnEdit(t *testing.T) {
	t.Setenv("LSPSEAM_STATE_DIR", t.TempDir())
	s := newFakeSetup(t, writesScript(map[string]any{"changes": map[string]any{}}), 1)
	ws := s.workspaces[0]
	file := filepath.Join(ws, "a.go")
	os.WriteFile(file, []byte("package p\n\nfunc A() {}\n"), 0o644)
	clients := []*serveClient{
		launchServe(t, os.Stderr, "--config", s.cfg, "--approval", "auto"),
		launchServe(t, os.Stderr, "--config", s.cfg, "--approval", "auto"),
	}
	for _, c := range clients {
		t.Cleanup(c.kill)
	}
	rounds := 40
	for _, tool := range []string{"edit", "code_insert"} {
		lost, refused := 0, 0
		for round := 0; round < rounds; round++ {
			before := strings.Count(readRel(t, ws, "a.go"), "by serve ")
			if tool == "edit" {
				for _, c := range clients {
					if a := c.toolCall(t, "read", json.RawMessage(`{"file_path":"a.go"}`), ws); a.IsError {
						t.Fatalf("read: %s", a.Content[0].Text)
					}
				}
			}
			answers := make([]toolCallAnswer, len(clients))
			var wg sync.WaitGroup
			for i, c := range clients {
				line := fmt.Sprintf("// round %d by serve %d\n", round, i)
				args, _ := json.Marshal(map[string]any{"file_path": "a.go", "old_string": "package p\n", "new_string": "package p\n" + line})
				if tool == "code_insert" {
					args, _ = json.Marshal(map[string]any{"target": map[string]any{"path": "a.go", "symbol": "A"}, "position": "before", "text": line})
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					answers[i] = c.toolCall(t, tool, args, ws)
				}()
			}
			wg.Wait()
			ok := 0
			for _, a := range answers {
				switch code := answerCode(a); {
				case !a.IsError:
					ok++
				case code == "FS_STALE" || code == "LSP_CONFLICT":
					refused++
				default:
					t.Fatalf("%s round %d: %s", tool, round, a.Content[0].Text)
				}
			}
			if added := strings.Count(readRel(t, ws, "a.go"), "by serve ") - before; added != ok {
				lost += ok - added
				t.Errorf("%s round %d: %d answered OK, %d in the file", tool, round, ok, added)
			}
		}
		t.Logf("%s: %d rounds, %d refused, %d lost", tool, rounds, refused, lost)
	}
}

// TestServeKilledMidRenameLeavesAWholeSet: a serve applying a 60-file
// rename is killed with SIGKILL at random moments; the next serve's first
// call leaves every file old or every file new, and no temporary. On the
// code before the journal, 19 of 60 kills left a mixed set.
func TestServeKilledMidRenameLeavesAWholeSet(t *testing.T) {
	stateDir := t.TempDir()
	t.Setenv("LSPSEAM_STATE_DIR", stateDir)
	journals := filepath.Join(stateDir, "journal")
	const n = 60
	ws := t.TempDir()
	edits := map[string]any{}
	old := func(i int) string { return fmt.Sprintf("package p\n\nfunc A() {} // f%02d\n", i) }
	renamed := func(i int) string { return fmt.Sprintf("package p\n\nfunc Z() {} // f%02d\n", i) }
	reset := func() {
		for i := 0; i < n; i++ {
			os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%02d.go", i)), []byte(old(i)), 0o644)
		}
	}
	reset()
	at := map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}
	for i := 0; i < n; i++ {
		edits[wsURI(t, ws, fmt.Sprintf("f%02d.go", i))] = []any{map[string]any{"range": at, "newText": "Z"}}
	}
	s := newFakeSetup(t, writesScript(map[string]any{"changes": edits}), 0)
	args := json.RawMessage(`{"target":{"path":"f00.go","symbol":"A"},"newName":"Z"}`)
	state := func() string {
		var oldN, newN int
		entries, _ := os.ReadDir(ws)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".lspseam-") {
				return "temporaries left: " + e.Name()
			}
		}
		for i := 0; i < n; i++ {
			switch readRel(t, ws, fmt.Sprintf("f%02d.go", i)) {
			case old(i):
				oldN++
			case renamed(i):
				newN++
			}
		}
		switch {
		case oldN == n:
			return "old"
		case newN == n:
			return "new"
		}
		return fmt.Sprintf("mixed: %d old, %d new of %d", oldN, newN, n)
	}

	// One whole rename, timed: kills are spread over its length.
	c := launchServe(t, os.Stderr, "--config", s.cfg, "--approval", "auto")
	start := time.Now()
	if a := c.toolCall(t, "code_rename", args, ws); a.IsError || state() != "new" {
		t.Fatalf("the rename: %s (%s)", a.Content[0].Text, state())
	}
	whole := time.Since(start)
	c.kill()

	iterations, recovered := 20, 0
	for it := 0; it < iterations; it++ {
		reset()
		c := launchServe(t, os.Stderr, "--config", s.cfg, "--approval", "auto")
		// Warm: the server is up, so the kill lands in the call's work.
		c.toolCall(t, "code_symbols", json.RawMessage(`{"path":"f00.go"}`), ws)
		answered := c.send("tools/call", map[string]any{"name": "code_rename", "arguments": args, "workspaceRoot": ws})
		// Half the kills at a random moment of the call, half a random
		// few milliseconds after its journal appears: inside the set.
		if it%2 == 0 {
			time.Sleep(time.Duration(rand.Int64N(int64(whole))))
		} else {
			waitForJournal(answered, journals)
			time.Sleep(time.Duration(rand.Int64N(int64(20 * time.Millisecond))))
		}
		c.kill()

		next := launchServe(t, os.Stderr, "--config", s.cfg, "--approval", "auto")
		a := next.toolCall(t, "read", json.RawMessage(`{"file_path":"f00.go"}`), ws)
		if strings.HasPrefix(a.Content[0].Text, "Recovered: ") {
			recovered++
		}
		next.kill()
		if got := state(); got != "old" && got != "new" {
			t.Fatalf("iteration %d: after the next call the workspace is %s", it, got)
		}
	}
	t.Logf("%d kills of a %v rename, %d recovered mid-set", iterations, whole, recovered)
}

// waitForJournal returns when a change's journal appears in dir, or the
// call is answered.
func waitForJournal(answered chan serveResponse, dir string) {
	for {
		select {
		case <-answered:
			return
		default:
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return
		}
		time.Sleep(200 * time.Microsecond)
	}
}
