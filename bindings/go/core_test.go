package lspseam

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/casefile"
)

func newTestCore(t testing.TB, opts ...Option) *Core {
	t.Helper()
	c, err := NewCore(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// skipCompileUnderRace skips, under -race, a test whose cost there is
// compiling the module afresh (about a minute: wazero's compiler is
// instrumented too) and that checks nothing lspseam runs concurrently;
// the plain run (make test-go) runs it.
func skipCompileUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("compiles the module afresh and tests no concurrency: checked without -race")
	}
}

// TestParity runs every golden case through the embedded module and through
// the native core package: the envelopes must be byte-identical, and equal
// to the golden file.
func TestParity(t *testing.T) {
	c := newTestCore(t)
	dir := casefile.Dir("../..")
	cases, err := casefile.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	goldens := map[string]map[string]casefile.Golden{}
	for _, tc := range cases {
		if goldens[tc.Method] == nil {
			if goldens[tc.Method], err = casefile.ReadGolden(dir, tc.Method); err != nil {
				t.Fatal(err)
			}
		}
		module, err := c.Call(context.Background(), tc.Method, tc.Bytes())
		if err != nil {
			t.Fatalf("%s/%s: %v", tc.Method, tc.Name, err)
		}
		native := core.Call(tc.Method, tc.Bytes())
		if !bytes.Equal(module, native) {
			t.Errorf("%s/%s: module and native envelopes differ\nmodule: %s\nnative: %s", tc.Method, tc.Name, module, native)
		}
		if g := goldens[tc.Method][tc.Name]; !bytes.Equal(module, g.Envelope) {
			t.Errorf("%s/%s: module envelope differs from golden\n got: %s\nwant: %s", tc.Method, tc.Name, module, g.Envelope)
		}
	}
	if len(cases) < 100 {
		t.Errorf("only %d cases ran; the golden set shrank", len(cases))
	}
}

func TestUnknownMethod(t *testing.T) {
	c := newTestCore(t)
	out, err := c.Call(context.Background(), "rename", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"code":"LSP_UNKNOWN_METHOD"`)) || !bytes.Contains(out, []byte("translate")) {
		t.Errorf("unknown method envelope: %s", out)
	}
	if native := core.Call("rename", []byte(`{}`)); !bytes.Equal(out, native) {
		t.Errorf("module %s != native %s", out, native)
	}
}

func TestTypedMethods(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t)

	def, err := c.ToolDefinition(ctx)
	if err != nil || def.Name != "lsp" || len(def.InputSchema) == 0 {
		t.Fatalf("ToolDefinition = %+v, %v", def, err)
	}
	call, err := c.ParseToolArgs(ctx, []byte(`{"operation":"findReferences","file_path":"a.go","line":3,"character":5}`))
	if err != nil || call != (ToolCall{Operation: OpReferences, FilePath: "a.go", Position: Position{Line: 2, Character: 4}}) {
		t.Fatalf("ParseToolArgs = %+v, %v", call, err)
	}
	_, err = c.ParseToolArgs(ctx, []byte(`{"operation":"findReferences","file_path":"a.go","line":0,"character":5}`))
	var lerr *Error
	if !errors.As(err, &lerr) || lerr.Code != CodeInvalidArgument {
		t.Fatalf("ParseToolArgs(line 0) error = %v", err)
	}
	res, err := c.Translate(ctx, OpDefinition, []byte(`[{"uri":"file:///w/b.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}]`))
	if err != nil || res.Kind != KindLocations || len(res.Locations) != 1 || res.Locations[0].Range.Start.Character != 2 {
		t.Fatalf("Translate = %+v, %v", res, err)
	}
	if _, err := c.Translate(ctx, OpDefinition, nil); !isCode(err, CodeMalformedResponse) {
		t.Fatalf("Translate(missing) error = %v", err)
	}
	r, err := c.Render(ctx, res, "file:///w", Limits{})
	if err != nil || r.Text != "b.go:2:3" || r.Shown != 1 {
		t.Fatalf("Render = %+v, %v", r, err)
	}
	hover, err := c.Translate(ctx, OpHover, []byte(`null`))
	if err != nil || hover.Kind != KindHover || hover.Hover != nil {
		t.Fatalf("Translate(hover null) = %+v, %v", hover, err)
	}
	r, err = c.Render(ctx, hover, "file:///w", Limits{MaxResultChars: 10})
	if err != nil || r.Text != "No hover i" || !r.Truncated {
		t.Fatalf("Render(hover null) = %+v, %v", r, err)
	}
	card, err := c.Present(ctx, []byte(`{"operation":"hover","file_path":"a.go","line":3,"character":5}`))
	if err != nil || card.Title != "LSP hover a.go:3:5" || card.Locations[0].Line != 3 {
		t.Fatalf("Present = %+v, %v", card, err)
	}
	sel, err := c.SelectProvider(ctx, "x/Y.TS", []ProviderSpec{{ID: "ts", ExtensionToLanguage: map[string]string{"ts": "typescript"}}})
	if err != nil || sel != (Selection{ID: "ts", LanguageID: "typescript"}) {
		t.Fatalf("SelectProvider = %+v, %v", sel, err)
	}
	params, err := c.InitializeParams(ctx, "file:///w", []byte(`{"x":1}`))
	if err != nil || !bytes.Contains(params, []byte(`"initializationOptions":{"x":1}`)) {
		t.Fatalf("InitializeParams = %s, %v", params, err)
	}
	n, err := c.Negotiate(ctx, []byte(`{"capabilities":{"textDocumentSync":2,"hoverProvider":true}}`), "/x/typescript-language-server")
	if err != nil || !n.TransientOpen || !n.Operations[OpHover] || n.Operations[OpDefinition] || n.Readiness.Server != "typescript-language-server" {
		t.Fatalf("Negotiate = %+v, %v", n, err)
	}
	if n, err := c.Negotiate(ctx, []byte(`{"capabilities":{"hoverProvider":true},"serverInfo":{"name":"cmake-language-server","version":"0.1.11"}}`), "cmake-language-server"); err != nil || !n.Readiness.NoDiagnostics || n.Readiness.Server != "cmake-language-server" {
		t.Fatalf("Negotiate(cmake-language-server) = %+v, %v", n.Readiness, err)
	}
	if err := c.CheckOperation(ctx, n, OpHover); err != nil {
		t.Fatalf("CheckOperation(hover) = %v", err)
	}
	if err := c.CheckOperation(ctx, n, OpDefinition); !isCode(err, CodeUnsupportedOperation) {
		t.Fatalf("CheckOperation(definition) = %v", err)
	}
	req, err := c.Request(ctx, OpReferences, "file:///w/a.go", Position{Line: 1, Character: 2})
	if err != nil || req.Method != "textDocument/references" || !bytes.Contains(req.Params, []byte(`"includeDeclaration":true`)) {
		t.Fatalf("Request = %+v, %v", req, err)
	}
	reply, err := c.ServerRequest(ctx, "workspace/configuration", []byte(`{"items":[{"section":"a"}]}`), []byte(`{"a":{"b":1}}`), "")
	if err != nil || reply.Error != nil || string(reply.Result) != `[{"b":1}]` {
		t.Fatalf("ServerRequest = %+v, %v", reply, err)
	}
	cfg, err := c.ValidateConfig(ctx, []byte(`{"servers":{"gopls":{"command":"gopls","extensionToLanguage":{"GO":"go"}}}}`))
	if err != nil || cfg.Servers["gopls"].ExtensionToLanguage[".go"] != "go" || cfg.Servers["gopls"].KillGraceMs != 2000 || cfg.TimeoutMs != 60000 ||
		cfg.Servers["gopls"].MaxOpenDocuments != 64 || cfg.Servers["gopls"].IdleTimeoutMs != 1800000 || cfg.Servers["gopls"].RootMarkers == nil {
		t.Fatalf("ValidateConfig = %+v, %v", cfg, err)
	}
	if _, err := c.ValidateConfig(ctx, []byte(`{"servers":{}}`)); !isCode(err, CodeConfigInvalid) {
		t.Fatalf("ValidateConfig(empty) = %v", err)
	}
}

// TestWatchedFiles runs a server's watcher registration and a host's
// recorded changes through the module's typed methods.
func TestWatchedFiles(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t)
	u, err := c.FileWatchers(ctx, "client/registerCapability", []byte(`{"registrations":[
		{"id":"w1","method":"workspace/didChangeWatchedFiles","registerOptions":{"watchers":[
			{"globPattern":"**/*.{go,mod}"},
			{"globPattern":{"baseUri":{"uri":"file:///w/p","name":"p"},"pattern":"gen/*.txt"},"kind":4},
			{"globPattern":"[oops"}]}},
		{"id":"f","method":"textDocument/formatting"}]}`))
	want := []WatchRegistration{{ID: "w1", Watchers: []FileWatcher{{Pattern: "**/*.{go,mod}", Kind: WatchAll}, {Pattern: "gen/*.txt", BaseURI: "file:///w/p", Kind: WatchDelete}}}}
	if err != nil || len(u.Register) != 1 || fmt.Sprint(u.Register) != fmt.Sprint(want) || len(u.Unregister) != 0 || len(u.Problems) != 1 {
		t.Fatalf("FileWatchers = %+v, %v", u, err)
	}
	gone, err := c.FileWatchers(ctx, "client/unregisterCapability", []byte(`{"unregisterations":[{"id":"w1","method":"workspace/didChangeWatchedFiles"}]}`))
	if err != nil || fmt.Sprint(gone.Unregister) != "[w1]" || gone.Register == nil || len(gone.Problems) != 0 {
		t.Fatalf("FileWatchers(unregister) = %+v, %v", gone, err)
	}

	in := FileChangesInput{
		Changes: []PathChange{
			{Path: "/w/p/a.go", First: "changed", Last: "changed"},
			{Path: "/w/p/gen/x.txt", First: "changed", Last: "deleted"},
			{Path: "/w/p/gen/y.txt", First: "created", Last: "created"},
			{Path: "/w/p/open.go", First: "changed", Last: "changed"},
			{Path: "/w/p/tmp.go", First: "created", Last: "deleted"},
		},
		Registrations: u.Register,
		Root:          "/w/p",
		OpenDocuments: []string{"/w/p/open.go"},
		MaxBatch:      1,
	}
	res, err := c.FileChanges(ctx, in)
	wantBatches := []FileChangeBatch{{Changes: []FileEvent{{URI: "file:///w/p/a.go", Type: FileChanged}}}, {Changes: []FileEvent{{URI: "file:///w/p/gen/x.txt", Type: FileDeleted}}}}
	if err != nil || fmt.Sprint(res.Batches) != fmt.Sprint(wantBatches) || fmt.Sprint(res.Reverify) != "[/w/p/open.go]" || res.Matched != 2 || res.Ignored != 2 {
		t.Fatalf("FileChanges = %+v, %v", res, err)
	}
	// Registrations nil: the server registered nothing, so extensions decide.
	in.Registrations, in.Extensions, in.MaxBatch = nil, []string{".txt"}, 0
	res, err = c.FileChanges(ctx, in)
	if err != nil || res.Matched != 2 || len(res.Batches) != 1 || res.Batches[0].Changes[1] != (FileEvent{URI: "file:///w/p/gen/y.txt", Type: FileCreated}) {
		t.Fatalf("FileChanges(by extension) = %+v, %v", res, err)
	}
	in.Changes[0].First = "modified"
	if _, err := c.FileChanges(ctx, in); !isCode(err, CodeInvalidArgument) {
		t.Fatalf("FileChanges(bad first) error = %v", err)
	}
}

func isCode(err error, code Code) bool {
	var lerr *Error
	return errors.As(err, &lerr) && lerr.Code == code
}

// TestConcurrentCalls hammers one Core from many goroutines (run with
// -race): every answer must be the one the native core gives.
func TestConcurrentCalls(t *testing.T) {
	c := newTestCore(t, WithMaxInstances(4))
	const goroutines, calls = 32, 20
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				in := []byte(fmt.Sprintf(`{"operation":"hover","file_path":"f%d.go","line":%d,"character":%d}`, g, i+1, g+1))
				got, err := c.Call(context.Background(), "parseToolArgs", in)
				if err != nil {
					errs <- err
					return
				}
				if want := core.Call("parseToolArgs", in); !bytes.Equal(got, want) {
					errs <- fmt.Errorf("goroutine %d call %d: got %s want %s", g, i, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestInstanceLimit: with the limit reached and no instance idle, a call
// waits (here: its context is already done, so it gives up) instead of
// creating another instance; a released instance is reused.
func TestInstanceLimit(t *testing.T) {
	c := newTestCore(t, WithMaxInstances(2))
	ctx := context.Background()
	a, err := c.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.acquire(done); err == nil {
		t.Fatal("a third instance was created past the limit of 2")
	} else if lerr, ok := err.(*Error); !ok || lerr.Code != CodeCancelled {
		t.Fatalf("got %v, want LSP_CANCELLED", err)
	}
	c.release(a)
	again, err := c.acquire(ctx)
	if err != nil || again != a {
		t.Fatalf("the released instance was not reused: %p vs %p, %v", again, a, err)
	}
	c.release(again)
	c.release(b)
}

func TestClose(t *testing.T) {
	c, err := NewCore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(context.Background()); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.Call(context.Background(), "toolDefinition", []byte(`{}`)); !isCode(err, CodeDisposed) {
		t.Fatalf("Call after Close = %v", err)
	}
}

func TestAcquireHonoursContext(t *testing.T) {
	c := newTestCore(t, WithMaxInstances(1))
	in, err := c.acquire(context.Background()) // hold the only instance
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Call(ctx, "toolDefinition", []byte(`{}`)); !isCode(err, CodeCancelled) {
		t.Fatalf("Call with a cancelled ctx and no free instance = %v", err)
	}
	c.release(in)
	if _, err := c.Call(context.Background(), "toolDefinition", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
}

func TestBadModule(t *testing.T) {
	if _, err := NewCore(context.Background(), withModule([]byte("not wasm"))); err == nil {
		t.Fatal("NewCore accepted a module that is not WebAssembly")
	}
	if _, err := NewCore(context.Background(), WithMaxInstances(0)); err == nil {
		t.Fatal("NewCore accepted WithMaxInstances(0)")
	}
}

func TestCoreModuleIsCopy(t *testing.T) {
	b := CoreModule()
	if !bytes.HasPrefix(b, []byte("\x00asm")) {
		t.Fatal("CoreModule is not a WebAssembly module")
	}
	b[0] = 'x'
	if CoreModule()[0] != 0 {
		t.Fatal("CoreModule returned the embedded slice itself")
	}
}

// TestModuleMemoryStaysBounded: a run of large calls leaves the module's
// memory near its working size. (A collection started in one call used to
// stay unfinished across calls, and the memory grew by megabytes per call
// from about the 50th 10,000-location answer on: cmd/wasm yields to the Go
// scheduler at the end of each call.)
func TestModuleMemoryStaysBounded(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t, WithMaxInstances(1))
	payload := casefile.ReferencesPayload(10000)
	call := func(method string, in []byte) []byte {
		out, err := c.Call(ctx, method, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	peak := uint32(0)
	for i := 0; i < 120; i++ {
		translateRender(call, payload)
		in := <-c.idle
		peak = max(peak, in.module.Memory().Size())
		c.idle <- in
	}
	// About 20 MB in practice; the leak passed 150 MB by the 100th call.
	if peak > 64<<20 {
		t.Fatalf("the module's memory grew to %d MB over 120 calls of 10,000 locations", peak>>20)
	}
}
