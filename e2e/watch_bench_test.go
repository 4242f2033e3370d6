package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkWatchCost measures what watching workspaces costs the shim,
// against the fake server: the CPU time `lspseam serve` uses while idle
// with 10,000 watched files (it should be about zero: inotify wakes it
// only for changes), and its resident memory with 16 workspaces of 625
// files each open at once. One measurement per call, whatever b.N: the
// figures are levels, not per-operation costs.
func BenchmarkWatchCost(b *testing.B) {
	{
		big := newFakeSetup(b, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}, 1)
		fill(b, big.workspaces[0], 10_000)
		c := startServe(b, big.cfg)
		if _, err := fakeQuery(c, big.workspaces[0], 0); err != nil {
			b.Fatal(err)
		}
		pid := c.cmd.Process.Pid
		before := cpuTime(b, pid)
		time.Sleep(3 * time.Second)
		idle := cpuTime(b, pid) - before
		b.ReportMetric(float64(idle.Microseconds())/3000, "idle-CPU-ms/s-10k-files")
		c.cmd.Process.Kill()

		many := newFakeSetup(b, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}, 16)
		for _, ws := range many.workspaces {
			fill(b, ws, 625)
		}
		c = startServe(b, many.cfg)
		if _, err := fakeQuery(c, many.workspaces[0], 0); err != nil {
			b.Fatal(err)
		}
		one := vmRSS(b, c.cmd.Process.Pid)
		for _, ws := range many.workspaces[1:] {
			if _, err := fakeQuery(c, ws, 0); err != nil {
				b.Fatal(err)
			}
		}
		all := vmRSS(b, c.cmd.Process.Pid)
		b.ReportMetric(float64(one)/1024, "RSS-MB-1-workspace")
		b.ReportMetric(float64(all)/1024, "RSS-MB-16-workspaces")
		c.cmd.Process.Kill()
	}
}

// fill adds n small Go files to ws, 100 per directory.
func fill(b *testing.B, ws string, n int) {
	for i := range n {
		dir := filepath.Join(ws, "gen", fmt.Sprintf("d%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte("package gen\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is a process's user + system CPU time, from /proc/PID/stat.
func cpuTime(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// Fields after the command name (which may contain spaces): state is
	// field 3, utime 14 and stime 15, in clock ticks (100 per second).
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
