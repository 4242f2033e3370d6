package serverinstall

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lspseam/lspseam/core"
)

// Unpacking a verified archive into an install directory, with rules that
// hold for any archive, verified or not (a pin can be of a malicious
// file): every write goes through an os.Root of the directory, so nothing
// is created outside it whatever links the archive holds; an entry whose
// name is absolute or has a ".." element is refused, and so is a symbolic
// link whose target is absolute or leaves the directory; only
// directories, regular files and such links are unpacked (no devices,
// FIFOs or hard links); file modes keep only the permission bits (no
// set-uid); the entries and bytes are bounded. Any refusal fails the
// whole unpack, and the caller removes what was written.

// Bounds of one archive (variables so the fuzz test can lower them).
var (
	maxArchiveEntries       = 200_000
	maxUnpackedBytes  int64 = 2 << 30
)

// unpack unpacks r (size bytes) of the given kind into dir and makes
// binary (a slash path inside it) executable. A bare executable (kind "")
// is saved as binary.
func unpack(r io.ReaderAt, size int64, kind, binary, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	u := &unpacker{root: root}
	switch kind {
	case core.ArchiveNone:
		if !core.LocalPath(binary) {
			return errorf(CodeUnsafeArchive, "the executable's name %q is not a path inside the install directory", binary)
		}
		if err := u.file(binary, 0o755, io.NewSectionReader(r, 0, size)); err != nil {
			return err
		}
	case core.ArchiveTarGz:
		if err := u.tarGz(io.NewSectionReader(r, 0, size)); err != nil {
			return err
		}
	case core.ArchiveZip:
		if err := u.zip(r, size); err != nil {
			return err
		}
	default:
		return errorf(CodeUnsafeArchive, "archive kind %q is not one lspseam unpacks", kind)
	}
	return u.executable(binary)
}

type unpacker struct {
	root    *os.Root
	entries int
	bytes   int64
}

// name checks an entry's name and returns it cleaned ("" for the
// archive's root directory itself, which is skipped).
func (u *unpacker) name(raw string) (string, error) {
	if u.entries++; u.entries > maxArchiveEntries {
		return "", errorf(CodeUnsafeArchive, "the archive has more than %d entries", maxArchiveEntries)
	}
	name := strings.TrimPrefix(raw, "./")
	if name == "" || name == "." || name == "./" {
		return "", nil
	}
	if !core.LocalPath(name) {
		return "", errorf(CodeUnsafeArchive, "the archive's entry %q is not a path inside the install directory", raw)
	}
	return strings.TrimSuffix(name, "/"), nil
}

func (u *unpacker) dir(name string) error {
	if err := u.root.MkdirAll(name, 0o755); err != nil {
		return unsafeOr(err, name)
	}
	return nil
}

// file writes one regular file with the permission bits of mode (owner
// read and write always; never set-uid, set-gid or sticky).
func (u *unpacker) file(name string, mode fs.FileMode, r io.Reader) error {
	if dir := path.Dir(name); dir != "." {
		if err := u.dir(dir); err != nil {
			return err
		}
	}
	perm := mode.Perm()&0o755 | 0o600
	f, err := u.root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return unsafeOr(err, name)
	}
	n, err := io.Copy(f, archiveReader{io.LimitReader(r, maxUnpackedBytes-u.bytes+1), name})
	u.bytes += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if u.bytes > maxUnpackedBytes {
		return errorf(CodeUnsafeArchive, "the archive unpacks to more than %d bytes", maxUnpackedBytes)
	}
	return nil
}

// archiveReader reads an entry's content, naming a read error (a
// truncated or corrupt archive) as such.
type archiveReader struct {
	r    io.Reader
	name string
}

func (a archiveReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if err != nil && err != io.EOF {
		var ie *Error
		if !errors.As(err, &ie) {
			err = errorf(CodeUnsafeArchive, "the archive's entry %q is broken: %v", a.name, err)
		}
	}
	return n, err
}

// symlink creates a link whose target stays inside the directory: a
// relative target that, joined to the link's own directory, has no ".."
// left at its front.
func (u *unpacker) symlink(name, target string) error {
	resolved := path.Join(path.Dir(name), target)
	if target == "" || path.IsAbs(target) || strings.ContainsAny(target, "\\\x00") || resolved == ".." || strings.HasPrefix(resolved, "../") {
		return errorf(CodeUnsafeArchive, "the archive's link %q points outside the install directory (to %q)", name, target)
	}
	if dir := path.Dir(name); dir != "." {
		if err := u.dir(dir); err != nil {
			return err
		}
	}
	if err := u.root.Symlink(target, name); err != nil {
		return unsafeOr(err, name)
	}
	return nil
}

// unsafeOr names an error that os.Root gave for a path escaping the
// directory (through a link the archive made) as an unsafe archive.
func unsafeOr(err error, name string) error {
	var pe *os.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return errorf(CodeUnsafeArchive, "the archive's entry %q would be written outside the install directory (through a link)", name)
	}
	if errors.Is(err, fs.ErrExist) {
		return errorf(CodeUnsafeArchive, "the archive has the entry %q twice", name)
	}
	return err
}

func (u *unpacker) tarGz(r io.Reader) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return errorf(CodeUnsafeArchive, "not a gzip file: %v", err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errorf(CodeUnsafeArchive, "a broken tar archive: %v", err)
		}
		name, err := u.name(h.Name)
		if err != nil {
			return err
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if name != "" {
				err = u.dir(name)
			}
		case tar.TypeReg, tar.TypeRegA:
			switch {
			case name == "":
				return errorf(CodeUnsafeArchive, "the archive has a file with no name")
			case isSparse(h):
				// A sparse file's holes unpack to zeros that take no room
				// in the archive: gigabytes from a few bytes.
				return errorf(CodeUnsafeArchive, "the archive's entry %q is a sparse file, which lspseam does not unpack", h.Name)
			case h.Size > maxUnpackedBytes-u.bytes:
				return errorf(CodeUnsafeArchive, "the archive unpacks to more than %d bytes", maxUnpackedBytes)
			}
			err = u.file(name, fs.FileMode(h.Mode), tr)
		case tar.TypeSymlink:
			if name == "" {
				return errorf(CodeUnsafeArchive, "the archive has a link with no name")
			}
			err = u.symlink(name, h.Linkname)
		case tar.TypeXGlobalHeader, tar.TypeXHeader, tar.TypeGNULongName, tar.TypeGNULongLink:
			// Metadata, folded into the next header by archive/tar.
		default:
			return errorf(CodeUnsafeArchive, "the archive's entry %q is a %s, which lspseam does not unpack", h.Name, tarKind(h.Typeflag))
		}
		if err != nil {
			return err
		}
	}
}

// isSparse reports whether a tar header is a sparse file (GNU or PAX).
func isSparse(h *tar.Header) bool {
	if h.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

func tarKind(t byte) string {
	switch t {
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "FIFO"
	}
	return fmt.Sprintf("tar entry of type %q", t)
}

func (u *unpacker) zip(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return errorf(CodeUnsafeArchive, "not a zip file: %v", err)
	}
	for _, f := range zr.File {
		name, err := u.name(f.Name)
		if err != nil {
			return err
		}
		mode := f.Mode()
		switch {
		case name == "":
			continue
		case mode.IsDir():
			err = u.dir(name)
		case mode&fs.ModeSymlink != 0:
			err = u.zipSymlink(f, name)
		case mode.IsRegular():
			if f.UncompressedSize64 > uint64(maxUnpackedBytes-u.bytes) {
				return errorf(CodeUnsafeArchive, "the archive unpacks to more than %d bytes", maxUnpackedBytes)
			}
			err = u.zipFile(f, name, mode)
		default:
			return errorf(CodeUnsafeArchive, "the archive's entry %q is a %s, which lspseam does not unpack", f.Name, mode.Type())
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (u *unpacker) zipFile(f *zip.File, name string, mode fs.FileMode) error {
	rc, err := f.Open()
	if err != nil {
		return errorf(CodeUnsafeArchive, "the archive's entry %q cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	return u.file(name, mode, rc)
}

func (u *unpacker) zipSymlink(f *zip.File, name string) error {
	rc, err := f.Open()
	if err != nil {
		return errorf(CodeUnsafeArchive, "the archive's entry %q cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	target, err := io.ReadAll(io.LimitReader(rc, 4096))
	if err != nil {
		return errorf(CodeUnsafeArchive, "the archive's link %q cannot be read: %v", f.Name, err)
	}
	return u.symlink(name, string(target))
}

// executable makes the server's binary executable, after checking that it
// is a regular file that, links followed, stays inside the directory.
func (u *unpacker) executable(binary string) error {
	info, err := u.root.Stat(filepath.FromSlash(binary))
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return errorf(CodeUnsafeArchive, "the executable %s links outside the install directory", binary)
		}
		return errorf(CodeFailed, "the archive has no %s (the table's binary): %v", binary, err)
	}
	if !info.Mode().IsRegular() {
		return errorf(CodeFailed, "%s in the archive is not a regular file", binary)
	}
	return u.root.Chmod(filepath.FromSlash(binary), info.Mode().Perm()|0o755)
}
