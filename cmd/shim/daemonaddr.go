package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/localstdio"
)

// Where a user's daemon listens. One daemon serves every client that
// would have started the same servers the same way: the same lspseam
// executable and version, the same --config (its content: an edited
// config takes effect at the next session, in a new daemon, while the old
// one idles out), the same environment as the servers would get it (the
// allowlisted variables, PATH and GOFLAGS and VIRTUAL_ENV among them, and
// those the config passes with passEnv) and the same LSPSEAM_* settings.
// Those go into the socket's name, so a client never reaches a daemon
// that would answer differently from the process it replaces; clients
// whose environments differ only in what servers never see (a terminal's
// SHLVL, an API key) share one.
//
// The socket lives in the user's runtime directory: $LSPSEAM_RUNTIME_DIR,
// else $XDG_RUNTIME_DIR/lspseam, else the temporary directory's
// lspseam-UID. The directory must be the user's own, mode 0700, not a
// symbolic link: nobody else can reach the socket in it, and the daemon
// checks each peer's user as well (daemonpeer_*.go).

// daemonAddress is one daemon's files.
type daemonAddress struct {
	key    string // daemonKey ("" for a --socket of one's own)
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
	a := daemonAddressIn(dir, "d-"+key)
	a.key = key
	return a, nil
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

// daemonKey names the daemon of this executable, config and environment.
func daemonKey(configPath string) (string, error) {
	return daemonKeyOf(os.Environ(), configPath)
}

func daemonKeyOf(environ []string, configPath string) (string, error) {
	h := sha256.New()
	exe, err := os.Executable()
	if err != nil {
		return "", lspseam.Errorf(lspseam.CodeInternal, "cannot find lspseam's own executable to name its daemon: %v; use --daemon off", err)
	}
	fmt.Fprintf(h, "exe\x00%s\x00version\x00%s\x00", exe, version())
	var passEnv []string
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
		passEnv = configPassEnv(data)
	}
	for _, kv := range daemonEnvironment(environ, passEnv) {
		fmt.Fprintf(h, "env\x00%s\x00", kv)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// daemonEnvironment is what of environ makes a daemon answer differently:
// the variables any server could get (localstdio.ServerEnv for a command
// of no known language gets every toolchain's) and lspseam's own
// settings, sorted. LSPSEAM_DAEMON* and LSPSEAM_RUNTIME_DIR only say how
// to reach or keep a daemon.
func daemonEnvironment(environ, passEnv []string) []string {
	env := localstdio.ServerEnv(environ, "", passEnv, nil)
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LSPSEAM_") && !strings.HasPrefix(name, "LSPSEAM_DAEMON") && name != "LSPSEAM_RUNTIME_DIR" {
			env = append(env, kv)
		}
	}
	slices.Sort(env)
	return env
}

// configPassEnv is every name a config's servers pass with passEnv (read
// loosely: the config is checked by the daemon that loads it).
func configPassEnv(data []byte) []string {
	var doc any
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var names []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if list, ok := child.([]any); ok && k == "passEnv" {
					for _, n := range list {
						if name, ok := n.(string); ok {
							names = append(names, name)
						}
					}
					continue
				}
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(doc)
	return names
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
