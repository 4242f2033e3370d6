package lspseam

import "github.com/lspseam/lspseam/core"

// A host shows a user's configuration problems in its handshake (`lspseam
// mcp` answers initialize with them), so it validates its --config before
// it answers. The tool definitions and the presets are answered from the
// file generated at build time (handshake.go), but a user's file cannot
// be known then; waiting for the module instead cost the handshake the
// module's start, 250–330 ms with its precompiled code carried and
// seconds with an empty cache. So until the module has started,
// validateConfig is answered by the core package linked into the host:
// the same source compiled natively, and TestParity checks that module
// and native answer every golden case byte for byte (the validateConfig
// cases among them), FuzzNativeStartParity any other input. After the
// start the module answers, as it does every other method: the module
// stays the one authority on the query path, the native package only
// bridges a start for what the host must show before its first tool call.

// answeredNativelyBeforeStart are the methods the native core package
// answers while the module is starting: pure functions of small inputs a
// host needs before it can answer its client at all.
var answeredNativelyBeforeStart = map[string]bool{
	"validateConfig": true,
}

// nativeBeforeStart is the native core's envelope for method and input
// when the module has not started yet and the method is one it answers
// then; ok is false otherwise (the module answers).
func (c *Core) nativeBeforeStart(method string, input []byte) (envelope []byte, ok bool) {
	if !answeredNativelyBeforeStart[method] || c.started() {
		return nil, false
	}
	return core.Call(method, input), true
}
