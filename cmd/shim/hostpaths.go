package main

import (
	"runtime"

	"github.com/lspseam/lspseam/core"
)

// hostPaths are this OS's rules for paths and their file: URIs
// (core.PathRulesFor): a client's file:// root is read back by them.
var hostPaths = core.PathRulesFor(runtime.GOOS)
