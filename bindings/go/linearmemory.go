package lspseam

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
)

// Where an instance's linear memory lives.
//
// wazero's default keeps a module's linear memory in a Go []byte and
// grows it by appending: each growth copies it to a new, larger array,
// and the whole of it counts in the Go heap, whose collector then lets
// the heap grow by as much again before it runs. `lspseam mcp`'s heap
// right after a hover held 10.4 MB of such arrays for one instance of
// 5 MB (heap profile, session of 2026-12-02); with the memory below, its
// live heap went from 24.6 to 14.2 MB and its anonymous memory from
// 23.6–28.3 to 22.0–22.2 MB.
//
// Where the platform allows (linearmemory_linux.go), each instance's
// memory is instead a reservation of address space of its maximum size,
// of which only the pages the module touches are resident: growing is
// lengthening a slice (no copy), the Go heap does not hold it, and
// closing the instance gives its pages back at once. Elsewhere, and if
// the reservation fails, wazero's default is used.

// withLinearMemory is ctx with the allocator for the instance about to
// be instantiated; the memory it made, if any, is put in *mem so that the
// instance keeps it reachable (see mappedMemory).
func withLinearMemory(ctx context.Context, mem *experimental.LinearMemory) context.Context {
	alloc := linearMemoryAllocator(mem)
	if alloc == nil {
		return ctx
	}
	return experimental.WithMemoryAllocator(ctx, alloc)
}
