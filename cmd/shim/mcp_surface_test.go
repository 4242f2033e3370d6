package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP surface as a client sees it: tool metadata, one-based structured
// content, progress only for calls that reach a server, and start-up
// problems that reach the client instead of a dead pipe.

// connectMCP starts `lspseam mcp args...` through the SDK's client with
// stderr in a file: the child writes it directly, so whatever it wrote
// before answering initialize is there once Connect returns.
func (f mcpFixture) connectMCP(t *testing.T, client *mcp.Client, args ...string) (*mcp.ClientSession, *exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(f.bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir())
	stderrPath := filepath.Join(t.TempDir(), "stderr")
	stderr, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stderr.Close() })
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		data, _ := os.ReadFile(stderrPath)
		t.Fatalf("connect: %v\nstderr:\n%s", err, data)
	}
	return cs, cmd, stderrPath
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The tool has a title and annotations; structuredContent is one-based
// like the text and the tool's arguments, and the zero-based seam result
// is in _meta under its own name.
func TestMCPToolMetadataAndOneBasedStructuredContent(t *testing.T) {
	f := newMCPFixture(t)
	cs, _, _ := f.connectMCP(t, mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil), "--config", f.config, "--workspace", f.workspace)
	defer cs.Close()
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 7 || toolNamed(tools.Tools, "lsp") == nil {
		t.Fatalf("tools/list (default toolsets lsp,code: seven tools): %v %+v", err, tools)
	}
	// A read-only tool says so, that it is idempotent and that it stays in
	// the workspace; destructiveHint, which means something only for a
	// changing tool, and the title a second time, are left out (every
	// token is in every prompt).
	for _, tool := range tools.Tools {
		a := tool.Annotations
		if tool.Title == "" || a == nil || a.Title != "" || !a.ReadOnlyHint || !a.IdempotentHint ||
			a.OpenWorldHint == nil || *a.OpenWorldHint || a.DestructiveHint != nil {
			t.Errorf("tool %s: title %q, annotations %+v", tool.Name, tool.Title, a)
		}
	}

	// The fake server answers a definition with the position it was asked
	// about: line 3, character 6 one-based is 2, 5 zero-based.
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
	if err != nil || res.IsError {
		t.Fatalf("definition: %v %+v", err, res)
	}
	if !strings.HasSuffix(resultText(res), "a.go:3:6") {
		t.Errorf("text %q", resultText(res))
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var structured struct {
		Kind      string           `json:"kind"`
		Subject   string           `json:"subject"`
		Locations []map[string]any `json:"locations"`
	}
	json.Unmarshal(sc, &structured)
	// The subject is the text's first line, the same words.
	if first, _, _ := strings.Cut(resultText(res), "\n"); structured.Subject == "" || structured.Subject != first {
		t.Errorf("structuredContent subject %q, want the text's first line %q", structured.Subject, first)
	}
	want := map[string]any{"path": "a.go", "line": 3.0, "character": 6.0, "endLine": 3.0, "endCharacter": 6.0}
	if structured.Kind != "locations" || len(structured.Locations) != 1 || !reflect.DeepEqual(structured.Locations[0], want) {
		t.Errorf("structuredContent %s, want one location %v", sc, want)
	}
	meta, _ := json.Marshal(res.Meta["lspseam/seamResult"])
	var seam struct {
		Kind      string `json:"kind"`
		Locations []struct {
			URI   string `json:"uri"`
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
			} `json:"range"`
		} `json:"locations"`
	}
	json.Unmarshal(meta, &seam)
	if seam.Kind != "locations" || len(seam.Locations) != 1 || seam.Locations[0].Range.Start.Line != 2 || seam.Locations[0].Range.Start.Character != 5 || !strings.HasSuffix(seam.Locations[0].URI, "/ws/a.go") {
		t.Errorf("_meta[lspseam/seamResult] = %s, want the zero-based seam result", meta)
	}
}

// Progress notifications are sent only for calls that reach a language
// server, and the last one (progress == total) is handled by the client
// before the call's response arrives.
func TestMCPProgressOnlyWhenAServerIsAsked(t *testing.T) {
	f := newMCPFixture(t)
	var mu sync.Mutex
	got := map[any][]*mcp.ProgressNotificationParams{}
	client := mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got[req.Params.ProgressToken] = append(got[req.Params.ProgressToken], req.Params)
		},
	})
	cs, _, _ := f.connectMCP(t, client, "--config", f.config, "--workspace", f.workspace)
	defer cs.Close()
	ctx := context.Background()
	os.WriteFile(filepath.Join(filepath.Dir(f.workspace), "outside.go"), []byte("package outside\n"), 0o644)
	os.Mkdir(filepath.Join(f.workspace, "dir.go"), 0o755)

	for token, args := range map[string]map[string]any{
		"bad-line":   {"operation": "hover", "file_path": "a.go", "line": 0, "character": 1},
		"no-server":  {"operation": "hover", "file_path": "notes.txt", "line": 1, "character": 1},
		"bad-op":     {"operation": "rename", "file_path": "a.go", "line": 1, "character": 1},
		"no-file-op": {"operation": "hover"},
		"missing":    {"operation": "hover", "file_path": "missing.go", "line": 1, "character": 1},
		"outside":    {"operation": "hover", "file_path": "../outside.go", "line": 1, "character": 1},
		"directory":  {"operation": "hover", "file_path": "dir.go", "line": 1, "character": 1},
	} {
		res, err := callLSP(t, ctx, cs, args, token)
		if err != nil || !res.IsError {
			t.Fatalf("%s: %v %+v", token, err, res)
		}
	}
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, "asked")
	if err != nil || res.IsError {
		t.Fatalf("definition: %v %+v", err, res)
	}
	// No waiting: the final notification was handled before the response
	// arrived, and the handler sees notifications in the order they came,
	// so those of the earlier calls, if any, have been handled too.
	mu.Lock()
	defer mu.Unlock()
	asked := got["asked"]
	if len(asked) < 2 || asked[0].Message != "querying language server" {
		t.Fatalf("progress of a call that reached the server: %+v", asked)
	}
	last := asked[len(asked)-1]
	if last.Message != "done" || last.Total != last.Progress {
		t.Errorf("final progress %+v, want message done with total == progress", last)
	}
	for token, ps := range got {
		if token != "asked" {
			t.Errorf("progress for %v, a call refused before any server: %+v", token, ps[0])
		}
	}
}

// A configuration error keeps lspseam from starting: stderr says so at
// once, and the client still connects and reads the problem (instructions
// and every tool call) instead of "Connection closed".
func TestMCPConfigErrorReachesTheClient(t *testing.T) {
	f := newMCPFixture(t)
	bad := filepath.Join(t.TempDir(), "lspseam.yaml")
	writeFile(t, bad, "servers:\n  fake:\n    comand: x\n    extensionToLanguage: {.go: go}\n")
	cs, cmd, stderrPath := f.connectMCP(t, mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil), "--config", bad, "--workspace", f.workspace)
	if stderr := readFileString(t, stderrPath); !strings.Contains(stderr, "LSP_CONFIG_INVALID") || !strings.Contains(stderr, `"comand"`) {
		t.Errorf("stderr at start:\n%s", stderr)
	}
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "LSP_CONFIG_INVALID") {
		t.Errorf("instructions %q", ins)
	}
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 7 || toolNamed(tools.Tools, "lsp") == nil {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	res, err := callLSP(t, ctx, cs, map[string]any{"operation": "hover", "file_path": "a.go", "line": 1, "character": 1}, nil)
	if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), "LSP_CONFIG_INVALID: ") || !strings.Contains(resultText(res), `"comand"`) {
		t.Errorf("call: %v %+v %q", err, res, resultText(res))
	}
	// The code tools answer the same, with the structured error.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "code_symbols", Arguments: map[string]any{"path": "a.go"}})
	structured, _ := json.Marshal(res.StructuredContent)
	if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), "LSP_CONFIG_INVALID: ") || !strings.Contains(string(structured), `"code":"LSP_CONFIG_INVALID"`) {
		t.Errorf("code_symbols: %v %+v %s", err, res, structured)
	}
	cs.Close()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitError {
		t.Errorf("exit: %v", cmd.ProcessState)
	}
}

// A --workspace that does not exist is reported at start, naming the
// flag, and every call answers it.
func TestMCPMissingWorkspaceFailsAtStart(t *testing.T) {
	f := newMCPFixture(t)
	missing := filepath.Join(t.TempDir(), "no-such-project")
	cs, cmd, stderrPath := f.connectMCP(t, mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil), "--config", f.config, "--workspace", missing)
	if stderr := readFileString(t, stderrPath); !strings.Contains(stderr, "LSP_WORKSPACE_INVALID") || !strings.Contains(stderr, "--workspace") || !strings.Contains(stderr, missing) {
		t.Errorf("stderr at start:\n%s", stderr)
	}
	res, err := callLSP(t, context.Background(), cs, map[string]any{"operation": "hover", "file_path": "a.go", "line": 1, "character": 1}, nil)
	if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), "LSP_WORKSPACE_INVALID: --workspace") {
		t.Errorf("call: %v %q", err, resultText(res))
	}
	cs.Close()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitError {
		t.Errorf("exit: %v", cmd.ProcessState)
	}
}

// toolNamed finds a tool in a tools/list answer (the SDK lists them by
// name).
func toolNamed(tools []*mcp.Tool, name string) *mcp.Tool {
	for _, t := range tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}
