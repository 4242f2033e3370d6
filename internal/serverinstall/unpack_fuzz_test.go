package serverinstall

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// FuzzUnpack: any bytes, as a tar.gz or a zip, unpack or are refused with
// a coded error (no panic, no other failure), and nothing is ever written
// outside the install directory: its parent holds only it afterwards, and
// every link inside it resolves inside it.
func FuzzUnpack(f *testing.F) {
	bin := entryOf{name: "bin/ls", body: "#!/bin/sh\n", mode: 0o755}
	for _, seed := range [][]byte{
		tarGz(f, bin),
		tarGz(f, bin, entryOf{name: "../evil", body: "x"}),
		tarGz(f, entryOf{name: "a", link: "."}, entryOf{name: "a/bin/ls", body: "x", mode: 0o755}),
		tarGz(f, entryOf{name: "b", link: ".."}, entryOf{name: "b/x", body: "x"}),
		zipOf(f, bin),
		zipOf(f, bin, entryOf{name: "l", link: "../../x"}),
		[]byte("\x1f\x8b"),
		[]byte("PK\x05\x06" + strings.Repeat("\x00", 18)),
	} {
		f.Add(seed, seed[0] == 'P')
	}
	// A few megabytes are enough to see every rule; gigabytes of zeros
	// from a gzip bomb would only slow the fuzzer.
	maxUnpackedBytes = 4 << 20
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		kind := core.ArchiveTarGz
		if isZip {
			kind = core.ArchiveZip
		}
		parent := t.TempDir()
		dir := filepath.Join(parent, "install")
		err := unpack(bytes.NewReader(data), int64(len(data)), kind, "bin/ls", dir)
		var ie *Error
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("an error without a code: %v", err)
		}
		if entries, _ := os.ReadDir(parent); len(entries) != 1 || entries[0].Name() != "install" {
			t.Fatalf("written beside the install directory: %v", entries)
		}
		real, _ := filepath.EvalSymlinks(dir)
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			target, _ := os.Readlink(p)
			if filepath.IsAbs(target) {
				t.Fatalf("absolute link %s → %s", p, target)
			}
			resolved := filepath.Clean(filepath.Join(filepath.Dir(p), target))
			if resolved != dir && !strings.HasPrefix(resolved, dir+string(filepath.Separator)) {
				t.Fatalf("link %s → %s leaves %s (real %s)", p, target, dir, real)
			}
			return nil
		})
	})
}
