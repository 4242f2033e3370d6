package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/internal/gocorpus"
)

// catalogBench is a Toolbox on gopls whose core reports every ABI call,
// so a benchmark can tell the module's share of a tool call.
type catalogBench struct {
	core  *lspseam.Core
	svc   *lspseam.Service
	tb    *toolbox.Toolbox
	large string // the generated workspace (internal/gocorpus)
	corp  gocorpus.Workspace

	mu     sync.Mutex
	calls  []lspseam.CallTrace // since the last take
	record bool
}

func (cb *catalogBench) observe(t lspseam.CallTrace) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	if cb.record {
		t.Input = nil
		cb.calls = append(cb.calls, t)
	}
}

// traced runs f while recording the core's calls and returns them.
func (cb *catalogBench) traced(f func()) []lspseam.CallTrace {
	cb.mu.Lock()
	cb.calls, cb.record = nil, true
	cb.mu.Unlock()
	f()
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.record = false
	return cb.calls
}

func newCatalogBench(b testing.TB) *catalogBench {
	requireServers(b, "gopls")
	gopls := filepath.Join(toolsBin, "gopls")
	ctx := context.Background()
	cb := &catalogBench{}
	c, err := lspseam.NewCore(ctx, lspseam.WithCallTrace(cb.observe))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close(ctx) })
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
	b.Cleanup(func() { local.Close(ctx) })
	tb, err := toolbox.NewToolbox(ctx, c, svc)
	if err != nil {
		b.Fatal(err)
	}
	cb.core, cb.svc, cb.tb = c, svc, tb
	cb.corp = gocorpus.Generate()
	cb.large = b.TempDir()
	for _, f := range cb.corp.Files {
		if err := os.WriteFile(filepath.Join(cb.large, f.Path), []byte(f.Text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return cb
}

// symbolPos is the zero-based position of a generated symbol's name, as
// gopls gives it ("(*Command).Name" for Command.Name).
func (cb *catalogBench) symbolPos(b testing.TB, path, name string) (line, char int) {
	for _, f := range cb.corp.Files {
		if f.Path != path {
			continue
		}
		for _, s := range f.Symbols {
			if s.Name == name {
				return s.SelectionRange.Start.Line, s.SelectionRange.Start.Character
			}
		}
	}
	b.Fatalf("no symbol %s in %s", name, path)
	return 0, 0
}

// compare times two clients of the same answer, one call of each in
// turn (which goes first alternates), after 20 warm-up rounds, and
// reports the medians and their ratio. The first client's core calls are
// recorded each time: the module's share is the median of their sum.
func (cb *catalogBench) compare(b *testing.B, toolName, rawName string, tool, raw func()) {
	clients := []func(){tool, raw}
	for i := 0; i < 20; i++ {
		for _, f := range clients {
			f()
		}
	}
	times := make([][]time.Duration, len(clients))
	var module []time.Duration
	var last []lspseam.CallTrace
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range clients {
			k := (i + j) % len(clients)
			time.Sleep(20 * time.Millisecond) // let the server go idle
			var d time.Duration
			calls := cb.traced(func() {
				t0 := time.Now()
				clients[k]()
				d = time.Since(t0)
			})
			times[k] = append(times[k], d)
			if k == 0 {
				var sum time.Duration
				for _, c := range calls {
					sum += c.Duration
				}
				module = append(module, sum)
				last = calls
			}
		}
	}
	b.StopTimer()
	n, r, m := percentile(times[0], 0.5), percentile(times[1], 0.5), percentile(module, 0.5)
	b.ReportMetric(float64(n)/float64(r), toolName+"/"+rawName+"-p50")
	b.ReportMetric(float64(n.Microseconds()), toolName+"-p50-µs")
	b.ReportMetric(float64(r.Microseconds()), rawName+"-p50-µs")
	b.ReportMetric(float64(m.Microseconds()), "module-p50-µs")
	b.ReportMetric(float64(m)/float64(n), "module/"+toolName)
	in := 0
	for _, c := range last {
		in += c.InputBytes
		b.Logf("module: %s %v (%d input bytes, %d output bytes)", c.Method, c.Duration, c.InputBytes, c.OutputBytes)
	}
	b.ReportMetric(float64(in)/1000, "module-input-kB")
}

// BenchmarkNavigateByName measures what naming a symbol costs: a warm
// by-name code_navigate call (Toolbox: target resolution against the
// file's outline, the request, snippets read and rendered, the enclosing
// symbol of each location) against the raw round trips a caller that
// knew the position would still make for the same answer —
// documentSymbol and the request — in a session on the same gopls
// connection. It reports the ratio of medians, and the module's share:
// the time the by-name call spent in core calls, and the bytes it handed
// them.
//
//   - fixture/references: `Describe` in the Go fixture (2–4 KB files);
//   - large/references: Command.Name in a generated 2,000-line file
//     (internal/gocorpus), 79 references in 13 files;
//   - large/definition: Command.Execute's definition with its body
//     (150 lines) in the same file.
func BenchmarkNavigateByName(b *testing.B) {
	cb := newCatalogBench(b)
	fixture, _ := localstdio.CanonicalWorkspace(workspaceDir("go"))
	large, _ := localstdio.CanonicalWorkspace(cb.large)
	nameLine, nameChar := cb.symbolPos(b, gocorpus.LargeFile, "(*Command).Name")
	execLine, execChar := cb.symbolPos(b, gocorpus.LargeFile, "(*Command).Execute")
	cases := []struct {
		name, ws, path, args, want string
		method                     string
		line, char                 int
		rawWant                    string
	}{
		{"fixture/references", fixture.Path, "shape.go", `{"target":{"path":"shape.go","symbol":"Describe"},"kind":"references"}`, `"totalFound":3`,
			"references", 14, 5, "report.go"},
		{"large/references", large.Path, gocorpus.LargeFile, `{"target":{"path":"command.go","symbol":"Command.Name"},"kind":"references"}`, fmt.Sprintf(`"totalFound":%d`, len(cb.corp.NameRefs)),
			"references", nameLine, nameChar, "callers_11.go"},
		{"large/definition", large.Path, gocorpus.LargeFile, `{"target":{"path":"command.go","symbol":"Command.Execute"},"kind":"definition","includeBody":true}`, `"snippetLine":45`,
			"definition", execLine, execChar, "command.go"},
	}
	ctx := context.Background()
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			args := json.RawMessage(tc.args)
			byName := func() {
				if r := cb.tb.Call(ctx, "code_navigate", args, tc.ws); r.IsError || !strings.Contains(string(r.Structured), tc.want) {
					b.Fatalf("code_navigate: %.2000s", r.Structured)
				}
			}
			raw := func() {
				var result json.RawMessage
				err := cb.svc.Session(ctx, tc.path, tc.ws, func(ctx context.Context, s lspseam.Session) error {
					f, err := s.Open(ctx, tc.path)
					if err != nil {
						return err
					}
					td := `{"textDocument":{"uri":"` + f.URI + `"}`
					if _, err = s.Request(ctx, "textDocument/documentSymbol", json.RawMessage(td+"}")); err != nil {
						return err
					}
					params := fmt.Sprintf(`%s,"position":{"line":%d,"character":%d}`, td, tc.line, tc.char)
					if tc.method == "references" {
						params += `,"context":{"includeDeclaration":true}`
					}
					result, err = s.Request(ctx, "textDocument/"+tc.method, json.RawMessage(params+"}"))
					return err
				})
				if err != nil || !strings.Contains(string(result), tc.rawWant) {
					b.Fatalf("raw: %v %.500s", err, result)
				}
			}
			cb.compare(b, "byname", "raw", byName, raw)
		})
	}
}

// BenchmarkLSPHover measures the lsp tool's hover (parse the arguments,
// check the position against the file, hover, render) against the raw
// hover round trip on the same gopls connection, in a ~100-line and a
// 2,000-line generated file, at a call of Name near each file's end (a
// position check that reads the file from its start goes furthest).
func BenchmarkLSPHover(b *testing.B) {
	cb := newCatalogBench(b)
	large, _ := localstdio.CanonicalWorkspace(cb.large)
	last := map[string]gocorpus.Location{}
	for _, l := range cb.corp.NameRefs {
		last[l.URI] = l
	}
	ctx := context.Background()
	for _, path := range []string{"callers_11.go", gocorpus.LargeFile} {
		lines := 0
		for _, f := range cb.corp.Files {
			if f.Path == path {
				lines = strings.Count(f.Text, "\n")
			}
		}
		at := last[path].Range.Start
		b.Run(fmt.Sprintf("%d-lines", lines), func(b *testing.B) {
			args := json.RawMessage(fmt.Sprintf(`{"operation":"hover","file_path":%q,"line":%d,"character":%d}`, path, at.Line+1, at.Character+1))
			tool := func() {
				if r := cb.tb.Call(ctx, "lsp", args, large.Path); r.IsError || !strings.Contains(r.Text, "func (c *Command) Name() string") {
					b.Fatalf("lsp hover: %s", r.Text)
				}
			}
			raw := func() {
				var result json.RawMessage
				err := cb.svc.Session(ctx, path, large.Path, func(ctx context.Context, s lspseam.Session) error {
					f, err := s.Open(ctx, path)
					if err != nil {
						return err
					}
					result, err = s.Request(ctx, "textDocument/hover", json.RawMessage(fmt.Sprintf(`{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}`, f.URI, at.Line, at.Character)))
					return err
				})
				if err != nil || !strings.Contains(string(result), "Name() string") {
					b.Fatalf("raw hover: %v %s", err, result)
				}
			}
			cb.compare(b, "lsp", "raw", tool, raw)
		})
	}
}

func strconvQuote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
