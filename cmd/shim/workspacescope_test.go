package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectMCPIn starts `lspseam mcp` in dir with extra environment (a fake
// HOME) and connects the SDK's client.
func (f mcpFixture) connectMCPIn(t *testing.T, dir string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(f.bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir()), env...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("lspseam stderr:\n%s", stderr.String())
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	return cs, cmd, stderr
}

// fakeHome is a home directory with the fixture's project below it.
func fakeHome(t *testing.T, f mcpFixture) (home, project string) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project = filepath.Join(home, "src", "project")
	writeFile(t, filepath.Join(project, "a.go"), readFileString(t, filepath.Join(f.workspace, "a.go")))
	return home, project
}

// `lspseam mcp` started in the home directory without --workspace (as a
// client that sets no working directory may start it) serves, says in the
// handshake that calls will be refused unless the client names a project,
// and refuses them before any server starts, naming --workspace DIR. With
// --workspace naming the home directory or /, lspseam cannot start, and
// the session says so. A project below home is served.
func TestMCPRefusesHomeAndRootWorkspace(t *testing.T) {
	f := newMCPFixture(t)
	home, project := fakeHome(t, f)
	env := []string{"HOME=" + home}
	ctx := context.Background()
	definition := map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}

	cs, cmd, stderr := f.connectMCPIn(t, home, env, "--config", f.config)
	ins := cs.InitializeResult().Instructions
	if !strings.Contains(ins, "without --workspace, in "+home) || !strings.Contains(ins, "LSP_WORKSPACE_INVALID") || !strings.Contains(ins, "--workspace DIR") {
		t.Errorf("instructions %q", ins)
	}
	if !stderr.waitFor(t, "level=WARN", "without --workspace") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	res, err := callLSP(t, ctx, cs, definition, nil)
	if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), "LSP_WORKSPACE_INVALID: ") || !strings.Contains(resultText(res), "is the home directory "+home) || !strings.Contains(resultText(res), "--workspace DIR") {
		t.Errorf("call in the home directory: %v %q", err, resultText(res))
	}
	cs.Close()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitOK {
		t.Errorf("exit: %v", cmd.ProcessState)
	}
	if events := f.fakeEvents(t); len(events) > 0 {
		t.Errorf("a language server was started for a refused workspace: %+v", events[0])
	}

	for _, ws := range []string{home, "/"} {
		cs, cmd, _ := f.connectMCPIn(t, project, env, "--config", f.config, "--workspace", ws)
		if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "LSP_WORKSPACE_INVALID: --workspace") || !strings.Contains(ins, "--workspace DIR") {
			t.Errorf("--workspace %s: instructions %q", ws, ins)
		}
		res, err := callLSP(t, ctx, cs, definition, nil)
		if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), "LSP_WORKSPACE_INVALID: --workspace") {
			t.Errorf("--workspace %s: call %v %q", ws, err, resultText(res))
		}
		cs.Close()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitError {
			t.Errorf("--workspace %s: exit %v", ws, cmd.ProcessState)
		}
	}

	cs, _, _ = f.connectMCPIn(t, project, env, "--config", f.config)
	defer cs.Close()
	// No warning: the instructions are only the language census.
	if ins := cs.InitializeResult().Instructions; strings.Contains(ins, "LSP_") || strings.Contains(ins, "workspace") && !strings.HasPrefix(ins, "Languages of the workspace") {
		t.Errorf("a project below home: instructions %q", ins)
	}
	if res, err := callLSP(t, ctx, cs, definition, nil); err != nil || res.IsError {
		t.Errorf("a project below home: %v %q", err, resultText(res))
	}
}

// A workspace of more than 5,000 directories is served, with a warning in
// the handshake and the log that says what lspseam does with it.
func TestMCPWarnsAboutLargeWorkspace(t *testing.T) {
	f := newMCPFixture(t)
	for i := range 5_000 {
		if err := os.MkdirAll(filepath.Join(f.workspace, "vendor", fmt.Sprintf("g%d", i/100), fmt.Sprintf("d%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cs, _, stderr := f.connectMCPIn(t, t.TempDir(), nil, "--config", f.config, "--workspace", f.workspace)
	defer cs.Close()
	ins := cs.InitializeResult().Instructions
	for _, want := range []string{"Warning: the workspace " + f.workspace + " has more than 5000 directories", "--workspace DIR", "rescans the workspace at every query"} {
		if !strings.Contains(ins, want) {
			t.Errorf("instructions %q do not say %q", ins, want)
		}
	}
	if !stderr.waitFor(t, "level=WARN", "more than 5000 directories") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	res, err := callLSP(t, context.Background(), cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
	if err != nil || res.IsError {
		t.Errorf("call in a large workspace: %v %q", err, resultText(res))
	}
}

// query refuses the home directory as its workspace, given or as the
// current directory, and serve refuses it as a request's workspaceRoot.
func TestQueryAndServeRefuseHome(t *testing.T) {
	f := newMCPFixture(t)
	home, _ := fakeHome(t, f)
	t.Setenv("HOME", home)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	code, _, stderr := runCLI(t, "query", "--config", f.config, "--workspace", home, "hover", "src/project/a.go:3:6")
	if code != exitError || !strings.HasPrefix(stderr, "LSP_WORKSPACE_INVALID: ") || !strings.Contains(stderr, "--workspace DIR") {
		t.Errorf("query --workspace HOME: exit %d, stderr %q", code, stderr)
	}
	t.Chdir(home)
	code, _, stderr = runCLI(t, "query", "--config", f.config, "hover", "src/project/a.go:3:6")
	if code != exitError || !strings.HasPrefix(stderr, "LSP_WORKSPACE_INVALID: ") || !strings.Contains(stderr, "is the home directory") {
		t.Errorf("query in HOME: exit %d, stderr %q", code, stderr)
	}

	s := startServeProcess(t, f.bin, home, []string{"HOME=" + home}, "--config", f.config)
	resp := s.ask(t, 1, "lsp/query", map[string]any{"operation": "hover", "filePath": "src/project/a.go", "position": map[string]int{"line": 2, "character": 5}, "workspaceRoot": home})
	if resp.Error == nil || resp.Error.Data.Code != "LSP_WORKSPACE_INVALID" || !strings.Contains(resp.Error.Data.Message, "--workspace DIR") {
		t.Errorf("serve lsp/query: %+v", resp)
	}
	resp = s.ask(t, 2, "tools/call", map[string]any{"name": "code_symbols", "arguments": map[string]any{"path": "src/project/a.go"}, "workspaceRoot": "/"})
	if resp.Error != nil || !strings.Contains(string(resp.Result), "LSP_WORKSPACE_INVALID") || !strings.Contains(string(resp.Result), "the root of the file system") {
		t.Errorf("serve tools/call: %+v %s", resp.Error, resp.Result)
	}
	if code := s.end(t); code != exitOK {
		t.Errorf("serve exit %d", code)
	}
	if events := f.fakeEvents(t); len(events) > 0 {
		t.Errorf("a language server was started for a refused workspace: %+v", events[0])
	}
}
