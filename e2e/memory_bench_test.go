package e2e

import (
	"testing"
	"time"
)

// BenchmarkMCPMemory reports `lspseam mcp`'s own resident memory (VmRSS,
// gopls excluded) on the Go fixture at four moments of an agent session:
//
//   - start: the client has connected and listed the tools (the core
//     module is compiled: start-up validated the config through it);
//   - idle: after the core's idle release (lspseam.WithIdleRelease);
//   - query: right after a first hover answered by gopls (the core is
//     loaded again from the compilation cache);
//   - released: after the release that follows the query.
//
// The release delay is LSPSEAM_CORE_RELEASE_AFTER=1s here (30 s by
// default). Every sample is a fresh process; the compilation cache is
// warmed by a first process that is not sampled. The median of each is
// reported; at most five processes run, whatever -benchtime says.
func BenchmarkMCPMemory(b *testing.B) {
	ws, cfg, _ := goplsFixtureCopy(b)
	const releaseAfter = time.Second
	b.Setenv("LSPSEAM_CACHE_DIR", b.TempDir())
	b.Setenv("LSPSEAM_CORE_RELEASE_AFTER", releaseAfter.String())
	// Long enough for the release, the collection after it and the
	// finalizer that unmaps the machine code.
	settle := func() { time.Sleep(releaseAfter + 2*time.Second) }
	hover := map[string]any{"operation": "hover", "file_path": "cmd/shapes/main.go", "line": 23, "character": 17}
	want := []string{"func sh.Describe(s sh.Shape) string"}

	warm := startMCPSide(b, "lspseam", ws, shimPath, "mcp", "--workspace", ws, "--config", cfg)
	warm.cs.Close()

	var start, idle, query, released, server []float64
	for i := 0; i < min(b.N, 5); i++ {
		s := startMCPSide(b, "lspseam", ws, shimPath, "mcp", "--workspace", ws, "--config", cfg)
		start = append(start, mb(vmRSS(b, s.pid())))
		settle()
		idle = append(idle, mb(vmRSS(b, s.pid())))
		text, err := s.call("lsp", hover)
		for try := 0; err == nil && mentionsAll(text, want) != nil && try < 30; try++ {
			time.Sleep(200 * time.Millisecond) // gopls still loading
			text, err = s.call("lsp", hover)
		}
		if err == nil {
			err = mentionsAll(text, want)
		}
		if err != nil {
			s.fail(b, "hover", err)
		}
		query = append(query, mb(vmRSS(b, s.pid())))
		// gopls may have started its telemetry child: count it with gopls.
		kb, n := childRSS(b, s.pid(), "gopls")
		if n == 0 {
			b.Fatal("lspseam mcp answered without a gopls process")
		}
		server = append(server, mb(kb))
		settle()
		released = append(released, mb(vmRSS(b, s.pid())))
		s.cs.Close()
	}
	b.ReportMetric(median(start), "start-MB")
	b.ReportMetric(median(idle), "idle-MB")
	b.ReportMetric(median(query), "query-MB")
	b.ReportMetric(median(released), "released-MB")
	b.ReportMetric(median(server), "gopls-MB")
}

func mb(kb int64) float64 { return float64(kb) / 1024 }
