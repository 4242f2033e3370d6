package core

import (
	"fmt"
	"testing"

	"github.com/lspseam/lspseam/internal/casefile"
)

// Native-only benchmarks of the hot paths; bindings/go has the module
// comparison.

func BenchmarkTranslate(b *testing.B) {
	for _, n := range []int{10, 1000} {
		in := casefile.ReferencesPayload(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call("translate", in)
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	for _, n := range []int{10, 1000} {
		tr := Call("translate", casefile.ReferencesPayload(n))
		in := []byte(`{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":` + string(tr[6:len(tr)-1]) + `}`)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call("render", in)
			}
		})
	}
}
