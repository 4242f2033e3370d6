package writeset

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Cross-process file locks. A file's lock is one of lockStripes lock
// files in the Store's locks directory, picked by a hash of the file's
// canonical path, and held with an exclusive advisory lock (flock on
// Unix). Stripes, not a lock file per path: the directory never grows
// past lockStripes files and never needs cleaning (removing a lock file
// another process is waiting on would split the lock in two). Two
// unrelated files may share a stripe and so take turns; a lock is held
// for the milliseconds a write takes, so that costs little.
//
// A set's locks are taken in ascending stripe order, so two processes
// changing overlapping sets cannot deadlock; the kernel releases them when
// their holder exits or is killed. Separate Lock calls in one process
// exclude each other too (each opens its own file description).

// lockStripes is the number of lock files.
const lockStripes = 1024

// Locks are held locks; Unlock releases them.
type Locks struct {
	files []*os.File
}

// lockPoll bounds the wait between attempts to take a held lock.
const lockPoll = 20 * time.Millisecond

// Lock takes the locks of the given canonical absolute paths, waiting
// while another holder has one, until ctx is done.
func (s *Store) Lock(ctx context.Context, paths []string) (*Locks, error) {
	stripes := make([]uint32, 0, len(paths))
	for _, p := range paths {
		stripes = append(stripes, stripeOf(p))
	}
	slices.Sort(stripes)
	stripes = slices.Compact(stripes)
	l := &Locks{}
	for _, st := range stripes {
		f, err := s.lockStripe(ctx, st)
		if err != nil {
			l.Unlock()
			return nil, err
		}
		l.files = append(l.files, f)
	}
	return l, nil
}

// Unlock releases the locks. It is safe to call on nil and more than once.
func (l *Locks) Unlock() {
	if l == nil {
		return
	}
	for _, f := range l.files {
		f.Close() // closing the last descriptor releases a flock
	}
	l.files = nil
}

func stripeOf(path string) uint32 {
	sum := sha256.Sum256([]byte(filepath.Clean(path)))
	return binary.BigEndian.Uint32(sum[:4]) % lockStripes
}

func (s *Store) lockStripe(ctx context.Context, stripe uint32) (*os.File, error) {
	name := filepath.Join(s.dir, lockSubdir, fmt.Sprintf("%03x.lock", stripe))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	wait := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		if ok {
			return f, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("waiting for another lspseam process to finish writing: %w", ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, lockPoll)
	}
}
