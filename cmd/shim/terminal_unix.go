//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal: f is a terminal (it has terminal attributes); /dev/null and
// other character devices are not.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlReadTermios)
	return err == nil
}
