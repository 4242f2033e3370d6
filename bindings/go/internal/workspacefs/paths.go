package workspacefs

import (
	"runtime"

	"github.com/lspseam/lspseam/core"
)

// HostPaths are this OS's rules for paths and their file: URIs: POSIX
// paths, or drive and UNC paths on Windows (file:///C:/x), names compared
// without regard to case on macOS and Windows (core.PathRulesFor). Every
// host path of the bindings — the provider's, the tools', the writes' —
// becomes a URI, and back, through them.
var HostPaths = core.PathRulesFor(runtime.GOOS)
