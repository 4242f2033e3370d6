package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkDaemonAgents measures what several agents on one workspace
// cost with the shared daemon (`lspseam mcp --daemon require`, issue 24)
// against as many standalone `lspseam mcp` processes and, when
// LSPSEAM_PEER_MCP names a built isaacphi/mcp-language-server, as many of
// the peer's, all on gopls and the same copy of the Go fixture:
//
//		LSPSEAM_PEER_MCP=/path/to/mcp-language-server \
//		  go test -run '^$' -bench BenchmarkDaemonAgents -benchtime 20x ./e2e/
//
//	  - rss: the memory of 1, 4 and 8 agents after one hover each: every
//	    MCP process the clients started, plus the daemon, its supervisors
//	    and its gopls (daemon), or each process's own supervisors and gopls
//	    (standalone, peer), as RSS and as PSS (shared pages divided among
//	    the processes sharing them); and what each agent after the first
//	    adds with the daemon.
//	  - relay: a warm hover through the relay against the same hover of a
//	    standalone process, alternated; the relay's added p50.
//	  - new-session: a new client's first call on the warm daemon (the
//	    hover after its handshake, and from its spawn), against a warm
//	    hover in an open session and a new standalone process's first
//	    answer.
//
// Every answer is checked.
func BenchmarkDaemonAgents(b *testing.B) {
	ws, cfg, _ := goplsFixtureCopy(b)
	runtime, err := os.MkdirTemp("", "lsdb")
	if err != nil {
		b.Fatal(err)
	}
	os.Chmod(runtime, 0o700)
	b.Setenv("LSPSEAM_RUNTIME_DIR", runtime)
	b.Cleanup(func() {
		exec.Command(shimPath, "daemon", "stop").Run()
		os.RemoveAll(runtime)
	})
	hover := map[string]any{"operation": "hover", "file_path": "cmd/shapes/main.go", "line": 23, "character": 17}
	hoverWant := []string{"func sh.Describe(s sh.Shape) string"}
	seamArgs := func(daemon string) []string {
		return []string{"mcp", "--workspace", ws, "--config", cfg, "--daemon", daemon}
	}
	ask := func(s *mcpSide) time.Duration {
		t0 := time.Now()
		text, err := s.call("lsp", hover)
		d := time.Since(t0)
		if err == nil {
			err = mentionsAll(text, hoverWant)
		}
		if err != nil {
			s.fail(b, "hover", err)
		}
		return d
	}
	// warm asks until gopls has loaded the workspace.
	warm := func(s *mcpSide) {
		for i := 0; ; i++ {
			text, err := s.call("lsp", hover)
			if err == nil && mentionsAll(text, hoverWant) == nil {
				return
			}
			if i == 100 {
				s.fail(b, "warm-up", err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	b.Run("rss", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
		}
		peerBin := os.Getenv("LSPSEAM_PEER_MCP")
		report := func(side string, n int, pids []int) (pss float64) {
			rssKB, pssKB := memOf(b, pids)
			b.ReportMetric(mb(rssKB), side+"-"+strconv.Itoa(n)+"-RSS-MB")
			b.ReportMetric(mb(pssKB), side+"-"+strconv.Itoa(n)+"-PSS-MB")
			return mb(pssKB)
		}
		// Every side's core comes from a warm compilation cache, as after
		// a first run: a daemon or process that compiled it holds the
		// compiler's memory for a while.
		warmCoreCache(b)
		counts := []int{1, 4, 8}
		// Agents join one at a time, as they do; measured when 1, 4 and
		// 8 have asked their first question.
		grow := func(side string, start func(j int) *mcpSide, pidsOf func([]*mcpSide) []int) []*mcpSide {
			var sides []*mcpSide
			var pss1 float64
			for j := 0; j < 8; j++ {
				sides = append(sides, start(j))
				if !slices.Contains(counts, j+1) {
					continue
				}
				time.Sleep(time.Second) // let the last call's garbage go
				pss := report(side, j+1, pidsOf(sides))
				if j == 0 {
					pss1 = pss
				} else {
					b.ReportMetric((pss-pss1)/float64(j), side+"-PSS-per-added-agent-"+strconv.Itoa(j+1)+"-MB")
				}
			}
			return sides
		}

		// Through the daemon: the relays, the daemon, its supervisors
		// and its gopls.
		relays := grow("daemon", func(j int) *mcpSide {
			s := startMCPSide(b, "relay"+strconv.Itoa(j), ws, shimPath, seamArgs("require")...)
			warm(s)
			return s
		}, func(sides []*mcpSide) []int {
			st := daemonStatus(b)
			pids := append(descendantsNamed(st.PID, "lspseam", "gopls"), st.PID)
			for _, s := range sides {
				pids = append(pids, s.pid())
			}
			return pids
		})
		st := daemonStatus(b)
		var relayPIDs []int
		for _, s := range relays {
			relayPIDs = append(relayPIDs, s.pid())
		}
		_, relaysKB := memOf(b, relayPIDs)
		_, daemonKB := memOf(b, []int{st.PID})
		_, serversKB := memOf(b, descendantsNamed(st.PID, "lspseam", "gopls"))
		b.ReportMetric(mb(relaysKB), "daemon-8-relays-PSS-MB")
		b.ReportMetric(mb(daemonKB), "daemon-8-daemon-PSS-MB")
		b.ReportMetric(mb(serversKB), "daemon-8-servers-PSS-MB")
		for _, s := range relays {
			s.cs.Close()
		}
		exec.Command(shimPath, "daemon", "stop").Run()

		// Standalone processes, each with its supervisors and gopls.
		alone := grow("standalone", func(j int) *mcpSide {
			s := startMCPSide(b, "standalone"+strconv.Itoa(j), ws, shimPath, seamArgs("off")...)
			warm(s)
			return s
		}, func(sides []*mcpSide) []int {
			var pids []int
			for _, s := range sides {
				pids = append(append(pids, s.pid()), descendantsNamed(s.pid(), "lspseam", "gopls")...)
			}
			return pids
		})
		for _, s := range alone {
			s.cs.Close()
		}

		if peerBin == "" {
			return
		}
		peers := grow("peer", func(j int) *mcpSide {
			s := startMCPSide(b, "peer"+strconv.Itoa(j), ws, peerBin, "--workspace", ws, "--lsp", filepath.Join(toolsBin, "gopls"))
			for k := 0; ; k++ {
				text, err := s.call("hover", map[string]any{"filePath": filepath.Join(ws, "cmd", "shapes", "main.go"), "line": 23, "column": 17})
				if err == nil && mentionsAll(text, hoverWant) == nil {
					return s
				}
				if k == 100 {
					s.fail(b, "warm-up", err)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}, func(sides []*mcpSide) []int {
			var pids []int
			for _, s := range sides {
				pids = append(append(pids, s.pid()), descendantsNamed(s.pid(), "gopls")...)
			}
			return pids
		})
		for _, s := range peers {
			s.cs.Close()
		}
	})

	b.Run("relay", func(b *testing.B) {
		relay := startMCPSide(b, "relay", ws, shimPath, seamArgs("require")...)
		direct := startMCPSide(b, "standalone", ws, shimPath, seamArgs("off")...)
		warm(relay)
		warm(direct)
		var r, d []time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			time.Sleep(20 * time.Millisecond)
			if i%2 == 0 {
				r = append(r, ask(relay))
				d = append(d, ask(direct))
			} else {
				d = append(d, ask(direct))
				r = append(r, ask(relay))
			}
		}
		b.StopTimer()
		rp, dp := percentile(r, 0.5), percentile(d, 0.5)
		b.ReportMetric(float64(rp)/1e6, "relay-p50-ms")
		b.ReportMetric(float64(dp)/1e6, "standalone-p50-ms")
		b.ReportMetric(float64(rp-dp)/1e6, "relay-added-ms")
	})

	b.Run("new-session", func(b *testing.B) {
		open := startMCPSide(b, "open", ws, shimPath, seamArgs("require")...)
		warm(open)
		var first, spawnToAnswer, warmCalls, alone []time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			time.Sleep(20 * time.Millisecond)
			warmCalls = append(warmCalls, ask(open))
			t0 := time.Now()
			s := startMCPSide(b, "new", ws, shimPath, seamArgs("require")...)
			first = append(first, ask(s))
			spawnToAnswer = append(spawnToAnswer, time.Since(t0))
			s.cs.Close()
			if i < 3 { // a standalone process's first answer: its own gopls loads
				t0 = time.Now()
				s = startMCPSide(b, "new-standalone", ws, shimPath, seamArgs("off")...)
				warm(s)
				alone = append(alone, time.Since(t0))
				s.cs.Close()
			}
		}
		b.StopTimer()
		fp, wp := percentile(first, 0.5), percentile(warmCalls, 0.5)
		b.ReportMetric(float64(fp)/1e6, "new-session-first-call-p50-ms")
		b.ReportMetric(float64(wp)/1e6, "warm-call-p50-ms")
		b.ReportMetric(float64(fp)/float64(wp), "first-call/warm")
		b.ReportMetric(float64(percentile(spawnToAnswer, 0.5))/1e6, "new-session-spawn-to-answer-p50-ms")
		b.ReportMetric(float64(percentile(alone, 0.5))/1e6, "new-standalone-first-answer-p50-ms")
	})
}

// daemonStatus is the one running daemon's `lspseam daemon status`.
func daemonStatus(b *testing.B) struct{ PID, Sessions int } {
	b.Helper()
	out, err := exec.Command(shimPath, "daemon", "status").Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var st struct{ PID, Sessions int }
	if err != nil || len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &st) != nil {
		b.Fatalf("daemon status: %v: %s", err, out)
	}
	return st
}

// warmCoreCache compiles the core into LSPSEAM_CACHE_DIR once (a
// standalone lspseam mcp's background compile) and waits for it.
func warmCoreCache(b *testing.B) {
	dir := os.Getenv("LSPSEAM_CACHE_DIR")
	compiled := func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "lspseam-core-*.compiled"))
		return len(m) > 0
	}
	if dir == "" || compiled() {
		return
	}
	s := startMCPSide(b, "warm-cache", repoRoot, shimPath, "mcp", "--daemon", "off", "--workspace", repoRoot, "--tools", "fs")
	defer s.cs.Close()
	for end := time.Now().Add(5 * time.Minute); !compiled(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			s.fail(b, "warming the core's cache", fmt.Errorf("no compiled module in %s", dir))
		}
	}
}

// descendantsNamed are pid's descendant processes whose name is one of
// names.
func descendantsNamed(pid int, names ...string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || !slices.Contains(names, strings.TrimSpace(string(comm))) {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(d))
		if isDescendant(pid, child) {
			pids = append(pids, child)
		}
	}
	return pids
}

// memOf sums the resident (RSS) and proportional (PSS: each shared page
// divided among the processes mapping it) memory of pids, in kB. RSS
// counts the lspseam executable's pages once per process that maps them;
// PSS counts them once in all, as the machine holds them.
func memOf(b *testing.B, pids []int) (rssKB, pssKB int64) {
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "Rss:":
				rssKB += kb
			case "Pss:":
				pssKB += kb
			}
		}
	}
	return rssKB, pssKB
}
