package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// The code tools (toolbox.Toolbox) over a provider session, with the
// scripted fake server: what the tools ask, and how the server's faults
// reach the model.

// catalogCaps are the capabilities of a fake server with the catalog's
// methods (call hierarchy included, type hierarchy not).
var catalogCaps = map[string]any{
	"textDocumentSync": 1, "definitionProvider": true, "referencesProvider": true, "hoverProvider": true,
	"documentSymbolProvider": true, "callHierarchyProvider": true,
}

// symbolsOfA is a.go's outline ("package a\n\nfunc A() {}\n"): function A
// on line 3 (zero-based 2), its name at column 6.
var symbolsOfA = []map[string]any{{
	"name": "A", "kind": 12,
	"range":          map[string]any{"start": map[string]any{"line": 2, "character": 0}, "end": map[string]any{"line": 2, "character": 11}},
	"selectionRange": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}},
}}

// loc is a Location in f's workspace, zero-based.
func (f *fake) loc(file string, line, char int) map[string]any {
	f.t.Helper()
	ws, err := CanonicalWorkspace(f.ws)
	if err != nil {
		f.t.Fatal(err)
	}
	return map[string]any{"uri": ws.URI + "/" + file, "range": map[string]any{
		"start": map[string]any{"line": line, "character": char}, "end": map[string]any{"line": line, "character": char + 1}}}
}

// toolbox registers f's provider in a Service and offers every toolset.
func (f *fake) toolbox() *toolbox.Toolbox {
	f.t.Helper()
	ctx := context.Background()
	svc := lspseam.NewService(sharedCore(f.t))
	if _, err := svc.RegisterProvider(ctx, f.p.Registration()); err != nil {
		f.t.Fatal(err)
	}
	tb, err := toolbox.NewToolbox(ctx, sharedCore(f.t), svc, "lsp", "code", "fs", "refactor")
	if err != nil {
		f.t.Fatal(err)
	}
	return tb
}

func (f *fake) call(tb *toolbox.Toolbox, tool, args string) (toolbox.ToolResult, map[string]any) {
	f.t.Helper()
	return f.callIn(tb, f.ws, tool, args)
}

// previewThenApply calls tool with args (a previewing Toolbox answers a
// preview), then applies that preview by its id; either failing fails
// the test. It returns the two answers' texts.
func (f *fake) previewThenApply(tb *toolbox.Toolbox, tool, args string) (preview, applied string) {
	f.t.Helper()
	res, s := f.call(tb, tool, args)
	id, _ := s["previewId"].(string)
	if res.IsError || id == "" {
		f.t.Fatalf("preview: %s", res.Text)
	}
	preview = res.Text
	res, s = f.call(tb, tool, strings.TrimSuffix(args, "}")+`,"previewId":"`+id+`"}`)
	if res.IsError || s["applied"] != true {
		f.t.Fatalf("apply: %s", res.Text)
	}
	return preview, res.Text
}

func errorCode(structured map[string]any) string {
	e, _ := structured["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestToolboxNavigatesByName(t *testing.T) {
	f := newFake(t, nil, nil)
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": []any{f.loc("a.go", 2, 5), f.loc("b.go", 2, 11)}},
	}})
	tb := f.toolbox()
	res, s := f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`)
	if res.IsError {
		t.Fatalf("error: %s", res.Text)
	}
	for _, want := range []string{"Target: `A` (function) at a.go:3:6", "a.go\n  3:6", "func A() {}", "b.go\n  3:12", "func B() { A() }"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, res.Text)
		}
	}
	locs, _ := s["locations"].([]any)
	if len(locs) != 2 || s["totalFound"] != float64(2) || s["ok"] != true || s["kind"] != "references" {
		t.Fatalf("structured answer: %v", s)
	}
	second := locs[1].(map[string]any)
	if second["path"] != "b.go" || second["line"] != float64(3) || second["column"] != float64(12) || second["snippet"] != "func B() { A() }" {
		t.Errorf("second location: %v", second)
	}
	target := s["target"].(map[string]any)
	if target["line"] != float64(3) || target["column"] != float64(6) || target["by"] != "symbol" {
		t.Errorf("echoed target: %v", target)
	}
	// The request went to the symbol's name: zero-based 2:5.
	var sawPosition bool
	for _, e := range f.events() {
		if e.Method == "textDocument/references" && strings.Contains(string(e.Params), `"position":{"line":2,"character":5}`) {
			sawPosition = true
		}
	}
	if !sawPosition {
		t.Error("no references request at the resolved position 2:5")
	}
}

func TestToolboxAmbiguousTargetListsCandidates(t *testing.T) {
	two := append(append([]map[string]any{}, symbolsOfA...), map[string]any{
		"name": "A", "kind": 13,
		"range":          map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 9}},
		"selectionRange": map[string]any{"start": map[string]any{"line": 0, "character": 8}, "end": map[string]any{"line": 0, "character": 9}},
	})
	f := newFake(t, map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": two},
	}}, nil)
	tb := f.toolbox()
	res, s := f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"definition"}`)
	if !res.IsError || errorCode(s) != "LSP_AMBIGUOUS_TARGET" || s["ambiguous"] != true {
		t.Fatalf("want LSP_AMBIGUOUS_TARGET, got %s", res.Structured)
	}
	if c, _ := s["candidates"].([]any); len(c) != 2 {
		t.Errorf("want 2 candidates, got %v", s["candidates"])
	}
	// kind settles it.
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": two},
		"textDocument/definition":     map[string]any{"result": nil},
	}})
	res, s = f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A","kind":"function"},"kind":"definition"}`)
	if res.IsError || s["notice"] == nil {
		t.Fatalf("want ok with a notice for an empty answer, got %s", res.Structured)
	}
}

func TestToolboxUnsupportedNamesWhatToUse(t *testing.T) {
	// Not advertised: refused before any request.
	caps := map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true}
	f := newFake(t, map[string]any{"capabilities": caps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
	}}, nil)
	tb := f.toolbox()
	res, s := f.call(tb, "code_hierarchy", `{"target":{"path":"a.go","symbol":"A"},"kind":"callers"}`)
	if errorCode(s) != "LSP_UNSUPPORTED_OPERATION" || !strings.Contains(res.Text, "use code_navigate with kind references") {
		t.Fatalf("got %s", res.Text)
	}
	for _, e := range f.events() {
		if e.Method == "textDocument/prepareCallHierarchy" {
			t.Error("the request was sent to a server that does not advertise it")
		}
	}
	// Advertised, but the server answers MethodNotFound.
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol":       map[string]any{"result": symbolsOfA},
		"textDocument/prepareCallHierarchy": map[string]any{"action": "error", "code": -32601, "message": "method not found"},
	}})
	f.p.Close(context.Background()) // the next provider starts the new script
	f.p = NewProvider(sharedCore(t), *f.p.server)
	tb = f.toolbox()
	res, s = f.call(tb, "code_hierarchy", `{"target":{"path":"a.go","symbol":"A"},"kind":"callers"}`)
	if errorCode(s) != "LSP_UNSUPPORTED_OPERATION" || !strings.Contains(res.Text, "method not found") || !strings.Contains(res.Text, "use code_navigate") {
		t.Fatalf("got %s", res.Text)
	}
}

func TestToolboxServerFaults(t *testing.T) {
	f := newFake(t, map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": map[string]any{"uri": 7}},
	}}, nil)
	tb := f.toolbox()
	res, s := f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`)
	if errorCode(s) != "LSP_MALFORMED_RESPONSE" || !strings.Contains(res.Text, `language server "fake"`) {
		t.Fatalf("malformed references: got %s", res.Text)
	}
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"action": "crash", "exitCode": 3},
	}})
	f.p.Close(context.Background())
	f.p = NewProvider(sharedCore(t), *f.p.server)
	tb = f.toolbox()
	res, s = f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`)
	if errorCode(s) != "LSP_SERVER_FAILED" {
		t.Fatalf("crash: got %s", res.Text)
	}
	// The next call gets a fresh server.
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": []any{}},
	}})
	res, s = f.call(tb, "code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`)
	if res.IsError || s["totalFound"] != float64(0) {
		t.Fatalf("after the crash: got %s", res.Structured)
	}
	// A server that hangs: the budget ends the call, with a timeout.
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"action": "hang"},
	}})
	f.p.Close(context.Background())
	f.p = NewProvider(sharedCore(t), *f.p.server)
	tb = f.toolbox()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	res = tb.Call(ctx, "code_navigate", json.RawMessage(`{"target":{"path":"a.go","symbol":"A"},"kind":"references"}`), f.ws)
	if !res.IsError || !strings.HasPrefix(res.Text, "LSP_TIMEOUT") {
		t.Fatalf("hang: got %s", res.Text)
	}
}

func TestToolboxRejectsBadCallsBeforeAnyServer(t *testing.T) {
	f := newFake(t, map[string]any{"capabilities": catalogCaps}, nil)
	tb := f.toolbox()
	for _, c := range []struct{ tool, args, want string }{
		{"code_navigate", `{"target":{"path":"a.go","symbol":"A"},"kind":"refs"}`, "kind must be one of"},
		{"code_navgate", `{}`, "not offered here"},
		{"code_navigate", `{"target":{"path":"../x.go","symbol":"A"},"kind":"references"}`, "LSP_SOURCE_REJECTED"},
	} {
		res, _ := f.call(tb, c.tool, c.args)
		if !res.IsError || !strings.Contains(res.Text, c.want) {
			t.Errorf("%s %s: want an error with %q, got %s", c.tool, c.args, c.want, res.Text)
		}
	}
	if n := len(f.events()); n != 0 {
		t.Errorf("a server started for calls refused up front (%d events)", n)
	}
}

// The lsp tool runs through the Toolbox too, hover included (a hover
// result carries no workspace URI to render against).
func TestToolboxRunsTheLSPTool(t *testing.T) {
	f := newFake(t, map[string]any{"methods": map[string]any{
		"textDocument/hover":      map[string]any{"result": map[string]any{"contents": "func A()"}},
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
	}}, nil)
	tb := f.toolbox()
	res, s := f.call(tb, "lsp", `{"operation":"hover","file_path":"a.go","line":3,"character":6}`)
	if res.IsError || !strings.Contains(res.Text, "func A()") || s["tool"] != "lsp" {
		t.Fatalf("hover: %s %s", res.Text, res.Structured)
	}
	res, _ = f.call(tb, "lsp", `{"operation":"goToDefinition","file_path":"a.go","line":3,"character":6}`)
	if res.IsError || !strings.Contains(res.Text, "a.go:3:6") {
		t.Fatalf("definition: %s", res.Text)
	}
}

// code_diagnostics without a path: a workspace read starts no server
// unless activation asks for it, and says what it covers.
func TestToolboxWorkspaceDiagnostics(t *testing.T) {
	f := newFake(t, nil, nil)
	pull := map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}}
	f.setScript(map[string]any{"capabilities": pull, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"result": map[string]any{"kind": "full", "items": []any{diagnostic("broken")}}},
	}})
	tb := f.toolbox()
	res, s := f.call(tb, "code_diagnostics", `{}`)
	if res.IsError || s["status"] != "partial" || !strings.Contains(res.Text, "covers 0 of the 2 source files") {
		t.Fatalf("no activation: %s %s", res.Text, res.Structured)
	}
	if n := len(f.pids()); n != 0 {
		t.Fatalf("a workspace read without activation started %d servers", n)
	}
	res, s = f.call(tb, "code_diagnostics", `{"activateWorkspace":true,"activationLimit":1}`)
	if res.IsError || s["status"] != "partial" || !strings.Contains(res.Text, "covers 1 of the 2") || !strings.Contains(res.Text, "activationLimit 1 reached: raise it, up to 200") {
		t.Fatalf("activation limit 1: %s %s", res.Text, res.Structured)
	}
	res, s = f.call(tb, "code_diagnostics", `{"activateWorkspace":true}`)
	if res.IsError || s["status"] != "fresh" || s["totalFound"] != float64(2) {
		t.Fatalf("activation: %s %s", res.Text, res.Structured)
	}
	// Both are open now: a read without activation covers them.
	res, s = f.call(tb, "code_diagnostics", `{"severity":"error"}`)
	if res.IsError || s["status"] != "fresh" || s["totalFound"] != float64(2) {
		t.Fatalf("open documents: %s %s", res.Text, res.Structured)
	}
}

// A workspace read whose files get no report says so, not that the
// activation limit was reached (it was not: raising it would not help).
func TestToolboxWorkspaceDiagnosticsUnreported(t *testing.T) {
	f := newFake(t, nil, nil)
	pull := map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}}
	f.setScript(map[string]any{"capabilities": pull, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"action": "error", "code": -32603, "message": "no report"},
	}})
	res, s := f.call(f.toolbox(), "code_diagnostics", `{"activateWorkspace":true,"activationLimit":200}`)
	if res.IsError || s["status"] != "partial" || !strings.Contains(res.Text, "covers 0 of the 2") || strings.Contains(res.Text, "reached") || !strings.Contains(res.Text, "got no report") {
		t.Fatalf("files without a report: %s %s", res.Text, res.Structured)
	}
}

// code_rename through the applier on the fake server: a preview, applied
// with its id; a stale preview; edits outside the workspace and malformed
// edits refused with nothing written; a server that refuses the rename.
func TestToolboxRenamePreviewAndApply(t *testing.T) {
	f := newFake(t, nil, nil)
	f.cleanPull = true // not about the change's diagnostics
	caps := map[string]any{"textDocumentSync": 1, "documentSymbolProvider": true, "renameProvider": map[string]any{"prepareProvider": true}}
	edit := func(uri string) map[string]any {
		return map[string]any{"changes": map[string]any{uri: []any{map[string]any{"newText": "Z", "range": map[string]any{
			"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}}}}}
	}
	script := func(renameResult any) map[string]any {
		return map[string]any{"capabilities": caps, "methods": map[string]any{
			"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
			"textDocument/prepareRename":  map[string]any{"result": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}}},
			"textDocument/rename":         map[string]any{"result": renameResult},
		}}
	}
	a := filepath.Join(f.ws, "a.go")
	f.setScript(script(edit(f.uri("a.go"))))
	tb := f.toolbox()
	args := `{"target":{"path":"a.go","symbol":"A"},"newName":"Z"}`
	res, s := f.call(tb, "code_rename", args)
	id, _ := s["previewId"].(string)
	if res.IsError || id == "" || s["applied"] != false || !strings.Contains(res.Text, "-func A() {}\n+func Z() {}") {
		t.Fatalf("preview: %s", res.Text)
	}
	if got, _ := os.ReadFile(a); string(got) != "package a\n\nfunc A() {}\n" {
		t.Fatalf("a preview changed the file: %q", got)
	}
	// Another call's arguments with the id are refused, and the id stays
	// valid for its own call.
	if res, s = f.call(tb, "code_rename", `{"target":{"path":"a.go","symbol":"A"},"newName":"Y","previewId":"`+id+`"}`); errorCode(s) != "LSP_INVALID_ARGUMENT" || !strings.Contains(res.Text, "belongs to another call") {
		t.Fatalf("another call's preview: %s", res.Text)
	}
	if got, _ := os.ReadFile(a); string(got) != "package a\n\nfunc A() {}\n" {
		t.Fatalf("another call's arguments changed the file: %q", got)
	}
	res, s = f.call(tb, "code_rename", strings.TrimSuffix(args, "}")+`,"previewId":"`+id+`"}`)
	if res.IsError || s["applied"] != true {
		t.Fatalf("apply after another call was refused: %s", res.Text)
	}
	if got, _ := os.ReadFile(a); string(got) != "package a\n\nfunc Z() {}\n" {
		t.Fatalf("after apply: %q", got)
	}

	// Stale: the file changes between preview and apply.
	os.WriteFile(a, []byte("package a\n\nfunc A() {}\n"), 0o644)
	res, s = f.call(tb, "code_rename", args)
	id, _ = s["previewId"].(string)
	os.WriteFile(a, []byte("package a\n\nfunc A() {} // changed\n"), 0o644)
	res, s = f.call(tb, "code_rename", strings.TrimSuffix(args, "}")+`,"previewId":"`+id+`"}`)
	fresh, _ := s["preview"].(map[string]any)
	if errorCode(s) != "LSP_CONFLICT" || fresh == nil || fresh["previewId"] == id {
		t.Fatalf("stale preview: %s %s", res.Text, res.Structured)
	}
	if got, _ := os.ReadFile(a); string(got) != "package a\n\nfunc A() {} // changed\n" {
		t.Fatalf("a stale preview wrote: %q", got)
	}

	// Outside the workspace, and malformed: refused, nothing written.
	outside := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(outside, []byte("package a\n\nfunc A() {}\n"), 0o644)
	for _, c := range []struct {
		result any
		code   string
	}{
		{edit("file://" + outside), "LSP_SOURCE_REJECTED"},
		{map[string]any{"changes": map[string]any{f.uri("a.go"): "not edits"}}, "LSP_MALFORMED_RESPONSE"},
	} {
		f.setScript(script(c.result))
		f.p.Close(context.Background())
		f.p = NewProvider(sharedCore(t), *f.p.server)
		tb = f.toolbox()
		if err := tb.SetApproval("auto"); err != nil {
			t.Fatal(err)
		}
		res, s = f.call(tb, "code_rename", args)
		if errorCode(s) != c.code {
			t.Errorf("want %s, got %s", c.code, res.Text)
		}
	}
	if got, _ := os.ReadFile(outside); string(got) != "package a\n\nfunc A() {}\n" {
		t.Fatalf("a file outside the workspace was written: %q", got)
	}

	// A server that refuses: prepareRename answers null.
	f.setScript(map[string]any{"capabilities": caps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/prepareRename":  map[string]any{"result": nil},
	}})
	f.p.Close(context.Background())
	f.p = NewProvider(sharedCore(t), *f.p.server)
	tb = f.toolbox()
	if res, _ = f.call(tb, "code_rename", args); !res.IsError || !strings.Contains(res.Text, "cannot rename") {
		t.Fatalf("refused rename: %s", res.Text)
	}
}

// code_insert, code_replace and code_replace_batch need no server request
// beyond the outline; overlapping batch edits are the caller's mistake.
func TestToolboxInsertAndReplace(t *testing.T) {
	f := newFake(t, cleanPull(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
	}}), nil)
	tb := f.toolbox()
	if err := tb.SetApproval("auto"); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(f.ws, "a.go")
	res, s := f.call(tb, "code_insert", `{"target":{"path":"a.go","symbol":"A"},"position":"after","text":"\nfunc C() {}"}`)
	if res.IsError || s["applied"] != true {
		t.Fatalf("insert: %s", res.Text)
	}
	if got, _ := os.ReadFile(a); string(got) != "package a\n\nfunc A() {}\n\nfunc C() {}\n" {
		t.Fatalf("after insert: %q", got)
	}
	res, _ = f.call(tb, "code_replace", `{"target":{"path":"a.go","symbol":"A"},"text":"func A() { C() }"}`)
	if got, _ := os.ReadFile(a); res.IsError || string(got) != "package a\n\nfunc A() { C() }\n\nfunc C() {}\n" {
		t.Fatalf("replace: %s %q", res.Text, got)
	}
	res, s = f.call(tb, "code_replace_batch", `{"edits":[{"target":{"path":"a.go","line":3},"text":"x"},{"target":{"path":"a.go","symbol":"A"},"text":"y"}]}`)
	if errorCode(s) != "LSP_INVALID_ARGUMENT" || !strings.Contains(res.Text, "overlap") {
		t.Fatalf("overlapping batch: %s", res.Text)
	}
	res, _ = f.call(tb, "code_replace_batch", `{"edits":[{"target":{"path":"a.go","line":1},"text":"package b"},{"target":{"path":"b.go","line":1},"text":"package b"}]}`)
	b, _ := os.ReadFile(filepath.Join(f.ws, "b.go"))
	if got, _ := os.ReadFile(a); res.IsError || !strings.HasPrefix(string(got), "package b\n") || !strings.HasPrefix(string(b), "package b\n") {
		t.Fatalf("batch: %s", res.Text)
	}
}

// code_diagnostics with activateWorkspace on a server that does not answer
// in time (a cold gopls cache took more than the call's 60 s): the answer
// is what was checked, marked partial and saying why, not only a timeout.
func TestToolboxWorkspaceDiagnosticsOutOfTime(t *testing.T) {
	f := newFake(t, nil, nil)
	pull := map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}}
	// A server that never finishes starting (initialize hangs), as a
	// cold gopls loading a large module does for longer than the call.
	f.setScript(map[string]any{"capabilities": pull, "initialize": map[string]any{"action": "hang"}})
	tb := f.toolbox()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // the call's own budget, which the hang uses up
	defer cancel()
	res := tb.Call(ctx, "code_diagnostics", json.RawMessage(`{"activateWorkspace":true}`), f.ws)
	var s map[string]any
	json.Unmarshal(res.Structured, &s)
	if res.IsError || s["status"] != "partial" || !strings.Contains(res.Text, "covers 0 of the 2 source files") ||
		!strings.Contains(res.Text, "the call's time ran out while") || ctx.Err() != nil {
		t.Fatalf("a hung server: %s %s (call context: %v)", res.Text, res.Structured, ctx.Err())
	}
}

// code_diagnostics pages like code_navigate: five problems with limit 2
// come in three pages through cursors, each problem once; a used cursor
// is refused.
func TestToolboxDiagnosticsPages(t *testing.T) {
	f := newFake(t, nil, nil)
	pull := map[string]any{"textDocumentSync": 1, "diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}}
	var items []any
	for i := 0; i < 5; i++ {
		items = append(items, diagnostic(fmt.Sprintf("problem %d", i)))
	}
	f.setScript(map[string]any{"capabilities": pull, "methods": map[string]any{
		"textDocument/diagnostic": map[string]any{"result": map[string]any{"kind": "full", "items": items}},
	}})
	tb := f.toolbox()
	var seen []string
	res, s := f.call(tb, "code_diagnostics", `{"path":"a.go","limit":2}`)
	var cursors []string
	for pages := 1; ; pages++ {
		if res.IsError || s["totalFound"] != float64(5) {
			t.Fatalf("page %d: %s", pages, res.Text)
		}
		for _, p := range s["problems"].([]any) {
			seen = append(seen, p.(map[string]any)["message"].(string))
		}
		cursor, _ := s["cursor"].(string)
		if cursor == "" {
			if pages != 3 {
				t.Errorf("%d pages, want 3", pages)
			}
			break
		}
		cursors = append(cursors, cursor)
		res, s = f.call(tb, "code_diagnostics", `{"cursor":"`+cursor+`"}`)
	}
	slices.Sort(seen)
	if want := []string{"problem 0", "problem 1", "problem 2", "problem 3", "problem 4"}; !slices.Equal(seen, want) {
		t.Errorf("the pages' problems %v, want %v", seen, want)
	}
	if res, _ = f.call(tb, "code_diagnostics", `{"cursor":"`+cursors[0]+`"}`); !res.IsError || !strings.Contains(res.Text, "was used already") {
		t.Errorf("a used cursor: %s", res.Text)
	}
}

// code_hierarchy pages like code_navigate: A's five callers with limit 2
// come in three pages (A and four callers, then the last), each node
// once, the text of each naming the next; a server whose callers come in
// another order between two pages makes the cursor LSP_CONFLICT with the
// new first page.
func TestToolboxHierarchyPages(t *testing.T) {
	f := newFake(t, nil, nil)
	item := func(name string, line int) map[string]any {
		l := f.loc("b.go", line, 5)
		return map[string]any{"name": name, "kind": 12, "uri": l["uri"], "range": l["range"], "selectionRange": l["range"]}
	}
	// b.go's line i is Ci's call of A (call sites are shown only where
	// they are).
	var calls strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&calls, "func C%d() { A() }\n", i)
	}
	os.WriteFile(filepath.Join(f.ws, "b.go"), []byte(calls.String()), 0o644)
	var callers, reversed []any
	for i := 0; i < 5; i++ {
		c := map[string]any{"from": item(fmt.Sprint("C", i), i), "fromRanges": []any{f.loc("b.go", i, 12)["range"]}}
		callers = append(callers, c)
		reversed = append([]any{c}, reversed...)
	}
	// incomingCalls answers the same callers four times (three pages and a
	// first page again), then in another order.
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol":       map[string]any{"result": symbolsOfA},
		"textDocument/prepareCallHierarchy": map[string]any{"result": []any{item("A", 2)}},
		"callHierarchy/incomingCalls":       map[string]any{"results": []any{callers, callers, callers, callers, reversed}},
	}})
	tb := f.toolbox()
	question := `{"target":{"path":"a.go","symbol":"A"},"kind":"callers","limit":2}`
	res, s := f.call(tb, "code_hierarchy", question)
	var seen []string
	for pages := 1; ; pages++ {
		if res.IsError || s["totalNodes"] != float64(6) {
			t.Fatalf("page %d: %s", pages, res.Text)
		}
		for _, n := range s["nodes"].([]any) {
			seen = append(seen, n.(map[string]any)["name"].(string))
		}
		cursor, _ := s["cursor"].(string)
		if cursor == "" {
			if pages != 3 {
				t.Errorf("%d pages, want 3", pages)
			}
			break
		}
		if !strings.Contains(res.Text, `Next page: call code_hierarchy with {"cursor":"`+cursor+`"}`) || s["priorKey"] != nil {
			t.Errorf("page %d: %s", pages, res.Structured)
		}
		res, s = f.call(tb, "code_hierarchy", `{"cursor":"`+cursor+`"}`)
	}
	if want := []string{"A", "C0", "C1", "C2", "C3", "C4"}; !slices.Equal(seen, want) {
		t.Errorf("the pages' nodes %v, want %v", seen, want)
	}
	if !strings.Contains(res.Text, "nodes 5–6 of 6, each with its edges to the nodes before it (A ← B: B calls A):") {
		t.Errorf("the last page: %s", res.Text)
	}

	_, s = f.call(tb, "code_hierarchy", question)
	res, s = f.call(tb, "code_hierarchy", `{"cursor":"`+s["cursor"].(string)+`"}`)
	page, _ := s["page"].(map[string]any)
	if errorCode(s) != "LSP_CONFLICT" || page == nil || page["cursor"] == nil || page["nodes"].([]any)[1].(map[string]any)["name"] != "C4" {
		t.Errorf("a cursor after the callers changed: %s", res.Structured)
	}
}

// TestToolboxEditChecksDependents: an edit of A's signature on the fake
// server asks the references of A (the declaration on the changed line)
// before writing, checks b.go, which uses A, with a.go before and after
// the edit, and answers b.go's new problem as another file's.
func TestToolboxEditChecksDependents(t *testing.T) {
	f := newFake(t, nil, nil)
	f.writeFiles(t, "b.go")
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": []any{f.loc("a.go", 2, 5), f.loc("b.go", 2, 11)}},
		"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b")}},
		"textDocument/didChange":      map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b broken")}},
	}})
	tb := f.toolbox()
	if res, _ := f.call(tb, "read", `{"file_path":"a.go"}`); res.IsError {
		t.Fatalf("read: %s", res.Text)
	}
	res, s := f.call(tb, "edit", `{"file_path":"a.go","old_string":"func A() {}","new_string":"func A(x int) {}"}`)
	if res.IsError {
		t.Fatalf("edit: %s", res.Text)
	}
	if f.received("textDocument/references") != 1 {
		t.Errorf("%d references requests, want 1 (A's)", f.received("textDocument/references"))
	}
	others, _ := s["diagnostics"].(map[string]any)["others"].(map[string]any)
	with, _ := others["withIntroduced"].([]any)
	if others["checked"] != float64(1) || len(with) != 1 || with[0] != "b.go" ||
		!strings.Contains(res.Text, "1 other file checked, 1 with new problems (1 error introduced, 1 resolved):\n  b.go:3:6 error: b broken\nResolved in other files:\n  b.go:3:6 error: b") {
		t.Fatalf("others %v:\n%s", others, res.Text)
	}
}

// A call site is shown only in a file where it can be: clangd 14 merges
// the main() of several programs into one caller whose fromRanges are
// each in its own program's file (findings s26 #7). The fake's one
// caller B in b.go has its real call of A and two sites that cannot be in
// b.go (past its end, on an empty line); the answer shows the real one
// and says how many it left out. A callee's sites, in the expanded
// item's own file, are checked the same way.
func TestToolboxHierarchyLeavesOutMisplacedSites(t *testing.T) {
	f := newFake(t, nil, nil)
	os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() { B() }\n"), 0o644)
	item := func(name, file string, line int) map[string]any {
		l := f.loc(file, line, 5)
		return map[string]any{"name": name, "kind": 12, "uri": l["uri"], "range": l["range"], "selectionRange": l["range"]}
	}
	callOfA := f.loc("b.go", 2, 11)["range"]       // "A" of "func B() { A() }"
	pastTheEnd := f.loc("b.go", 40, 11)["range"]   // b.go has 3 lines
	emptyLine := f.loc("b.go", 1, 0)["range"]      // line 2 of b.go is empty
	callOfB := f.loc("a.go", 2, 11)["range"]       // "B" of "func A() { B() }"
	inAnIdentifier := f.loc("a.go", 0, 2)["range"] // the "c" of "package"
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol":       map[string]any{"result": symbolsOfA},
		"textDocument/prepareCallHierarchy": map[string]any{"result": []any{item("A", "a.go", 2)}},
		"callHierarchy/incomingCalls": map[string]any{"result": []any{
			map[string]any{"from": item("B", "b.go", 2), "fromRanges": []any{callOfA, pastTheEnd, emptyLine}},
		}},
		"callHierarchy/outgoingCalls": map[string]any{"result": []any{
			map[string]any{"to": item("B", "b.go", 2), "fromRanges": []any{callOfB, inAnIdentifier}},
		}},
	}})
	tb := f.toolbox()

	res, s := f.call(tb, "code_hierarchy", `{"target":{"path":"a.go","symbol":"A"},"kind":"callers"}`)
	if res.IsError || !strings.Contains(res.Text, "— call at b.go:3:12") || strings.Contains(res.Text, "b.go:41") || strings.Contains(res.Text, "b.go:2:1") {
		t.Errorf("callers: the sites shown are not b.go's one call of A:\n%s", res.Text)
	}
	want := "2 call sites the server attributed to B in b.go are not there"
	if inc, _ := s["incomplete"].(string); !strings.Contains(inc, want) || !strings.Contains(res.Text, "Incomplete: ") || !strings.Contains(res.Text, want) || !strings.Contains(inc, "code_navigate kind references lists every use") {
		t.Errorf("callers: the answer does not say which sites it left out (%q):\n%s", want, res.Text)
	}

	res, s = f.call(tb, "code_hierarchy", `{"target":{"path":"a.go","symbol":"A"},"kind":"callees"}`)
	if res.IsError || !strings.Contains(res.Text, "— call at a.go:3:12") || strings.Contains(res.Text, "a.go:1:3") {
		t.Errorf("callees: the sites shown are not a.go's one call of B:\n%s", res.Text)
	}
	want = "1 call site of B the server gave for A in a.go is not there"
	if inc, _ := s["incomplete"].(string); !strings.Contains(inc, want) {
		t.Errorf("callees: the answer does not say which site it left out (%q):\n%s", want, res.Text)
	}
}
