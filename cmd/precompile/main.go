// Command precompile compiles the core module embedded in bindings/go for
// this machine and writes the machine code, as a set of
// internal/precompiled, into a directory a binary embeds: `make build` and
// `make install` run it into cmd/shim/precompiled/ before they build the
// shim, so that the binary's first run loads its core instead of compiling
// it. The code is this machine's (its wazero version, architecture,
// operating system and CPU features); elsewhere it is ignored and the
// module compiles as usual. Not committed: it is build output, 5 MB per
// module.
//
//	go run ./cmd/precompile cmd/shim/precompiled
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/internal/precompiled"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: precompile DIR (the directory the shim embeds: cmd/shim/precompiled)")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "precompile:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if _, err := os.Stat(out); err != nil {
		return err
	}
	key := precompiled.ModuleKey(lspseam.CoreModule())
	dir := precompiled.WazeroDir()
	if precompiled.Has(os.DirFS(out), key, dir) {
		fmt.Printf("precompile: %s already holds the code of core module %s for %s\n", out, key, dir)
		return nil
	}
	cache, err := os.MkdirTemp("", "lspseam-precompile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(cache)
	began := time.Now()
	// NewCore compiles the module, as every Core of this build would, into
	// the empty cache directory.
	core, err := lspseam.NewCore(context.Background(), lspseam.WithCompilationCacheDir(cache), lspseam.WithMaxInstances(1))
	if err != nil {
		return err
	}
	if err := core.Close(context.Background()); err != nil {
		return err
	}
	if err := precompiled.Collect(cache, key, out); err != nil {
		return err
	}
	var size int64
	filepath.WalkDir(filepath.Join(out, key), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	fmt.Printf("precompile: core module %s compiled in %s; %s/%s holds its code (%.1f MB compressed)\n", key, time.Since(began).Round(100*time.Millisecond), out, key, float64(size)/1e6)
	return nil
}
