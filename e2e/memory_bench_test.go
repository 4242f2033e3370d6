package e2e

import (
	"testing"
	"time"
)

// BenchmarkMCPMemory reports `lspseam mcp`'s resident memory — the shim
// plus the supervisor processes it starts for its language servers (gopls
// excluded, reported apart) — on the Go fixture at four moments of an
// agent session, and what the first call after an idle period costs
// against a warm one:
//
//   - start: the client has connected and listed the tools;
//   - idle: after the core's idle release (lspseam.WithIdleRelease);
//   - query: right after a hover answered by gopls (during use);
//   - released: after the release that follows the query;
//   - after-idle: a hover right after that release, against warm hovers
//     just before and after it (after-idle/warm ratio, and the difference
//     in ms, both from the same process in the same minute).
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

	var start, idle, query, released, server, supervisors []float64
	var ratio, extra []float64
	for i := 0; i < min(b.N, 5); i++ {
		s := startMCPSide(b, "lspseam", ws, shimPath, "mcp", "--workspace", ws, "--config", cfg)
		start = append(start, mb(shimTreeRSS(b, s.pid())))
		settle()
		idle = append(idle, mb(shimTreeRSS(b, s.pid())))
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
		query = append(query, mb(shimTreeRSS(b, s.pid())))
		// gopls may have started its telemetry child: count it with gopls.
		kb, n := childRSS(b, s.pid(), "gopls")
		if n == 0 {
			b.Fatal("lspseam mcp answered without a gopls process")
		}
		server = append(server, mb(kb))
		kb, _ = childRSS(b, s.pid(), "lspseam")
		supervisors = append(supervisors, mb(kb))
		timed := func() time.Duration {
			t0 := time.Now()
			text, err := s.call("lsp", hover)
			if err == nil {
				err = mentionsAll(text, want)
			}
			if err != nil {
				s.fail(b, "hover", err)
			}
			return time.Since(t0)
		}
		warmBefore := timed()
		settle()
		released = append(released, mb(shimTreeRSS(b, s.pid())))
		afterIdle := timed()
		warmAfter := timed()
		warmCall := (warmBefore + warmAfter) / 2
		ratio = append(ratio, float64(afterIdle)/float64(warmCall))
		extra = append(extra, float64(afterIdle-warmCall)/float64(time.Millisecond))
		s.cs.Close()
	}
	b.ReportMetric(median(start), "start-MB")
	b.ReportMetric(median(idle), "idle-MB")
	b.ReportMetric(median(query), "query-MB")
	b.ReportMetric(median(released), "released-MB")
	b.ReportMetric(median(supervisors), "supervisors-MB")
	b.ReportMetric(median(server), "gopls-MB")
	b.ReportMetric(median(ratio), "after-idle/warm")
	b.ReportMetric(median(extra), "after-idle-extra-ms")
}

// shimTreeRSS is the VmRSS in kB of the shim at pid plus its supervisors
// (descendants running the same binary), the memory lspseam itself holds
// for a session.
func shimTreeRSS(b *testing.B, pid int) int64 {
	kb, _ := childRSS(b, pid, "lspseam")
	return vmRSS(b, pid) + kb
}

func mb(kb int64) float64 { return float64(kb) / 1024 }
