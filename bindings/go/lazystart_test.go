package lspseam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/testenv"
)

// TestHandshakeAnswersAreTheModules: every generated answer is what the
// embedded module answers for the same input (the file is computed
// natively; this is the module's word), and a list of toolsets in any
// order answers as the module does for that list.
func TestHandshakeAnswersAreTheModules(t *testing.T) {
	ctx := context.Background()
	module := newTestCore(t, withModule(coreWasm)) // no generated answers
	p := handshakeAnswers()
	if len(p.answers) < 1<<len(core.Toolsets) || !slices.Equal(p.toolsets, core.Toolsets) {
		t.Fatalf("handshake.json has %d answers and toolsets %v", len(p.answers), p.toolsets)
	}
	for key, env := range p.answers {
		method, input, _ := strings.Cut(key, "\x00")
		got, err := module.Call(ctx, method, []byte(input))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, env) {
			t.Errorf("%s %s: the module answers differently from handshake.json", method, input)
		}
	}
	// Known toolsets are answered from the file whether or not the
	// module is loaded (an unknown one, by the module): the shared cache
	// spares a compilation.
	fromFile := newTestCore(t, WithLazyCompile())
	for _, sets := range [][]string{nil, {}, {"code", "lsp"}, {"refactor", "fs", "fs"}, {"lsp"}, {"nope"}, {"lsp", "edit"}} {
		want, werr := module.ToolDefinitions(ctx, sets)
		got, gerr := fromFile.ToolDefinitions(ctx, sets)
		if !errors.Is(gerr, werr) && (gerr == nil || werr == nil || gerr.Error() != werr.Error()) {
			t.Errorf("%v: error %v, the module's %v", sets, gerr, werr)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			t.Errorf("%v: the definitions differ from the module's", sets)
		}
	}
}

// holdCompile is a compilation hold: the Core's start waits in it until
// release is called (or its ctx ends), and held is closed once it waits.
type holdCompile struct {
	held, released chan struct{}
	once           sync.Once
}

func newHoldCompile() *holdCompile {
	return &holdCompile{held: make(chan struct{}), released: make(chan struct{})}
}

func (h *holdCompile) hold(ctx context.Context) error {
	close(h.held)
	select {
	case <-h.released:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *holdCompile) release() { h.once.Do(func() { close(h.released) }) }

// testDeadline is a context ending a little before the test's deadline.
func testDeadline(t *testing.T) context.Context {
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-5*time.Second))
		t.Cleanup(cancel)
	}
	return ctx
}

// unmarkedCacheDir is a compilation cache whose warmth marker is absent,
// so a lazy Core prepares its bridge (the marker, not the entries, decides
// that: warmth.go). Without -race it is empty; under -race it holds a copy
// of wazero's entries (copyMachineCode), so that the compilation is a
// load, not a minute's compile by an instrumented compiler.
func unmarkedCacheDir(t *testing.T) string {
	t.Helper()
	dir := testenv.ColdCacheDir(t)
	if raceEnabled {
		copyMachineCode(t, dir)
	}
	return dir
}

// copyMachineCode copies wazero's entries of the shared cache, where a
// Core compiles the module first if none has, into dir, without the
// warmth marker.
func copyMachineCode(t testing.TB, dir string) {
	t.Helper()
	newTestCore(t) // the shared cache holds the module's machine code
	shared := testenv.CacheDir()
	subdirs, err := filepath.Glob(filepath.Join(shared, "wazero-*"))
	if err != nil || len(subdirs) == 0 {
		t.Fatalf("no wazero entries in the shared cache %s: %v", shared, err)
	}
	for _, sub := range subdirs {
		if err := os.CopyFS(filepath.Join(dir, filepath.Base(sub)), os.DirFS(sub)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLazyCompileAnswersFirst: while the compilation is held, the
// generated answers come at once, a small call is answered by the bridge
// (the interpreter) as the module answers it, and a call too large for
// the bridge waits, giving up with its ctx (LSP_CANCELLED); once
// released, it is answered, and the bridge closes.
func TestLazyCompileAnswersFirst(t *testing.T) {
	h := newHoldCompile()
	defer h.release()
	// A cache of its own without the warmth marker: the bridge is
	// prepared. Under -race it holds wazero's entry, so that what follows
	// the release is a load, not a minute's compile of instrumented code.
	c := newTestCore(t, WithLazyCompile(), WithCompilationCacheDir(unmarkedCacheDir(t)), withBeforeCompile(h.hold))
	ctx := testDeadline(t)
	<-h.held
	tools, err := c.ToolDefinitions(ctx, core.DefaultToolsets)
	if err != nil || len(tools) == 0 || tools[0].Name != core.ToolName {
		t.Fatalf("ToolDefinitions while compiling: %v, %d tools", err, len(tools))
	}
	if _, err := c.ToolDefinitions(ctx, []string{"code", "lsp", "fs", "refactor"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := c.ValidateConfig(ctx, []byte(`{"presets":true}`))
	if err != nil || len(cfg.Servers) == 0 {
		t.Fatalf("the presets while compiling: %v, %d servers", err, len(cfg.Servers))
	}
	small := []byte(`{"operation":"hover","file_path":"a.go","line":1,"character":1}`)
	got, err := c.Call(ctx, "parseToolArgs", small)
	if err != nil || !bytes.Equal(got, core.Call("parseToolArgs", small)) {
		t.Fatalf("a small call while compiling: %v %s", err, got)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := c.Call(short, "parseToolArgs", large); !isCode(err, CodeCancelled) {
		t.Fatalf("a call too large for the bridge, its ctx ending while compiling: %v, want LSP_CANCELLED", err)
	}
	select {
	case <-c.start.ended:
		t.Fatal("the start ended while held")
	default:
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "parseToolArgs", large)
		done <- err
	}()
	h.release()
	if err := <-done; err != nil {
		t.Fatalf("the large call after the compilation: %v", err)
	}
	if err := c.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.bridge.done:
	case <-ctx.Done():
		t.Fatal("the bridge was not closed after the compilation")
	}
	if got, err := c.Call(ctx, "parseToolArgs", small); err != nil || !bytes.Equal(got, core.Call("parseToolArgs", small)) {
		t.Fatalf("a small call after the compilation: %v %s", err, got)
	}
}

// large is a call input the bridge does not take.
var large = []byte(`{"operation":"hover","file_path":"` + strings.Repeat("a", bridgeMaxInput) + `.go","line":1,"character":1}`)

// TestLazyCompileError: a module that does not compile is the error of
// the first call that needs it (and of Wait), not of NewCore; the
// generated answers are not served for a module that is not the embedded
// one.
func TestLazyCompileError(t *testing.T) {
	c, err := NewCore(context.Background(), WithLazyCompile(), withModule([]byte("not wasm")), WithCompilationCacheDir(""))
	if err != nil {
		t.Fatalf("NewCore with WithLazyCompile: %v", err)
	}
	defer c.Close(context.Background())
	ctx := testDeadline(t)
	if _, err := c.ToolDefinitions(ctx, nil); err == nil || !strings.Contains(err.Error(), "compiling the core module") {
		t.Fatalf("the first call: %v, want the compilation's error", err)
	}
	if err := c.Wait(ctx); err == nil || !strings.Contains(err.Error(), "compiling the core module") {
		t.Fatalf("Wait: %v", err)
	}
	if _, err := c.Call(ctx, "parseToolArgs", []byte(`{}`)); err == nil {
		t.Fatal("a later call succeeded on a module that does not compile")
	}
}

// TestLazyCompileCloseWhileHeld: Close during the start returns without
// waiting for it; the start then ends (its goroutine returns, the runtime
// closed) and calls answer LSP_DISPOSED.
func TestLazyCompileCloseWhileHeld(t *testing.T) {
	h := newHoldCompile()
	defer h.release()
	c, err := NewCore(context.Background(), WithLazyCompile(), WithCompilationCacheDir(testenv.ColdCacheDir(t)), withBeforeCompile(h.hold))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testDeadline(t)
	<-h.held
	waiting := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "parseToolArgs", large)
		waiting <- err
	}()
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-waiting; !isCode(err, CodeDisposed) {
		t.Fatalf("a call waiting for the compilation when Close came: %v, want LSP_DISPOSED", err)
	}
	select {
	case <-c.start.ended:
	case <-ctx.Done():
		t.Fatal("the start did not end after Close")
	}
	if _, err := c.ToolDefinitions(ctx, nil); !isCode(err, CodeDisposed) {
		t.Fatalf("after Close: %v, want LSP_DISPOSED", err)
	}
	if _, err := c.Call(ctx, "parseToolArgs", []byte(`{}`)); !isCode(err, CodeDisposed) {
		t.Fatalf("a small call after Close: %v, want LSP_DISPOSED", err)
	}
	select {
	case <-c.bridge.done:
	case <-ctx.Done():
		t.Fatal("the bridge was not closed after Close")
	}
}

// TestLazyCompileCloseWhileCompiling: Close while the compiler runs (no
// hold) does not wait for it, and the start still ends.
func TestLazyCompileCloseWhileCompiling(t *testing.T) {
	c, err := NewCore(context.Background(), WithLazyCompile(), WithCompilationCacheDir(unmarkedCacheDir(t)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testDeadline(t)
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.start.ended:
	case <-ctx.Done():
		t.Fatal("the start did not end after Close")
	}
	if err := c.Wait(ctx); !isCode(err, CodeDisposed) {
		t.Fatalf("Wait after Close: %v, want LSP_DISPOSED", err)
	}
}

// TestBridgeOnlyWhenCold: a Core whose cache holds the module (a marker
// left by the Core that compiled it) does not prepare the bridge; one with
// an empty cache does, and leaves the marker once compiled.
func TestBridgeOnlyWhenCold(t *testing.T) {
	dir := unmarkedCacheDir(t)
	ctx := testDeadline(t)
	cold := newTestCore(t, WithLazyCompile(), WithCompilationCacheDir(dir))
	if cold.warmth.warm(coreWasm) {
		t.Fatal("an empty cache directory is warm")
	}
	if err := cold.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if !cold.warmth.warm(coreWasm) {
		t.Fatal("no marker after the compilation")
	}
	h := newHoldCompile()
	defer h.release()
	warm := newTestCore(t, WithLazyCompile(), WithCompilationCacheDir(dir), withBeforeCompile(h.hold))
	<-h.held
	select {
	case in := <-warm.bridge.idle:
		warm.bridge.idle <- in
		if in != nil {
			t.Fatal("a Core whose cache holds the module prepared the bridge")
		}
	case <-ctx.Done():
		t.Fatal("the bridge's token never came")
	}
	select {
	case <-warm.bridge.done:
		t.Fatal("the bridge ended before the start")
	default:
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := warm.Call(short, "parseToolArgs", []byte(`{}`)); !isCode(err, CodeCancelled) {
		t.Fatalf("a small call on a warm Core while held: %v, want LSP_CANCELLED (no bridge: it waits)", err)
	}
	h.release()
	if _, err := warm.Call(ctx, "parseToolArgs", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
}

// TestLazyCompileConcurrentFirstCalls: many calls racing the compilation
// (and each other) all get the module's answers (run with -race).
func TestLazyCompileConcurrentFirstCalls(t *testing.T) {
	cache := "" // the process's in-memory cache, compiled into by no other test
	if raceEnabled {
		cache = unmarkedCacheDir(t) // racing a load: a compile takes a minute
	}
	c := newTestCore(t, WithLazyCompile(), WithCompilationCacheDir(cache), WithMaxInstances(2))
	ctx := testDeadline(t)
	want := core.Call("parseToolArgs", []byte(`{"operation":"hover","file_path":"a.go","line":3,"character":2}`))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := c.Call(ctx, "parseToolArgs", []byte(`{"operation":"hover","file_path":"a.go","line":3,"character":2}`))
			if err == nil && !bytes.Equal(got, want) {
				err = errors.New("a different answer: " + string(got))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
