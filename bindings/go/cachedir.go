package lspseam

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"
)

// Compiling the core module to machine code is the dominant cost of a
// cold NewCore: seconds, against a fraction of a second to load the code
// from a cache directory. The lspseam CLI has always kept that code on
// disk; a Go program gets the same cache by default, so its second run
// starts as fast as the CLI does (docs/go.md).

// DefaultCacheDir is the directory where compiled core code is kept unless
// WithCompilationCacheDir says otherwise, created if needed:
// $LSPSEAM_CACHE_DIR, else the user's cache directory + /lspseam
// (~/.cache/lspseam on Linux). The lspseam CLI uses the same directory,
// so either one warms it for the other. Entries are keyed by the module's
// bytes and the wazero version: a different build never loads another's
// code.
func DefaultCacheDir() (string, error) {
	dir := os.Getenv("LSPSEAM_CACHE_DIR")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(base, "lspseam")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, nil
}

// defaultCache is the compilation cache of every Core without
// WithCompilationCacheDir: DefaultCacheDir on disk, shared in memory by
// the Cores of the process as processCache is (only the first NewCore of
// a process reads the directory), for the life of the process. Where the
// directory cannot be used (no home, a read-only file system), it is
// processCache: each process then compiles the module once.
var defaultCache = sync.OnceValue(func() wazero.CompilationCache {
	if dir, err := DefaultCacheDir(); err == nil {
		if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			return cache
		}
	}
	return processCache()
})
