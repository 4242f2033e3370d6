package lspseam

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// Engine is what answers a Core's calls: the embedded WebAssembly module
// (the default), the same core package linked into the host, or both,
// compared.
//
// Every engine gives the same bytes for the same call: the module is the
// core package compiled for WebAssembly, and the parity tests check the
// two byte for byte over every golden case (TestParity) and any other
// input (the fuzz targets). What differs is the cost. A module call
// costs 10–20 times the native call (the Go runtime's WebAssembly code
// is larger and slower, and after a pause its caches refill): 1.1 ms
// against 0.09 ms for a references answer's codeLocations, 0.2–0.3 ms
// against a few µs for the smallest call after a pause. The module also
// compiles before its first call (seconds on a cold cache) and holds
// tens of MB while loaded. A long-lived host on the agent's query path
// (`lspseam mcp`, `serve`) wants EngineNative; a host that must run the
// one artifact every host runs (a browser, a plugin, a test of the
// module itself) wants EngineModule. See RATIONALE.md, "One core, two
// compilations".
type Engine int

const (
	// EngineModule runs the embedded WebAssembly module through wazero.
	EngineModule Engine = iota
	// EngineNative answers with the core package linked into the host:
	// nothing is compiled or loaded, WithIdleRelease and
	// WithLazyCompile have nothing to do, and Close returns at once.
	EngineNative
	// EngineChecked answers natively and runs the module on the same
	// input too; an answer that differs by one byte fails the call with
	// LSP_INTERNAL_ERROR naming the method. For tests: it pays for both.
	EngineChecked
)

// String is the engine's name as LSPSEAM_CORE spells it.
func (e Engine) String() string {
	switch e {
	case EngineModule:
		return "module"
	case EngineNative:
		return "native"
	case EngineChecked:
		return "checked"
	}
	return fmt.Sprintf("Engine(%d)", int(e))
}

// ParseEngine reads an engine's name: "module", "native" or "checked".
func ParseEngine(name string) (Engine, error) {
	for _, e := range []Engine{EngineModule, EngineNative, EngineChecked} {
		if strings.EqualFold(strings.TrimSpace(name), e.String()) {
			return e, nil
		}
	}
	return 0, Errorf(CodeInvalidArgument, "core engine %q is not one of module, native, checked", name)
}

// WithEngine chooses what answers the Core's calls (default EngineModule).
func WithEngine(e Engine) Option { return func(o *options) { o.engine = e } }

// Engine is the engine that answers c's calls.
func (c *Core) Engine() Engine { return c.engine }

// nativeCall is the native core's entry (a variable so that a test can
// make the two engines disagree).
var nativeCall = core.Call

// newNativeCore is NewCore for EngineNative: no runtime, nothing to
// compile; the start has ended before it began.
func newNativeCore(o options) *Core {
	c := &Core{engine: EngineNative, trace: o.trace, closed: make(chan struct{})}
	c.start.done()
	return c
}

// checkedCall is EngineChecked's call: the native answer, once the
// module has given the same bytes for the same input.
func (c *Core) checkedCall(ctx context.Context, method string, input []byte) ([]byte, error) {
	native := nativeCall(method, input)
	module, err := c.moduleCall(ctx, method, input)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(native, module) {
		return nil, Errorf(CodeInternal, "the native core and the module answered %s differently (input %d bytes, native %d bytes, module %d bytes); this is a bug in lspseam: run with LSPSEAM_CORE=module and report it", method, len(input), len(native), len(module))
	}
	return native, nil
}
