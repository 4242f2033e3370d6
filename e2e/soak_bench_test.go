package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkSoak is `make soak` (not part of make test): one serve, 8
// workspaces on the fake server, 4,000 mixed queries with 8 in flight —
// definitions, hovers, references, and queries that must fail (a missing
// file, an extension nobody serves). It reports wrong answers and
// unexpected errors (both must be 0), p50/p99 latency, the shim's RSS and
// open file descriptors before and after, and the fake servers left
// running after shutdown (must be 0).
func BenchmarkSoak(b *testing.B) {
	s := newFakeSetup(b, map[string]any{"methods": map[string]any{
		"textDocument/definition": map[string]any{"result": "$echoPosition"},
		"textDocument/references": map[string]any{"result": "$echoPosition"},
		"textDocument/hover":      map[string]any{"result": "$echoPosition"},
	}}, 8)
	c := startServe(b, s.cfg)
	for _, ws := range s.workspaces {
		if _, err := fakeQuery(c, ws, 0); err != nil {
			b.Fatal(err)
		}
	}
	pid := c.cmd.Process.Pid
	rss0, fds0 := vmRSS(b, pid), openFDs(b, pid)
	const inFlight = 8
	total := 4000
	if n, err := strconv.Atoi(os.Getenv("LSPSEAM_SOAK_QUERIES")); err == nil && n > 0 {
		total = n // a longer soak: LSPSEAM_SOAK_QUERIES=20000 make soak
	}
	ops := []string{"goToDefinition", "findReferences", "hover"}
	var mu sync.Mutex
	var lat []time.Duration
	wrong, unexpected := 0, 0
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range inFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				ws := s.workspaces[i%len(s.workspaces)]
				file := fmt.Sprintf("f%d.go", i%5)
				wantErr := ""
				switch i % 20 {
				case 7:
					file, wantErr = "missing.go", "LSP_SOURCE_REJECTED"
				case 13:
					file, wantErr = "notes.md", "LSP_UNAVAILABLE"
				}
				t0 := time.Now()
				res, rerr := c.query(expectation{Operation: ops[i%3], File: file, Line: 3, Character: 6}, ws)
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				switch {
				case wantErr != "" && (rerr == nil || rerr.Data.Code != wantErr):
					wrong++
				case wantErr == "" && rerr != nil:
					unexpected++
				case wantErr == "" && !containsAll(string(res), ws, file):
					wrong++
				}
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	for i := range total {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	rss1, fds1 := vmRSS(b, pid), openFDs(b, pid)
	c.shutdown(b)
	left := 0
	for _, e := range readFakeLog(b, s.log) {
		if e.Event == "start" {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", e.PID)); err == nil {
				left++
			}
		}
	}
	b.ReportMetric(float64(wrong), "wrong")
	b.ReportMetric(float64(unexpected), "errors")
	b.ReportMetric(float64(percentile(lat, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(total)/elapsed.Seconds(), "queries/s")
	b.ReportMetric(float64(rss0)/1024, "RSS-MB-start")
	b.ReportMetric(float64(rss1)/1024, "RSS-MB-end")
	b.ReportMetric(float64(fds0), "fds-start")
	b.ReportMetric(float64(fds1), "fds-end")
	b.ReportMetric(float64(left), "servers-left")
	if wrong+unexpected+left > 0 {
		b.Errorf("%d wrong answers, %d unexpected errors, %d servers left after shutdown", wrong, unexpected, left)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func openFDs(b testing.TB, pid int) int {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		b.Fatal(err)
	}
	return len(entries)
}
