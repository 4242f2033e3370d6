package lspseam

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestLinearMemoryIsMapped: an instance's linear memory is a mapping of
// its own (linearmemory_linux.go), not Go heap: a call that grows it by
// tens of MB leaves the heap as it was, and the instance still answers
// after its memory moved past its first size.
func TestLinearMemoryIsMapped(t *testing.T) {
	ctx := context.Background()
	c := newTestCore(t, WithMaxInstances(1))
	in, err := c.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.release(in)
	if _, ok := in.mem.(*mappedMemory); !ok {
		t.Fatalf("the instance's memory is %T, want *mappedMemory", in.mem)
	}
	before := in.module.Memory().Size()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapAlloc
	// A 24 MB input: the module copies it into its own heap, growing its
	// memory by at least as much.
	big := `{"file_path":"` + strings.Repeat("a", 24<<20) + `"}`
	if _, err := in.call(ctx, "parseCodeArgs", []byte(`{"name":"read","arguments":`+big+`}`)); err != nil {
		t.Fatal(err)
	}
	after := in.module.Memory().Size()
	if after < before+24<<20 {
		t.Fatalf("the memory grew from %d to %d bytes; the test needs it to grow by 24 MB", before, after)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if grew := int64(ms.HeapAlloc) - int64(heapBefore); grew > 8<<20 {
		t.Errorf("the Go heap grew by %d MB with the linear memory: it is not mapped apart", grew>>20)
	}
	out, err := in.call(ctx, "parseCodeArgs", []byte(`{"name":"read","arguments":{"file_path":"a.go"}}`))
	if err != nil || !strings.Contains(string(out), "a.go") {
		t.Fatalf("a call after the growth: %v %s", err, out)
	}
}

// TestLinearMemoryFreeKeepsTheMapping: Free gives the pages back but keeps
// the range mapped (a call still running after its module was closed
// reads zeros, it does not crash the process); the range is unmapped
// only when the memory is garbage.
func TestLinearMemoryFreeKeepsTheMapping(t *testing.T) {
	m := newMappedMemory(64 << 20)
	if m == nil {
		t.Skip("no address space for a reservation here")
	}
	b := m.Reallocate(1 << 20)
	b[4096] = 7
	m.Free()
	if b[4096] != 0 {
		t.Fatalf("after Free the page still holds %d, want the zero page", b[4096])
	}
	b[4096] = 1 // still mapped and writable
	if m.Reallocate(65<<20) != nil {
		t.Fatal("Reallocate past the reservation must fail")
	}
}
