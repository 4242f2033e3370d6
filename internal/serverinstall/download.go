package serverinstall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/lspseam/lspseam/core"
)

// A vendor download: the release file for this platform, fetched over
// HTTPS (HTTP only from a loopback address, for tests) into a temporary
// file while its SHA-256 is computed. The digest is compared with the
// table's pin before a byte of the file is unpacked or run: a mismatch
// (a tampered mirror, a re-published release) removes the file and fails
// the install. Then the archive is unpacked by unpack.go's rules and the
// executable marked executable.

// maxDownloadBytes bounds one download: the largest server release is a
// few hundred megabytes.
const maxDownloadBytes = 1 << 30

func (in *Installer) downloadMethod(e core.ServerEntry) method {
	platform := in.platform()
	m := method{kind: "download"}
	var d core.DownloadInstall
	var platforms []string
	for _, c := range e.Install.Download {
		platforms = append(platforms, c.Platform)
		if c.Platform == platform {
			d = c
		}
	}
	if d.URL == "" {
		m.problem = errorf(CodeNoPlatform, "%s has no download for %s (only for %v)", e.Name, platform, platforms)
		if e.Install.Manual != "" {
			m.problem.Message += "; by hand: " + e.Install.Manual
		}
		return m
	}
	if problem := d.Problem(); problem != "" {
		m.problem = errorf(CodeDownloadFailed, "the table's download for %s is unusable: %s", e.ID, problem)
		return m
	}
	binary := d.Binary
	if binary == "" {
		binary = e.Command
	}
	m.spec = "download " + d.URL + " sha256:" + d.SHA256
	m.key = "download-" + keyPart(e.ID) + "-" + d.SHA256[:16]
	m.executable = binary
	m.install = func(ctx context.Context, in *Installer, dir, _ string) error {
		return in.fetchVerified(ctx, e.ID, d, binary, dir)
	}
	return m
}

// fetchVerified downloads d, checks its digest, and unpacks it into dir.
func (in *Installer) fetchVerified(ctx context.Context, entry string, d core.DownloadInstall, binary, dir string) error {
	tmp, err := os.CreateTemp(filepath.Dir(dir), ".download-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	in.progress("%s: downloading %s", entry, d.URL)
	hash := sha256.New()
	began := time.Now()
	last := began
	progress := func(n int64) {
		if every := in.progressEvery(); time.Since(last) >= every {
			last = time.Now()
			in.progress("%s: still downloading (%d MB, %ds)", entry, n>>20, int(time.Since(began).Seconds()))
		}
	}
	fetch := in.Download
	if fetch == nil {
		fetch = httpsDownload
	}
	if err := fetch(ctx, d.URL, io.MultiWriter(tmp, hash), progress); err != nil {
		var ie *Error
		if errors.As(err, &ie) {
			return err
		}
		return errorf(CodeDownloadFailed, "downloading %s: %v", d.URL, err)
	}
	if got := hex.EncodeToString(hash.Sum(nil)); got != d.SHA256 {
		return errorf(CodeChecksumMismatch, "%s has SHA-256 %s, but the server table pins %s: refused, nothing of it was unpacked (the file changed since it was pinned, or something between here and its host changed it)", d.URL, got, d.SHA256)
	}
	in.progress("%s: SHA-256 verified, unpacking", entry)
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	info, err := tmp.Stat()
	if err != nil {
		return err
	}
	return unpack(tmp, info.Size(), d.Archive, binary, dir)
}

func (in *Installer) progressEvery() time.Duration {
	if in.ProgressEvery > 0 {
		return in.ProgressEvery
	}
	return 10 * time.Second
}

// httpsDownload fetches url into w. A redirect must keep to HTTPS (or
// loopback HTTP, for tests); the body is bounded by maxDownloadBytes.
func httpsDownload(ctx context.Context, url string, w io.Writer, progress func(int64)) error {
	client := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		if problem := (core.DownloadInstall{Platform: "x/y", URL: req.URL.String(), SHA256: zeroDigest}).Problem(); problem != "" {
			return fmt.Errorf("redirected to %s, refused: %s", req.URL.Redacted(), problem)
		}
		return nil
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP status %s", resp.Status)
	}
	if resp.ContentLength > maxDownloadBytes {
		return fmt.Errorf("the file is %d bytes, over the bound of %d", resp.ContentLength, int64(maxDownloadBytes))
	}
	var n int64
	buf := make([]byte, 256<<10)
	for {
		k, rerr := resp.Body.Read(buf)
		if k > 0 {
			if n += int64(k); n > maxDownloadBytes {
				return fmt.Errorf("the file is over the bound of %d bytes", int64(maxDownloadBytes))
			}
			if _, err := w.Write(buf[:k]); err != nil {
				return err
			}
			progress(n)
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// zeroDigest stands in for a digest when only a URL is checked.
const zeroDigest = "0000000000000000000000000000000000000000000000000000000000000000"
