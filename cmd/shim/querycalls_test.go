package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// TestQueryModuleCalls counts the calls into the core one warm lsp tool
// query makes: each costs 250–350 µs after a pause such as the server's
// answer, so the count is part of the tool's speed. The answer is the
// same text as translate then render give (the core's
// TestTranslateRenderMatchesTwoCalls).
func TestQueryModuleCalls(t *testing.T) {
	f := newMCPFixture(t)
	ctx := context.Background()
	var mu sync.Mutex
	var calls []string
	c, err := lspseam.NewCore(ctx, lspseam.WithCallTrace(func(ct lspseam.CallTrace) {
		mu.Lock()
		calls = append(calls, ct.Method)
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	table, err := localstdio.LoadFile(ctx, c, f.config, loadOptions())
	if err != nil {
		t.Fatal(err)
	}
	service := lspseam.NewService(c)
	local, err := localstdio.StartTable(ctx, c, service, table, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close(ctx)
	h := &host{core: c, service: service, local: local, timeout: table.Config.TimeoutMs}
	args, _ := json.Marshal(map[string]any{"operation": "goToDefinition", "file_path": "a.go", "line": 5, "character": 14})
	var texts []string
	var made []string
	for i := 0; i < 2; i++ {
		mu.Lock()
		calls = nil
		mu.Unlock()
		var a toolAnswer
		a, err = h.toolCall(ctx, args, f.workspace, h.timeout, false)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		made = calls
		mu.Unlock()
		texts = append(texts, a.rendered.Text)
		// The text is render's for the result the caller got.
		want, err := c.Render(ctx, a.result, a.workspaceURI, lspseam.Limits{})
		if err != nil || want != a.rendered {
			t.Fatalf("rendered %+v, render of the result gives %+v (%v)", a.rendered, want, err)
		}
	}
	if texts[0] != texts[1] || texts[0] == "" {
		t.Fatalf("answers: %q", texts)
	}
	// The warm query: parse the arguments, build the request against the
	// line just read, translate and render the server's answer.
	if want := []string{"parseToolArgs", "request", "translateRender"}; !slices.Equal(made, want) {
		t.Errorf("a warm query made the module calls %v, want %v", made, want)
	}
}
