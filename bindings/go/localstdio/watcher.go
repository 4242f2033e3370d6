package localstdio

import (
	"context"
	"errors"
	"hash/maphash"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Watching workspaces so that long-lived servers answer from the files as
// they are on disk when a query's turn starts.
//
// One workspaceWatcher per canonical workspace, shared by every server
// instance running in it; each instance holds a subscription, which
// records, per path, the first and the last raw change since the instance
// last took them (the core turns that pair into the net change and decides
// what the server is told; see core/watch.go). The watcher owns no LSP and
// no policy: it only observes the disk and records.
//
// # The freshness barrier
//
// inotify queues the events of all watches of one instance in one FIFO, in
// the order the changes happened. sync renames a sentinel file in a
// private directory watched by the same instance to a new, unique name
// (its sequence number: one system call, and events with distinct names
// are never merged) and waits until the watcher's event loop reads the
// event of that name: every change that completed before sync began was
// queued before it, so it has been read and recorded by then. No sleeps,
// no "usually". The private directory is on a memory file system when one
// is available, where the rename costs a few microseconds.
//
// # Large workspaces
//
// Each directory takes one inotify watch from a per-user budget. A
// workspace of more than largeWorkspaceDirs directories is watched all the
// same, with a warning when the index passes that many (workspacescope.go
// says why, and refuses / and the home directory before any watcher
// starts).
//
// # When watching is impossible
//
// If inotify cannot be used (no instance available, the watch limit is
// reached, the sentinel cannot be created), the watcher falls back to
// polling: sync rescans the tree and compares sizes, modification times and
// inode numbers with the previous scan (bounded by maxTreeEntries), and
// says so once in the log. When changes may have been lost — the kernel's
// event queue overflowed, or the switch to polling happened while servers
// were running — every subscription is marked lost and its server is
// restarted at its next query, so it re-reads the disk.

// Limits of the watcher.
const (
	// maxTreeEntries bounds the files and directories a workspace watcher
	// indexes (and a polling rescan visits).
	maxTreeEntries = 500_000
	// maxPendingPaths bounds the distinct paths a subscription holds
	// between two queries; beyond it the server is restarted instead.
	maxPendingPaths = 100_000
	// barrierTimeout bounds the wait for a sentinel event. It never
	// elapses while inotify works; if it does, the watcher falls back to
	// polling rather than let a query hang.
	barrierTimeout = 10 * time.Second
)

// changeKind is one raw change of a path, as the core's PathChange names it.
type changeKind string

const (
	changeCreated changeKind = "created"
	changeChanged changeKind = "changed"
	changeDeleted changeKind = "deleted"
)

// watcherSet shares workspace watchers between the providers of a host:
// one per canonical workspace, alive while some instance subscribes.
//
// A watcherSet is safe for concurrent use.
type watcherSet struct {
	log *slog.Logger

	mu     sync.Mutex
	byRoot map[string]*workspaceWatcher
	wg     sync.WaitGroup // running event loops and teardowns

	// Test hooks: newNotify replaces fsnotify.NewWatcher, addWatch
	// replaces (*fsnotify.Watcher).Add.
	newNotify func() (*fsnotify.Watcher, error)
	addWatch  func(w *fsnotify.Watcher, dir string) error
}

func newWatcherSet(log *slog.Logger) *watcherSet {
	return &watcherSet{log: log, byRoot: map[string]*workspaceWatcher{}}
}

// wait blocks until every watcher has stopped (after its last
// subscription closed).
func (s *watcherSet) wait() { s.wg.Wait() }

// subscribe returns a new subscription to the workspace's watcher,
// starting the watcher (walking the tree, adding watches) if it is the
// first. Changes that complete after subscribe returns are recorded.
func (s *watcherSet) subscribe(root string) *subscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.byRoot[root]
	if w == nil {
		w = s.start(root)
		s.byRoot[root] = w
	}
	sub := &subscription{w: w, pending: map[string]*pathRecord{}, since: time.Now()}
	w.mu.Lock()
	w.subs[sub] = struct{}{}
	w.mu.Unlock()
	return sub
}

// release drops a subscription; the last one stops the watcher.
func (s *watcherSet) release(sub *subscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := sub.w
	w.mu.Lock()
	delete(w.subs, sub)
	empty := len(w.subs) == 0
	w.mu.Unlock()
	if !empty || s.byRoot[w.root] != w {
		return
	}
	delete(s.byRoot, w.root)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		w.stop()
	}()
}

// workspaceWatcher observes one canonical workspace.
type workspaceWatcher struct {
	set  *watcherSet
	root string
	log  *slog.Logger

	mu          sync.Mutex
	subs        map[*subscription]struct{}
	tree        map[string]map[string]bool // directory → child name → is a directory
	entries     int                        // files and directories in tree
	links       map[string]struct{}        // the symbolic links in tree, by absolute path (links.go)
	truncated   bool                       // the tree hit maxTreeEntries
	warnedLarge bool                       // the large-workspace warning was logged (workspacescope.go)
	polling     bool                       // inotify is not used; sync rescans
	stamps      map[string]fileStamp       // the last scan's state (polling only)
	seq         uint64                     // the last sentinel number handed out
	waiters     map[uint64]chan struct{}   // sentinels not yet seen
	outside     map[string]*outsideTree    // directories outside root that servers read (outside.go)
	outsideUsed int                        // directories of outside trees, against maxOutsideDirs
	shallow     map[string]bool            // outside directories watched without their subdirectories

	fsw      *fsnotify.Watcher // nil while polling
	sentinel string            // private directory for sentinel files
	loopDone chan struct{}     // closed when the event loop returned
}

// fileStamp is what a polling rescan compares. A file modified within
// workspacefs.RacyWindow of a scan may change again without changing its size or
// modification time (file system timestamps are coarser than writes), so
// its content hash is kept too, as git does for "racily clean" entries.
type fileStamp struct {
	size   int64
	mtime  int64
	ino    uint64
	dir    bool
	racy   bool // modified within workspacefs.RacyWindow of its scan
	hashed bool
	hash   uint64
}

var stampSeed = maphash.MakeSeed()

func (s *watcherSet) start(root string) *workspaceWatcher {
	w := &workspaceWatcher{
		set:      s,
		root:     root,
		log:      s.log.With("workspace", root),
		subs:     map[*subscription]struct{}{},
		tree:     map[string]map[string]bool{},
		links:    map[string]struct{}{},
		waiters:  map[uint64]chan struct{}{},
		outside:  map[string]*outsideTree{},
		shallow:  map[string]bool{},
		loopDone: make(chan struct{}),
	}
	newNotify := s.newNotify
	if newNotify == nil {
		newNotify = fsnotify.NewWatcher
	}
	fsw, err := newNotify()
	if err == nil {
		w.sentinel, err = os.MkdirTemp(sentinelParent(), "lspseam-barrier-")
		if err == nil {
			err = os.WriteFile(w.sentinelPath(0), nil, 0o600)
		}
		if err == nil {
			err = w.add(fsw, w.sentinel)
		}
		if err != nil {
			fsw.Close()
		}
	}
	if err != nil {
		close(w.loopDone)
		w.mu.Lock()
		w.startPolling("inotify is unavailable: " + err.Error())
		w.mu.Unlock()
		return w
	}
	w.fsw = fsw
	w.mu.Lock()
	w.indexDir(root, false)
	polling := w.polling
	w.mu.Unlock()
	if polling {
		close(w.loopDone)
		return w
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		w.loop(fsw)
	}()
	w.log.Debug("watching the workspace", "entries", w.entries)
	return w
}

// sentinelParent is where barrier directories go: a memory file system if
// there is one (renames there cost microseconds; on some disks, tens to
// hundreds), else the temporary directory.
func sentinelParent() string {
	for _, dir := range []string{os.Getenv("XDG_RUNTIME_DIR"), "/dev/shm"} {
		if dir == "" {
			continue
		}
		if info, err := os.Stat(dir); err == nil && info.IsDir() && writableDir(dir) {
			return dir
		}
	}
	return os.TempDir()
}

func (w *workspaceWatcher) sentinelPath(n uint64) string {
	return filepath.Join(w.sentinel, strconv.FormatUint(n, 10))
}

func (w *workspaceWatcher) add(fsw *fsnotify.Watcher, dir string) error {
	if w.set.addWatch != nil {
		return w.set.addWatch(fsw, dir)
	}
	return fsw.Add(dir)
}

// stop ends the event loop and removes the sentinel directory.
func (w *workspaceWatcher) stop() {
	w.mu.Lock()
	fsw := w.fsw
	w.fsw = nil
	w.releaseWaitersLocked()
	w.mu.Unlock()
	if fsw != nil {
		fsw.Close()
	}
	<-w.loopDone
	if w.sentinel != "" {
		os.RemoveAll(w.sentinel)
	}
}

// loop reads events until the fsnotify watcher is closed. fsnotify sends
// an overflow error before the events that follow it, on unbuffered
// channels, so reading both here keeps the kernel's order.
func (w *workspaceWatcher) loop(fsw *fsnotify.Watcher) {
	defer close(w.loopDone)
	for {
		select {
		case ev, ok := <-fsw.Events:
			if !ok {
				return
			}
			w.mu.Lock()
			w.handle(ev)
			w.mu.Unlock()
		case err, ok := <-fsw.Errors:
			if !ok {
				return
			}
			w.mu.Lock()
			w.handleError(err)
			w.mu.Unlock()
		}
	}
}

func (w *workspaceWatcher) handleError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.log.Warn("the kernel's file event queue overflowed; the servers of this workspace will be restarted at their next query so that they re-read the disk")
		w.loseAllLocked("file events were lost (inotify queue overflow)")
		// Directories created during the overflow may have no watch yet.
		w.tree = map[string]map[string]bool{}
		w.links = map[string]struct{}{}
		w.entries = 0
		w.forgetOutsideLocked() // watched again at the next query (watchOutside)
		w.indexDir(w.root, false)
		return
	}
	w.log.Debug("file watcher error", "err", err)
}

// handle applies one event, with w.mu held.
func (w *workspaceWatcher) handle(ev fsnotify.Event) {
	name := ev.Name
	if w.sentinel != "" && filepath.Dir(name) == w.sentinel {
		if ev.Has(fsnotify.Create) { // the sentinel's new name (IN_MOVED_TO)
			if n, err := strconv.ParseUint(filepath.Base(name), 10, 64); err == nil {
				if ch := w.waiters[n]; ch != nil {
					delete(w.waiters, n)
					close(ch)
				}
			}
		}
		return
	}
	if w.polling || ignoredPath(w.root, name) {
		return
	}
	if name == w.root {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.log.Warn("the workspace directory itself was removed or renamed")
			w.loseAllLocked("the workspace directory was removed or renamed")
		}
		return
	}
	dir, base := filepath.Dir(name), filepath.Base(name)
	switch {
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		// A moved or deleted watched directory reports itself too; an
		// entry its indexed parent does not know was already handled.
		children := w.tree[dir]
		_, known := children[base]
		switch {
		case w.tree[name] != nil:
			w.forgetDir(name)
		case known || children == nil:
			w.recordLocked(name, changeDeleted)
		}
		if known {
			delete(children, base)
			w.entries--
		}
		delete(w.links, name)
	case ev.Has(fsnotify.Create):
		info, err := os.Lstat(name)
		if err == nil && info.IsDir() {
			if !w.shallow[dir] { // an outside directory watched alone keeps to itself
				w.indexDir(name, true)
			}
			w.noteChild(dir, base, true)
			return
		}
		// A file replaced by a rename (an atomic write) existed before:
		// that is a change, not a creation.
		kind := changeCreated
		if isDir, known := w.tree[dir][base]; known && !isDir {
			kind = changeChanged
		}
		w.noteChild(dir, base, false)
		w.noteLink(name, err == nil && info.Mode()&fs.ModeSymlink != 0)
		w.recordLocked(name, kind)
	case ev.Has(fsnotify.Write):
		w.recordLocked(name, changeChanged)
	}
}

// noteChild records a new entry of a watched directory.
func (w *workspaceWatcher) noteChild(dir, name string, isDir bool) {
	children := w.tree[dir]
	if children == nil {
		return
	}
	if _, ok := children[name]; !ok {
		if w.entries >= maxTreeEntries {
			w.truncateLocked()
			return
		}
		w.entries++
	}
	children[name] = isDir
}

// indexDir watches dir and everything below it (except .git) and indexes
// its entries. With created, dir and everything found below it is
// recorded as created: a directory that appears after the watch started
// may have been filled before its own watch was added.
func (w *workspaceWatcher) indexDir(dir string, created bool) {
	stack := []string{dir}
	for len(stack) > 0 && !w.polling {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if w.tree[d] != nil {
			continue
		}
		// The watch comes first, so nothing created after the read below
		// is missed.
		if err := w.add(w.fsw, d); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				w.startPolling("the inotify watch limit was reached (" + err.Error() + "); raise fs.inotify.max_user_watches to watch instead of rescanning")
				return
			}
			w.log.Debug("directory not watched", "dir", d, "err", err)
			continue
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			w.log.Debug("directory not read", "dir", d, "err", err)
		}
		children := make(map[string]bool, len(entries))
		w.tree[d] = children
		if len(w.tree) == largeWorkspaceDirs+1 && !w.warnedLarge {
			w.warnedLarge = true
			w.log.Warn(largeWorkspaceWarning(w.root))
		}
		if created {
			w.recordLocked(d, changeCreated)
		}
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			if w.entries >= maxTreeEntries {
				w.truncateLocked()
				break
			}
			w.entries++
			p := filepath.Join(d, e.Name())
			children[e.Name()] = e.IsDir()
			w.noteLink(p, e.Type()&fs.ModeSymlink != 0)
			if e.IsDir() {
				stack = append(stack, p)
			} else if created {
				w.recordLocked(p, changeCreated)
			}
		}
	}
}

func (w *workspaceWatcher) truncateLocked() {
	if !w.truncated {
		w.truncated = true
		w.log.Warn("the workspace has more entries than a watcher indexes; a directory moved away from the unindexed part restarts the servers", "maxEntries", maxTreeEntries)
	}
}

// forgetDir handles a directory that was removed or moved away: it and
// every indexed entry below it are recorded as deleted and the stale
// watches are dropped (inotify keeps a moved directory's watches under
// their old names).
func (w *workspaceWatcher) forgetDir(dir string) {
	children := w.tree[dir]
	delete(w.tree, dir)
	delete(w.shallow, dir)
	w.recordLocked(dir, changeDeleted)
	if w.fsw != nil {
		_ = w.fsw.Remove(dir)
	}
	for name, isDir := range children {
		p := filepath.Join(dir, name)
		w.entries--
		if isDir {
			w.forgetDir(p)
		} else {
			delete(w.links, p)
			w.recordLocked(p, changeDeleted)
		}
	}
	if w.truncated {
		w.loseAllLocked("a directory was moved away from a workspace too large to index")
	}
}

// ignoredPath reports whether path is .git or inside a .git directory of
// the workspace.
func ignoredPath(root, path string) bool {
	rel := strings.TrimPrefix(path, root)
	return rel == "/.git" || strings.Contains(rel+"/", "/.git/")
}

// recordLocked gives one change to every subscription; one outside the
// workspace only to those whose server reads it (outside.go).
func (w *workspaceWatcher) recordLocked(path string, kind changeKind) {
	outside := !workspacefs.Inside(w.root, path)
	for sub := range w.subs {
		sub.record(path, kind, outside)
	}
}

func (w *workspaceWatcher) loseAllLocked(why string) {
	for sub := range w.subs {
		sub.lose(why)
	}
}

func (w *workspaceWatcher) releaseWaitersLocked() {
	for n, ch := range w.waiters {
		delete(w.waiters, n)
		close(ch)
	}
}

// startPolling switches to rescanning, with w.mu held. Subscriptions that
// already exist may have missed changes, so they are marked lost.
func (w *workspaceWatcher) startPolling(why string) {
	if w.polling {
		return
	}
	w.polling = true
	w.log.Warn("watching files is impossible; each query rescans the workspace instead", "reason", why)
	w.loseAllLocked("file watching stopped (" + why + ")")
	w.releaseWaitersLocked()
	if fsw := w.fsw; fsw != nil {
		w.fsw = nil
		// Close waits for fsnotify's reader, which may be waiting for the
		// event loop that is calling us: close it from elsewhere.
		w.set.wg.Add(1)
		go func() {
			defer w.set.wg.Done()
			fsw.Close()
		}()
	}
	w.tree = map[string]map[string]bool{}
	w.links = map[string]struct{}{}
	w.entries = 0
	w.shallow = map[string]bool{}
	w.stamps = w.scan(nil)
}

// scan walks the workspace (without .git), and the outside trees servers
// read (outside.go), bounded by maxTreeEntries. Files modified recently,
// or hashed by the previous scan with the same stamp, are hashed.
func (w *workspaceWatcher) scan(prev map[string]fileStamp) map[string]fileStamp {
	stamps := map[string]fileStamp{}
	w.scanTree(w.root, true, prev, stamps)
	for dir, t := range w.outside {
		if t.skipped == "" && !w.insideOutsideTree(dir) {
			w.scanTree(dir, t.recursive, prev, stamps)
		}
	}
	return stamps
}

// scanTree adds the entries below top (all of them, or with recursive
// false its own) to stamps.
func (w *workspaceWatcher) scanTree(top string, recursive bool, prev, stamps map[string]fileStamp) {
	now := time.Now()
	_ = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip, as a watch would
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if p == top {
			return nil
		}
		if d.IsDir() && !recursive {
			stamps[p] = fileStamp{dir: true}
			return filepath.SkipDir
		}
		if len(stamps) >= maxTreeEntries {
			w.truncateLocked()
			return filepath.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		st := fileStamp{size: info.Size(), mtime: info.ModTime().UnixNano(), dir: d.IsDir()}
		st.ino = fileID(info)
		if info.Mode().IsRegular() {
			old, had := prev[p]
			sameStamp := had && old.size == st.size && old.mtime == st.mtime && old.ino == st.ino
			st.racy = now.Sub(info.ModTime()) < workspacefs.RacyWindow
			if st.racy || (sameStamp && old.racy) {
				if h, ok := hashFile(p); ok {
					st.hashed, st.hash = true, h
				}
			}
		}
		stamps[p] = st
		return nil
	})
}

// hashFile hashes a regular file's content for change detection. It never
// follows a symlink (one swapped in after the scan's stat is refused) and
// never blocks on a FIFO; what it reads is never sent anywhere.
func hashFile(p string) (uint64, bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|workspacefs.OpenNoFollow, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	var h maphash.Hash
	h.SetSeed(stampSeed)
	if _, err := io.Copy(&h, f); err != nil {
		return 0, false
	}
	return h.Sum64(), true
}

// rescanLocked compares the tree with the previous scan and records the
// differences.
func (w *workspaceWatcher) rescanLocked() {
	now := w.scan(w.stamps)
	for p, st := range now {
		old, ok := w.stamps[p]
		switch {
		case !ok || old.dir != st.dir:
			if ok {
				w.recordLocked(p, changeDeleted)
			}
			w.recordLocked(p, changeCreated)
		case st.dir:
		case old.ino != st.ino:
			w.recordLocked(p, changeDeleted)
			w.recordLocked(p, changeCreated)
		case old.size != st.size || old.mtime != st.mtime || (old.hashed && st.hashed && old.hash != st.hash):
			w.recordLocked(p, changeChanged)
		}
	}
	for p := range w.stamps {
		if _, ok := now[p]; !ok {
			w.recordLocked(p, changeDeleted)
		}
	}
	w.stamps = now
}

// sync is the freshness barrier: when it returns nil, every change that
// completed before it was called has been recorded in the subscriptions.
func (w *workspaceWatcher) sync(ctx context.Context) error {
	w.mu.Lock()
	if w.polling {
		w.rescanLocked()
		w.mu.Unlock()
		return nil
	}
	// Renames are serialized by w.mu: the sentinel has one name at a time.
	if err := os.Rename(w.sentinelPath(w.seq), w.sentinelPath(w.seq+1)); err != nil {
		// startPolling scans the tree and marks every subscription lost:
		// a rescan now would find nothing new.
		w.startPolling("the barrier's sentinel file cannot be renamed: " + err.Error())
		w.mu.Unlock()
		return nil
	}
	w.seq++
	n := w.seq
	seen := make(chan struct{})
	w.waiters[n] = seen
	w.mu.Unlock()

	timer := time.NewTimer(barrierTimeout)
	defer timer.Stop()
	select {
	case <-seen:
		// Released by the sentinel, or by a switch to polling (which
		// marked every subscription lost first).
		return nil
	case <-timer.C:
		w.mu.Lock()
		w.startPolling("a sentinel event did not arrive within " + barrierTimeout.String())
		w.mu.Unlock()
		return nil
	case <-ctx.Done():
		w.mu.Lock()
		delete(w.waiters, n)
		w.mu.Unlock()
		return ctxError(ctx, "waiting for file events to be read")
	}
}

// subscription is one server instance's view of a workspace's changes:
// per path, the first and the last raw change since the last take.
//
// It is safe for concurrent use: the watcher records while the instance's
// query takes.
type subscription struct {
	w *workspaceWatcher

	mu      sync.Mutex
	pending map[string]*pathRecord
	order   []string // paths in first-seen order
	lost    string   // non-empty: changes were lost, the server must restart
	// outside are the directories outside the workspace whose changes
	// this server hears of (outside.go): the others' are not its business.
	outside []outsideDir
	// since is when the subscription began, before its server started:
	// a file outside the workspace modified since may have changed after
	// the server read it (outside.go, catchUpOutsideLocked).
	since time.Time
}

type pathRecord struct{ first, last changeKind }

func (s *subscription) record(path string, kind changeKind, outside bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost != "" || (outside && !s.readsOutsideLocked(path)) {
		return
	}
	if r := s.pending[path]; r != nil {
		r.last = kind
		return
	}
	if len(s.pending) >= maxPendingPaths {
		s.loseLocked("more than " + strconv.Itoa(maxPendingPaths) + " files changed between two queries")
		return
	}
	s.pending[path] = &pathRecord{first: kind, last: kind}
	s.order = append(s.order, path)
}

func (s *subscription) lose(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loseLocked(why)
}

func (s *subscription) loseLocked(why string) {
	if s.lost == "" {
		s.lost = why
	}
	s.pending = map[string]*pathRecord{}
	s.order = nil
}

// take returns the recorded changes (paths inside within or outside the
// workspace — the subscription holds only those of directories its server
// reads — in first-seen order) and clears them; lost is non-empty when
// changes were lost.
func (s *subscription) take(within string) (changes []lspseam.PathChange, lost string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost != "" {
		lost = s.lost
		s.lost = ""
		return nil, lost
	}
	for _, p := range s.order {
		if within == "" || workspacefs.Inside(within, p) || !workspacefs.Inside(s.w.root, p) {
			r := s.pending[p]
			changes = append(changes, lspseam.PathChange{Path: p, First: string(r.first), Last: string(r.last)})
		}
	}
	if len(s.order) > 0 {
		s.pending = map[string]*pathRecord{}
		s.order = nil
	}
	return changes, ""
}

// close releases the subscription.
func (s *subscription) close() { s.w.set.release(s) }
