package toolbox

import (
	"runtime"

	"github.com/lspseam/lspseam/core"
)

// hostPaths are this OS's rules for paths and their file: URIs
// (core.PathRulesFor): the tools turn every host path into a URI, and
// back, through them.
var hostPaths = core.PathRulesFor(runtime.GOOS)
