// Package precompiled is the form in which a binary carries the core
// module's machine code, compiled when the binary was built, so that its
// first run on a machine loads that code into the compilation cache
// instead of compiling the module (seconds of CPU that compete with the
// language server's own start). cmd/precompile writes a set (Collect) from
// a compilation cache it filled; bindings/go installs one into a Core's
// cache directory (Install, lspseam.WithPrecompiledCode). It owns the
// layout only: it compiles nothing, and of wazero's cache it knows only
// that entries are files under the cache directory.
//
// A set is a file tree (an fs.FS):
//
//	<module key>/<path of the entry in the cache directory>.gz
//
// each entry gzip-compressed (27 MB of machine code is 5 MB). The module
// key (ModuleKey) names the module the code was compiled from, so a set
// built for another module is never installed. The entry's path starts
// with wazero's directory for its version, architecture and operating
// system (wazero-v1.12.0-amd64-linux/; WazeroDir is this program's), and
// the entry's name is wazero's key for the module and the CPU's features:
// code for another wazero or system is not installed, code for another
// CPU is installed but never loaded, and that machine compiles the module
// as if nothing had been carried.
package precompiled

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// ModuleKey names a module by the start of its SHA-256: the name of its
// directory in a set, and of the Core's warmth marker beside a cache.
func ModuleKey(module []byte) string {
	sum := sha256.Sum256(module)
	return hex.EncodeToString(sum[:8])
}

// WazeroDir is the directory under a cache directory where this
// program's wazero keeps its entries: "wazero-" + its version + "-" +
// architecture + "-" + system, the version found as wazero finds it (the
// build's dependency on github.com/tetratelabs/wazero, else "dev", as in
// a test binary, whose build records no dependencies).
func WazeroDir() string {
	version := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if strings.Contains(dep.Path, "github.com/tetratelabs/wazero") {
				version = dep.Version
			}
		}
		if version == "" || version == "(devel)" {
			version = info.Main.Version
		}
	}
	if version == "" || version == "(devel)" {
		version = "dev"
	}
	return "wazero-" + version + "-" + runtime.GOARCH + "-" + runtime.GOOS
}

// Has reports whether set carries code for the module named key and the
// wazero directory wazeroDir (WazeroDir).
func Has(set fs.FS, key, wazeroDir string) bool {
	entries, err := fs.ReadDir(set, key+"/"+wazeroDir)
	return err == nil && len(entries) > 0
}

// Install writes the code set carries for the module named key into the
// compilation cache directory cacheDir: each entry for wazeroDir (this
// program's: WazeroDir) that is not there yet. It returns the paths it
// wrote. Each entry appears whole or not at all (written beside its
// place, then renamed), so a process loading the cache at the same time
// sees either no entry or this one. A set without code for key and
// wazeroDir installs nothing: its code would never be loaded.
func Install(set fs.FS, key, wazeroDir, cacheDir string) ([]string, error) {
	var written []string
	root := key + "/" + wazeroDir
	err := fs.WalkDir(set, root, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if name == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(name, ".gz") {
			return nil
		}
		dest := filepath.Join(cacheDir, filepath.FromSlash(strings.TrimSuffix(strings.TrimPrefix(name, key+"/"), ".gz")))
		if _, err := os.Lstat(dest); err == nil {
			return nil
		}
		if err := installEntry(set, name, dest); err != nil {
			return fmt.Errorf("precompiled code %s: %w", name, err)
		}
		written = append(written, dest)
		return nil
	})
	return written, err
}

func installEntry(set fs.FS, name, dest string) error {
	src, err := set.Open(name)
	if err != nil {
		return err
	}
	defer src.Close()
	zr, err := gzip.NewReader(src)
	if err != nil {
		return err
	}
	// wazero keeps its cache private to the user (0700 directories, 0600
	// files); so does this.
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return err
	}
	return writeWhole(dest, func(w io.Writer) error {
		_, err := io.Copy(w, zr) // gzip checks the entry's CRC-32 at its end
		return err
	})
}

// Collect writes into out the set of the code a compilation of the module
// named key left in cacheDir, which held nothing else: every file under
// cacheDir's wazero directories. Sets for other modules in out are
// removed (a binary carries one module's code); other files in out are
// left.
func Collect(cacheDir, key, out string) error {
	var entries []string
	err := filepath.WalkDir(cacheDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(cacheDir, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); strings.HasPrefix(rel, "wazero-") && strings.Contains(rel, "/") && !strings.HasSuffix(rel, ".tmp") {
			entries = append(entries, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return fmt.Errorf("precompiled: %s holds no compiled code (was the module compiled into it?)", cacheDir)
	}
	old, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	for _, e := range old {
		if e.IsDir() {
			if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
				return err
			}
		}
	}
	for _, rel := range entries {
		dest := filepath.Join(out, key, filepath.FromSlash(rel)+".gz")
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if err := writeWhole(dest, func(w io.Writer) error { return compress(w, filepath.Join(cacheDir, filepath.FromSlash(rel))) }); err != nil {
			return fmt.Errorf("precompiled: %s: %w", path.Join(key, rel), err)
		}
	}
	return nil
}

func compress(w io.Writer, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression) // 27 MB of code: 5 MB
	if err != nil {
		return err
	}
	if _, err := io.Copy(zw, f); err != nil {
		return err
	}
	return zw.Close()
}

// writeWhole writes dest through a temporary file beside it, renamed into
// place once write has succeeded and the file is closed.
func writeWhole(dest string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(dest), filepath.Base(dest)+".*.tmp")
	if err != nil {
		return err
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dest)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
