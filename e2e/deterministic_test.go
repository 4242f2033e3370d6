package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/internal/gocorpus"
)

// TestByNameDeterministic: a by-name answer spanning more files than any
// bound on the outlines asked for (13 here) is the same text on the first
// call, with nothing cached, as on the next ones, and names the enclosing
// function of a location in the last file too.
func TestByNameDeterministic(t *testing.T) {
	cb := newCatalogBench(t) // a fresh Toolbox: no outline cached
	ws, _ := localstdio.CanonicalWorkspace(cb.large)
	args := json.RawMessage(`{"target":{"path":"command.go","symbol":"Command.Name"},"kind":"references"}`)
	ctx := context.Background()
	first := cb.tb.Call(ctx, "code_navigate", args, ws.Path)
	if first.IsError {
		t.Fatalf("code_navigate: %s", first.Text)
	}
	if n := strings.Count(first.Text, "\ncallers_"); n != gocorpus.Callers {
		t.Fatalf("the answer spans %d caller files, want %d:\n%s", n, gocorpus.Callers, first.Text)
	}
	if !strings.Contains(first.Text, "(in Use11_0)") {
		t.Errorf("the first answer does not name the enclosing function in callers_11.go:\n%s", first.Text)
	}
	for i := 0; i < 2; i++ {
		again := cb.tb.Call(ctx, "code_navigate", args, ws.Path)
		if again.Text != first.Text || string(again.Structured) != string(first.Structured) {
			t.Fatalf("call %d answered differently from the first:\n%s\n--- first:\n%s", i+2, again.Text, first.Text)
		}
	}
}
