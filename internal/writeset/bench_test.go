package writeset

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkApply is the cost of the protocol: a set of n files through
// Begin, synced temporaries and Apply, beside the bare write it replaced
// (a synced temporary renamed over each file, no journal, no links).
func BenchmarkApply(b *testing.B) {
	for _, n := range []int{1, 60} {
		ws := b.TempDir()
		root, err := os.OpenRoot(ws)
		if err != nil {
			b.Fatal(err)
		}
		defer root.Close()
		store, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		content := []string{"package p // one\n", "package p // two\n"}
		for i := 0; i < n; i++ {
			os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%02d.go", i)), []byte(content[0]), 0o644)
		}
		writeTemp := func(name, text string) {
			f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				b.Fatal(err)
			}
			f.WriteString(text)
			f.Sync()
			f.Close()
		}
		b.Run(fmt.Sprintf("journaled/%d", n), func(b *testing.B) {
			for k := 0; k < b.N; k++ {
				before, after := content[k%2], content[(k+1)%2]
				changes := make([]Change, n)
				for i := range changes {
					changes[i] = Change{Path: fmt.Sprintf("f%02d.go", i), Before: HashString(before), After: HashString(after)}
				}
				tx, err := store.Begin(ws, root, changes)
				if err != nil {
					b.Fatal(err)
				}
				for i := range changes {
					writeTemp(tx.Temp(i), after)
				}
				if err := tx.Apply(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("bare/%d", n), func(b *testing.B) {
			for k := 0; k < b.N; k++ {
				for i := 0; i < n; i++ {
					name := fmt.Sprintf("f%02d.go", i)
					writeTemp("."+name+".tmp", content[k%2])
					if err := root.Rename("."+name+".tmp", name); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
