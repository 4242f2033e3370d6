package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Code actions that run a server command: run only once approved, the
// server's workspace/applyEdit during the command applied through the
// applier, and refused at any other time.

func TestToolboxRunsApprovedCommands(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	a := filepath.Join(f.ws, "a.go")
	read := func() string { b, _ := os.ReadFile(a); return string(b) }
	applyEdit := func(uri string) map[string]any {
		return map[string]any{"serverRequest": "workspace/applyEdit", "params": map[string]any{"label": "make Z", "edit": map[string]any{"changes": map[string]any{uri: []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}, "newText": "Z"}}}}}}
	}
	outside := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(outside, []byte("package a\n\nfunc A() {}\n"), 0o644)
	script := func(commandEdit map[string]any) map[string]any {
		return map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "codeActionProvider": true, "executeCommandProvider": map[string]any{"commands": []any{"fake.makeZ"}}},
			"methods": map[string]any{
				// Listing the actions also tries an applyEdit, outside any
				// command: refused.
				"textDocument/codeAction": map[string]any{"result": []any{map[string]any{"title": "Make Z", "kind": "refactor.rewrite",
					"command": map[string]any{"title": "Make Z", "command": "fake.makeZ", "arguments": []any{1}}}},
					"before": []any{applyEdit(f.uri("a.go"))}},
				"workspace/executeCommand": map[string]any{"result": nil, "before": []any{commandEdit}},
			}}
	}
	f.setScript(script(applyEdit(f.uri("a.go"))))
	tb := f.toolbox()
	res, s := f.call(tb, "code_actions", `{"path":"a.go","line":3}`)
	actions, _ := s["actions"].([]any)
	if res.IsError || len(actions) != 1 || !strings.Contains(res.Text, "runs a server command") {
		t.Fatalf("listing: %s", res.Text)
	}
	if got := read(); got != "package a\n\nfunc A() {}\n" {
		t.Fatalf("an applyEdit outside a command was applied: %q", got)
	}
	var refusedOutside bool
	for _, e := range f.events() {
		if e.Event == "recv" && e.ResponseTo == "workspace/applyEdit" && strings.Contains(string(e.Result), `"applied":false`) {
			refusedOutside = true
		}
	}
	if !refusedOutside {
		t.Error("the applyEdit sent while listing was not answered applied:false")
	}
	id, _ := actions[0].(map[string]any)["actionId"].(string)

	// The preview names the command and runs nothing.
	args := `{"path":"a.go","line":3,"apply":"` + id + `"}`
	res, s = f.call(tb, "code_actions", args)
	pid, _ := s["previewId"].(string)
	if res.IsError || pid == "" || s["command"] != "fake.makeZ" || !strings.Contains(res.Text, "cannot be shown before") {
		t.Fatalf("command preview: %s", res.Text)
	}
	for _, e := range f.events() {
		if e.Method == "workspace/executeCommand" {
			t.Fatal("the command ran before it was approved")
		}
	}
	// Approved: the command runs, its edit is applied, the answer lists it.
	res, s = f.call(tb, "code_actions", strings.TrimSuffix(args, "}")+`,"previewId":"`+pid+`"}`)
	if res.IsError || s["applied"] != true || !strings.Contains(res.Text, "a.go") {
		t.Fatalf("approved command: %s", res.Text)
	}
	if got := read(); got != "package a\n\nfunc Z() {}\n" {
		t.Fatalf("after the command: %q", got)
	}

	// A command whose edit points outside the workspace: refused, nothing
	// written anywhere, and the answer says so.
	os.WriteFile(a, []byte("package a\n\nfunc A() {}\n"), 0o644)
	f.setScript(script(applyEdit("file://" + outside)))
	restartFake(t, f)
	tb = f.toolbox()
	tb.SetApproval("auto")
	res, s = f.call(tb, "code_actions", `{"path":"a.go","line":3}`)
	actions, _ = s["actions"].([]any)
	if len(actions) != 1 {
		t.Fatalf("listing: %s", res.Text)
	}
	id, _ = actions[0].(map[string]any)["actionId"].(string)
	res, _ = f.call(tb, "code_actions", `{"path":"a.go","line":3,"apply":"`+id+`"}`)
	if res.IsError || !strings.Contains(res.Text, "changed no file") || !strings.Contains(res.Text, "outside the workspace") {
		t.Fatalf("an edit outside the workspace during a command: %s", res.Text)
	}
	if b, _ := os.ReadFile(outside); string(b) != "package a\n\nfunc A() {}\n" {
		t.Fatalf("a file outside the workspace was written: %q", b)
	}
}

// restartFake stops f's server, so the next call starts it with f's
// current script.
func restartFake(t *testing.T, f *fake) {
	t.Helper()
	f.p.Close(context.Background())
	f.p = NewProvider(sharedCore(t), *f.p.server)
}
