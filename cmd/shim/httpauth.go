package main

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The bearer token of `lspseam mcp --http` and the checks every request
// passes before it reaches the MCP handler (the model is in mcphttp.go).

// tokenBytes is the token's entropy: 32 random bytes, base64url (43
// characters).
const tokenBytes = 32

// minTokenLen refuses a token file a user filled with something short
// enough to guess.
const minTokenLen = 16

// defaultTokenFile is where the token lives unless --token-file says:
// $XDG_CONFIG_HOME/lspseam/http-token, else ~/.config/lspseam/http-token.
// It is the user's own configuration, not a cache: clients are set up
// with the token, so it must outlive reboots and cache cleaning.
func defaultTokenFile() string {
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "lspseam", "http-token")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "lspseam", "http-token")
}

// loadToken returns the token in path, generating it when the file does
// not exist or rotate is set. A generated token is written to stderr once,
// when it is made: the user needs it to configure a client, and it is
// never printed again (a log that is kept does not keep it on every
// start). A file that others may read is refused rather than used: the
// token is as good as public then.
func loadToken(path string, rotate bool, stderr io.Writer) (string, error) {
	if path == "" {
		return "", errors.New("no home directory for the token file; name one with --token-file FILE")
	}
	if !rotate {
		token, err := readToken(path)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return token, err
		}
	}
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	if err := writeToken(path, token); err != nil {
		return "", err
	}
	if rotate {
		fmt.Fprintf(stderr, "lspseam mcp: rotated the HTTP token in %s (the old one no longer works): %s\n", path, token)
	} else {
		fmt.Fprintf(stderr, "lspseam mcp: generated an HTTP token in %s: %s\n", path, token)
	}
	return token, nil
}

// readToken reads an existing token file, refusing one with group or other
// permissions (Unix: Windows has no such bits, its ACLs decide).
func readToken(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("the token file %s may be read by other users (mode %04o); run chmod 600 %s (or --rotate-token for a new token)", path, info.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(data))
	if len(token) < minTokenLen || strings.ContainsAny(token, " \t\r\n") {
		return "", fmt.Errorf("the token file %s holds no usable token (one line of at least %d characters); delete it or start with --rotate-token for a new one", path, minTokenLen)
	}
	return token, nil
}

// writeToken replaces path with token: a 0600 file in a 0700 directory,
// renamed into place so that a reader never sees half a token and a
// rotated file's loose permissions are not inherited.
func writeToken(path, token string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".http-token-*") // created 0600
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename, a no-op
	if err := f.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		f.Close()
		return err
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// httpGuard is the front door of every request: the Host and Origin checks
// (a browser page must not reach the server, whatever DNS says), then the
// bearer token.
type httpGuard struct {
	tokenSum [sha256.Size]byte
	// loopback: the server listens on a loopback address only, so the
	// Host header must name one. A server listening beyond (--allow-remote)
	// is reached by names it cannot know; the token is its protection.
	loopback bool
	next     http.Handler
}

func newHTTPGuard(token string, loopback bool, next http.Handler) *httpGuard {
	return &httpGuard{tokenSum: sha256.Sum256([]byte(token)), loopback: loopback, next: next}
}

func (g *httpGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// DNS rebinding: a page on evil.example whose name now resolves to
	// 127.0.0.1 sends Host: evil.example. (The SDK's handler checks this
	// too; the check here also covers the token's 401, which would
	// otherwise tell such a page that something listens.)
	if g.loopback && !loopbackHost(r.Host) {
		httpRefuse(w, http.StatusForbidden, "forbidden", fmt.Sprintf("the Host header %q does not name this machine's loopback address (localhost, 127.0.0.1 or [::1])", r.Host))
		return
	}
	// A browser names the page that sent the request; only a page served
	// from this machine may talk to it (and, when remote, a page of the
	// server's own origin). Clients that are not browsers send no Origin.
	if origin := r.Header.Get("Origin"); origin != "" && !g.originAllowed(origin, r.Host) {
		httpRefuse(w, http.StatusForbidden, "forbidden", fmt.Sprintf("requests from the web origin %q are refused: only loopback origins may call this server", origin))
		return
	}
	if !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="lspseam"`)
		httpRefuse(w, http.StatusUnauthorized, "unauthorized", "send the token of lspseam mcp --http as the header \"Authorization: Bearer TOKEN\"; the token is in the file named by --token-file (default $XDG_CONFIG_HOME/lspseam/http-token, else ~/.config/lspseam/http-token)")
		return
	}
	g.next.ServeHTTP(w, r)
}

// authorized compares the request's bearer token with the server's in
// constant time (the sums hide the length too).
func (g *httpGuard) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(sum[:], g.tokenSum[:]) == 1
}

// originAllowed: an http or https origin on a loopback host; for a remote
// server also the origin whose host is the request's Host (the server's
// own pages, were it to have any).
func (g *httpGuard) originAllowed(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // "null" (a sandboxed or file:// page) included
	}
	if loopbackHost(u.Host) {
		return true
	}
	return !g.loopback && strings.EqualFold(u.Host, host)
}

// loopbackHost reports whether a Host header (or an origin's host), with
// or without a port, names the loopback interface.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// httpRefuse answers a refused request with a short JSON body saying what
// to do, for the person reading a client's error.
func httpRefuse(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "message": message})
}
