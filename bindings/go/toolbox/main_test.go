package toolbox

import (
	"context"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// newTestCore is a Core closed when the test ends.
func newTestCore(t testing.TB, opts ...lspseam.Option) *lspseam.Core {
	t.Helper()
	c, err := lspseam.NewCore(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}
