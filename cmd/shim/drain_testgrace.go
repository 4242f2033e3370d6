//go:build lspseam_compilehold

package main

import (
	"os"
	"time"
)

// Test builds only (-tags lspseam_compilehold, as cmd/shim's tests build
// lspseam): $LSPSEAM_TEST_DRAIN_GRACE (a Go duration) replaces drainGrace,
// so a test can see a call cut off without waiting out the real grace.
func init() {
	if d, err := time.ParseDuration(os.Getenv("LSPSEAM_TEST_DRAIN_GRACE")); err == nil && d > 0 {
		drainGrace = d
	}
}
