package e2e

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// BenchmarkNavigateByName measures what naming a symbol costs: a warm
// by-name code_navigate references call (Toolbox: target resolution
// against the file's outline, references, snippets read and rendered, the
// enclosing symbol of each location) against the raw round trips a caller
// that knew the position would still make for the same answer —
// documentSymbol and references — in a session on the same gopls
// connection. One call of each in turn; it reports the ratio of medians,
// and the module's share: the core calls of one by-name call replayed on
// the answers gopls gave.
func BenchmarkNavigateByName(b *testing.B) {
	gopls := filepath.Join(toolsBin, "gopls")
	if _, err := os.Stat(gopls); err != nil {
		b.Fatalf("gopls missing: run make servers (%v)", err)
	}
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	cfg := []byte(`{"servers":{"gopls":{"command":` + strconvQuote(gopls) + `,"extensionToLanguage":{".go":"go"}}}}`)
	table, err := localstdio.LoadConfig(ctx, c, cfg, localstdio.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	svc := lspseam.NewService(c)
	local, err := localstdio.StartTable(ctx, c, svc, table, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer local.Close(ctx)
	tb, err := lspseam.NewToolbox(ctx, c, svc)
	if err != nil {
		b.Fatal(err)
	}
	ws, _ := localstdio.CanonicalWorkspace(workspaceDir("go"))
	args := json.RawMessage(`{"target":{"path":"shape.go","symbol":"Describe"},"kind":"references"}`)
	byName := func() {
		if r := tb.Call(ctx, "code_navigate", args, ws.Path); r.IsError || !strings.Contains(string(r.Structured), `"totalFound":3`) {
			b.Fatalf("code_navigate: %s", r.Structured)
		}
	}
	var symbols, refs json.RawMessage
	var text string
	raw := func() {
		err := svc.Session(ctx, "shape.go", ws.Path, func(ctx context.Context, s lspseam.Session) error {
			f, err := s.Open(ctx, "shape.go")
			if err != nil {
				return err
			}
			td := json.RawMessage(`{"textDocument":{"uri":"` + f.URI + `"}`)
			if symbols, err = s.Request(ctx, "textDocument/documentSymbol", json.RawMessage(string(td)+"}")); err != nil {
				return err
			}
			refs, err = s.Request(ctx, "textDocument/references", json.RawMessage(string(td)+`,"position":{"line":14,"character":5},"context":{"includeDeclaration":true}}`))
			text = f.Text
			return err
		})
		if err != nil || !strings.Contains(string(refs), "report.go") {
			b.Fatalf("raw: %v %s", err, refs)
		}
	}
	clients := []func(){byName, raw}
	for i := 0; i < 20; i++ {
		for _, f := range clients {
			f()
		}
	}
	times := make([][]time.Duration, len(clients))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range clients {
			k := (i + j) % len(clients)
			time.Sleep(20 * time.Millisecond) // let the server go idle
			t0 := time.Now()
			clients[k]()
			times[k] = append(times[k], time.Since(t0))
		}
	}
	b.StopTimer()
	n, r := percentile(times[0], 0.5), percentile(times[1], 0.5)
	b.ReportMetric(float64(n)/float64(r), "byname/raw-p50")
	b.ReportMetric(float64(n.Microseconds()), "byname-p50-µs")
	b.ReportMetric(float64(r.Microseconds()), "raw-p50-µs")

	// The module's share of one by-name call, on the answers above.
	wsURI := ws.URI
	files := map[string]string{}
	var locs []struct {
		URI string `json:"uri"`
	}
	json.Unmarshal(refs, &locs)
	for _, l := range locs {
		p, _ := strings.CutPrefix(l.URI, "file://")
		data, _ := os.ReadFile(p)
		files[l.URI] = string(data)
	}
	calls := []struct {
		method string
		input  any
	}{
		{"parseCodeArgs", map[string]any{"name": "code_navigate", "arguments": args}},
		{"codeRequest", map[string]any{"method": "textDocument/documentSymbol", "uri": wsURI + "/shape.go"}},
		{"resolveTarget", map[string]any{"target": map[string]string{"path": "shape.go", "symbol": "Describe"}, "text": text, "symbols": symbols}},
		{"codeRequest", map[string]any{"method": "textDocument/references", "uri": wsURI + "/shape.go", "position": map[string]int{"line": 14, "character": 5}}},
		{"planSnippets", map[string]any{"locations": refs, "workspaceUri": wsURI}}, // symbols only for bodies
		{"codeLocations", map[string]any{"locations": refs, "workspaceUri": wsURI, "symbols": map[string]json.RawMessage{wsURI + "/shape.go": symbols}, "files": files, "subject": "Target: `Describe`"}},
	}
	inputs := make([][]byte, len(calls))
	for i, call := range calls {
		inputs[i], _ = json.Marshal(call.input)
	}
	const rounds = 200
	t0 := time.Now()
	for i := 0; i < rounds; i++ {
		for j, call := range calls {
			out, err := c.Call(ctx, call.method, inputs[j])
			if err != nil || !strings.HasPrefix(string(out), `{"ok":`) {
				b.Fatalf("%s: %v %s", call.method, err, out)
			}
		}
	}
	module := time.Since(t0) / rounds
	for j, call := range calls {
		t1 := time.Now()
		for i := 0; i < rounds; i++ {
			c.Call(ctx, call.method, inputs[j])
		}
		b.Logf("module: %s %v per call (%d input bytes)", call.method, time.Since(t1)/rounds, len(inputs[j]))
	}
	b.ReportMetric(float64(module.Microseconds()), "module-per-call-µs")
	b.ReportMetric(float64(module)/float64(n), "module/byname")
}

func strconvQuote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
