package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/internal/testenv"
)

// Serve mode against the scripted fake server (internal/fakelsp): many
// concurrent queries over two workspaces, and the latency lspseam adds.

// fakeSetup writes a fake-server script and a config, and makes n
// workspaces with a few files each.
type fakeSetup struct {
	cfg, log   string
	workspaces []string
}

func newFakeSetup(tb testing.TB, script map[string]any, n int) fakeSetup {
	tb.Helper()
	dir := tb.TempDir()
	s := fakeSetup{cfg: filepath.Join(dir, "cfg.json"), log: filepath.Join(dir, "events.jsonl")}
	scriptPath := filepath.Join(dir, "script.json")
	data, _ := json.Marshal(script)
	os.WriteFile(scriptPath, data, 0o644)
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": map[string]any{
		"command": fakePath, "args": []string{"--script", scriptPath, "--log", s.log},
		"extensionToLanguage": map[string]string{".go": "go"}, "settleMs": 0, "killGraceMs": 500,
	}}})
	os.WriteFile(s.cfg, cfg, 0o644)
	for i := 0; i < n; i++ {
		ws := filepath.Join(dir, fmt.Sprintf("ws%d", i))
		os.Mkdir(ws, 0o755)
		for j := 0; j < 5; j++ {
			os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.go", j)), []byte(fmt.Sprintf("package p\n\nfunc F%d() {} // line 3 is long enough for TestServeFIFO's 30 columns\n", j)), 0o644)
		}
		s.workspaces = append(s.workspaces, ws)
	}
	return s
}

type fakeEvent struct {
	PID       int             `json:"pid"`
	Event     string          `json:"event"`
	Method    string          `json:"method"`
	Violation string          `json:"violation"`
	Cwd       string          `json:"cwd"`
	ID        json.RawMessage `json:"id"`
	Params    json.RawMessage `json:"params"`
}

func readFakeLog(tb testing.TB, path string) []fakeEvent {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []fakeEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e fakeEvent
		json.Unmarshal(sc.Bytes(), &e)
		out = append(out, e)
	}
	return out
}

func fakeQuery(c *serveClient, ws string, i int) (json.RawMessage, *rpcError) {
	return c.query(expectation{Operation: "goToDefinition", File: fmt.Sprintf("f%d.go", i%5), Line: 3, Character: 6}, ws)
}

// TestServeConcurrentWorkspaces sends 2 workspaces × 50 queries at once
// through one serve process. The fake server records a violation for a
// request on a document that is not open or a change to one; there must be
// none, every answer must be for its own document, each workspace gets
// exactly one process, and each of the 5 documents per workspace is opened
// once and kept open (its bytes never change).
func TestServeConcurrentWorkspaces(t *testing.T) {
	s := newFakeSetup(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition", "delayMs": 3}}}, 2)
	c := startServe(t, s.cfg)
	var wg sync.WaitGroup
	for _, ws := range s.workspaces {
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func(ws string, i int) {
				defer wg.Done()
				res, rpcErr := fakeQuery(c, ws, i)
				if rpcErr != nil {
					t.Errorf("%s #%d: %+v", ws, i, rpcErr)
					return
				}
				want := fmt.Sprintf("/f%d.go", i%5)
				if !strings.Contains(string(res), filepath.Base(ws)+want) {
					t.Errorf("%s #%d: answer for another document: %s", ws, i, res)
				}
			}(ws, i)
		}
	}
	wg.Wait()
	c.shutdown(t)
	starts := map[string]int{}
	opens := 0
	for _, e := range readFakeLog(t, s.log) {
		switch {
		case e.Event == "violation":
			t.Errorf("fake server violation: %+v", e)
		case e.Event == "start":
			starts[e.Cwd]++
		case e.Event == "recv" && e.Method == "textDocument/didOpen":
			opens++
		}
	}
	if len(starts) != 2 || starts[s.workspaces[0]] != 1 || starts[s.workspaces[1]] != 1 {
		t.Errorf("processes per workspace: %v", starts)
	}
	if opens != 10 {
		t.Errorf("%d didOpen, want 10 (5 documents in each of 2 workspaces, each opened once)", opens)
	}
}

// BenchmarkAddedLatency measures a query through `lspseam serve` to a fake
// server that answers instantly: the whole round trip is lspseam's own cost
// (JSON-RPC both ways, selection, the freshness barrier, the source read
// and its verification against the open document, the core's module
// calls).
func BenchmarkAddedLatency(b *testing.B) {
	s := newFakeSetup(b, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}, 1)
	c := startServe(b, s.cfg)
	for i := 0; i < 50; i++ {
		if _, err := fakeQuery(c, s.workspaces[0], i); err != nil {
			b.Fatalf("warm-up query %d: %+v", i, err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := fakeQuery(c, s.workspaces[0], i); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(percentile(lat, 0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds()), "p99-µs")
}

// BenchmarkWorkspaceParallelism runs 20 queries of 20 ms each on one
// workspace, then 10 on each of two workspaces, concurrently, and reports
// the time ratio (two workspaces / one): near 0.5 when workspaces run in
// parallel, near 1 if they were serialized. Each iteration is one sample
// (one run of each); it reports the ratio of the totals and the median
// and largest per-iteration ratio. Any failed query fails the benchmark.
func BenchmarkWorkspaceParallelism(b *testing.B) {
	s := newFakeSetup(b, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition", "delayMs": 20}}}, 2)
	c := startServe(b, s.cfg)
	for _, ws := range s.workspaces {
		if _, err := fakeQuery(c, ws, 0); err != nil {
			b.Fatalf("warm-up query on %s: %+v", ws, err)
		}
	}
	run := func(spread bool) time.Duration {
		var wg sync.WaitGroup
		errs := make(chan string, 20)
		t0 := time.Now()
		for i := 0; i < 20; i++ {
			ws := s.workspaces[0]
			if spread && i%2 == 1 {
				ws = s.workspaces[1]
			}
			wg.Add(1)
			go func(ws string, i int) {
				defer wg.Done()
				if _, err := fakeQuery(c, ws, i); err != nil {
					errs <- fmt.Sprintf("%s #%d: %+v", ws, i, err)
				}
			}(ws, i)
		}
		wg.Wait()
		took := time.Since(t0)
		close(errs)
		for e := range errs {
			b.Fatal(e)
		}
		return took
	}
	var one, two time.Duration
	ratios := make([]float64, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o, t := run(false), run(true)
		one += o
		two += t
		ratios = append(ratios, float64(t)/float64(o))
	}
	b.ReportMetric(float64(two)/float64(one), "two/one")
	b.ReportMetric(median(ratios), "two/one-median")
	b.ReportMetric(slices.Max(ratios), "two/one-max")
}

// TestServeRefusesBadClientMessages: a request over maxRequestBytes is
// answered with an error without being read into memory, a body that is
// not JSON is answered with an error, and the session goes on.
func TestServeRefusesBadClientMessages(t *testing.T) {
	s := newFakeSetup(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition"}}}, 1)
	var cfg map[string]any
	data, _ := os.ReadFile(s.cfg)
	json.Unmarshal(data, &cfg)
	cfg["maxRequestBytes"] = 100_000
	data, _ = json.Marshal(cfg)
	os.WriteFile(s.cfg, data, 0o644)
	c := startServe(t, s.cfg)
	raw := c.sendBody
	answer := func(ch chan serveResponse) serveResponse { return awaitResponse(t, ch) }
	huge := fmt.Sprintf(`{"jsonrpc":"2.0","id":4242,"method":"lsp/query","params":{"filePath":"%s"}}`, strings.Repeat("x", 30<<20))
	if r := answer(raw(4242, huge)); r.Error == nil || !strings.Contains(r.Error.Message, "over maxRequestBytes 100000") {
		t.Fatalf("oversized request: %+v", r)
	}
	if r := answer(raw(4343, `{"jsonrpc":"2.0","id":4343,"method":"lsp/query","params":{`)); r.Error == nil || !strings.Contains(r.Error.Message, "not JSON-RPC") {
		t.Fatalf("malformed request: %+v", r)
	}
	// Messages whose id is not a string or an integer (fractional, null),
	// and batches, are answered with "id": null (read back here as id 0);
	// cmd/shim's TestServeIDsEchoedExactly checks the ids echoed as sent.
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1.5,"method":"lsp/query","params":{}}`,
		`{"jsonrpc":"2.0","id":null,"method":"lsp/query","params":{}}`,
		`[{"jsonrpc":"2.0","id":5,"method":"lsp/query"}]`,
	} {
		if r := answer(raw(0, body)); r.Error == nil || r.Error.Code != -32600 {
			t.Fatalf("%s: %+v", body, r)
		}
	}
	// A per-request timeoutMs past the timers' bound is refused, not
	// overflowed into an immediate timeout.
	r := answer(c.send("lsp/query", map[string]any{"operation": "goToDefinition", "filePath": "f0.go", "workspaceRoot": s.workspaces[0],
		"position": map[string]int{"line": 2, "character": 5}, "timeoutMs": 9_223_372_036_855}))
	if r.Error == nil || r.Error.Data.Code != "LSP_INVALID_ARGUMENT" || !strings.Contains(r.Error.Message, "timeoutMs") {
		t.Fatalf("huge timeoutMs: %+v", r)
	}
	if _, err := fakeQuery(c, s.workspaces[0], 0); err != nil {
		t.Fatalf("the session did not survive: %+v", err)
	}
	if rss := vmRSS(t, c.cmd.Process.Pid); rss > 200<<10 {
		t.Errorf("the shim holds %d KB after a 30 MB request it should not have buffered", rss)
	}
	c.shutdown(t)
}

// TestServeIDsAndCancellation: a second request with an id already in
// flight is refused; $/cancelRequest (here sent as a request, which is
// answered) cancels the query end to end — the language server receives
// its own $/cancelRequest; after shutdown, queries are refused.
func TestServeIDsAndCancellation(t *testing.T) {
	s := newFakeSetup(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"action": "hang"}}}, 1)
	c := startServe(t, s.cfg)
	// Requests with chosen ids (a duplicate among them).
	raw := func(id int, method string, params any) chan serveResponse {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		return c.sendBody(id, string(body))
	}
	answer := func(ch chan serveResponse) serveResponse { return awaitResponse(t, ch) }
	query := map[string]any{"operation": "goToDefinition", "filePath": "f0.go", "workspaceRoot": s.workspaces[0], "position": map[string]int{"line": 2, "character": 5}}
	raw(77, "lsp/query", query)
	// The first query hangs in the server; wait until the server has it.
	deadline := time.Now().Add(testenv.StepBudget(t))
	for !received(t, s.log, "textDocument/definition") {
		if time.Now().After(deadline) {
			t.Fatal("the query did not reach the server")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := answer(raw(77, "lsp/query", query)); r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "already in flight") {
		t.Fatalf("duplicate id: %+v", r)
	}
	first := c.expect(77)
	if r := answer(raw(78, "$/cancelRequest", map[string]any{"id": 77})); r.Error != nil {
		t.Fatalf("$/cancelRequest as a request: %+v", r)
	}
	if r := answer(first); r.Error == nil || r.Error.Data.Code != "LSP_CANCELLED" {
		t.Fatalf("cancelled query: %+v", r)
	}
	for !received(t, s.log, "$/cancelRequest") {
		if time.Now().After(deadline) {
			t.Fatal("the language server never received $/cancelRequest")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The cancel names the id of the definition request the server got.
	var definitionID, cancelledID string
	for _, e := range readFakeLog(t, s.log) {
		switch {
		case e.Event == "recv" && e.Method == "textDocument/definition":
			definitionID = string(e.ID)
		case e.Event == "recv" && e.Method == "$/cancelRequest":
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(e.Params, &p)
			cancelledID = string(p.ID)
		}
	}
	if definitionID == "" || cancelledID != definitionID {
		t.Fatalf("the server got textDocument/definition id %s but $/cancelRequest for id %s", definitionID, cancelledID)
	}
	if r := answer(raw(79, "shutdown", nil)); r.Error != nil {
		t.Fatalf("shutdown: %+v", r)
	}
	if r := answer(raw(80, "lsp/query", query)); r.Error == nil || r.Error.Code != -32600 {
		t.Fatalf("query after shutdown: %+v", r)
	}
}

// received reports whether the fake server's log has a received message
// with method.
func received(t *testing.T, log, method string) bool {
	if _, err := os.Stat(log); err != nil {
		return false
	}
	for _, e := range readFakeLog(t, log) {
		if e.Event == "recv" && e.Method == method {
			return true
		}
	}
	return false
}

// TestServeFIFO: 30 queries written at once to one workspace reach the
// language server in the order they were written (docs/shim.md promises a
// first-in, first-out queue per workspace).
func TestServeFIFO(t *testing.T) {
	s := newFakeSetup(t, map[string]any{"methods": map[string]any{"textDocument/definition": map[string]any{"result": "$echoPosition", "delayMs": 2}}}, 1)
	c := startServe(t, s.cfg)
	const n = 30
	chans := make([]chan serveResponse, n)
	for i := range chans { // character i marks query i
		chans[i] = c.send("lsp/query", map[string]any{"operation": "goToDefinition", "filePath": fmt.Sprintf("f%d.go", i%5),
			"workspaceRoot": s.workspaces[0], "position": map[string]int{"line": 2, "character": i}})
	}
	for i, ch := range chans {
		if r := awaitResponse(t, ch); r.Error != nil {
			t.Fatalf("query %d: %+v", i, r.Error)
		}
	}
	c.shutdown(t)
	var order []int
	for _, e := range readFakeLog(t, s.log) {
		if e.Event == "recv" && e.Method == "textDocument/definition" {
			var p struct {
				Position struct {
					Character int `json:"character"`
				} `json:"position"`
			}
			json.Unmarshal(e.Params, &p)
			order = append(order, p.Position.Character)
		}
	}
	inversions := 0
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			inversions++
		}
	}
	if len(order) != n || inversions > 0 {
		t.Fatalf("requests reached the server in the order %v (%d inversions)", order, inversions)
	}
}
