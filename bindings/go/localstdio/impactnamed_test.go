package localstdio

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The references of the declaration whose name line a change replaced
// are asked within the call's budget, not only the dependents' share of
// it (a quarter of what is left, at most 3 s): a cold
// typescript-language-server's first references, its project just
// loaded, took longer than the share, and the first `write` of a session
// answered "Other files: none refer to what changed" while the change
// broke 5 importers (findings s28 F4). The fake answers A's references
// after more than a quarter of the call's budget and less than half.
func TestToolboxNamedDeclarationReferencesOutlastTheShare(t *testing.T) {
	const budget = 4 * time.Second
	delay := budget * 36 / 100 // over budget/4 (the share), under budget/2 (the changed declaration's)
	f := newFake(t, nil, nil)
	f.writeFiles(t, "b.go")
	f.setScript(map[string]any{"capabilities": catalogCaps, "methods": map[string]any{
		"textDocument/documentSymbol": map[string]any{"result": symbolsOfA},
		"textDocument/references":     map[string]any{"result": []any{f.loc("a.go", 2, 5), f.loc("b.go", 2, 11)}, "delayMs": delay.Milliseconds()},
		"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b")}},
		"textDocument/didChange":      map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b broken")}},
	}})
	tb := f.toolbox()
	if res, _ := f.call(tb, "read", `{"file_path":"a.go"}`); res.IsError {
		t.Fatalf("read: %s", res.Text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	res := tb.Call(ctx, "write", json.RawMessage(`{"file_path":"a.go","content":"package a\n\nfunc A(x int) {}\n"}`), f.ws)
	if res.IsError {
		t.Fatalf("write: %s", res.Text)
	}
	if !strings.Contains(res.Text, "1 other file checked, 1 with new problems (1 error introduced, 1 resolved):\n  b.go:3:6 error: b broken") {
		t.Errorf("the write does not report b.go, the user of the changed A:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "none refer to what changed") {
		t.Errorf("the write says none refer to what changed:\n%s", res.Text)
	}
}

// A parameter added on its own line of a signature written over several
// lines changes the declaration as its name line would (httpx's
// `async def send(` gained `trace: bool,` two lines down), and the
// outline that says what changed is asked within the call's budget too:
// pyright answered nothing for 3 s while it checked the 2,000-line file
// it had just been given, and the edit said the references were not
// asked (findings s28 Python F3). Each case delays one answer past the
// dependents' share of the budget and under the changed declaration's.
func TestToolboxSignatureChangeOutlastsTheShare(t *testing.T) {
	const budget = 4 * time.Second
	delay := (budget * 36 / 100).Milliseconds()
	multiLineA := []map[string]any{{
		"name": "A", "kind": 12,
		"range":          map[string]any{"start": map[string]any{"line": 2, "character": 0}, "end": map[string]any{"line": 4, "character": 4}},
		"selectionRange": map[string]any{"start": map[string]any{"line": 2, "character": 5}, "end": map[string]any{"line": 2, "character": 6}},
	}}
	for _, slow := range []string{"textDocument/documentSymbol", "textDocument/references"} {
		t.Run(strings.TrimPrefix(slow, "textDocument/"), func(t *testing.T) {
			f := newFake(t, nil, nil)
			f.writeFiles(t, "b.go")
			if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A(\n\tx int,\n) {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			methods := map[string]any{
				"textDocument/documentSymbol": map[string]any{"result": multiLineA},
				"textDocument/references":     map[string]any{"result": []any{f.loc("a.go", 2, 5), f.loc("b.go", 2, 11)}},
				"textDocument/didOpen":        map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b")}},
				"textDocument/didChange":      map[string]any{"action": "none", "after": []any{f.publish("a.go", 0, "a"), f.publish("b.go", 0, "b broken")}},
			}
			methods[slow].(map[string]any)["delayMs"] = delay
			f.setScript(map[string]any{"capabilities": catalogCaps, "methods": methods})
			tb := f.toolbox()
			if res, _ := f.call(tb, "read", `{"file_path":"a.go"}`); res.IsError {
				t.Fatalf("read: %s", res.Text)
			}
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			res := tb.Call(ctx, "edit", json.RawMessage(`{"file_path":"a.go","old_string":"\tx int,\n","new_string":"\tx int,\n\ty int,\n"}`), f.ws)
			if res.IsError {
				t.Fatalf("edit: %s", res.Text)
			}
			if !strings.Contains(res.Text, "1 other file checked, 1 with new problems (1 error introduced, 1 resolved):\n  b.go:3:6 error: b broken") {
				t.Errorf("the edit does not report b.go, the user of A:\n%s", res.Text)
			}
		})
	}
}
