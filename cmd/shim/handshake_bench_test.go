package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPStartEmptyCache: `lspseam mcp` spawned with an empty
// compilation cache (the first run of a build), timed to its initialize
// response (the SDK client's Connect) and to the answer of its first
// tools/call (read, which needs the core but no language server), on the
// presets and with a --config file (validated before the handshake). With
// LSPSEAM_BENCH_BASELINE_BIN set to another lspseam binary (e.g. one built
// from main), both are run alternately in one run and the ratios
// reported. lspseam is built as `go build ./cmd/shim` builds it, so it
// carries its precompiled core when `make precompiled` has run (make
// bench runs it), as make build's does:
//
//	LSPSEAM_BENCH_BASELINE_BIN=/tmp/lspseam-main go test -run '^$' -bench '^BenchmarkMCPStartEmptyCache$' -benchtime 3x ./cmd/shim/
func BenchmarkMCPStartEmptyCache(b *testing.B) {
	tmp := b.TempDir()
	bin := testenv.Shim(b)
	bins := []struct{ name, path string }{{"lspseam", bin}}
	if base := os.Getenv("LSPSEAM_BENCH_BASELINE_BIN"); base != "" {
		bins = append(bins, struct{ name, path string }{"baseline", base})
	}
	ws := filepath.Join(tmp, "ws")
	writeFile(b, filepath.Join(ws, "a.go"), "package a\n\nfunc Hello() {}\n")
	config := filepath.Join(tmp, "lspseam.yaml")
	writeFile(b, config, "servers:\n  gopls:\n    command: gopls\n    optional: true\n    extensionToLanguage: {.go: go}\n")
	for _, mode := range []struct {
		name string
		args []string
	}{{"presets", nil}, {"config", []string{"--config", config}}} {
		b.Run(mode.name, func(b *testing.B) { benchmarkMCPStart(b, bins, tmp, ws, mode.args) })
	}
}

func benchmarkMCPStart(b *testing.B, bins []struct{ name, path string }, tmp, ws string, args []string) {
	initialize := map[string][]time.Duration{}
	firstCall := map[string][]time.Duration{}
	for i := 0; i < b.N; i++ {
		for _, bn := range bins {
			cmd := exec.Command(bn.path, append([]string{"mcp", "--workspace", ws, "--tools", "lsp,code,fs"}, args...)...)
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), "LSPSEAM_CACHE_DIR="+b.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			t0 := time.Now()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				b.Fatalf("%s: connect: %v", bn.name, err)
			}
			initialize[bn.name] = append(initialize[bn.name], time.Since(t0))
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"file_path": "a.go"}})
			if err != nil || res.IsError || !strings.Contains(resultText(res), "func Hello") {
				b.Fatalf("%s: read: %v %+v", bn.name, err, res)
			}
			firstCall[bn.name] = append(firstCall[bn.name], time.Since(t0))
			cs.Close()
			cancel()
		}
	}
	median := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	for _, bn := range bins {
		b.ReportMetric(float64(median(initialize[bn.name]))/1e6, bn.name+"-initialize-ms")
		b.ReportMetric(float64(median(firstCall[bn.name]))/1e6, bn.name+"-first-call-ms")
	}
	if len(bins) == 2 {
		b.ReportMetric(float64(median(initialize["lspseam"]))/float64(median(initialize["baseline"])), "initialize-ratio-to-baseline")
		b.ReportMetric(float64(median(firstCall["lspseam"]))/float64(median(firstCall["baseline"])), "first-call-ratio-to-baseline")
	}
}
