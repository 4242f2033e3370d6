package lspseam

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/lspseam/lspseam/internal/precompiled"
)

// Whether the compilation cache already holds the module: wazero's cache
// cannot be asked, so a Core that compiled a module leaves a marker beside
// the cache (an empty file named after the module's hash) and, for the
// in-memory caches shared by a process, a flag. A lazy Core prepares its
// bridge (bridge.go) only when neither says the module is there: a module
// loaded from a warm cache is ready before the interpreter would be. A
// marker whose cache entry was removed only costs the bridge; the module
// still compiles.

// cacheWarmth is a Core's view of its compilation cache.
type cacheWarmth struct {
	dir    string // the cache's directory ("": in memory only)
	shared bool   // the in-memory cache every such Core of the process shares
}

// sharedCompiled: a Core of this process compiled into the shared cache.
var sharedCompiled atomic.Bool

// warm reports whether the cache holds module.
func (w cacheWarmth) warm(module []byte) bool {
	if w.shared && sharedCompiled.Load() {
		return true
	}
	if w.dir == "" {
		return false
	}
	_, err := os.Stat(w.marker(module))
	return err == nil
}

// mark records that module was compiled into the cache (best effort).
func (w cacheWarmth) mark(module []byte) {
	if w.shared {
		sharedCompiled.Store(true)
	}
	if w.dir == "" {
		return
	}
	marker := w.marker(module)
	if _, err := os.Stat(marker); err == nil {
		return
	}
	_ = os.WriteFile(marker, nil, 0o644)
}

func (w cacheWarmth) marker(module []byte) string {
	return filepath.Join(w.dir, "lspseam-core-"+moduleKey(module)+".compiled")
}

// moduleKey names a module by the start of its SHA-256 (the embedded
// module's is computed once).
func moduleKey(module []byte) string {
	if len(module) == len(coreWasm) && len(module) > 0 && &module[0] == &coreWasm[0] {
		return embeddedKey()
	}
	return precompiled.ModuleKey(module)
}

var embeddedKey = sync.OnceValue(func() string { return precompiled.ModuleKey(coreWasm) })
