package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// isTerminal: f is a console (it has a console mode); pipes and files are
// not.
func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
