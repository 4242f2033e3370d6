//go:build !lspseam_noprecompiled

package main

import (
	"embed"
	"io/fs"
)

// precompiledFiles is the core's machine code that `make build` compiled
// for this machine into precompiled/ (cmd/precompile), or only that
// directory's README when it did not run. Release builds (make dist, for
// other machines) leave it out with the lspseam_noprecompiled tag.
//
//go:embed precompiled
var precompiledFiles embed.FS

// precompiledCode is the set lspseam.WithPrecompiledCode takes.
func precompiledCode() fs.FS {
	set, err := fs.Sub(precompiledFiles, "precompiled")
	if err != nil {
		panic(err) // the directory is embedded: cannot happen
	}
	return set
}
