package residency

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Code is machine code the process generated (a WebAssembly runtime's
// compiled module) moved into a file mapping: its pages are then page
// cache, which Drop gives back and the next execution faults in again,
// instead of anonymous memory that stays resident for as long as the code
// is kept.
type Code struct {
	addr, length uintptr
}

// Supported reports whether this platform can move code into a file.
const Supported = true

// Mappings are a process's anonymous executable mappings, start → end.
type Mappings map[uintptr]uintptr

// AnonExecMappings lists the anonymous executable mappings now, for
// MoveNewCode to tell which ones a compilation added.
func AnonExecMappings() Mappings {
	m := Mappings{}
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(data), "\n") {
		// start-end perms offset dev inode [path]
		f := strings.Fields(line)
		if len(f) != 5 || f[1] != "r-xp" || f[4] != "0" {
			continue
		}
		start, end, _ := strings.Cut(f[0], "-")
		lo, err1 := strconv.ParseUint(start, 16, 64)
		hi, err2 := strconv.ParseUint(end, 16, 64)
		if err1 == nil && err2 == nil && hi > lo {
			m[uintptr(lo)] = uintptr(hi)
		}
	}
	return m
}

// minCode is the smallest mapping worth moving: a module's code, not a
// runtime's trampolines.
const minCode = 1 << 20

// MoveNewCode moves the largest anonymous executable mapping that is not
// in before into a file created in dir, which must be on a disk-backed
// file system: it copies the mapping's bytes into the file, maps the file
// over the same addresses (so every pointer into the code stays valid,
// and the bytes are the same), and unlinks the file, which lives on until
// the mapping goes (when the runtime unmaps the code, or the process
// exits). The caller must keep other compilations from running between
// before and this call, or the newest mapping may be theirs (harmless:
// any such mapping may be moved, as long as nothing writes to it, and
// runtimes make code read-only once written).
func MoveNewCode(dir string, before Mappings) (*Code, error) {
	var addr, length uintptr
	for lo, hi := range AnonExecMappings() {
		if before[lo] != hi && hi-lo > length {
			addr, length = lo, hi-lo
		}
	}
	if length < minCode {
		return nil, errors.New("residency: no new code mapping")
	}
	if InMemoryFS(dir) {
		// Its pages would be shared memory that only swap can free: no
		// better than the anonymous pages they replace.
		return nil, fmt.Errorf("residency: %s is in memory (tmpfs)", dir)
	}
	f, err := os.CreateTemp(dir, "lspseam-code-*")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer os.Remove(f.Name())
	// The kernel copies the bytes from the mapping (the code is not Go
	// memory, so no slice of it is made).
	for done := uintptr(0); done < length; {
		n, _, errno := syscall.Syscall6(syscall.SYS_PWRITE64, f.Fd(), addr+done, length-done, done, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 || n == 0 {
			return nil, fmt.Errorf("residency: writing %s: %v", f.Name(), errno)
		}
		done += n
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, length,
		syscall.PROT_READ|syscall.PROT_EXEC, syscall.MAP_PRIVATE|syscall.MAP_FIXED, f.Fd(), 0)
	if errno != 0 {
		// A failed MAP_FIXED leaves the old mapping (EPERM: a noexec mount).
		return nil, fmt.Errorf("residency: mapping %s: %v", f.Name(), errno)
	}
	return &Code{addr: addr, length: length}, nil
}

// InMemoryFS reports whether dir is on tmpfs or ramfs.
func InMemoryFS(dir string) bool {
	var fs syscall.Statfs_t
	if syscall.Statfs(dir, &fs) != nil {
		return false
	}
	const tmpfs, ramfs = 0x01021994, 0x858458f6
	return fs.Type == tmpfs || fs.Type == ramfs
}

// Drop gives the code's pages back to the page cache; the next execution
// faults them in again.
func (c *Code) Drop() {
	syscall.Syscall(syscall.SYS_MADVISE, c.addr, c.length, syscall.MADV_DONTNEED)
}

// Len is the code's size in bytes.
func (c *Code) Len() int { return int(c.length) }

// ResidentBytes is how much of the code is in the process's resident set
// now (from /proc/self/smaps; 0 when unreadable).
func (c *Code) ResidentBytes() int {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0
	}
	header := strconv.FormatUint(uint64(c.addr), 16) + "-"
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && len(f[1]) == 4:
			in = strings.HasPrefix(f[0], header)
		case in && len(f) >= 2 && f[0] == "Rss:":
			kb, _ := strconv.Atoi(f[1])
			return kb << 10
		}
	}
	return 0
}
