package core

import (
	"bytes"
	"fmt"
	"testing"
)

// Native-only benchmarks of the hot paths; bindings/go has the module
// comparison.

func benchPayload(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"operation":"findReferences","result":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"uri":"file:///work/project/pkg%d/file%d.go","range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}}`,
			i%7, i/10, i, i%80, i, i%80+5)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func BenchmarkTranslate(b *testing.B) {
	for _, n := range []int{10, 1000} {
		in := benchPayload(n)
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
		tr := Call("translate", benchPayload(n))
		in := []byte(`{"workspaceUri":"file:///work/project","maxLocations":100000,"maxResultChars":10000000,"result":` + string(tr[6:len(tr)-1]) + `}`)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Call("render", in)
			}
		})
	}
}
