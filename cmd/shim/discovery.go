package main

import (
	"os"
	"path/filepath"

	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// Where the shim looks for a language server whose command is a bare name
// and not on the server's PATH, in order:
//
//  1. toolsDir: the .tools/bin that `make servers` fills in the checkout
//     the binary was built from, recorded by `make build` and `make
//     install` (-ldflags -X main.toolsDir=…), so a fresh checkout works
//     after `make demo` or `make servers` without changing PATH;
//  2. PREFIX/share/lspseam/bin, beside an installed PREFIX/bin/lspseam
//     (`make install-servers PREFIX=…`);
//  3. $XDG_DATA_HOME/lspseam/bin, else ~/.local/share/lspseam/bin (`make
//     install-servers` with the default PREFIX, for a binary built
//     elsewhere).
//
// PATH comes first so that a server the user installed on purpose wins.

// toolsDir is set at link time; empty in a plain `go build`.
var toolsDir string

// serverSearchDirs lists the directories above, for localstdio.LoadOptions.
func serverSearchDirs() []string {
	var dirs []string
	if filepath.IsAbs(toolsDir) {
		dirs = append(dirs, toolsDir)
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Join(filepath.Dir(filepath.Dir(exe)), "share", "lspseam", "bin"))
		}
	}
	return append(dirs, localstdio.DefaultSearchDirs(nil)...)
}

// installAdvice is what a missing server's error offers first: `make
// servers` in the checkout this binary was built from, when it knows one.
func installAdvice() string {
	if !filepath.IsAbs(toolsDir) {
		return ""
	}
	checkout := filepath.Dir(filepath.Dir(toolsDir))
	if _, err := os.Stat(filepath.Join(checkout, "tools", "servers", "install.sh")); err != nil {
		return ""
	}
	return "run `make servers` in " + checkout
}

func loadOptions() localstdio.LoadOptions {
	return localstdio.LoadOptions{HostEnv: os.Environ(), SearchDirs: serverSearchDirs(), InstallAdvice: installAdvice()}
}
