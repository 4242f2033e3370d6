package writeset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
)

// Store is the directory that holds the locks and journals of one user's
// lspseam processes. A Store is safe for concurrent use; it holds no open
// files between calls.
type Store struct {
	dir string
}

// DefaultDir is where lspseam keeps its write state: $LSPSEAM_STATE_DIR,
// else $XDG_STATE_HOME/lspseam, else ~/.local/state/lspseam, else a
// per-user directory under the system's temporary directory. A journal
// must outlive a reboot to be of use after a power loss, so a state
// directory, not the runtime one, is the default.
func DefaultDir() string {
	if d := os.Getenv("LSPSEAM_STATE_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "lspseam")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".local", "state", "lspseam")
	}
	return filepath.Join(os.TempDir(), "lspseam-"+strconv.Itoa(os.Getuid()))
}

// Open makes (if needed) and returns the Store in dir.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("writeset: empty state directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, sub := range []string{lockSubdir, journalSubdir} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o700); err != nil {
			return nil, err
		}
	}
	return &Store{dir: abs}, nil
}

// Dir is the Store's directory.
func (s *Store) Dir() string { return s.dir }

const (
	lockSubdir    = "locks"
	journalSubdir = "journal"
)

// Hash names a file's content in a journal: "sha256:" and the whole
// digest in hex. The empty Hash means the file does not exist.
type Hash string

// HashOf is the Hash of data.
func HashOf(data []byte) Hash {
	sum := sha256.Sum256(data)
	return Hash("sha256:" + hex.EncodeToString(sum[:]))
}

// HashString is the Hash of a string's bytes.
func HashString(s string) Hash { return HashOf([]byte(s)) }

// workspaceKey names a workspace in journal file names, so a process
// finds the journals of its workspace with one directory read.
func workspaceKey(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:8])
}
