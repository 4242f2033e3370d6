package lspseam

import (
	"runtime"

	"github.com/lspseam/lspseam/core"
)

// hostPaths are this OS's rules for paths and their file: URIs: POSIX
// paths, or drive and UNC paths on Windows (file:///C:/x), names compared
// without regard to case on macOS and Windows (core.PathRulesFor). The
// tools turn every host path into a URI, and back, through them.
var hostPaths = core.PathRulesFor(runtime.GOOS)
