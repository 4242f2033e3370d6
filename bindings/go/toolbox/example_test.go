package toolbox_test

import (
	"context"
	"fmt"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/toolbox"
)

// A Toolbox offers the tools of the chosen toolsets, with the core's
// definitions; listing them needs no language server.
func ExampleNewToolbox() {
	ctx := context.Background()
	c, err := lspseam.NewCore(ctx)
	if err != nil {
		panic(err)
	}
	defer c.Close(ctx)
	s := lspseam.NewService(c)
	defer s.Close()

	tb, err := toolbox.NewToolbox(ctx, c, s, "code")
	if err != nil {
		panic(err)
	}
	for _, tool := range tb.Tools() {
		fmt.Println(tool.Name, tool.Toolset, tool.ReadOnly)
	}

	_, err = toolbox.NewToolbox(ctx, c, s, "cod")
	fmt.Println(err)
	// Output:
	// code_symbols code true
	// code_navigate code true
	// code_hover code true
	// code_hierarchy code true
	// code_diagnostics code true
	// code_inlay_hints code true
	// LSP_INVALID_ARGUMENT: unknown toolset "cod"; this build has: lsp, code, fs, refactor (did you mean "code"?)
}
