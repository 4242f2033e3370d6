package localstdio

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
)

// Where a Go program finds the language servers lspseam's installers put
// on this machine, so that what the README's Quick start installed is
// what a program that depends on lspseam uses, as the CLI does (see
// cmd/shim/discovery.go, and docs/shim.md, "Finding servers").

// modulePath is this module's path: a program of the module itself (the
// CLI, lspseam's tests and examples) is not "a program that depends on
// lspseam".
const modulePath = "github.com/lspseam/lspseam"

// DefaultSearchDirs is where lspseam's installers put language servers,
// for LoadOptions.SearchDirs, in order (read from hostEnv; nil means
// os.Environ()):
//
//  1. the .tools/bin that `make demo` and `make servers` fill in the
//     lspseam checkout this package was compiled from — the clone a
//     program's go.mod points at with a replace directive, as "Using it
//     from Go" in docs/go.md does; known when the build kept source
//     paths (not with -trimpath);
//  2. PREFIX/share/lspseam/bin beside the lspseam found on PATH (`make
//     install` and `make install-servers` with one PREFIX);
//  3. $XDG_DATA_HOME/lspseam/bin, else ~/.local/share/lspseam/bin (`make
//     install-servers` with the default PREFIX).
//
// 1 and 2 are for programs that depend on lspseam; a program of the lspseam
// module itself gets 3 only: the CLI records its own checkout and
// installation instead, and lspseam's tests see only what they set up.
func DefaultSearchDirs(hostEnv []string) []string {
	if hostEnv == nil {
		hostEnv = os.Environ()
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Path == modulePath {
		return searchDirs(hostEnv, "")
	}
	_, source, _, _ := runtime.Caller(0)
	return searchDirs(hostEnv, source)
}

// searchDirs is DefaultSearchDirs for a program whose copy of this file
// was compiled from source ("": rules 1 and 2 do not apply).
func searchDirs(hostEnv []string, source string) []string {
	var dirs []string
	if source != "" {
		if dir := checkoutToolsDir(source); dir != "" {
			dirs = append(dirs, dir)
		}
		if dir := installedServersDir(hostEnv); dir != "" {
			dirs = append(dirs, dir)
		}
	}
	if data := lookupEnv(hostEnv, "XDG_DATA_HOME"); filepath.IsAbs(data) {
		return append(dirs, filepath.Join(data, "lspseam", "bin"))
	}
	if home := lookupEnv(hostEnv, "HOME"); filepath.IsAbs(home) {
		return append(dirs, filepath.Join(home, ".local", "share", "lspseam", "bin"))
	}
	return dirs
}

// checkoutToolsDir returns the .tools/bin of the lspseam checkout that
// holds source (this file, CHECKOUT/bindings/go/localstdio/searchdirs.go),
// or "" when source is not an absolute path (a -trimpath build) or not in
// a clone with the servers' installer (the module cache's copy has no
// .git, and no .tools either).
func checkoutToolsDir(source string) string {
	if !filepath.IsAbs(source) {
		return ""
	}
	checkout := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(source))))
	for _, marker := range []string{".git", filepath.Join("tools", "servers", "install.sh")} {
		if _, err := os.Stat(filepath.Join(checkout, marker)); err != nil {
			return ""
		}
	}
	return filepath.Join(checkout, ".tools", "bin")
}

// installedServersDir returns PREFIX/share/lspseam/bin for the first
// lspseam executable on hostEnv's PATH (PREFIX/bin/lspseam, links
// resolved), or "".
func installedServersDir(hostEnv []string) string {
	for _, dir := range filepath.SplitList(lookupEnv(hostEnv, "PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		exe := filepath.Join(dir, "lspseam")
		if !isExecutable(exe) {
			continue
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			return filepath.Join(filepath.Dir(filepath.Dir(real)), "share", "lspseam", "bin")
		}
		return ""
	}
	return ""
}
