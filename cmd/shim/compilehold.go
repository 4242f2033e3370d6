//go:build lspseam_compilehold

package main

import (
	"context"
	"os"
	"time"

	"github.com/lspseam/lspseam/internal/corehold"
)

// Test builds only (-tags lspseam_compilehold, as cmd/shim's tests build
// lspseam): with $LSPSEAM_TEST_COMPILE_HOLD set to a path, the core
// module's background compilation waits until that file exists, so a test
// can prove what is answered before the module is compiled instead of
// racing a compilation that happens to be slow.
func init() {
	path := os.Getenv("LSPSEAM_TEST_COMPILE_HOLD")
	if path == "" {
		return
	}
	corehold.BeforeCompile = func(ctx context.Context) error {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := os.Stat(path); err == nil {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-tick.C:
			}
		}
	}
}
