package main

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

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A bad command line of `lspseam mcp` (an unknown toolset, a flag value
// that does not parse, an unknown flag, …) does not end the process before
// the handshake, where the client would show only "Connection closed": the
// session is served, the handshake's instructions and every tool call
// carry the problem, and the exit status is 2 when the client leaves.
func TestMCPBadCommandLineReachesTheClient(t *testing.T) {
	f := newMCPFixture(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--tools", "lsp,edit"}, `--tools: unknown toolset "edit"`},
		{[]string{"--timeout", "abc"}, `invalid value "abc" for flag --timeout`},
		{[]string{"--bogus"}, "unknown flag --bogus"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--log-level", "loud"}, `--log-level "loud"`},
		{[]string{"--timeout", "-1"}, "--timeout must be a positive number"},
		{[]string{"--approval", "later"}, "--approval must be preview, auto or elicit"},
		{[]string{"--profile", "tiny"}, `--profile must be standard or compact, got "tiny"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			args := append([]string{"--config", f.config, "--workspace", f.workspace}, c.args...)
			cs, cmd, stderrPath := f.connectMCP(t, mcp.NewClient(&mcp.Implementation{Name: "lspseam-test", Version: "0"}, nil), args...)
			problem := "LSP_CONFIG_INVALID: the command line of lspseam mcp is invalid: "
			if stderr := readFileString(t, stderrPath); !strings.Contains(stderr, problem) || !strings.Contains(stderr, c.says) {
				t.Errorf("stderr at start:\n%s", stderr)
			}
			if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, problem) || !strings.Contains(ins, c.says) || !strings.Contains(ins, "lspseam mcp --help") {
				t.Errorf("instructions %q", ins)
			}
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || toolNamed(tools.Tools, "lsp") == nil || toolNamed(tools.Tools, "code_symbols") == nil {
				t.Fatalf("tools/list: %v %+v", err, tools)
			}
			res, err := callLSP(t, ctx, cs, map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 3, "character": 6}, nil)
			if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), problem) || !strings.Contains(resultText(res), c.says) {
				t.Errorf("lsp call: %v %q", err, resultText(res))
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "code_symbols", Arguments: map[string]any{"path": "a.go"}})
			if err != nil || !res.IsError || !strings.HasPrefix(resultText(res), problem) {
				t.Errorf("code_symbols: %v %q", err, resultText(res))
			}
			cs.Close()
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitUsage {
				t.Errorf("exit: %v", cmd.ProcessState)
			}
		})
	}
}

// --help still prints the usage and exits 0, even after a bad flag.
func TestLongLivedHelpExits(t *testing.T) {
	for _, args := range [][]string{{"mcp", "--help"}, {"mcp", "--bogus", "--help"}, {"serve", "-h"}, {"serve", "--timeout", "abc", "--help"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK || !strings.HasPrefix(stdout, "usage: lspseam "+args[0]) || stderr != "" {
			t.Errorf("%q: exit %d, stdout %.40q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// rpcClient is a JSON-RPC harness of a real `lspseam serve` process.
type rpcClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
}

func startServeProcess(t *testing.T, bin, dir string, env []string, args ...string) *rpcClient {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir()), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rpcClient{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: &syncBuffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("serve stderr:\n%s", c.stderr.String())
		}
	})
	return c
}

type rpcResponse struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

// ask sends one request and reads one response (the harness sends one at
// a time). A serve that does not answer within a quarter of the test's
// remaining time is killed, so a hang fails here, not at the package's
// timeout.
func (c *rpcClient) ask(t *testing.T, id int, method string, params any) rpcResponse {
	t.Helper()
	budget := 2 * time.Minute
	if deadline, ok := t.Deadline(); ok {
		budget = time.Until(deadline) / 4
	}
	watchdog := time.AfterFunc(budget, func() { c.cmd.Process.Kill() })
	defer watchdog.Stop()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatalf("%s: writing the request: %v\nstderr:\n%s", method, err, c.stderr.String())
	}
	length := 0
	for {
		line, err := c.stdout.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: reading the response (killed after %v without one?): %v\nstderr:\n%s", method, budget, err, c.stderr.String())
		}
		if line == "\r\n" {
			break
		}
		fmt.Sscanf(line, "Content-Length: %d", &length)
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(c.stdout, data); err != nil {
		t.Fatal(err)
	}
	var resp rpcResponse
	if err := json.Unmarshal(data, &resp); err != nil || resp.ID != id {
		t.Fatalf("%s: response %s: %v", method, data, err)
	}
	return resp
}

// end sends exit and returns the exit status, within the test's deadline.
func (c *rpcClient) end(t *testing.T) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","method":"exit"}`
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Minute)
	}
	select {
	case <-done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(time.Until(deadline) / 2):
		t.Fatal("serve did not exit after exit")
		return -1
	}
}

// `lspseam serve` with a bad command line or config answers every request
// with the seam error (JSON-RPC error -32001, data {code, message}), not a
// dead pipe; shutdown and exit still work, and the exit status says what
// was wrong.
func TestServeStartProblemAnswersEveryRequest(t *testing.T) {
	f := newMCPFixture(t)
	badConfig := filepath.Join(t.TempDir(), "lspseam.yaml")
	writeFile(t, badConfig, "servers:\n  fake:\n    comand: x\n    extensionToLanguage: {.go: go}\n")
	for _, c := range []struct {
		name       string
		args       []string
		code, says string
		exit       int
	}{
		{"timeout abc", []string{"--config", f.config, "--timeout", "abc"}, "LSP_CONFIG_INVALID", `the command line of lspseam serve is invalid: invalid value "abc" for flag --timeout`, exitUsage},
		{"unknown flag", []string{"--config", f.config, "--bogus"}, "LSP_CONFIG_INVALID", "unknown flag --bogus", exitUsage},
		{"bad config", []string{"--config", badConfig}, "LSP_CONFIG_INVALID", `"comand"`, exitError},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startServeProcess(t, f.bin, t.TempDir(), nil, c.args...)
			for i, req := range []struct {
				method string
				params any
			}{
				{"tools/list", map[string]any{}},
				{"lsp/query", map[string]any{"operation": "hover", "filePath": "a.go", "position": map[string]int{"line": 2, "character": 5}, "workspaceRoot": f.workspace}},
				{"tools/call", map[string]any{"name": "code_symbols", "arguments": map[string]any{"path": "a.go"}, "workspaceRoot": f.workspace}},
			} {
				resp := s.ask(t, i+1, req.method, req.params)
				if resp.Error == nil || resp.Error.Code != codeSeamError || resp.Error.Data.Code != c.code || !strings.Contains(resp.Error.Data.Message, c.says) {
					t.Errorf("%s: %+v", req.method, resp)
				}
			}
			if resp := s.ask(t, 9, "shutdown", nil); resp.Error != nil || string(resp.Result) != "null" {
				t.Errorf("shutdown: %+v", resp)
			}
			if code := s.end(t); code != c.exit {
				t.Errorf("exit %d, want %d", code, c.exit)
			}
			if !strings.Contains(s.stderr.String(), c.code+": ") {
				t.Errorf("stderr:\n%s", s.stderr.String())
			}
		})
	}
}
