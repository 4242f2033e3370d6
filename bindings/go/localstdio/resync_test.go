package localstdio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// TestResyncBehindOtherChanges: a server that checks only what it is sent
// (buf, reportsOnlySynced) is sent a document again, same text, next
// version, when another file's content changed since its last sync,
// before its report is awaited — once, not again while nothing else
// changes; a server without the policy is not.
func TestResyncBehindOtherChanges(t *testing.T) {
	for _, c := range []struct {
		name       string
		serverInfo map[string]any
		resyncs    int
	}{
		{"buf", map[string]any{"name": "buf-lsp", "version": "(fake)"}, 1},
		{"other", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, nil, nil)
			f.writeFiles(t, "b.go")
			script := map[string]any{"methods": map[string]any{
				"textDocument/didOpen":   map[string]any{"action": "none", "after": []any{f.publish("b.go", 0, "b")}},
				"textDocument/didChange": map[string]any{"action": "none", "after": []any{f.publish("b.go", 0, "b checked again")}},
			}}
			if c.serverInfo != nil {
				script["serverInfo"] = c.serverInfo
			}
			f.setScript(script)
			ctx := context.Background()
			err := f.session(ctx, func(ctx context.Context, s lspseam.Session) error {
				b, err := s.Open(ctx, "b.go")
				if err != nil {
					return err
				}
				if _, err := s.Diagnostics(ctx, b, lspseam.DiagnosticsOptions{Wait: checkWait(t)}); err != nil {
					return err
				}
				if _, err := s.Open(ctx, "a.go"); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() {}\n\n// changed\n"), 0o644); err != nil {
					return err
				}
				if _, err := s.Open(ctx, "a.go"); err != nil { // didChange: a content change
					return err
				}
				for range 2 {
					rep, err := s.Diagnostics(ctx, b, lspseam.DiagnosticsOptions{Wait: checkWait(t)})
					if err != nil {
						return err
					}
					if !rep.Fresh {
						t.Errorf("b.go's report not fresh: %+v", rep)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			resyncs := 0
			for _, e := range f.events() {
				if e.Event == "recv" && e.Method == "textDocument/didChange" && strings.Contains(string(e.Params), "/b.go") {
					resyncs++
					if !strings.Contains(string(e.Params), `"version":2`) || !strings.Contains(string(e.Params), `func B() {}`) {
						t.Errorf("the re-sync is not b.go's text at its next version: %s", e.Params)
					}
				}
			}
			if resyncs != c.resyncs {
				t.Errorf("b.go re-synced %d times, want %d", resyncs, c.resyncs)
			}
			f.noViolations()
		})
	}
}
