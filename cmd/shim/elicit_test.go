package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Approval modes on the fake server: --approval and the config's approval
// for call and serve (elicit is mcp's), and `mcp --approval elicit`, whose
// previews go to the user through the client's elicitation — as an input
// request (protocol 2026-07-28, the SDK's default) and as
// elicitation/create (older protocols) — accepted, declined, dismissed,
// failed, or not offered by the client.

const (
	approvalSource = "package a\n\nfunc Hello() {}\n\nfunc use() { Hello() }\n"
	approvalAfter  = "package a\n\nfunc Hello() {}\n\nfunc Added() {}\n\nfunc use() { Hello() }\n"
	approvalArgs   = `{"target":{"path":"a.go","symbol":"Hello"},"position":"after","text":"\nfunc Added() {}"}`
)

// approvalFixture is the fake server answering documentSymbol for a.go
// (code_insert needs nothing else) and pulled diagnostics, with configs
// that differ in approval.
type approvalFixture struct {
	mcpFixture
	configs map[string]string // approval ("" for none) → config path
}

func newApprovalFixture(t *testing.T) approvalFixture {
	f := approvalFixture{mcpFixture: newMCPFixture(t), configs: map[string]string{}}
	dir := filepath.Dir(f.bin)
	script := filepath.Join(dir, "refactor-script.json")
	symbols := []map[string]any{{
		"name": "Hello", "kind": 12,
		"range":          map[string]any{"start": map[string]any{"line": 2, "character": 0}, "end": map[string]any{"line": 2, "character": 15}},
		"selectionRange": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 10}},
	}}
	// Diagnostics are pulled, and always none: a change's check (and a
	// preview's speculative one) is answered at once, where a server
	// that never pushes a report would make each wait out its budget.
	data, _ := json.Marshal(map[string]any{
		"capabilities": map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}},
		"methods": map[string]any{
			"textDocument/documentSymbol": map[string]any{"result": symbols},
			"textDocument/diagnostic":     map[string]any{"result": map[string]any{"kind": "full", "items": []any{}}},
		},
	})
	writeFile(t, script, string(data))
	for _, approval := range []string{"", "auto", "preview", "elicit", "ask"} {
		cfg := map[string]any{"servers": map[string]any{"fake": map[string]any{
			"command":             f.fakelsp,
			"args":                []string{"--script", script},
			"extensionToLanguage": map[string]string{".go": "go"},
			"settleMs":            0,
		}}}
		if approval != "" {
			cfg["approval"] = approval
		}
		data, _ := json.Marshal(cfg)
		path := filepath.Join(dir, "approval-"+approval+".json")
		writeFile(t, path, string(data))
		f.configs[approval] = path
	}
	return f
}

// workspace is a fresh workspace with a.go.
func (f approvalFixture) workspace(t *testing.T) string {
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "a.go"), approvalSource)
	return ws
}

func readA(t *testing.T, ws string) string {
	t.Helper()
	return readFileString(t, filepath.Join(ws, "a.go"))
}

// elicitClient is an MCP client whose user answers every elicitation with
// what answer says (a nil answer: a client without elicitation), and
// keeps the messages it was shown.
type elicitClient struct {
	mu       sync.Mutex
	messages []string
}

func (e *elicitClient) client(answer func() (*mcp.ElicitResult, error)) *mcp.Client {
	opts := &mcp.ClientOptions{}
	if answer != nil {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			e.mu.Lock()
			e.messages = append(e.messages, req.Params.Message)
			e.mu.Unlock()
			return answer()
		}
	}
	return mcp.NewClient(&mcp.Implementation{Name: "approval-test", Version: "0"}, opts)
}

func (e *elicitClient) asked() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.messages...)
}

// connectWith starts `lspseam mcp` on ws with a config, the refactor
// toolset and flags, on a protocol version ("" for the SDK's latest).
func (f approvalFixture) connectWith(t *testing.T, client *mcp.Client, protocol, config, ws string, flags ...string) *mcp.ClientSession {
	t.Helper()
	cmdArgs := append([]string{"--config", config, "--tools", "lsp,code,refactor", "--workspace", ws}, flags...)
	var opts *mcp.ClientSessionOptions
	if protocol != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	cs, stderrPath := f.connectMCPWith(t, client, opts, cmdArgs...)
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("workspace %s; lspseam stderr:\n%s", ws, readFileString(t, stderrPath))
		}
	})
	return cs
}

func callInsert(t *testing.T, cs *mcp.ClientSession, args string) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "code_insert", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("code_insert: %v", err)
	}
	var s map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &s)
	return res, s
}

func TestApprovalElicit(t *testing.T) {
	f := newApprovalFixture(t)
	accept := func() (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: "accept"}, nil }

	for _, protocol := range []string{"", "2025-11-25"} {
		name := "input request"
		if protocol != "" {
			name = "elicitation/create"
		}
		t.Run(name+": accepted", func(t *testing.T) {
			ws := f.workspace(t)
			var e elicitClient
			cs := f.connectWith(t, e.client(accept), protocol, f.configs[""], ws, "--approval", "elicit")
			// A previewId the model sends is dropped: the user is asked.
			res, s := callInsert(t, cs, strings.TrimSuffix(approvalArgs, "}")+`,"previewId":"p-0000000000000000"}`)
			if res.IsError || s["applied"] != true || !strings.HasPrefix(resultText(res), "The user approved this change.\nApplied: ") {
				t.Fatalf("accepted: %s %v", resultText(res), s)
			}
			if got := readA(t, ws); got != approvalAfter {
				t.Fatalf("a.go after the accepted change: %q", got)
			}
			asked := e.asked()
			if len(asked) != 1 {
				t.Fatalf("asked %d times", len(asked))
			}
			m := asked[0]
			if !strings.HasPrefix(m, "Apply this change to "+ws+"?\n") || !strings.Contains(m, "+func Added() {}") || !strings.Contains(m, "+++ b/a.go") || strings.Contains(m, "previewId") || strings.Contains(m, "Preview (nothing") {
				t.Errorf("the elicitation message:\n%s", m)
			}
		})
		for _, action := range []string{"decline", "cancel"} {
			t.Run(name+": "+action, func(t *testing.T) {
				ws := f.workspace(t)
				var e elicitClient
				cs := f.connectWith(t, e.client(func() (*mcp.ElicitResult, error) { return &mcp.ElicitResult{Action: action}, nil }), protocol, f.configs[""], ws, "--approval", "elicit")
				res, s := callInsert(t, cs, approvalArgs)
				if res.IsError || s["applied"] != false || s["declined"] != true || s["userAction"] != action || s["previewId"] != nil || strings.Contains(resultText(res), "p-") {
					t.Fatalf("%s: %s %v", action, resultText(res), s)
				}
				if !strings.HasPrefix(resultText(res), "Not applied: the user ") || !strings.Contains(resultText(res), "Nothing was changed") {
					t.Errorf("%s: text %q", action, resultText(res))
				}
				if files, _ := s["files"].([]any); len(files) != 1 || files[0].(map[string]any)["path"] != "a.go" {
					t.Errorf("%s: files %v", action, s["files"])
				}
				if got := readA(t, ws); got != approvalSource {
					t.Fatalf("a.go changed after %s: %q", action, got)
				}
			})
		}
	}

	// The file changes while the user is asked: accepting it applies
	// nothing and answers LSP_CONFLICT (with a fresh preview).
	t.Run("changed while asked", func(t *testing.T) {
		ws := f.workspace(t)
		changed := approvalSource + "// changed\n"
		var e elicitClient
		cs := f.connectWith(t, e.client(func() (*mcp.ElicitResult, error) {
			if err := os.WriteFile(filepath.Join(ws, "a.go"), []byte(changed), 0o644); err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept"}, nil
		}), "", f.configs[""], ws, "--approval", "elicit")
		res, s := callInsert(t, cs, approvalArgs)
		errObj, _ := s["error"].(map[string]any)
		if !res.IsError || errObj["code"] != "LSP_CONFLICT" {
			t.Fatalf("changed while asked: %s %v", resultText(res), s)
		}
		if got := readA(t, ws); got != changed {
			t.Fatalf("a.go: %q", got)
		}
	})

	// On elicitation/create, a client whose handler fails gets the
	// preview, saying why it was not asked.
	t.Run("elicitation fails", func(t *testing.T) {
		ws := f.workspace(t)
		var e elicitClient
		cs := f.connectWith(t, e.client(func() (*mcp.ElicitResult, error) { return nil, errors.New("no user here") }), "2025-11-25", f.configs[""], ws, "--approval", "elicit")
		res, s := callInsert(t, cs, approvalArgs)
		id, _ := s["previewId"].(string)
		if res.IsError || id == "" || !strings.HasPrefix(resultText(res), "The client could not ask the user to approve this change (") {
			t.Fatalf("failed elicitation: %s %v", resultText(res), s)
		}
		if got := readA(t, ws); got != approvalSource {
			t.Fatalf("a.go changed: %q", got)
		}
	})

	// A client without elicitation gets the preview, as in preview mode,
	// and applies it with its previewId.
	t.Run("no elicitation capability", func(t *testing.T) {
		ws := f.workspace(t)
		var e elicitClient
		cs := f.connectWith(t, e.client(nil), "", f.configs[""], ws, "--approval", "elicit")
		res, s := callInsert(t, cs, approvalArgs)
		id, _ := s["previewId"].(string)
		if res.IsError || id == "" || !strings.HasPrefix(resultText(res), "Preview (nothing is changed yet)") {
			t.Fatalf("preview: %s %v", resultText(res), s)
		}
		if got := readA(t, ws); got != approvalSource {
			t.Fatalf("a.go changed by the preview: %q", got)
		}
		res, s = callInsert(t, cs, strings.TrimSuffix(approvalArgs, "}")+`,"previewId":"`+id+`"}`)
		if res.IsError || s["applied"] != true || readA(t, ws) != approvalAfter {
			t.Fatalf("apply: %s %v", resultText(res), s)
		}
	})

	// The config's approval: elicit asks without the flag; --approval
	// preview wins over it.
	t.Run("config elicit, and the flag wins", func(t *testing.T) {
		ws := f.workspace(t)
		var e elicitClient
		cs := f.connectWith(t, e.client(accept), "", f.configs["elicit"], ws)
		if res, s := callInsert(t, cs, approvalArgs); res.IsError || s["applied"] != true || len(e.asked()) != 1 {
			t.Fatalf("config elicit: %s %v (asked %d)", resultText(res), s, len(e.asked()))
		}
		ws = f.workspace(t)
		var e2 elicitClient
		cs = f.connectWith(t, e2.client(accept), "", f.configs["elicit"], ws, "--approval", "preview")
		if res, s := callInsert(t, cs, approvalArgs); res.IsError || s["previewId"] == nil || len(e2.asked()) != 0 || readA(t, ws) != approvalSource {
			t.Fatalf("--approval preview over config elicit: %s %v (asked %d)", resultText(res), s, len(e2.asked()))
		}
	})
}

// call and serve: the config's approval applies unless --approval says
// otherwise; elicit on their command line is a usage error naming mcp, and
// the config's elicit is preview there.
func TestApprovalConfigAndFlag(t *testing.T) {
	f := newApprovalFixture(t)
	t.Setenv("LSPSEAM_CACHE_DIR", testenv.CacheDir())
	call := func(config string, flags ...string) (int, string, string, string) {
		ws := f.workspace(t)
		args := append([]string{"call", "--config", config, "--workspace", ws}, flags...)
		code, stdout, stderr := runCLI(t, append(args, "code_insert", approvalArgs)...)
		return code, stdout, stderr, readA(t, ws)
	}
	if code, out, stderr, a := call(f.configs["auto"]); code != exitOK || !strings.HasPrefix(out, "Applied: ") || a != approvalAfter {
		t.Errorf("config auto: exit %d, %q %q, a.go %q", code, out, stderr, a)
	}
	for _, c := range []struct {
		config string
		flags  []string
	}{
		{f.configs[""], nil},
		{f.configs["preview"], nil},
		{f.configs["elicit"], nil}, // call cannot elicit: preview
		{f.configs["auto"], []string{"--approval", "preview"}},
	} {
		// Not on a terminal, the preview says how to apply it from the
		// command line: a previewId ends with the process.
		if code, out, stderr, a := call(c.config, c.flags...); code != exitOK || !strings.HasPrefix(out, "Preview (nothing is changed yet)") || a != approvalSource ||
			!strings.Contains(out, "run the same lspseam call code_insert with --approval auto") || strings.Contains(out, "again with the same arguments") {
			t.Errorf("%s %v: exit %d, %q %q, a.go %q", filepath.Base(c.config), c.flags, code, out, stderr, a)
		}
	}
	if code, out, stderr, a := call(f.configs["preview"], "--approval", "auto"); code != exitOK || !strings.HasPrefix(out, "Applied: ") || a != approvalAfter {
		t.Errorf("--approval auto over config preview: exit %d, %q %q, a.go %q", code, out, stderr, a)
	}
	if code, _, stderr, _ := call(f.configs["ask"]); code != exitError || !strings.Contains(stderr, "LSP_CONFIG_INVALID") || !strings.Contains(stderr, `line 1: approval must be "preview"`) {
		t.Errorf("config approval ask: exit %d, %q", code, stderr)
	}
	for _, sub := range []string{"call", "serve"} {
		args := []string{sub, "--approval", "elicit"}
		if sub == "call" {
			args = append(args, "code_insert", approvalArgs)
		}
		if code, _, stderr := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, "only lspseam mcp takes it") {
			t.Errorf("%s --approval elicit: exit %d, %q", sub, code, stderr)
		}
	}
	for _, args := range [][]string{{"call", "code_insert"}, {"serve"}, {"mcp"}} {
		sub := args[0]
		if code, _, stderr := runCLI(t, append(args, "--approval", "ask")...); code != exitUsage || !strings.Contains(stderr, `--approval must be preview, auto or elicit (mcp only), got "ask"`) {
			t.Errorf("%s --approval ask: exit %d, %q", sub, code, stderr)
		}
	}
}

// The parts of elicit that need no client: what the user is shown (the
// diff clipped, the model's instruction left out) and what a declined
// change answers.
func TestApprovalMessages(t *testing.T) {
	var diff strings.Builder
	for i := range 500 {
		diff.WriteString("+line " + strings.Repeat("x", i%50) + "\n")
	}
	preview := toolbox.ToolResult{
		Text: "Preview (nothing is changed yet): Rename `A` to `B`: 3 edits in 2 files.\n" +
			"To apply it, call code_rename again with the same arguments and \"previewId\": \"p-1234\" (within 10 minutes).\n" +
			"--- a/a.go\n+++ b/a.go\n" + diff.String(),
		Structured: json.RawMessage(`{"ok":true,"tool":"code_rename","applied":false,"previewId":"p-1234","edits":3,"files":[{"path":"a.go","edits":2,"diff":"…"},{"path":"b.go","edits":1,"diff":"…"}]}`),
	}
	m := approvalRequest(preview, "/ws").Message
	if !strings.HasPrefix(m, "Apply this change to /ws?\nRename `A` to `B`: 3 edits in 2 files.\n\n--- a/a.go\n+++ b/a.go\n+line \n") {
		t.Errorf("message head:\n%.300s", m)
	}
	if strings.Contains(m, "p-1234") || len(m) > elicitMaxBytes+500 || strings.Count(m, "\n") > elicitMaxLines+10 {
		t.Errorf("message not clipped or has the previewId (%d bytes, %d lines)", len(m), strings.Count(m, "\n"))
	}
	if !strings.Contains(m, "more lines of the diff not shown") || !strings.Contains(m, "the change touches a.go, b.go.") {
		t.Errorf("message tail:\n%s", m[max(0, len(m)-300):])
	}
	short := preview
	short.Text = "Preview (nothing is changed yet): Rename `A` to `B`: 1 edit in 1 file.\nTo apply it, … \"p-1234\" ….\n--- a/a.go\n+++ b/a.go\n-A\n+B\n"
	if m := approvalRequest(short, "/ws").Message; m != "Apply this change to /ws?\nRename `A` to `B`: 1 edit in 1 file.\n\n--- a/a.go\n+++ b/a.go\n-A\n+B\n" {
		t.Errorf("short message:\n%s", m)
	}

	d := declinedResult("code_rename", preview, "decline")
	var s map[string]any
	json.Unmarshal(d.Structured, &s)
	if string(d.Structured) != `{"ok":true,"tool":"code_rename","applied":false,"declined":true,"userAction":"decline","edits":3,"files":[{"edits":2,"path":"a.go"},{"edits":1,"path":"b.go"}]}` {
		t.Errorf("declined: %s", d.Structured)
	}
	if c := declinedResult("code_rename", preview, "cancel"); !strings.HasPrefix(c.Text, "Not applied: the user dismissed the request to approve this change: Rename") {
		t.Errorf("dismissed: %s", c.Text)
	}
	if d.IsError || s["ok"] != true || s["applied"] != false || s["declined"] != true || s["userAction"] != "decline" || s["previewId"] != nil || s["edits"] != float64(3) {
		t.Errorf("declined: %s", d.Structured)
	}
	if d.Text != "Not applied: the user declined this change: Rename `A` to `B`: 3 edits in 2 files (a.go, b.go).\nNothing was changed. Do not make this change another way; ask the user what they want instead (calling code_rename again asks them again)." {
		t.Errorf("declined text: %q", d.Text)
	}

	if got := string(withoutPreviewID(json.RawMessage(`{"a":1,"previewId":"p-1"}`))); got != `{"a":1}` {
		t.Errorf("withoutPreviewID: %s", got)
	}
	if got := string(withPreviewID(json.RawMessage(`{"a":1}`), "p-2")); got != `{"a":1,"previewId":"p-2"}` {
		t.Errorf("withPreviewID: %s", got)
	}

	h := &host{approval: core.ApprovalElicit}
	for _, c := range []struct {
		flag      string
		canElicit bool
		want      string
	}{
		{"", true, "elicit"}, {"", false, "preview"}, {"auto", true, "auto"}, {"preview", true, "preview"}, {"elicit", true, "elicit"},
	} {
		if got := h.approvalMode(c.flag, c.canElicit); got != c.want {
			t.Errorf("approvalMode(%q, %v) = %q, want %q", c.flag, c.canElicit, got, c.want)
		}
	}
	if got := (&host{}).approvalMode("", true); got != "preview" {
		t.Errorf("no config approval: %q", got)
	}
}

// connectMCPWith is connectMCP with session options (a protocol version).
func (f mcpFixture) connectMCPWith(t *testing.T, client *mcp.Client, opts *mcp.ClientSessionOptions, args ...string) (cs *mcp.ClientSession, stderrPath string) {
	t.Helper()
	cmd := exec.Command(f.bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "LSPSEAM_CACHE_DIR="+testenv.CacheDir())
	stderrPath = filepath.Join(t.TempDir(), "stderr")
	stderr, err := os.Create(stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stderr.Close() })
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), testenv.StepBudget(t))
	defer cancel()
	cs, err = client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, opts)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, readFileString(t, stderrPath))
	}
	return cs, stderrPath
}
