//go:build lspseam_noprecompiled

package main

import "io/fs"

// precompiledCode is empty in release builds (make dist): the code a
// build machine compiles is for its own CPU, not the release's users'.
func precompiledCode() fs.FS { return noFiles{} }

type noFiles struct{}

func (noFiles) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
