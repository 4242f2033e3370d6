package supervisor

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// dropFilePages unmaps from this process the pages of its read-only file
// mappings (the binary's code and read-only data, the C library's) that
// it has touched, leaving them in the page cache.
//
// The supervisor is the shim's whole binary, and the Go runtime's start-up
// touches a few MB of its code and tables; afterwards the supervisor
// blocks in two system calls and runs a few functions per server. Those
// pages are the shim's too (the same file, the same page-cache pages), so
// keeping them mapped costs the machine nothing, but it counts them in the
// supervisor's resident set — several times what it really holds. The
// pages it still uses fault back in from the page cache (minor faults, no
// I/O). Writable mappings are never touched: their pages are the
// process's own state.
func dropFilePages() {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(maps), "\n") {
		// start-end perms offset dev inode path
		f := strings.Fields(line)
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") || strings.Contains(f[1], "w") || f[1][3] != 'p' {
			continue
		}
		start, end, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		lo, err1 := strconv.ParseUint(start, 16, 64)
		hi, err2 := strconv.ParseUint(end, 16, 64)
		if err1 != nil || err2 != nil || hi <= lo {
			continue
		}
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(lo), uintptr(hi-lo), syscall.MADV_DONTNEED)
	}
}
