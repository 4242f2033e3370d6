package lspseam

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"

	"github.com/lspseam/lspseam/internal/handshake"
)

// The core's answers a host shows before its first tool call — the tool
// definitions of every set of toolsets and the presets configuration — are computed at build time by running the core
// package natively (cmd/handshakegen, run by `make wasm` and go generate)
// and embedded here. A Core answers exactly these inputs from the file, so
// a host's handshake never waits for the module to compile
// (WithLazyCompile); internal/handshake's freshness test fails when the
// file is not what the current core answers, and
// TestHandshakeAnswersAreTheModules that the module agrees.
//
//go:generate go run ../../cmd/handshakegen handshake.json
//go:embed handshake.json
var handshakeJSON []byte

// precomputed is the embedded file, indexed.
type precomputed struct {
	toolsets []string          // the core's toolsets, in its order
	answers  map[string][]byte // method + "\x00" + input → envelope
}

var handshakeAnswers = sync.OnceValue(func() precomputed {
	// A file that does not parse only costs the shortcut: every call goes
	// to the module (the freshness test keeps that from shipping).
	toolsets, answers, err := handshake.Parse(handshakeJSON)
	if err != nil {
		return precomputed{}
	}
	p := precomputed{toolsets: toolsets, answers: make(map[string][]byte, len(answers))}
	for _, a := range answers {
		p.answers[a.Method+"\x00"+string(a.Input)] = a.Envelope
	}
	return p
})

// lookup is the module's envelope for exactly method and input, when the
// file has it; the caller gets its own copy.
func (p precomputed) lookup(method string, input []byte) ([]byte, bool) {
	env, ok := p.answers[method+"\x00"+string(input)]
	if !ok {
		return nil, false
	}
	return append([]byte(nil), env...), true
}

// toolsetsInput is toolDefinitions' input for toolsets as the file keys
// it when every name is a known toolset: the set in the core's order,
// every toolset for none (the core's answer depends on the set only,
// which internal/handshake checks). Otherwise (an unknown name: the
// core's error names the toolsets) it is the list as given.
func (p precomputed) toolsetsInput(toolsets []string) []byte {
	for _, s := range toolsets {
		if !slices.Contains(p.toolsets, s) {
			input, _ := json.Marshal(map[string]any{"toolsets": toolsets})
			return input
		}
	}
	var set []string
	for _, s := range p.toolsets {
		if len(toolsets) == 0 || slices.Contains(toolsets, s) {
			set = append(set, s)
		}
	}
	return handshake.ToolsetsInput(set)
}
