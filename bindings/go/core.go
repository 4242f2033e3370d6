package lspseam

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/lspseam/lspseam/internal/corehold"
	"github.com/lspseam/lspseam/internal/residency"
)

// Core runs the embedded core module.
//
// NewCore compiles the module once; instances are created lazily, one per
// concurrent caller up to a limit, and reused. A wazero module instance is
// not safe for concurrent use, so each call borrows an instance for its
// duration: Core itself is safe for concurrent use by any number of
// goroutines.
//
// With WithLazyCompile, NewCore returns at once and the module compiles in
// the background (lazystart.go); the first call that needs it waits for
// what is left. The answers a host shows before its first tool call come
// from a file generated at build time (handshake.go) and never wait.
//
// With WithIdleRelease, a Core that has had no call in flight for a while
// closes its instances and its compiled module (see release.go) and
// compiles again at the next call.
//
// Core owns its wazero runtime and instances; Close releases them. Byte
// slices passed to Core are not retained, and those it returns are the
// caller's.
type Core struct {
	runtime wazero.Runtime
	module  []byte                  // the module's bytes, compiled again after a release
	cache   wazero.CompilationCache // owned: closed with the Core; nil when none

	// mu guards compiled and code: instances are created, and the module
	// released, under it.
	mu       sync.Mutex
	compiled wazero.CompiledModule // nil before the first compile and after a full release
	// code is the compiled module's machine code once moved into a file
	// (release.go), so that the module stays compiled while idle; nil
	// when it could not be, and then a release drops the module.
	code *residency.Code
	// codeDir is where code goes (the compilation cache's directory; ""
	// when there is none or WithIdleRelease is not set).
	codeDir string

	idle  chan *instance // instances ready for a call
	slots chan struct{}  // one token per live instance, bounding them
	// maxMemory is WithMaxInstanceMemory's bound (0: none).
	maxMemory uint32
	// trace is WithCallTrace's observer (nil: none).
	trace func(CallTrace)

	// idleRelease is WithIdleRelease's delay (0: never); releaseTimer runs
	// releaseIdle once it has passed with no call in flight. timerMu is
	// not mu, so a call returning its instance never waits for another
	// call's compilation.
	idleRelease  time.Duration
	timerMu      sync.Mutex
	releaseTimer *time.Timer
	releases     int // how many times the module was released (tests; under mu)

	// precomputed: the embedded module runs, so the generated answers
	// (handshake.go) and the native core's (nativestart.go) are its
	// answers.
	precomputed bool
	// start is the module's first compilation (lazystart.go).
	start startState
	// bridge answers small calls with wazero's interpreter while a lazy
	// start compiles (bridge.go); nil without WithLazyCompile.
	bridge *bridge
	// warmth says whether the compilation cache holds the module
	// (warmth.go), which decides whether the bridge is worth preparing.
	warmth cacheWarmth
	// precompiled is WithPrecompiledCode's set (nil: none), installed
	// into the cache directory before the first compilation
	// (precompiled.go).
	precompiled fs.FS
	// carried are the cache entries it wrote (set before the first
	// compilation, read right after it); carriedLoaded is whether that
	// compilation loaded them (LoadedPrecompiledCode).
	carried       []carriedEntry
	carriedLoaded atomic.Bool

	closeOnce sync.Once
	closed    chan struct{} // closed by Close; nil in a Core not made by NewCore
	// life counts the calls (and the lazy start) using runtime, so that
	// Close never closes it under one (corelife.go).
	life lifetime
	// engine answers the calls (engine.go); with EngineNative there is
	// no runtime at all.
	engine Engine
}

// Option configures NewCore.
type Option func(*options)

type options struct {
	cacheDir     string
	cacheDirSet  bool // WithCompilationCacheDir was given ("": in memory only)
	maxInstances int
	module       []byte
	idleRelease  time.Duration
	maxMemory    uint32
	trace        func(CallTrace)
	fullRelease  bool // withFullRelease (tests)
	lazy         bool // WithLazyCompile
	// beforeCompile runs before a lazy Core compiles (tests: a hold).
	beforeCompile func(ctx context.Context) error
	moduleSet     bool  // withModule: the generated answers are not this module's
	precompiled   fs.FS // WithPrecompiledCode
	engine        Engine
}

// WithCompilationCacheDir keeps wazero's compiled machine code in dir, so a
// later process skips compilation (the dominant cost of a cold NewCore);
// the directory is created if needed, and the Core closes it with itself.
// Without this option the code is kept in DefaultCacheDir (cachedir.go);
// WithCompilationCacheDir("") keeps it in memory only, shared by the
// Cores of the process, and each process compiles the module again.
func WithCompilationCacheDir(dir string) Option {
	return func(o *options) { o.cacheDir, o.cacheDirSet = dir, true }
}

// WithMaxInstances bounds how many module instances exist at once (each
// holds its own linear memory). The default is runtime.GOMAXPROCS(0); calls
// beyond the bound wait for a free instance.
func WithMaxInstances(n int) Option { return func(o *options) { o.maxInstances = n } }

// WithIdleRelease makes the Core give its memory back when it has had no
// call in flight for d: it closes its instances (their linear memories)
// and its compiled module (the machine code, several times the module's
// size, and the decoded module), then asks the Go runtime to return the
// freed memory to the OS. The next call compiles the module again, which
// is cheap only with a warm WithCompilationCacheDir (a few hundred
// milliseconds instead of seconds). A long-lived host that is idle most of
// the time, like an MCP server waiting for an agent, wants this; a host
// that calls the core continuously does not.
func WithIdleRelease(d time.Duration) Option { return func(o *options) { o.idleRelease = d } }

// WithMaxInstanceMemory bounds what an instance keeps between calls: one
// whose linear memory has grown past n bytes during a call (a large answer:
// the module's heap grows to several times its input and never shrinks)
// is closed after it, and the next call that needs an instance creates a
// fresh one (a few milliseconds). 0, the default, keeps every instance.
func WithMaxInstanceMemory(n uint32) Option { return func(o *options) { o.maxMemory = n } }

// withFullRelease makes releases drop the compiled module even where its
// code could stay resident in a file (tests only).
func withFullRelease() Option { return func(o *options) { o.fullRelease = true } }

// withModule replaces the embedded module (tests only).
func withModule(wasm []byte) Option {
	return func(o *options) { o.module, o.moduleSet = wasm, true }
}

// processCache is the in-memory compilation cache every Core with
// WithCompilationCacheDir("") shares (and every Core without the option
// when DefaultCacheDir is unusable), so only the first NewCore in a
// process pays for compilation. It lives as long as the process (a few MB of
// machine code for the one module it ever holds).
var processCache = sync.OnceValue(func() wazero.CompilationCache { return wazero.NewCompilationCache() })

// NewCore compiles the core module and checks its ABI version. ctx bounds
// compilation and the first instantiation only. With WithLazyCompile it
// returns before compiling (see the option).
func NewCore(ctx context.Context, opts ...Option) (*Core, error) {
	o := options{maxInstances: runtime.GOMAXPROCS(0), module: coreWasm, beforeCompile: corehold.BeforeCompile}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxInstances < 1 {
		return nil, fmt.Errorf("lspseam: WithMaxInstances(%d): need at least 1", o.maxInstances)
	}
	if o.idleRelease < 0 {
		return nil, fmt.Errorf("lspseam: WithIdleRelease(%v): need a positive delay, or none", o.idleRelease)
	}
	switch o.engine {
	case EngineNative:
		return newNativeCore(o), nil
	case EngineModule, EngineChecked:
	default:
		return nil, fmt.Errorf("lspseam: WithEngine(%v): not an engine", o.engine)
	}
	cfg := wazero.NewRuntimeConfig()
	c := &Core{
		module:      o.module,
		idle:        make(chan *instance, o.maxInstances),
		slots:       make(chan struct{}, o.maxInstances),
		idleRelease: o.idleRelease,
		maxMemory:   o.maxMemory,
		trace:       o.trace,
		closed:      make(chan struct{}),
		precomputed: !o.moduleSet,
		precompiled: o.precompiled,
		engine:      o.engine,
	}
	switch {
	case o.cacheDir != "":
		cache, err := wazero.NewCompilationCacheWithDir(o.cacheDir)
		if err != nil {
			return nil, fmt.Errorf("lspseam: compilation cache %s: %w", o.cacheDir, err)
		}
		c.cache = cache
		cfg = cfg.WithCompilationCache(cache)
		c.codeDir = o.cacheDir
		c.warmth = cacheWarmth{dir: o.cacheDir}
	case o.cacheDirSet:
		cfg = cfg.WithCompilationCache(processCache())
		c.warmth = cacheWarmth{shared: true}
	default:
		cfg = cfg.WithCompilationCache(defaultCache())
		c.warmth = cacheWarmth{shared: true}
		if dir, err := DefaultCacheDir(); err == nil {
			c.codeDir = dir
			c.warmth.dir = dir
		}
	}
	if o.idleRelease == 0 || o.fullRelease || !residency.Supported {
		c.codeDir = ""
	}
	c.runtime = wazero.NewRuntimeWithConfig(ctx, cfg)
	fail := func(err error) (*Core, error) {
		c.Close(ctx)
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, c.runtime); err != nil {
		return fail(fmt.Errorf("lspseam: WASI imports: %w", err))
	}
	if o.lazy {
		c.startLazily(ctx, o.beforeCompile)
		return c, nil
	}
	c.start.done()
	c.warmOrInstall()
	// Compile and instantiate one instance now: it surfaces a broken module
	// at construction, checks the ABI version, and leaves an instance warm.
	c.slots <- struct{}{}
	in, err := c.newInstance(ctx)
	if err != nil {
		<-c.slots
		return fail(err)
	}
	c.release(in)
	return c, nil
}

// Close marks the Core closed and releases the runtime, every instance
// and the compilation cache it opened. Later calls, and calls still
// waiting for an instance or for the module to compile, return an
// LSP_DISPOSED *Error at once. A module call already running is not cut
// short (a wazero runtime cannot be closed under it): Close waits for the
// calls in flight to return, until ctx is done; if ctx ends first, Close
// returns an LSP_CANCELLED *Error and the last call to return closes the
// runtime. A lazy Core still compiling (WithLazyCompile) is not waited
// for: its compilation closes the runtime when it returns. Close is
// idempotent, and a no-op on a Core not made by NewCore.
func (c *Core) Close(ctx context.Context) error {
	if c.closed == nil {
		return nil
	}
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		c.timerMu.Lock()
		if c.releaseTimer != nil {
			c.releaseTimer.Stop()
		}
		c.timerMu.Unlock()
		// A background start still compiling is a user of the runtime
		// (lazystart.go): its ctx is cancelled, and Close does not wait
		// for the compiler to return.
		compiling := c.start.closeLater()
		err = c.life.closeAndWait(ctx, func() error { return c.closeRuntime(context.Background()) }, !compiling)
	})
	return err
}

// closeRuntime closes the runtime and the compilation cache it opened.
// It holds mu, so an idle release (release.go) is not closing instances
// beside it.
func (c *Core) closeRuntime(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	if c.runtime != nil {
		err = c.runtime.Close(ctx)
	}
	if c.cache != nil {
		err = errors.Join(err, c.cache.Close(ctx))
	}
	return err
}

// Call runs one ABI method on a JSON input and returns the module's JSON
// envelope, {"ok": …} or {"error": {…}}, byte for byte. The error is non-nil
// only when the module could not run: LSP_DISPOSED for a closed Core,
// LSP_NOT_INITIALIZED for a Core not made by NewCore, LSP_CANCELLED for a
// ctx done while the call waits for an instance or the compilation, or a
// trap; seam errors come inside the envelope. With an instance free, a
// done ctx does not stop the call, and a module call runs to its end:
// the toolbox composes its "not checked" answers with the ctx of a call
// that was cancelled (see docs/go.md).
func (c *Core) Call(ctx context.Context, method string, input []byte) ([]byte, error) {
	if c.trace != nil {
		began := time.Now()
		out, err := c.call(ctx, method, input)
		c.trace(CallTrace{Method: method, InputBytes: len(input), OutputBytes: len(out), Duration: time.Since(began), Input: input})
		return out, err
	}
	return c.call(ctx, method, input)
}

func (c *Core) call(ctx context.Context, method string, input []byte) ([]byte, error) {
	if c.closed == nil {
		return nil, notInitialized()
	}
	if !c.life.enter() {
		return nil, disposed()
	}
	defer c.life.leave()
	switch c.engine {
	case EngineNative:
		return nativeCall(method, input), nil
	case EngineChecked:
		return c.checkedCall(ctx, method, input)
	}
	return c.moduleCall(ctx, method, input)
}

// moduleCall is a call the module answers (or, before it has started,
// the answers generated from it and the native bridge: lazystart.go).
func (c *Core) moduleCall(ctx context.Context, method string, input []byte) ([]byte, error) {
	if c.precomputed {
		out, ok := handshakeAnswers().lookup(method, input)
		if !ok {
			out, ok = c.nativeBeforeStart(method, input)
		}
		if ok {
			if c.isClosed() {
				return nil, disposed()
			}
			return out, nil
		}
	}
	if c.bridge != nil && len(input) <= bridgeMaxInput && !c.started() {
		if out, err, ok := c.callBridge(ctx, method, input); ok {
			return out, err
		}
	}
	in, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	out, err := in.call(ctx, method, input)
	if err != nil {
		c.discard(in)
		if c.isClosed() {
			return nil, disposed()
		}
		return nil, err
	}
	c.release(in)
	return out, nil
}

func (c *Core) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

func (c *Core) acquire(ctx context.Context) (*instance, error) {
	if c.isClosed() {
		return nil, disposed()
	}
	if err := c.waitStarted(ctx); err != nil {
		return nil, err
	}
	select {
	case in := <-c.idle:
		return in, nil
	default:
	}
	select {
	case <-c.closed:
		return nil, disposed()
	case in := <-c.idle:
		return in, nil
	case c.slots <- struct{}{}:
		in, err := c.newInstance(ctx)
		if err != nil {
			<-c.slots
			if c.isClosed() {
				return nil, disposed()
			}
			return nil, err
		}
		return in, nil
	case <-ctx.Done():
		return nil, Errorf(CodeCancelled, "cancelled while waiting for a core instance: %v", context.Cause(ctx))
	}
}

func (c *Core) release(in *instance) {
	if c.maxMemory > 0 && in.module.Memory().Size() > c.maxMemory {
		c.discard(in)
		c.scheduleRelease()
		return
	}
	select {
	case <-c.closed:
		c.discard(in)
	case c.idle <- in:
		c.scheduleRelease()
	}
}

// discard drops an instance that trapped (its state is unknown), that
// outlived Close, or whose memory grew past WithMaxInstanceMemory.
func (c *Core) discard(in *instance) {
	_ = in.module.Close(context.Background())
	<-c.slots
}

func disposed() error {
	return Errorf(CodeDisposed, "the lspseam Core was closed; create a new one with NewCore")
}

// notInitialized is the error of a call on a Core not made by NewCore (a
// zero value, say one embedded by value in a struct): it has no module,
// and waiting for one would block forever.
func notInitialized() error {
	return Errorf(CodeNotInitialized, "this lspseam.Core was not made by NewCore (a zero value); create it with lspseam.NewCore and use the *Core it returns")
}

// instance is one instantiated core module and its exports.
type instance struct {
	module              api.Module
	mem                 experimental.LinearMemory // its memory, when lspseam allocated it (linearmemory.go); kept reachable while the instance is
	alloc, free, callFn api.Function
	stack               []uint64
	methodBuf, inputBuf scratch
}

// newInstance instantiates the module, compiling it first when it is not
// (the first call, or the first after a release).
func (c *Core) newInstance(ctx context.Context) (*instance, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.compiled == nil {
		compiled, err := c.compileModule(ctx)
		if err != nil {
			return nil, fmt.Errorf("lspseam: compiling the core module: %w", err)
		}
		c.compiled = compiled
		c.warmth.mark(c.module)
		if c.carried != nil {
			c.carriedLoaded.Store(c.carriedWasLoaded())
			c.carried = nil
		}
		if c.releases > 0 {
			// Loading from the cache read the machine code into the heap
			// before copying it to executable memory: tens of MB of garbage
			// a Core that releases its memory should not sit on. Freed
			// after this call, not before it answers.
			defer func() { go debug.FreeOSMemory() }()
		}
	}
	return instantiate(ctx, c.runtime, c.compiled)
}

// instantiate makes an instance of a compiled module and checks its
// exports and ABI version.
func instantiate(ctx context.Context, rt wazero.Runtime, compiled wazero.CompiledModule) (*instance, error) {
	cfg := wazero.NewModuleConfig().
		WithName(""). // anonymous, so many instances can coexist
		WithStartFunctions("_initialize")
	var mem experimental.LinearMemory
	mod, err := rt.InstantiateModule(withLinearMemory(ctx, &mem), compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("lspseam: instantiating the core module: %w", err)
	}
	in := &instance{
		module: mod,
		mem:    mem,
		alloc:  mod.ExportedFunction("lspseam_alloc"),
		free:   mod.ExportedFunction("lspseam_free"),
		callFn: mod.ExportedFunction("lspseam_call"),
		stack:  make([]uint64, 4),
	}
	version := mod.ExportedFunction("lspseam_abi_version")
	if mod.Memory() == nil || in.alloc == nil || in.free == nil || in.callFn == nil || version == nil {
		mod.Close(ctx)
		return nil, errors.New("lspseam: the core module lacks an lspseam_* export or its memory; rebuild it with `make wasm`")
	}
	res, err := version.Call(ctx)
	if err != nil {
		mod.Close(ctx)
		return nil, fmt.Errorf("lspseam: lspseam_abi_version: %w", err)
	}
	if got := int32(res[0]); got != abiVersion {
		mod.Close(ctx)
		return nil, fmt.Errorf("lspseam: the core module speaks ABI %d, this package speaks %d; use the core.wasm built from the same lspseam version", got, abiVersion)
	}
	return in, nil
}

// abiVersion is the ABI version this package was written against.
const abiVersion = 1

// call runs one method. The method name and input are written into two
// scratch buffers the instance keeps between calls (grown when an input is
// larger), so a call costs two module calls — lspseam_call and freeing its
// result — instead of six.
func (in *instance) call(ctx context.Context, method string, input []byte) ([]byte, error) {
	if err := in.methodBuf.fill(ctx, in, []byte(method)); err != nil {
		return nil, err
	}
	if err := in.inputBuf.fill(ctx, in, input); err != nil {
		return nil, err
	}
	in.stack[0], in.stack[1], in.stack[2], in.stack[3] = uint64(in.methodBuf.ptr), uint64(len(method)), uint64(in.inputBuf.ptr), uint64(len(input))
	if err := in.callFn.CallWithStack(ctx, in.stack); err != nil {
		return nil, fmt.Errorf("lspseam: lspseam_call(%s) trapped: %w", method, err)
	}
	packed := in.stack[0]
	outPtr, outLen := uint32(packed>>32), uint32(packed)
	defer in.release(ctx, outPtr)
	// Read through the memory as it is now: the call may have grown it.
	view, ok := in.module.Memory().Read(outPtr, outLen)
	if !ok {
		return nil, fmt.Errorf("lspseam: lspseam_call(%s) returned a result outside memory", method)
	}
	out := append([]byte(nil), view...)
	runtime.KeepAlive(in.mem) // the memory outlives its module's Close until here (mappedMemory)
	return out, nil
}

// scratch is a module buffer from lspseam_alloc that an instance reuses for
// its inputs.
type scratch struct {
	ptr uint32
	cap int
}

// fill copies b into the buffer, replacing it with a larger one first when
// b does not fit.
func (s *scratch) fill(ctx context.Context, in *instance, b []byte) error {
	if len(b) > s.cap || s.ptr == 0 {
		if s.ptr != 0 {
			in.release(ctx, s.ptr)
			s.ptr, s.cap = 0, 0
		}
		size := max(256, len(b))
		size += size / 4 // headroom, so slowly growing inputs do not reallocate every call
		in.stack[0] = uint64(size)
		if err := in.alloc.CallWithStack(ctx, in.stack); err != nil {
			return fmt.Errorf("lspseam: lspseam_alloc trapped: %w", err)
		}
		if in.stack[0] == 0 {
			return fmt.Errorf("lspseam: lspseam_alloc(%d) failed", size)
		}
		s.ptr, s.cap = uint32(in.stack[0]), size
	}
	if !in.module.Memory().Write(s.ptr, b) {
		return fmt.Errorf("lspseam: lspseam_alloc returned a buffer outside memory")
	}
	return nil
}

func (in *instance) release(ctx context.Context, ptr uint32) {
	stack := [1]uint64{uint64(ptr)}
	_ = in.free.CallWithStack(ctx, stack[:])
}
