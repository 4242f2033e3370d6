package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkLanguageCold, per rows file of testdata/workspaces/languages:
// the time from a fresh `lspseam serve` to the first complete answer of
// the file's first case (the server started cold: its start, its loading
// and the query), and the resident memory of the language server's
// process tree on its fixture after every case has run. Run with
// -benchtime 1x (each iteration starts a server).
func BenchmarkLanguageCold(b *testing.B) {
	for _, r := range loadLanguageRows(b) {
		b.Run(strings.TrimSuffix(r.file, ".json"), func(b *testing.B) {
			args := languageSetup(b, r)
			var first time.Duration
			var rss int64
			for range b.N {
				dir := copyFixture(b, r.Workspace)
				srv := languageServe(b, args)
				start := time.Now()
				c := r.Cases[0]
				for {
					a := srv.toolCall(b, c.Tool, c.Arguments, dir)
					if incomplete(a.StructuredContent) == "" || time.Since(start) > time.Minute {
						break
					}
				}
				first += time.Since(start)
				for _, c := range r.Cases[1:] {
					srv.toolCall(b, c.Tool, c.Arguments, dir)
				}
				rss += serverTreeRSS(b, srv.cmd.Process.Pid)
				srv.shutdown(b)
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/first-answer")
			b.ReportMetric(float64(rss)/float64(b.N)/(1<<20), "MB-server-RSS")
		})
	}
}

// serverTreeRSS sums the resident memory of the processes below pid
// except lspseam's own (the shim and its supervisors): the language
// server and whatever it started (tsserver, a Node worker).
func serverTreeRSS(b testing.TB, pid int) int64 {
	children := map[int][]int{}
	comm := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after
		// its closing parenthesis.
		s := string(stat)
		close := strings.LastIndexByte(s, ')')
		open := strings.IndexByte(s, '(')
		if close < 0 || open < 0 {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		children[ppid] = append(children[ppid], p)
		comm[p] = s[open+1 : close]
	}
	var total int64
	var walk func(p int)
	walk = func(p int) {
		for _, c := range children[p] {
			if comm[c] != "lspseam" {
				total += vmRSS(b, c) << 10
			}
			walk(c)
		}
	}
	walk(pid)
	return total
}
