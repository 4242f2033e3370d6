package localstdio

import (
	"runtime"

	"github.com/lspseam/lspseam/core"
)

// hostPaths are this OS's rules for paths and their file: URIs: POSIX
// paths, or drive and UNC paths on Windows, names compared without regard
// to case on macOS and Windows (core.PathRulesFor). Everything the host
// turns from a path into a URI, or back, or keys by path, goes through
// them; tests run another OS's route by passing core.PathRulesFor(goos).
var hostPaths = core.PathRulesFor(runtime.GOOS)
