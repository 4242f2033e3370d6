package casefile

import (
	"bytes"
	"fmt"
)

// ReferencesPayload is a translate input for benchmarks: a
// textDocument/references answer with n locations spread over files in
// seven packages.
func ReferencesPayload(n int) []byte {
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
