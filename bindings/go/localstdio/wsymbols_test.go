package localstdio

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// TestToolboxSearchesEveryLanguage: code_symbols {query} without path asks
// the server of every language with files in the workspace, at once, each
// until the call's deadline less a reserve, and says which it could not
// search and why: one that hangs (timed out), one without
// workspace/symbol; a language without files is not asked. The answer
// comes back before the call's deadline, marked incomplete.
func TestToolboxSearchesEveryLanguage(t *testing.T) {
	good := newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "workspaceSymbolProvider": true}}, nil)
	good.setScript(map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "workspaceSymbolProvider": true}, "methods": map[string]any{
		"workspace/symbol": map[string]any{"result": []any{
			map[string]any{"name": "Apply", "kind": 12, "location": good.loc("a.go", 2, 5)},
			map[string]any{"name": "Applies", "kind": 12, "location": good.loc("b.go", 2, 5)},
		}},
	}})
	slow := newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "workspaceSymbolProvider": true}, "methods": map[string]any{
		"workspace/symbol": map[string]any{"action": "hang"},
	}}, map[string]any{"extensionToLanguage": map[string]string{".py": "python"}})
	bare := newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}},
		map[string]any{"extensionToLanguage": map[string]string{".ts": "typescript"}})
	unused := newFake(t, map[string]any{"capabilities": map[string]any{"textDocumentSync": 1, "workspaceSymbolProvider": true}},
		map[string]any{"extensionToLanguage": map[string]string{".rs": "rust"}})
	ws := good.ws
	for name, text := range map[string]string{"c.py": "def apply():\n    pass\n", "d.ts": "export function apply() {}\n", "notes.md": "# Apply\n", "e.rb": "def apply; end\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	svc := lspseam.NewService(sharedCore(t))
	for id, f := range map[string]*fake{"good": good, "slow": slow, "bare": bare, "unused": unused} {
		reg := f.p.Registration()
		reg.ID = id
		if _, err := svc.RegisterProvider(ctx, reg); err != nil {
			t.Fatal(err)
		}
	}
	tb, err := toolbox.NewToolbox(ctx, sharedCore(t), svc, "code")
	if err != nil {
		t.Fatal(err)
	}
	budget := 5 * time.Second
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	began := time.Now()
	res := tb.Call(cctx, "code_symbols", json.RawMessage(`{"query":"Apply"}`), ws)
	took := time.Since(began)
	t.Logf("answered in %v", took)
	if res.IsError {
		t.Fatalf("error: %s", res.Text)
	}
	// An answer at all is the check that the hung server cost its
	// language, not the call: past the call's deadline the search answers
	// LSP_TIMEOUT (the error above), never a late result.
	var a struct {
		Symbols []struct {
			Name, Path, Server string
			Line               int
		}
		Searched    []struct{ Server string }
		NotSearched []struct {
			Server    string
			Languages []string
			Reason    string
		}
		Incomplete string
	}
	if err := json.Unmarshal(res.Structured, &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Symbols) != 2 || a.Symbols[0].Name != "Apply" || a.Symbols[0].Path != "a.go" || a.Symbols[0].Line != 3 || a.Symbols[0].Server != "good" {
		t.Errorf("symbols %+v, want Apply at a.go:3 from good first", a.Symbols)
	}
	if len(a.Searched) != 1 || a.Searched[0].Server != "good" {
		t.Errorf("searched %+v, want good alone", a.Searched)
	}
	reasons := map[string]string{}
	for _, g := range a.NotSearched {
		reasons[g.Server+"/"+strings.Join(g.Languages, ",")] = g.Reason
	}
	for key, want := range map[string]string{
		"bare/typescript": `does not offer workspace/symbol`,
		"slow/python":     "did not answer in time",
		"/Ruby":           "no language server is configured for .rb files",
	} {
		if !strings.Contains(reasons[key], want) {
			t.Errorf("notSearched %s: reason %q, want it to say %q (all: %v)", key, reasons[key], want, reasons)
		}
	}
	if len(a.NotSearched) != 3 {
		t.Errorf("notSearched %v: want bare, slow and Ruby (no Markdown, no server without files)", reasons)
	}
	if !strings.Contains(a.Incomplete, "not searched:") || !strings.Contains(res.Text, "\nIncomplete: not searched:") {
		t.Errorf("the answer must be marked incomplete:\n%s", res.Text)
	}
	if unused.received("initialize") != 0 {
		t.Errorf("a server without files in the workspace was started")
	}
}
