//go:build !unix

package writeset

import (
	"errors"
	"os"
	"runtime"
)

// tryLock fails loudly where no advisory lock is implemented yet: writes
// are refused rather than made without the cross-process guarantee.
func tryLock(f *os.File) (bool, error) {
	return false, errors.New("cross-process file locks are not implemented on " + runtime.GOOS)
}

// processAlive cannot tell here: a journal being written is kept until it
// is stale.
func processAlive(pid int) bool { return true }
