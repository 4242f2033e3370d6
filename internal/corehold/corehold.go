// Package corehold lets a test hold a lazily compiled core module back:
// the shim's tests prove that `lspseam mcp` answers initialize and
// tools/list before its core is compiled by holding the compilation until
// they have the answers, instead of racing a compilation that happens to
// be slow. Only a binary built with the lspseam_compilehold tag sets
// BeforeCompile (cmd/shim/compilehold.go); production builds leave it nil.
package corehold

import "context"

// BeforeCompile, when set, runs in a WithLazyCompile Core's background
// start before it compiles the module; an error it returns is the
// compilation's error. Set it only in an init function.
var BeforeCompile func(ctx context.Context) error
