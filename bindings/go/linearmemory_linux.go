package lspseam

import (
	"runtime"
	"syscall"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
)

// linearMemoryAllocator reserves each memory's maximum (4 GiB for the
// core module, which declares none) without committing it: MAP_NORESERVE
// pages cost nothing until touched. On 32-bit platforms there is no room
// for that, and wazero's default is used.
func linearMemoryAllocator(mem *experimental.LinearMemory) experimental.MemoryAllocator {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		return nil
	}
	return experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
		if m := newMappedMemory(max); m != nil {
			*mem = m
			return m
		}
		h := &heapMemory{buf: make([]byte, 0, capacity)}
		*mem = h
		return h
	})
}

// mappedMemory is a linear memory in a reservation of address space.
//
// Free gives the pages back (MADV_DONTNEED: the range stays mapped and
// reads zeros), and the reservation is unmapped only once the
// mappedMemory is garbage. wazero calls Free when the instance is closed,
// and a Core may close its runtime while a call still runs on it (Close
// does not wait for calls); that call must find mapped memory, not a hole
// that crashes the process. An instance holds its memory (instance.mem),
// and a call holds its instance, so the unmapping waits for the last call.
type mappedMemory struct {
	reserved []byte
}

func newMappedMemory(max uint64) *mappedMemory {
	if max == 0 || max > 4<<30 {
		max = 4 << 30
	}
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	m := &mappedMemory{reserved: b}
	runtime.AddCleanup(m, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return m
}

// Reallocate lengthens the memory in place; nil past the reservation.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.reserved)) {
		return nil
	}
	return m.reserved[:size]
}

// Free gives the touched pages back to the OS.
func (m *mappedMemory) Free() {
	_ = syscall.Madvise(m.reserved, syscall.MADV_DONTNEED)
}

// heapMemory is wazero's default, for when a reservation fails.
type heapMemory struct{ buf []byte }

func (h *heapMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(h.buf)) {
		grown := make([]byte, size)
		copy(grown, h.buf)
		h.buf = grown
	}
	h.buf = h.buf[:size]
	return h.buf
}

func (h *heapMemory) Free() { h.buf = nil }
