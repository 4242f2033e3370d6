package localstdio

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// Two agents, two processes, one file: each round both change the file
// at the same moment, through the fs tools (write and edit) and the
// refactor tools (code_insert, and code_rename with a scripted edit), with
// auto approval. Every round must end with both changes in the file, or
// one of them refused with FS_STALE or LSP_CONFLICT: none lost.
//
// The agents are this test binary run again (TestRaceAgent), each with
// its own Toolbox and fake-server provider, taking rounds from stdin and
// answering one line per round.

// raceRounds is the rounds per tool; go test -short runs fewer.
func raceRounds() int {
	if testing.Short() {
		return 20
	}
	return 100
}

// raceTools are the tools the agents race with, and how many lines each
// successful call adds to the file.
var raceTools = []string{"write", "edit", "code_insert", "code_rename"}

func TestTwoProcessesNeverLoseAChange(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(ws, "a.go")
	stateDir := t.TempDir() // the agents' shared locks and journals
	type agent struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Scanner
	}
	var agents []*agent
	for id := 1; id <= 2; id++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRaceAgent$", "-test.v=false")
		cmd.Env = append(os.Environ(), "LSPSEAM_RACE_WS="+ws, fmt.Sprintf("LSPSEAM_RACE_ID=%d", id), "LSPSEAM_STATE_DIR="+stateDir)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		a := &agent{cmd, in, bufio.NewScanner(out)}
		agents = append(agents, a)
		t.Cleanup(func() { in.Close(); cmd.Wait() })
	}
	for _, tool := range raceTools {
		if err := os.WriteFile(file, []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		applied, refused, lost := 0, 0, 0
		for round := 0; round < raceRounds(); round++ {
			changes := strings.Count(readAll(t, file), "by agent ")
			for _, a := range agents {
				fmt.Fprintf(a.in, "%s %d\n", tool, round)
			}
			ok := 0
			for _, a := range agents {
				if !a.out.Scan() {
					t.Fatalf("an agent ended: %v", a.out.Err())
				}
				switch answer := a.out.Text(); {
				case answer == "OK":
					ok++
				case strings.HasPrefix(answer, "FS_STALE") || strings.HasPrefix(answer, "LSP_CONFLICT"):
					refused++
				default:
					t.Fatalf("%s round %d: an agent answered %s", tool, round, answer)
				}
			}
			applied += ok
			if added := strings.Count(readAll(t, file), "by agent ") - changes; added != ok {
				lost += ok - added
				t.Errorf("%s round %d: %d changes answered OK, %d are in the file", tool, round, ok, added)
			}
		}
		t.Logf("%s: %d rounds, %d changes applied, %d refused, %d lost", tool, raceRounds(), applied, refused, lost)
		if applied < raceRounds() {
			t.Errorf("%s: only %d changes applied in %d rounds: the agents did not work", tool, applied, raceRounds())
		}
	}
}

func readAll(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRaceAgent is one agent of TestTwoProcessesNeverLoseAChange (it
// does nothing when run on its own). Each round it reads the file, then
// makes one change adding one line, and answers OK or the error's code.
func TestRaceAgent(t *testing.T) {
	ws := os.Getenv("LSPSEAM_RACE_WS")
	if ws == "" {
		return
	}
	id := os.Getenv("LSPSEAM_RACE_ID")
	f := newFake(t, nil, nil)
	// code_rename's scripted edit adds a comment line at the top: what
	// matters is that it is planned from the file as the agent saw it.
	top := map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}
	f.setScript(map[string]any{
		"capabilities": map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": true,
			"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}},
		"methods": map[string]any{
			"textDocument/diagnostic":     map[string]any{"result": map[string]any{"kind": "full", "items": []any{}}},
			"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
			"textDocument/rename": map[string]any{"result": map[string]any{"changes": map[string]any{
				f.uriIn(ws, "a.go"): []any{map[string]any{"range": top, "newText": "// renamed by agent " + id + "\n"}},
			}}},
		},
	})
	tb := f.toolbox()
	if err := tb.SetApproval(toolbox.ApprovalAuto); err != nil {
		t.Fatal(err)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var tool string
		var round int
		fmt.Sscan(in.Text(), &tool, &round)
		line := fmt.Sprintf("// round %d by agent %s", round, id)
		var res toolbox.ToolResult
		var s map[string]any
		switch tool {
		case "write":
			r, rs := f.callIn(tb, ws, "read", `{"file_path":"a.go"}`)
			content, _ := rs["content"].(string)
			if r.IsError {
				res, s = r, rs
				break
			}
			res, s = f.callIn(tb, ws, "write", jsonArgs(map[string]any{"file_path": "a.go", "content": strings.TrimRight(content, "\n") + "\n" + line + "\n"}))
		case "edit":
			f.callIn(tb, ws, "read", `{"file_path":"a.go"}`)
			res, s = f.callIn(tb, ws, "edit", jsonArgs(map[string]any{"file_path": "a.go", "old_string": "package a\n", "new_string": "package a\n" + line + "\n"}))
		case "code_insert":
			res, s = f.callIn(tb, ws, "code_insert", jsonArgs(map[string]any{"target": map[string]any{"path": "a.go", "symbol": "A"}, "position": "before", "text": line + "\n"}))
		case "code_rename":
			res, s = f.callIn(tb, ws, "code_rename", `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`)
		}
		if res.IsError {
			fmt.Println(errorCode(s) + " " + strings.ReplaceAll(res.Text, "\n", " "))
		} else {
			fmt.Println("OK")
		}
	}
}

// callIn is call in another workspace than the fake's own.
func (f *fake) callIn(tb *toolbox.Toolbox, ws, tool, args string) (toolbox.ToolResult, map[string]any) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := tb.Call(ctx, tool, json.RawMessage(args), ws)
	var structured map[string]any
	if err := json.Unmarshal(res.Structured, &structured); err != nil {
		f.t.Fatalf("%s: structured answer is not a JSON object: %v: %s", tool, err, res.Structured)
	}
	return res, structured
}

// uriIn is a file's URI in another workspace than the fake's own.
func (f *fake) uriIn(ws, file string) string {
	f.t.Helper()
	w, err := CanonicalWorkspace(ws)
	if err != nil {
		f.t.Fatal(err)
	}
	return w.URI + "/" + file
}

func jsonArgs(v map[string]any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
