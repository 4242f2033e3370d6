package toolbox

import (
	"context"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/testenv"
)

func TestMain(m *testing.M) {
	// One compilation cache for the process, not the user's; the tests'
	// write locks and journals (and their children's: crash tests re-run
	// this binary) out of the user's state directory.
	testenv.Main(m, testenv.PrivateStateDir)
}

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
