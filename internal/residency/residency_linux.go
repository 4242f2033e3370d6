// Package residency gives a process's clean file-backed pages back to the
// page cache and keeps code the process generates in a file mapping, so
// what a waiting process holds resident is what it really owns. Linux
// only; elsewhere its functions do nothing and report no support.
package residency

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// DropFilePages unmaps from this process the pages of its read-only file
// mappings (the binary's code and read-only data, the C library's, a
// FileCode mapping) that it has touched, leaving them in the page cache:
// clean pages the kernel reclaims when it needs memory, and shares with
// every other process mapping the same file. The pages the process uses
// again fault back in from the page cache (minor faults, no I/O while the
// kernel keeps them).
//
// Only mappings whose every page is still the file's are dropped: a
// mapping now read-only may have been written before (the dynamic loader's
// relocations, made read-only afterwards), and its private copies are the
// process's own state — smaps counts them as Anonymous. Writable mappings
// are never touched.
func DropFilePages() {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return
	}
	var lo, hi uint64 // the current mapping, if it is a candidate
	for _, line := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && len(f[1]) == 4:
			// A mapping's header: start-end perms offset dev inode [path].
			lo, hi = 0, 0
			if len(f) < 6 || !strings.HasPrefix(f[5], "/") || f[1][1] == 'w' || f[1][3] != 'p' {
				continue
			}
			start, end, _ := strings.Cut(f[0], "-")
			a, err1 := strconv.ParseUint(start, 16, 64)
			b, err2 := strconv.ParseUint(end, 16, 64)
			if err1 == nil && err2 == nil && b > a {
				lo, hi = a, b
			}
		case len(f) >= 2 && f[0] == "Anonymous:" && hi > lo:
			if f[1] == "0" {
				syscall.Syscall(syscall.SYS_MADVISE, uintptr(lo), uintptr(hi-lo), syscall.MADV_DONTNEED)
			}
			lo, hi = 0, 0
		}
	}
}

// DropEmbedded gives back to the page cache the pages of b, which must be
// data embedded in the binary (go:embed) and never written: the linker
// puts such a []byte in a writable mapping, which DropFilePages leaves
// alone, and dropping a page there brings back the file's bytes — b's own
// bytes, since nothing wrote them. It checks that b lies in a file-backed
// mapping and does nothing otherwise (heap bytes would be zeroed). Only the
// pages wholly inside b are dropped.
func DropEmbedded(b []byte) {
	if len(b) == 0 {
		return
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	hi := lo + uintptr(len(b))
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	fileBacked := false
	for _, line := range strings.Split(string(maps), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") || f[1][3] != 'p' {
			continue
		}
		start, end, _ := strings.Cut(f[0], "-")
		a, err1 := strconv.ParseUint(start, 16, 64)
		z, err2 := strconv.ParseUint(end, 16, 64)
		if err1 == nil && err2 == nil && uintptr(a) <= lo && hi <= uintptr(z) {
			fileBacked = true
			break
		}
	}
	if !fileBacked {
		return
	}
	page := uintptr(os.Getpagesize())
	first, last := (lo+page-1)&^(page-1), hi&^(page-1)
	if last > first {
		syscall.Syscall(syscall.SYS_MADVISE, first, last-first, syscall.MADV_DONTNEED)
	}
}
