//go:build wasip1

// Command wasm is the lspseam core compiled to one WebAssembly module: the
// bytes every host runs (bindings/go embeds them; bindings/js ships them).
//
// Build it with `make wasm`, which runs
//
//	GOOS=wasip1 GOARCH=wasm go build -trimpath -buildvcs=false -buildmode=c-shared \
//	    -o bindings/go/core.wasm ./cmd/wasm
//
// The module is a WASI preview1 reactor: hosts call _initialize once, then
// the exports below. It imports only wasi_snapshot_preview1 functions the Go
// runtime needs (clock, random, fd_write for crash output, proc_exit); it
// does no I/O of its own.
//
// ABI (see docs/abi.md):
//
//	lspseam_abi_version() -> i32
//	lspseam_alloc(size i32) -> i32            a buffer the host writes into
//	lspseam_free(ptr i32)                     releases any buffer from alloc or call
//	lspseam_call(method_ptr, method_len, in_ptr, in_len i32) -> i64
//	                                          ptr<<32 | len of a JSON envelope
//
// Pointers passed to lspseam_call must be ones lspseam_alloc returned (the
// lengths may be shorter than what was allocated); a call never frees its
// inputs. The host frees the result and its inputs with lspseam_free, and
// must re-read memory after every call because the module's memory may
// grow.
package main

import (
	"runtime"
	"unsafe"

	"github.com/lspseam/lspseam/core"
)

// buffers keeps every buffer the host may still read or write reachable, so
// the garbage collector neither frees nor reuses it. Go's collector does not
// move objects, so a buffer's address is stable while it is in the map.
var buffers = map[uint32][]byte{}

func keep(b []byte) uint32 {
	if cap(b) == 0 {
		b = make([]byte, 0, 1) // a unique, non-zero address even for empty buffers
	}
	ptr := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b[:cap(b)]))))
	buffers[ptr] = b[:cap(b)]
	return ptr
}

//go:wasmexport lspseam_abi_version
func abiVersion() int32 { return core.ABIVersion }

//go:wasmexport lspseam_alloc
func alloc(size int32) int32 {
	if size < 0 {
		return 0
	}
	return int32(keep(make([]byte, size)))
}

//go:wasmexport lspseam_free
func free(ptr int32) { delete(buffers, uint32(ptr)) }

//go:wasmexport lspseam_call
func call(methodPtr, methodLen, inPtr, inLen int32) int64 {
	method, ok1 := view(methodPtr, methodLen)
	input, ok2 := view(inPtr, inLen)
	var out []byte
	if !ok1 || !ok2 {
		out = []byte(`{"error":{"code":"LSP_INVALID_ARGUMENT","message":"lspseam_call was given a pointer that lspseam_alloc did not return, or a length longer than its buffer; allocate method and input with lspseam_alloc"}}`)
	} else {
		out = core.Call(string(method), input)
	}
	ptr := keep(out)
	// Let the runtime's other goroutines run before returning to the host.
	// The Go scheduler only runs while an export is running, and a
	// collection started during a call needs its background mark workers
	// to finish. Without this yield a cycle could stay unfinished across
	// calls. The module's memory then grew by megabytes per large call,
	// without bound (10,000-location answers: 9 MB, then 900 MB after 300
	// calls), while its live heap stayed at 4 MB. The yield costs about
	// 1 µs per call.
	runtime.Gosched()
	return int64(ptr)<<32 | int64(len(out))
}

// view returns the first n bytes of the buffer alloc returned at ptr.
func view(ptr, n int32) ([]byte, bool) {
	if n == 0 {
		return nil, true
	}
	b, ok := buffers[uint32(ptr)]
	if !ok || n < 0 || int(n) > len(b) {
		return nil, false
	}
	return b[:n], true
}

func main() {}
