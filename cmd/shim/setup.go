package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/precompiled"
)

// commonFlags are the flags query and serve share.
type commonFlags struct {
	config   string
	logLevel string
	timeout  int
	// longLived is set by serve and mcp: their stderr is a log read when
	// something goes wrong, so missing presets are worth a warning there.
	longLived bool
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.config, "config", "", "server table (YAML or JSON)")
	fs.StringVar(&c.logLevel, "log-level", "warn", "debug, info, warn or error")
	fs.IntVar(&c.timeout, "timeout", 0, "budget of one query in milliseconds")
}

func version() string {
	v := core.Version
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v += " (" + info.Main.Version + ")"
	}
	return v
}

// coreCodeLine says whether this binary carries its core's machine code
// (cmd/precompile, run by make build), the second line of `lspseam
// version`.
func coreCodeLine() string {
	key := precompiled.ModuleKey(lspseam.CoreModule())
	if precompiled.Has(precompiledCode(), key, precompiled.WazeroDir()) {
		return fmt.Sprintf("core module %s: machine code for %s/%s carried (compiled when this binary was built; a first run loads it)", key, runtime.GOOS, runtime.GOARCH)
	}
	return fmt.Sprintf("core module %s: compiled on the first run (this build carries no machine code: make build adds it)", key)
}

func newLogger(level string, stderr io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: l})), nil
}

// coreOptions keeps the core module's compiled machine code in
// lspseam.DefaultCacheDir ($LSPSEAM_CACHE_DIR, else the OS cache dir +
// /lspseam), as any Go program's Core does, so only the first run of a
// given lspseam build pays for compilation. The shim names the directory
// itself because whether it is usable decides the idle release (below).
// One module instance is enough for the shim: core calls take tens of
// microseconds against milliseconds of server work, and each instance
// holds its own linear memory; one whose memory a large answer grew past
// maxInstanceMemory is replaced by a fresh one at the next call.
//
// With the cache, the core also gives its memory back after
// coreReleaseAfter without a call (its machine code's pages, its instance's
// linear memory; see lspseam.WithIdleRelease): serve and mcp wait for an
// agent most of their lives. On Linux with a disk-backed cache directory
// the module stays compiled and the next call pays an instantiation (tens
// of ms); elsewhere it loads the module from the cache (0.1–0.2 s).
// Without a cache that load would be a full compilation, so the core is
// kept. $LSPSEAM_CORE_RELEASE_AFTER
// sets the delay (a Go duration; 0 keeps the core).
//
// All of that is for the module: the shim's core is the native one unless
// $LSPSEAM_CORE says module (or checked, the tests' setting), and then no
// option but the engine has anything to do (coreEngine).
func coreOptions(log *slog.Logger) []lspseam.Option {
	engine := coreEngine(log)
	if engine == lspseam.EngineNative {
		return []lspseam.Option{lspseam.WithEngine(engine)}
	}
	opts := []lspseam.Option{lspseam.WithEngine(engine), lspseam.WithMaxInstances(1), lspseam.WithMaxInstanceMemory(maxInstanceMemory), lspseam.WithPrecompiledCode(precompiledCode())}
	dir, err := lspseam.DefaultCacheDir()
	if err != nil {
		log.Debug("no compilation cache", "reason", err)
		return append(opts, lspseam.WithCompilationCacheDir(""))
	}
	opts = append(opts, lspseam.WithCompilationCacheDir(dir))
	after := coreReleaseAfter
	if v := os.Getenv("LSPSEAM_CORE_RELEASE_AFTER"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			log.Warn("LSPSEAM_CORE_RELEASE_AFTER is not a duration like 30s or 0; using the default", "value", v, "default", coreReleaseAfter)
		} else {
			after = d
		}
	}
	if after > 0 {
		opts = append(opts, lspseam.WithIdleRelease(after))
	}
	return opts
}

// coreEngine is the engine $LSPSEAM_CORE names: native (the default), or
// module to run the shim on the WebAssembly module every other host runs,
// or checked to answer natively and check each answer against the module
// (the test suites run so). Why native by default: RATIONALE.md, "One
// core, two compilations".
func coreEngine(log *slog.Logger) lspseam.Engine {
	v := os.Getenv("LSPSEAM_CORE")
	if v == "" {
		return lspseam.EngineNative
	}
	e, err := lspseam.ParseEngine(v)
	if err != nil {
		log.Warn("LSPSEAM_CORE is not module, native or checked; using native", "value", v)
		return lspseam.EngineNative
	}
	return e
}

// lazyCoreOptions are coreOptions for a command that may never need the
// module: the tool definitions and the presets come from the answers
// generated at build time, so `lspseam tools`, `doctor` and the servers
// commands answer without waiting for a compilation (lspseam.WithLazyCompile);
// a --config file is validated by the core package linked natively until
// the module has started (bindings/go/nativestart.go).
func lazyCoreOptions(log *slog.Logger) []lspseam.Option {
	return append(coreOptions(log), lspseam.WithLazyCompile())
}

// coreReleaseAfter is how long the core stays compiled without a call: an
// agent's tool calls within a task come seconds apart, so a burst keeps it
// and a pause between tasks gives its memory back.
const coreReleaseAfter = 30 * time.Second

// maxInstanceMemory is the linear memory an instance may keep between
// calls: it starts at 4 MB and a 10,000-location answer grows it to about
// 10 MB; a larger one (a huge answer, a file of megabytes edited) does
// not leave its peak behind.
const maxInstanceMemory = 32 << 20

// host is a running lspseam: the core, the service and the providers.
type host struct {
	core    *lspseam.Core
	service *lspseam.Service
	local   *localstdio.Host
	toolbox *toolbox.Toolbox // every toolset; surfaces that offer fewer make their own
	timeout int64            // ms
	// approval is the config's approval mode (core.ApprovalPreview unless
	// the config says otherwise); --approval wins over it.
	approval string
	// maxRequestBytes bounds one message from serve's client.
	maxRequestBytes int64
	log             *slog.Logger
	// table is the loaded config or presets (the census joins it).
	table *localstdio.Table

	// start is what startHost left running in the background (lazy: the
	// core's compilation and the servers' registration); local is set
	// when it has ended.
	start hostStart
}

// startHost loads the config (or the presets) and registers its servers.
// With lazy (serve and mcp), it returns before the core module is
// compiled: the presets and the tool definitions come from the answers
// generated at build time (lspseam.WithLazyCompile), and the servers are
// registered in the background (hoststart.go); every call waits for that
// first (host.waitStarted). A --config file is validated by the native
// core package while the module starts (bindings/go/nativestart.go), so
// a bad one is reported in the handshake without waiting for it.
func startHost(ctx context.Context, flags commonFlags, stderr io.Writer, lazy bool) (*host, error) {
	log, err := newLogger(flags.logLevel, stderr)
	if err != nil {
		return nil, usageError{err}
	}
	opts := coreOptions(log)
	if lazy {
		opts = append(opts, lspseam.WithLazyCompile())
	}
	began := time.Now()
	c, err := lspseam.NewCore(ctx, opts...)
	if err != nil {
		return nil, err
	}
	if !lazy && c.Engine() != lspseam.EngineNative {
		// Compiling (or loading) the core module allocates tens of MB
		// that are garbage once it is done; the shim is long-lived, so
		// hand them back to the OS now rather than whenever the runtime
		// gets to it (a lazy Core does so itself).
		debug.FreeOSMemory()
	}
	var table *localstdio.Table
	if flags.config != "" {
		table, err = localstdio.LoadFile(ctx, c, flags.config, loadOptions())
	} else {
		table, err = localstdio.LoadPresets(ctx, c, loadOptions())
	}
	if err != nil {
		c.Close(ctx)
		return nil, err
	}
	if summary := table.MissingSummary(); summary != "" {
		// A table the user wrote names servers they expect, and a long-lived
		// serve or mcp logs for later reading: say once, at warn, which are
		// missing. A one-shot query on the presets says it at info only:
		// missing presets are the normal case on a machine with some
		// servers, and a query on such a file says what to install.
		level := slog.LevelWarn
		if flags.config == "" && !flags.longLived {
			level = slog.LevelInfo
		}
		log.Log(ctx, level, summary)
	}
	service := lspseam.NewService(c)
	cfg, servers := table.Config, table.Servers
	toolbox, err := toolbox.NewToolbox(ctx, c, service, core.Toolsets...)
	if err != nil {
		c.Close(ctx)
		return nil, err
	}
	toolbox.SetLogger(log)
	h := &host{core: c, service: service, toolbox: toolbox, table: table, timeout: cfg.TimeoutMs, maxRequestBytes: cfg.MaxRequestBytes, approval: cfg.Approval, log: log}
	if lazy {
		h.startInBackground(ctx, began)
	} else if err := h.registerServers(ctx); err != nil {
		c.Close(ctx)
		return nil, err
	} else if flags.longLived {
		trimAfterStart()
	}
	if flags.timeout < 0 {
		h.close()
		return nil, usageError{errors.New("--timeout must be a positive number of milliseconds")}
	}
	if flags.timeout > 0 {
		h.timeout = int64(flags.timeout)
	}
	for _, s := range servers {
		log.Info("language server registered", "id", s.ID, "path", s.Path, "extensions", s.Config.ExtensionToLanguage)
	}
	return h, nil
}

func (h *host) close() {
	ctx := context.Background()
	h.service.Close()
	h.start.stop()
	if h.local != nil {
		h.local.Close(ctx)
	}
	h.core.Close(ctx)
}

type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }

// lspError extracts a structured error, wrapping anything else as an
// internal one.
func lspError(err error) *lspseam.Error {
	var lerr *lspseam.Error
	if errors.As(err, &lerr) {
		return lerr
	}
	return lspseam.Errorf(lspseam.CodeInternal, "%v", err)
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// approvalFlag registers --approval (call, serve, mcp): how the refactor
// tools apply changes. "" (not given) means the config's approval.
func approvalFlag(fs *flag.FlagSet) *string {
	return fs.String("approval", "", "how refactor tools apply changes: preview (a diff and a previewId first), auto, or elicit (mcp only: the client asks the user); default: the config's approval, else preview")
}

// checkApprovalFlag checks --approval before anything starts: "" (the
// config's mode), preview, auto, or elicit for mcp. call and serve have no
// MCP client to ask the user through, so elicit on their command line is a
// mistake; the config's elicit is preview there (one config serves every
// surface).
func checkApprovalFlag(command, mode string) error {
	switch mode {
	case "", core.ApprovalPreview, core.ApprovalAuto:
		return nil
	case core.ApprovalElicit:
		if command == "mcp" {
			return nil
		}
		return usageError{fmt.Errorf("--approval elicit asks the user through an MCP client's elicitation, so only lspseam mcp takes it; %s takes preview or auto", command)}
	}
	return usageError{fmt.Errorf("--approval must be preview, auto or elicit (mcp only), got %q", mode)}
}

// approvalMode is the approval mode of a surface: --approval when given,
// else the config's approval (preview by default). elicit is kept only
// where the surface can ask the user (mcp); elsewhere it is preview.
func (h *host) approvalMode(flagMode string, canElicit bool) string {
	mode := flagMode
	if mode == "" {
		mode = h.approval
	}
	if mode == "" || (mode == core.ApprovalElicit && !canElicit) {
		mode = core.ApprovalPreview
	}
	return mode
}

// setApproval sets the Toolbox's mode for a surface's approval mode: an
// elicit surface runs the Toolbox in preview mode and asks the user about
// each preview itself.
func setApproval(tb *toolbox.Toolbox, mode string) error {
	if mode == core.ApprovalElicit {
		mode = core.ApprovalPreview
	}
	return tb.SetApproval(mode)
}
