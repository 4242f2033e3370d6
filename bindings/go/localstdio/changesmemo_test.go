package localstdio

import (
	"context"
	"encoding/json"
	"reflect"
	"sync/atomic"
	"testing"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Two inputs in turn (an agent editing two files) are answered from
// memory after their first time, the same as the core answers; a fifth
// input pushes the oldest out.
func TestChangesMemoKeepsRecentInputs(t *testing.T) {
	ctx := context.Background()
	c, asked := countingCore(t, "fileChanges")
	input := func(path string) lspseam.FileChangesInput {
		return lspseam.FileChangesInput{
			Changes:    []lspseam.PathChange{{Path: "/w/" + path, First: "changed", Last: "changed"}},
			Extensions: []string{".go"}, Root: "/w", OpenDocuments: []string{"/w/a.go"}, MaxBatch: 1000,
		}
	}
	var m changesMemo
	for i, path := range []string{"a.go", "b.go", "a.go", "b.go", "a.go", "c.go", "d.go", "e.go", "b.go"} {
		got, err := m.fileChanges(ctx, c, input(path))
		if err != nil {
			t.Fatal(err)
		}
		want, err := c.FileChanges(ctx, input(path))
		if err != nil {
			t.Fatal(err)
		}
		asked.Add(-1) // the reference call
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("call %d (%s): from the memo %s, the core %s", i, path, g, w)
		}
	}
	// a, b asked once each; c, d, e once; b again after c, d, e and a
	// pushed it out of four.
	if n := asked.Load(); n != 6 {
		t.Errorf("the core was asked %d times for 9 calls on 5 inputs, want 6", n)
	}
}

// countingCore is a Core that counts its calls of method (closed when the
// test ends): a memo's test sees how often it asked the module.
func countingCore(t *testing.T, method string) (*lspseam.Core, *atomic.Int32) {
	t.Helper()
	ctx := context.Background()
	asked := new(atomic.Int32)
	c, err := lspseam.NewCore(ctx, lspseam.WithCallTrace(func(tr lspseam.CallTrace) {
		if tr.Method == method {
			asked.Add(1)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c, asked
}
