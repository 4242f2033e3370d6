package serverinstall

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// entryOf is one archive entry: a file (body), a directory (name ending
// in /), a symbolic link (link) or another tar type (typ).
type entryOf struct {
	name, body, link string
	mode             int64
	typ              byte
}

func tarGz(t testing.TB, entries ...entryOf) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.body)), Typeflag: tar.TypeReg}
		switch {
		case e.typ != 0:
			h.Typeflag, h.Size, h.Linkname = e.typ, 0, e.link
		case e.link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.link, 0
		case strings.HasSuffix(e.name, "/"):
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func zipOf(t testing.TB, entries ...entryOf) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		mode := fs.FileMode(e.mode)
		if mode == 0 {
			mode = 0o644
		}
		body := e.body
		switch {
		case e.link != "":
			mode, body = fs.ModeSymlink|0o777, e.link
		case strings.HasSuffix(e.name, "/"):
			mode = fs.ModeDir | 0o755
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

const serverScript = "#!/bin/sh\necho vendor-ls 1.2.3\n"

// downloadEntry is a table entry installed by downloading url.
func downloadEntry(url, sum, archive, binary string) core.ServerEntry {
	return core.ServerEntry{ID: "vendorls", Name: "vendor-ls", Command: "vendor-ls", Install: core.InstallSpec{
		Download: []core.DownloadInstall{{Platform: "linux/amd64", URL: url, SHA256: sum, Archive: archive, Binary: binary}},
		Manual:   "download vendor-ls by hand",
	}}
}

// serve answers every path with body, counting requests.
func serve(t *testing.T, body []byte) (*httptest.Server, *int) {
	n := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*n++
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

func downloadInstaller(t *testing.T) (*Installer, string) {
	data := filepath.Join(t.TempDir(), "lspseam")
	return &Installer{Dir: data, Env: []string{"PATH=/nonexistent"}, Platform: "linux/amd64", Progress: &lines{}}, data
}

func TestInstallDownload(t *testing.T) {
	good := tarGz(t,
		entryOf{name: "vendor-ls-1.2.3/"},
		entryOf{name: "vendor-ls-1.2.3/bin/vendor-ls", body: serverScript, mode: 0o4755}, // set-uid is dropped
		entryOf{name: "vendor-ls-1.2.3/lib/data.txt", body: "data"},
		entryOf{name: "vendor-ls-1.2.3/current", link: "bin"},
	)
	srv, requests := serve(t, good)
	e := downloadEntry(srv.URL+"/vendor-ls.tar.gz", digest(good), core.ArchiveTarGz, "vendor-ls-1.2.3/current/vendor-ls")
	in, data := downloadInstaller(t)
	res, err := in.Install(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(res.Command).Output(); err != nil || string(out) != "vendor-ls 1.2.3\n" {
		t.Errorf("the installed server runs %q, %v", out, err)
	}
	dir := filepath.Join(data, "servers", "download-vendorls-"+digest(good)[:16])
	info, _ := os.Stat(filepath.Join(dir, "vendor-ls-1.2.3", "bin", "vendor-ls"))
	if info == nil || info.Mode()&os.ModeSetuid != 0 || info.Mode().Perm() != 0o755 {
		t.Errorf("mode of the binary: %v", info)
	}
	if !strings.Contains(in.Progress.(*lines).String(), "SHA-256 verified") {
		t.Errorf("progress: %s", in.Progress)
	}
	if res, err := in.Install(context.Background(), e); err != nil || !res.Already || *requests != 1 {
		t.Errorf("second run: %+v %v, %d requests", res, err, *requests)
	}
}

func TestInstallDownloadZipAndBareBinary(t *testing.T) {
	z := zipOf(t, entryOf{name: "pkg/"}, entryOf{name: "pkg/vendor-ls", body: serverScript, mode: 0o644})
	srv, _ := serve(t, z)
	in, _ := downloadInstaller(t)
	res, err := in.Install(context.Background(), downloadEntry(srv.URL+"/x.zip", digest(z), core.ArchiveZip, "pkg/vendor-ls"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command(res.Command).Output(); string(out) != "vendor-ls 1.2.3\n" {
		t.Errorf("zip: runs %q (marked executable?)", out)
	}
	bare := []byte(serverScript)
	srv, _ = serve(t, bare)
	in, _ = downloadInstaller(t)
	res, err = in.Install(context.Background(), downloadEntry(srv.URL+"/vendor-ls", digest(bare), core.ArchiveNone, ""))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command(res.Command).Output(); string(out) != "vendor-ls 1.2.3\n" {
		t.Errorf("bare: runs %q", out)
	}
}

// A file whose digest is not the pinned one is refused before anything
// of it is unpacked, and nothing is left behind.
func TestInstallDownloadTampered(t *testing.T) {
	good := tarGz(t, entryOf{name: "bin/vendor-ls", body: serverScript, mode: 0o755})
	tampered := tarGz(t, entryOf{name: "bin/vendor-ls", body: "#!/bin/sh\necho owned\n", mode: 0o755})
	srv, _ := serve(t, tampered)
	in, data := downloadInstaller(t)
	_, err := in.Install(context.Background(), downloadEntry(srv.URL+"/vendor-ls.tar.gz", digest(good), core.ArchiveTarGz, "bin/vendor-ls"))
	if codeOf(err) != CodeChecksumMismatch || !strings.Contains(err.Error(), digest(tampered)) || !strings.Contains(err.Error(), "nothing of it was unpacked") {
		t.Fatalf("tampered: %v", err)
	}
	var left []string
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if d != nil && !d.IsDir() && filepath.Base(p) != ".lock" {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestInstallDownloadRefusals(t *testing.T) {
	in, _ := downloadInstaller(t)
	// No file for this platform: the manual instructions instead.
	in.Platform = "plan9/386"
	_, err := in.Install(context.Background(), downloadEntry("https://example.org/x", zeroDigest, "", ""))
	if codeOf(err) != CodeNoPlatform || !strings.Contains(err.Error(), "no download for plan9/386") || !strings.Contains(err.Error(), "download vendor-ls by hand") {
		t.Errorf("no platform: %v", err)
	}
	in.Platform = "linux/amd64"
	// Plain HTTP to a host that is not loopback is refused before any
	// request.
	_, err = in.Install(context.Background(), downloadEntry("http://example.org/x", zeroDigest, "", ""))
	if codeOf(err) != CodeDownloadFailed || !strings.Contains(err.Error(), "https") {
		t.Errorf("http: %v", err)
	}
	// A redirect to plain HTTP is refused.
	srv := httptest.NewServer(http.RedirectHandler("http://example.org/x", http.StatusFound))
	defer srv.Close()
	_, err = in.Install(context.Background(), downloadEntry(srv.URL+"/x", zeroDigest, "", ""))
	if codeOf(err) != CodeDownloadFailed || !strings.Contains(err.Error(), "redirected to http://example.org/x, refused") {
		t.Errorf("redirect: %v", err)
	}
	// An HTTP error status.
	srv404 := httptest.NewServer(http.NotFoundHandler())
	defer srv404.Close()
	_, err = in.Install(context.Background(), downloadEntry(srv404.URL+"/x", zeroDigest, "", ""))
	if codeOf(err) != CodeDownloadFailed || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: %v", err)
	}
}

// Archives that would write outside the install directory, or hold what
// lspseam does not unpack, are refused, and nothing lands outside it.
func TestUnpackRefusesUnsafeArchives(t *testing.T) {
	bin := entryOf{name: "bin/ls", body: "x", mode: 0o755}
	for _, c := range []struct {
		name    string
		archive func(t *testing.T) ([]byte, string)
		want    string
	}{
		{"dot-dot", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "../evil", body: "x"}), core.ArchiveTarGz
		}, "not a path inside"},
		{"deep dot-dot", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "a/../../evil", body: "x"}), core.ArchiveTarGz
		}, "not a path inside"},
		{"absolute", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "/tmp/evil", body: "x"}), core.ArchiveTarGz
		}, "not a path inside"},
		{"link out", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "out", link: "../.."}), core.ArchiveTarGz
		}, "points outside"},
		{"absolute link", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "etc", link: "/etc"}), core.ArchiveTarGz
		}, "points outside"},
		{"link in a subdirectory out", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "a/b/up", link: "../../../x"}), core.ArchiveTarGz
		}, "points outside"},
		{"hard link", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "h", link: "/etc/passwd", typ: tar.TypeLink}), core.ArchiveTarGz
		}, "hard link"},
		{"device", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "dev", typ: tar.TypeChar}), core.ArchiveTarGz
		}, "device"},
		{"twice", func(t *testing.T) ([]byte, string) {
			return tarGz(t, bin, entryOf{name: "bin/ls", body: "y"}), core.ArchiveTarGz
		}, "twice"},
		{"zip dot-dot", func(t *testing.T) ([]byte, string) {
			return zipOf(t, bin, entryOf{name: "../evil", body: "x"}), core.ArchiveZip
		}, "not a path inside"},
		{"zip link out", func(t *testing.T) ([]byte, string) {
			return zipOf(t, bin, entryOf{name: "out", link: "../x"}), core.ArchiveZip
		}, "points outside"},
		{"not gzip", func(t *testing.T) ([]byte, string) { return []byte("plain text"), core.ArchiveTarGz }, "not a gzip file"},
		{"not zip", func(t *testing.T) ([]byte, string) { return []byte("plain text"), core.ArchiveZip }, "not a zip file"},
		{"binary missing", func(t *testing.T) ([]byte, string) {
			return tarGz(t, entryOf{name: "other", body: "x"}), core.ArchiveTarGz
		}, "has no bin/ls"},
		{"binary is a directory", func(t *testing.T) ([]byte, string) { return tarGz(t, entryOf{name: "bin/ls/"}), core.ArchiveTarGz }, "not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "install")
			data, kind := c.archive(t)
			err := unpack(bytes.NewReader(data), int64(len(data)), kind, "bin/ls", dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 1 {
				t.Errorf("written beside the install directory: %v", entries)
			}
		})
	}
}

// A link inside the archive may be written through, but not out of the
// directory: an entry "a/x" after a link "a" → ".." would land outside.
func TestUnpackWritesThroughLinksStayInside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "install")
	data := tarGz(t,
		entryOf{name: "real/"},
		entryOf{name: "alias", link: "real"},
		entryOf{name: "alias/bin/ls", body: serverScript, mode: 0o755},
	)
	if err := unpack(bytes.NewReader(data), int64(len(data)), core.ArchiveTarGz, "alias/bin/ls", dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real", "bin", "ls")); err != nil {
		t.Errorf("written through an inside link: %v", err)
	}
}
