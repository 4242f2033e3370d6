// Command handshakegen writes bindings/go/handshake.json (see package
// internal/handshake): the core's answers a host shows before its first
// tool call, computed natively from the core package. `make wasm` runs it
// right after building the module; so does `go generate ./bindings/go`.
//
//	go run ./cmd/handshakegen bindings/go/handshake.json
package main

import (
	"fmt"
	"os"

	"github.com/lspseam/lspseam/core"
	"github.com/lspseam/lspseam/internal/handshake"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: handshakegen OUTPUT.json")
		os.Exit(2)
	}
	data, err := handshake.Generate(core.Toolsets, core.Call)
	if err == nil {
		err = os.WriteFile(os.Args[1], data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "handshakegen:", err)
		os.Exit(1)
	}
}
