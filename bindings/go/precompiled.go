package lspseam

import (
	"io/fs"
	"os"

	"github.com/lspseam/lspseam/internal/precompiled"
)

// With an empty compilation cache, compiling the module is most of a
// first run's cost: 5–6 s of CPU on the machines measured, which a 2-core
// machine takes from the language server loading the workspace beside it
// (RATIONALE, "Why make build carries the compiled core"). Machine code
// compiled when the program was built turns that compile into a load.

// WithPrecompiledCode gives the Core machine code for its module compiled
// ahead of time: set is a tree that cmd/precompile writes (the layout is
// internal/precompiled's), and the lspseam binary that make builds
// carries one. When the compilation cache directory does not hold the
// module yet, the Core writes set's code there before it compiles, so the
// compilation is a load: a lazy Core then prepares no bridge either. A set
// without code for this Core's module and this program's wazero version,
// architecture and system is ignored; code for a CPU with other features
// is written but not loaded (wazero names its entries by them), and the
// module compiles as it would have without the option (LoadedPrecompiledCode
// tells which). With no cache directory on disk
// (WithCompilationCacheDir("")), the option does nothing.
func WithPrecompiledCode(set fs.FS) Option { return func(o *options) { o.precompiled = set } }

// LoadedPrecompiledCode reports whether the Core's module was loaded from
// code that WithPrecompiledCode's set put into the cache: false before
// the module is ready, without the option, when the cache already held
// the module, or when the code was not for this machine and the module
// was compiled.
func (c *Core) LoadedPrecompiledCode() bool { return c.carriedLoaded.Load() }

// warmOrInstall reports whether the compilation cache holds the module
// (warmth.go), and when it does not, writes the precompiled code for the
// module into it and reports whether it wrote any. Failing to write (a
// full disk, a read-only cache) only costs the compilation the code would
// have saved. It runs before the first compilation, which
// carriedWasLoaded then judges.
func (c *Core) warmOrInstall() bool {
	if c.warmth.warm(c.module) {
		return true
	}
	if c.precompiled == nil || c.warmth.dir == "" {
		return false
	}
	paths, err := precompiled.Install(c.precompiled, moduleKey(c.module), precompiled.WazeroDir(), c.warmth.dir)
	if err != nil || len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		info, err := os.Lstat(p)
		if err != nil {
			return false
		}
		c.carried = append(c.carried, carriedEntry{p, info})
	}
	return true
}

// carriedEntry is a cache entry warmOrInstall wrote.
type carriedEntry struct {
	path string
	info os.FileInfo
}

// carriedWasLoaded reports, right after the first compilation, whether it
// loaded the installed code: wazero writes an entry it compiled through a
// new file renamed over the old, so an entry it loaded is still the file
// warmOrInstall wrote.
func (c *Core) carriedWasLoaded() bool {
	if len(c.carried) == 0 {
		return false
	}
	for _, e := range c.carried {
		now, err := os.Lstat(e.path)
		if err != nil || !os.SameFile(e.info, now) {
			return false
		}
	}
	return true
}
