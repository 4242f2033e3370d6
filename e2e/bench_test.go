package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// Benchmarks of the shim against real servers (`make bench`). Each reports
// ratios or sizes measured in the same run; none asserts a time.

// directClient is the minimal LSP client the shim is compared with: the
// same requests to the same server, no seam.
type directClient struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	mu    sync.Mutex
	next  int
	reply map[int]chan json.RawMessage
}

func startDirect(b *testing.B, command string, args []string, dir string) *directClient {
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &directClient{cmd: cmd, in: in, out: bufio.NewReader(out), reply: map[int]chan json.RawMessage{}}
	go c.readLoop()
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return c
}

func (c *directClient) write(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	body, _ := json.Marshal(msg)
	c.mu.Lock()
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	c.mu.Unlock()
}

func (c *directClient) readLoop() {
	for {
		body, err := readFrame(c.out)
		if err != nil {
			return
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Result json.RawMessage  `json:"result"`
		}
		json.Unmarshal(body, &m)
		switch {
		case m.ID != nil && m.Method != "": // a server request: answer null
			c.write(map[string]any{"id": m.ID, "result": nil})
		case m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			ch := c.reply[id]
			delete(c.reply, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		}
	}
}

func (c *directClient) call(method string, params any) json.RawMessage {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.reply[id] = ch
	c.mu.Unlock()
	c.write(map[string]any{"id": id, "method": method, "params": params})
	return <-ch
}

// BenchmarkServeVsDirect measures warm per-query latency on gopls with the
// Go fixture through `lspseam serve` and through two direct clients on
// their own gopls: one that keeps the document open (what an editor does,
// and what lspseam's open-document cache does), one that opens and closes
// it around each query (the seed's transient open). One query of each in
// turn; it reports the ratios of medians.
func BenchmarkServeVsDirect(b *testing.B) {
	gopls := filepath.Join(toolsBin, "gopls")
	if _, err := os.Stat(gopls); err != nil {
		b.Fatalf("gopls missing: run make servers (%v)", err)
	}
	ws := workspaceDir("go")
	w, _ := localstdio.CanonicalWorkspace(ws)
	file := "cmd/shapes/main.go"
	text, _ := os.ReadFile(filepath.Join(ws, file))
	uri := localstdio.FileURI(filepath.Join(w.Path, file))
	open := map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)}}
	definition := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]int{"line": 22, "character": 16}}
	startGopls := func() *directClient {
		c := startDirect(b, gopls, nil, w.Path)
		c.call("initialize", map[string]any{"processId": nil, "rootUri": w.URI, "workspaceFolders": []any{map[string]any{"uri": w.URI, "name": "go"}},
			"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-16"}}}})
		c.write(map[string]any{"method": "initialized", "params": map[string]any{}})
		return c
	}
	transient := startGopls()
	transientQuery := func() {
		transient.write(map[string]any{"method": "textDocument/didOpen", "params": open})
		transient.call("textDocument/definition", definition)
		transient.write(map[string]any{"method": "textDocument/didClose", "params": map[string]any{"textDocument": map[string]any{"uri": uri}}})
	}
	kept := startGopls()
	kept.write(map[string]any{"method": "textDocument/didOpen", "params": open})
	keptQuery := func() { kept.call("textDocument/definition", definition) }

	cfg := filepath.Join(b.TempDir(), "cfg.yaml")
	os.WriteFile(cfg, []byte("servers:\n  gopls:\n    command: "+gopls+"\n    extensionToLanguage: {.go: go}\n"), 0o644)
	serve := startServe(b, cfg)
	row := expectation{ID: "bench", Operation: "goToDefinition", File: file, Line: 23, Character: 17}
	serveQuery := func() {
		if _, err := serve.query(row, ws); err != nil {
			b.Fatalf("serve: %+v", err)
		}
	}
	clients := []func(){serveQuery, keptQuery, transientQuery}
	for i := 0; i < 20; i++ { // warm all three
		for _, q := range clients {
			q()
		}
	}
	// Each server does background work after a query (diagnostics after
	// didOpen/didClose), and all share the machine's cores: rotate which
	// client goes first and, in the "idle" run, let the servers go idle
	// between queries, so no measurement pays for another's background
	// work. Going idle has a price of its own: on a virtual machine a
	// process that slept takes a few hundred microseconds to wake, and the
	// path through serve wakes one process more than a direct client. The
	// "back-to-back" run shows the ratio without that price.
	for _, gap := range []struct {
		name string
		d    time.Duration
	}{{"idle", 30 * time.Millisecond}, {"back-to-back", 0}} {
		b.Run(gap.name, func(b *testing.B) {
			timed := func(f func()) time.Duration {
				time.Sleep(gap.d)
				t0 := time.Now()
				f()
				return time.Since(t0)
			}
			times := make([][]time.Duration, len(clients))
			for i := 0; i < b.N; i++ {
				for j := range clients {
					k := (i + j) % len(clients)
					times[k] = append(times[k], timed(clients[k]))
				}
			}
			s, k, t := percentile(times[0], 0.5), percentile(times[1], 0.5), percentile(times[2], 0.5)
			b.ReportMetric(float64(s)/float64(k), "serve/kept-open-p50")
			b.ReportMetric(float64(s)/float64(t), "serve/transient-p50")
			b.ReportMetric(float64(s.Microseconds()), "serve-p50-µs")
			b.ReportMetric(float64(k.Microseconds()), "kept-open-p50-µs")
			b.ReportMetric(float64(t.Microseconds()), "transient-p50-µs")
		})
	}
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// timeAlternated runs each of sides b.N times, in turns, and returns each
// side's times: which side goes first rotates every rotateEvery
// iterations (2 keeps a break and its fix together), and pause, when not
// zero, comes before every call so that no side runs on the last one's
// leftovers. The timer is reset before and stopped after.
func timeAlternated(b *testing.B, sides []func(), rotateEvery int, pause time.Duration) [][]time.Duration {
	times := make([][]time.Duration, len(sides))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range sides {
			k := (i/rotateEvery + j) % len(sides)
			if pause > 0 {
				time.Sleep(pause)
			}
			t0 := time.Now()
			sides[k]()
			times[k] = append(times[k], time.Since(t0))
		}
	}
	b.StopTimer()
	return times
}

// BenchmarkShimMemory reports the shim's own resident memory (VmRSS of the
// lspseam process, servers excluded) with two servers running after a
// query on each: one sample per iteration (a fresh serve each time), the
// median and the largest reported.
func BenchmarkShimMemory(b *testing.B) {
	for _, n := range []string{"gopls", "clangd"} {
		if _, err := os.Stat(filepath.Join(toolsBin, n)); err != nil {
			b.Fatalf("%s missing: run make servers", n)
		}
	}
	cfg := filepath.Join(b.TempDir(), "cfg.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("servers:\n  gopls:\n    command: %s/gopls\n    extensionToLanguage: {.go: go}\n  clangd:\n    command: %s/clangd\n    extensionToLanguage: {.c: c, .h: c}\n", toolsBin, toolsBin)), 0o644)
	rows := []expectation{
		{ID: "go", Workspace: "go", Operation: "goToDefinition", File: "report.go", Line: 12, Character: 17, Locations: []string{"shape.go:15:6"}},
		{ID: "c", Workspace: "c", Operation: "goToDefinition", File: "report.c", Line: 11, Character: 39, Locations: []string{"shape.c:10:8"}},
	}
	samples := make([]float64, 0, b.N)
	for i := 0; i < b.N; i++ {
		serve := startServe(b, cfg)
		for _, row := range rows {
			res, rpcErr := serve.query(row, workspaceDir(row.Workspace))
			if rpcErr != nil {
				b.Fatalf("%s: %+v", row.ID, rpcErr)
			}
			text, err := renderResult(res, workspaceDir(row.Workspace))
			_, text, _ = splitSubject(text)
			if err != nil || text != row.Locations[0] {
				b.Fatalf("%s: answer %q (%v), want %q", row.ID, text, err, row.Locations[0])
			}
		}
		samples = append(samples, float64(vmRSS(b, serve.cmd.Process.Pid))/1024)
		serve.kill()
	}
	b.ReportMetric(median(samples), "shim-RSS-median-MB")
	b.ReportMetric(slices.Max(samples), "shim-RSS-max-MB")
}

// median returns the median of samples (the mean of the middle two for
// an even count).
func median(samples []float64) float64 {
	s := slices.Clone(samples)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func vmRSS(b testing.TB, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
