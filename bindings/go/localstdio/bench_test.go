package localstdio

import (
	"context"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// BenchmarkWarmQuery is the provider's own cost per warm query, in
// process, against the fake server answering at once: the freshness
// barrier, the source read and its verification against the open
// document, the core's module calls and the LSP round trip over pipes.
// Profile it with -cpuprofile to see where a query's time goes.
func BenchmarkWarmQuery(b *testing.B) {
	sharedCore(b)
	f := newFake(b, echo, nil)
	for range 20 {
		f.mustQuery(lspseam.OpDefinition)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := f.query(context.Background(), lspseam.OpDefinition, "a.go"); err != nil {
			b.Fatal(err)
		}
	}
}
