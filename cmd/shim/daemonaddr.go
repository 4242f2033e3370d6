package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// Where a user's daemon listens. One daemon serves every client that
// would have started the same servers the same way: the same lspseam
// executable and version, the same --config (its content: an edited
// config takes effect at the next session, in a new daemon, while the old
// one idles out), and the same PATH (which decides the servers found).
// Those go into the socket's name, so a client never reaches a daemon
// that would answer differently from the process it replaces.
//
// The socket lives in the user's runtime directory: $LSPSEAM_RUNTIME_DIR,
// else $XDG_RUNTIME_DIR/lspseam, else the temporary directory's
// lspseam-UID. The directory must be the user's own, mode 0700, not a
// symbolic link: nobody else can reach the socket in it, and the daemon
// checks each peer's user as well (daemonpeer_*.go).

// daemonAddress is one daemon's files.
type daemonAddress struct {
	dir    string // the runtime directory
	socket string // the Unix socket
	lock   string // held by the running daemon for its whole life
	start  string // held by the client starting the daemon, until it listens
	log    string // the daemon's log
}

// daemonAddressFor is the daemon of this executable for configPath ("":
// the presets) and the environment's PATH.
func daemonAddressFor(configPath string) (daemonAddress, error) {
	dir, err := daemonRuntimeDir()
	if err != nil {
		return daemonAddress{}, err
	}
	key, err := daemonKey(configPath)
	if err != nil {
		return daemonAddress{}, err
	}
	return daemonAddressIn(dir, "d-"+key), nil
}

// daemonAddressAt is the daemon listening on socket (--socket).
func daemonAddressAt(socket string) daemonAddress {
	abs, err := filepath.Abs(socket)
	if err == nil {
		socket = abs
	}
	dir, name := filepath.Split(socket)
	a := daemonAddressIn(filepath.Clean(dir), strings.TrimSuffix(name, ".sock"))
	a.socket = socket
	return a
}

func daemonAddressIn(dir, base string) daemonAddress {
	return daemonAddress{
		dir:    dir,
		socket: filepath.Join(dir, base+".sock"),
		lock:   filepath.Join(dir, base+".lock"),
		start:  filepath.Join(dir, base+".start"),
		log:    filepath.Join(dir, base+".log"),
	}
}

// runningDaemons are the daemons whose sockets are in the user's runtime
// directory (some may have died: dialing tells).
func runningDaemons() ([]daemonAddress, error) {
	dir, err := daemonRuntimeDir()
	if err != nil {
		return nil, err
	}
	socks, err := filepath.Glob(filepath.Join(dir, "*.sock"))
	if err != nil {
		return nil, err
	}
	addrs := make([]daemonAddress, 0, len(socks))
	for _, s := range socks {
		addrs = append(addrs, daemonAddressAt(s))
	}
	return addrs, nil
}

// daemonKey names the daemon of this executable, config and PATH.
func daemonKey(configPath string) (string, error) {
	h := sha256.New()
	exe, err := os.Executable()
	if err != nil {
		return "", lspseam.Errorf(lspseam.CodeInternal, "cannot find lspseam's own executable to name its daemon: %v; use --daemon off", err)
	}
	fmt.Fprintf(h, "exe\x00%s\x00version\x00%s\x00path\x00%s\x00", exe, version(), os.Getenv("PATH"))
	if configPath != "" {
		abs, err := filepath.Abs(configPath)
		if err != nil {
			return "", err
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return "", lspseam.Errorf(lspseam.CodeInvalidArgument, "--config %s: %v", configPath, err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "config\x00%s\x00%x\x00", abs, sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// daemonRuntimeDir is the user's runtime directory for daemons, created
// (0700) when missing and refused when anyone else could reach into it.
func daemonRuntimeDir() (string, error) {
	dir := os.Getenv("LSPSEAM_RUNTIME_DIR")
	if dir == "" {
		if xdg := os.Getenv("XDG_RUNTIME_DIR"); xdg != "" {
			dir = filepath.Join(xdg, "lspseam")
		} else {
			dir = filepath.Join(os.TempDir(), "lspseam-"+strconv.Itoa(os.Getuid()))
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", lspseam.Errorf(lspseam.CodeInternal, "cannot create the daemon's runtime directory %s: %v; set LSPSEAM_RUNTIME_DIR to a directory of your own", dir, err)
	}
	if err := checkPrivateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// checkPrivateDir refuses a directory others could reach into: not the
// user's own, a symbolic link, or open to the group or others.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return lspseam.Errorf(lspseam.CodeInternal, "the daemon's runtime directory: %v", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return lspseam.Errorf(lspseam.CodeInvalidArgument, "the daemon's runtime directory %s is not a directory (a symbolic link?); remove it or set LSPSEAM_RUNTIME_DIR", dir)
	}
	if owner, ok := fileOwner(fi); ok && owner != os.Getuid() {
		return lspseam.Errorf(lspseam.CodeInvalidArgument, "the daemon's runtime directory %s belongs to user %d, not to you (%d); set LSPSEAM_RUNTIME_DIR to a directory of your own", dir, owner, os.Getuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return lspseam.Errorf(lspseam.CodeInvalidArgument, "the daemon's runtime directory %s is open to others (mode %o); run chmod 700 %s", dir, fi.Mode().Perm(), dir)
	}
	return nil
}
