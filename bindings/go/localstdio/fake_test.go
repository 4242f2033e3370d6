package localstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

// Test support for the fault tests: the scripted fake language server
// (internal/fakelsp) built once, providers configured to run it, its event
// log, and counts of live processes and goroutines.

var (
	testCoreOnce sync.Once
	testCore     *lspseam.Core
)

// TestMain runs the tests in internal/testenv's environment: one build of
// the fake server, one compilation cache for the process.
func TestMain(m *testing.M) { testenv.Main(m) }

// buildFake is the fake server's binary, built once per test process.
func buildFake(t testing.TB) string {
	t.Helper()
	return testenv.FakeLSP(t)
}

func sharedCore(t testing.TB) *lspseam.Core {
	testCoreOnce.Do(func() {
		var err error
		if testCore, err = lspseam.NewCore(context.Background()); err != nil {
			panic(err)
		}
	})
	return testCore
}

// fake is one fake-server setup: a script file (rewritable between
// processes), an event log, a workspace and a provider running it.
type fake struct {
	t      testing.TB
	script string
	log    string
	ws     string
	p      *Provider
	// cleanPull: setScript gives the script cleanPull's diagnostics.
	cleanPull bool
}

// newFake configures a provider for the fake server. extra is merged into
// the server's config (JSON object fields).
func newFake(t testing.TB, script map[string]any, extra map[string]any) *fake {
	t.Helper()
	return newFakeEnv(t, script, extra, append(os.Environ(), "MY_API_KEY=k", "DB_PASSWORD=p", "CLIENT_SECRET=s", "GH_TOKEN=t", "LSPSEAM_DEBUG=1", "PLAIN_VAR=kept"))
}

// newFakeEnv is newFake with the host environment the server's is built
// from.
func newFakeEnv(t testing.TB, script map[string]any, extra map[string]any, hostEnv []string) *fake {
	t.Helper()
	bin := buildFake(t)
	dir := t.TempDir()
	f := &fake{t: t, script: filepath.Join(dir, "script.json"), log: filepath.Join(dir, "events.jsonl"), ws: filepath.Join(dir, "ws")}
	f.setScript(script)
	os.Mkdir(f.ws, 0o755)
	os.WriteFile(filepath.Join(f.ws, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(f.ws, "b.go"), []byte("package a\n\nfunc B() { A() }\n"), 0o644)
	server := map[string]any{
		"command": bin, "args": []string{"--script", f.script, "--log", f.log},
		"extensionToLanguage": map[string]string{".go": "go"},
		"killGraceMs":         300, "shutdownTimeoutMs": 1000, "settleMs": 0,
	}
	for k, v := range extra {
		server[k] = v
	}
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"fake": server}})
	servers, _, err := Load(context.Background(), sharedCore(t), cfg, hostEnv)
	if err != nil {
		t.Fatal(err)
	}
	f.p = NewProvider(sharedCore(t), servers[0])
	t.Cleanup(func() { f.p.Close(context.Background()) })
	return f
}

// cleanPull is script with pulled diagnostics that are always none, for
// a test of a change that is not about its diagnostics: the change's
// check is answered at once, where a server that pushes no report makes
// it wait out each of its waits (3 s).
func cleanPull(script map[string]any) map[string]any {
	out := maps.Clone(script)
	caps, _ := out["capabilities"].(map[string]any)
	caps = maps.Clone(caps)
	if caps == nil {
		caps = map[string]any{}
	}
	caps["diagnosticProvider"] = map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}
	methods, _ := out["methods"].(map[string]any)
	methods = maps.Clone(methods)
	if methods == nil {
		methods = map[string]any{}
	}
	methods["textDocument/diagnostic"] = map[string]any{"result": map[string]any{"kind": "full", "items": []any{}}}
	out["capabilities"], out["methods"] = caps, methods
	return out
}

func (f *fake) setScript(script map[string]any) {
	if f.cleanPull {
		script = cleanPull(script)
	}
	data, _ := json.Marshal(script)
	if err := os.WriteFile(f.script, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fake) query(ctx context.Context, op lspseam.Operation, file string) (lspseam.Result, error) {
	return f.p.Query(ctx, lspseam.ProviderQuery{
		QueryRequest: lspseam.QueryRequest{Operation: op, FilePath: file, Position: lspseam.Position{Line: 2, Character: 5}, WorkspaceRoot: f.ws},
		LanguageID:   "go",
	})
}

func (f *fake) mustQuery(op lspseam.Operation) lspseam.Result {
	f.t.Helper()
	res, err := f.query(context.Background(), op, "a.go")
	if err != nil {
		f.t.Fatalf("%s: %v", op, err)
	}
	return res
}

// event is one line of the fake's log.
type event struct {
	PID        int             `json:"pid"`
	PPID       int             `json:"ppid"`
	Event      string          `json:"event"`
	Kind       string          `json:"kind"`
	Method     string          `json:"method"`
	ID         json.RawMessage `json:"id"`
	ResponseTo string          `json:"responseTo"`
	Result     json.RawMessage `json:"result"`
	Params     json.RawMessage `json:"params"`
	Env        map[string]string
	Violation  string `json:"violation"`
	Cwd        string `json:"cwd"`
	Signal     string `json:"signal"`
}

func (f *fake) events() []event {
	f.t.Helper()
	data, err := os.ReadFile(f.log)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		f.t.Fatal(err)
	}
	// A line still being written (no newline yet) is read next time: the
	// fake writes while a test polls.
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	var out []event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			f.t.Fatalf("bad log line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

// pids returns the pids that started, in order.
func (f *fake) pids() []int {
	var pids []int
	for _, e := range f.events() {
		if e.Event == "start" {
			pids = append(pids, e.PID)
		}
	}
	return pids
}

// received counts received messages with a method.
func (f *fake) received(method string) int {
	n := 0
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == method {
			n++
		}
	}
	return n
}

// requestIDs returns the ids of the received requests with method, in
// order.
func (f *fake) requestIDs(method string) []string {
	var ids []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Kind == "request" && e.Method == method {
			ids = append(ids, string(e.ID))
		}
	}
	return ids
}

// cancelledIDs returns the ids named by the received $/cancelRequest
// notifications, in order.
func (f *fake) cancelledIDs() []string {
	f.t.Helper()
	var ids []string
	for _, e := range f.events() {
		if e.Event == "recv" && e.Method == "$/cancelRequest" {
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(e.Params, &p); err != nil {
				f.t.Fatalf("$/cancelRequest params %s: %v", e.Params, err)
			}
			ids = append(ids, string(p.ID))
		}
	}
	return ids
}

func (f *fake) noViolations() {
	f.t.Helper()
	for _, e := range f.events() {
		if e.Event == "violation" {
			f.t.Errorf("fake server saw a protocol violation: %+v", e)
		}
	}
}

// liveFakes counts running fakelsp processes (any test's).
func liveFakes(t testing.TB) int {
	t.Helper()
	bin := buildFake(t)
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.HasPrefix(string(cmdline), bin+"\x00") {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(stat), ") Z ") {
			continue // a zombie is not running; its parent will reap it
		}
		n++
	}
	return n
}

// waitFor polls cond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}

// checkQuiescent asserts that no fake process and no extra goroutine is
// left once the provider is closed.
func checkQuiescent(t *testing.T, f *fake, goroutinesBefore int) {
	t.Helper()
	if err := f.p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !waitFor(3*time.Second, func() bool { return liveFakes(t) == 0 }) {
		t.Errorf("%d fake server processes left after Close", liveFakes(t))
	}
	if !waitFor(3*time.Second, func() bool { return runtime.NumGoroutine() <= goroutinesBefore }) {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("%d goroutines after Close, %d before:\n%s", runtime.NumGoroutine(), goroutinesBefore, buf[:n])
	}
}
