package localstdio

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Code a project reads from outside its workspace: a Go module's
// `replace example.com/lib => ../lib`, a TypeScript import of
// "../../common/x.ts", a package linked into node_modules (npm link, a
// pnpm workspace). A server reads those files when it loads the project
// and, kept running, answers from what it read: unless it hears that they
// changed, the next answer is stale and looks fresh.
//
// So the workspace's watcher watches those directories too, with the same
// inotify instance (the freshness barrier covers them) and the same rules
// (it lists directories and stats files, never follows a link, never sends
// what it reads), and a change there reaches the servers that read them
// as a workspace/didChangeWatchedFiles change. Which directories:
//
//   - those a server registered watchers for outside the workspace
//     (typescript-language-server registers each file it read there, by
//     its real path: {baseUri: ".../common", pattern: "x.ts"}); a pattern
//     without a "/" is watched in its base directory alone, any other in
//     the whole tree below it;
//   - those the project's own files name, for servers that do not
//     register them (projectOutsideFinders, by language: gopls registers
//     only its workspace, not a replace directory it loads), watched as
//     whole trees and announced to the server as if it had registered
//     them (outsideRegistration).
//
// Bounded: at most maxOutsideDirs directories in all; a tree that would
// pass that is not watched, and every answer of a server that reads it
// says so (outsideNotice). Never watched: /, the home directory, the
// server's own installation (tsserver registers its node_modules, which
// holds the TypeScript library it serves: the toolchain, like Go's
// standard library, whose changes mean a new server version), and a
// directory that does not exist (tsserver registers the places it looked
// for packages in vain; it is watched once it appears).

// maxOutsideDirs bounds the directories outside a workspace that its
// watcher watches (one inotify watch each, from the user's budget).
const maxOutsideDirs = 2_000

// outsideDir is a directory outside the workspace that a server reads.
type outsideDir struct {
	path      string // canonical, absolute
	recursive bool   // with everything below it, not only its own entries
}

// outsideTree is the watcher's state of one outside directory.
type outsideTree struct {
	recursive bool
	dirs      int    // directories it takes from maxOutsideDirs
	skipped   string // why it is not watched; "" when it is
}

// watchOutside makes the watcher watch dirs (each outside the workspace)
// and the subscription hear of their changes. It returns the directories
// that are not watched and why, for the answer's notice.
//
// A directory the subscription hears of anew may hold files its server
// read before: the server reads a file, then registers a watcher for it,
// and lspseam watches the directory only then. A change in between makes
// no event, and the next watch would take the changed file as the
// baseline. So the files there modified since the subscription began
// (before the server started, so before it read anything) are recorded
// as changed (catchUpOutsideLocked): the server reads them again.
func (w *workspaceWatcher) watchOutside(sub *subscription, dirs []outsideDir) (skipped []outsideSkip) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.subs[sub]; !ok {
		return nil // released (its server is gone): the watcher may be stopping
	}
	var heard []outsideDir
	for _, d := range dirs {
		t := w.outside[d.path]
		stale := t != nil && t.skipped == "" && !w.polling && w.tree[d.path] == nil && !w.insideOutsideTree(d.path)
		if t == nil || stale || (d.recursive && !t.recursive && t.skipped == "") {
			if t = w.addOutsideLocked(d, t); t == nil {
				continue // not there (yet)
			}
		}
		if t.skipped != "" {
			skipped = append(skipped, outsideSkip{dir: d.path, why: t.skipped})
			continue
		}
		heard = append(heard, d)
	}
	// With w.mu held, so no event of a directory heard anew is recorded
	// before the subscription hears of it.
	sub.mu.Lock()
	prev := sub.outside
	sub.outside = heard
	since := sub.since
	sub.mu.Unlock()
	for _, d := range heard {
		if !slices.ContainsFunc(prev, func(p outsideDir) bool { return p.path == d.path && (p.recursive || !d.recursive) }) {
			w.catchUpOutsideLocked(sub, d, since.Add(-outsideMtimeSlack))
		}
	}
	return skipped
}

// outsideMtimeSlack widens the catch-up's "modified since": a file's
// modification time comes from the kernel's coarse clock (behind the one
// time.Now reads by up to a tick), from a file server's clock, or in
// steps of 2 s (FAT). A file counted as changed that was not costs the
// server one re-read.
const outsideMtimeSlack = 2 * time.Second

// catchUpOutsideLocked records as changed, for sub alone, the regular
// files of d (its own, or with recursive its whole tree; .git and
// symbolic links not followed) modified at or after since, with w.mu
// held.
func (w *workspaceWatcher) catchUpOutsideLocked(sub *subscription, d outsideDir, since time.Time) {
	n := 0
	_ = filepath.WalkDir(d.path, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == d.path {
			return nil
		}
		if e.IsDir() {
			if !d.recursive || e.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if n++; n > maxPendingPaths {
			return filepath.SkipAll // the subscription loses its changes past this anyway
		}
		if info, err := e.Info(); err == nil && !info.ModTime().Before(since) {
			w.log.Debug("a file outside the workspace changed before it was watched", "path", p)
			sub.record(p, changeChanged, true)
		}
		return nil
	})
}

// outsideSkip is an outside directory a server reads that is not watched.
type outsideSkip struct{ dir, why string }

// addOutsideLocked starts watching d (replacing prev, its shallower or
// vanished state), with w.mu held. It returns nil when d is not a
// directory now.
func (w *workspaceWatcher) addOutsideLocked(d outsideDir, prev *outsideTree) *outsideTree {
	info, err := os.Stat(d.path)
	if err != nil || !info.IsDir() {
		if prev != nil {
			w.outsideUsed -= prev.dirs
			delete(w.outside, d.path)
		}
		return nil
	}
	if prev != nil {
		w.outsideUsed -= prev.dirs
	}
	t := &outsideTree{recursive: d.recursive}
	w.outside[d.path] = t
	budget := maxOutsideDirs - w.outsideUsed
	n := 1
	if d.recursive && !w.insideOutsideTree(d.path) {
		n = countDirs(d.path, budget+1)
	}
	if n > budget {
		t.skipped = fmt.Sprintf("more than the %d directories lspseam watches outside a workspace", maxOutsideDirs)
		w.log.Warn("a directory outside the workspace that a language server reads is not watched: answers may not follow changes there", "dir", d.path, "reason", t.skipped)
		return t
	}
	t.dirs = n
	w.outsideUsed += n
	if w.polling {
		// The next scan (sync) reads it: an index now would make every
		// file in it look created.
		if w.stamps != nil {
			w.scanTree(d.path, d.recursive, nil, w.stamps)
		}
		return t
	}
	if !d.recursive {
		if w.tree[d.path] == nil {
			w.shallow[d.path] = true
			w.indexShallow(d.path)
		}
		return t
	}
	if w.shallow[d.path] {
		// Watched alone so far: its subdirectories join now.
		delete(w.shallow, d.path)
		for name, isDir := range w.tree[d.path] {
			if isDir {
				w.indexDir(filepath.Join(d.path, name), false)
			}
		}
		return t
	}
	w.indexDir(d.path, false)
	w.log.Debug("watching a directory outside the workspace that a language server reads", "dir", d.path, "dirs", n)
	return t
}

// indexShallow watches dir and indexes its entries, not its
// subdirectories'.
func (w *workspaceWatcher) indexShallow(dir string) {
	if err := w.add(w.fsw, dir); err != nil {
		w.log.Debug("directory not watched", "dir", dir, "err", err)
		return
	}
	entries, _ := os.ReadDir(dir)
	children := make(map[string]bool, len(entries))
	for _, e := range entries {
		children[e.Name()] = e.IsDir()
	}
	w.tree[dir] = children
	w.entries += len(children)
}

// insideOutsideTree reports whether dir lies in another outside tree
// that is watched whole: it is watched with it.
func (w *workspaceWatcher) insideOutsideTree(dir string) bool {
	for p, t := range w.outside {
		if p != dir && t.recursive && t.skipped == "" && workspacefs.Inside(p, dir) {
			return true
		}
	}
	return false
}

// forgetOutsideLocked drops the outside trees' state after the index was
// thrown away (a queue overflow): the next watchOutside adds them again.
func (w *workspaceWatcher) forgetOutsideLocked() {
	w.outside = map[string]*outsideTree{}
	w.outsideUsed = 0
	w.shallow = map[string]bool{}
}

// countDirs counts the directories of the tree at top (itself included,
// .git and symbolic links not followed), stopping at limit.
func countDirs(top string, limit int) int {
	n := 0
	_ = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" && p != top {
			return filepath.SkipDir
		}
		if n++; n >= limit {
			return filepath.SkipAll
		}
		return nil
	})
	return n
}

// readsOutsideLocked reports whether path (outside the workspace) is in a
// directory the subscription's server reads, with s.mu held.
func (s *subscription) readsOutsideLocked(path string) bool {
	for _, d := range s.outside {
		if d.recursive && workspacefs.Inside(d.path, path) || filepath.Dir(path) == d.path || path == d.path {
			return true
		}
	}
	return false
}

// watchOutside has the watcher watch what the instance's server reads
// outside the workspace — the directories its project's files name and
// those of its registrations — before the freshness barrier, and returns
// what is not watched. It runs with the workspace turn held.
func (in *instance) watchOutside() []outsideSkip {
	in.outsideMu.Lock()
	defer in.outsideMu.Unlock()
	in.outsideProject = in.outsideMemo.find(func() ([]outsideDir, []string) {
		return projectOutsideDirs(in.server, in.ws, in.root, in.install)
	})
	return in.watchOutsideLocked()
}

// watchRegisteredOutside has the watcher watch the outside directories of
// the server's registrations as soon as they arrive, not at the next
// query's barrier: a change made meanwhile would make no event.
func (in *instance) watchRegisteredOutside() {
	in.outsideMu.Lock()
	defer in.outsideMu.Unlock()
	in.watchOutsideLocked()
}

// watchOutsideLocked watches in.outsideProject and the registrations'
// outside directories, with in.outsideMu held.
func (in *instance) watchOutsideLocked() []outsideSkip {
	dirs := slices.Clone(in.outsideProject)
	for _, r := range in.watches.list() {
		for _, fw := range r.Watchers {
			if d, ok := registeredOutsideDir(fw); ok {
				dirs = append(dirs, d)
			}
		}
	}
	return in.sub.w.watchOutside(in.sub, usableOutside(in.ws.Path, in.install, dirs))
}

// registersOutside reports whether an update registers a watcher outside
// the workspace ws.
func registersOutside(ws string, u lspseam.WatchUpdate) bool {
	for _, r := range u.Register {
		for _, fw := range r.Watchers {
			if d, ok := registeredOutsideDir(fw); ok && !workspacefs.Inside(ws, d.path) {
				return true
			}
		}
	}
	return false
}

// projectOutsideDirs is the directories outside the workspace that the
// project's files (in the workspace, and in the server's root when it is
// another directory) say server s reads, and that may be watched, and the
// paths that answer was read from (outsidememo.go keeps it by them).
func projectOutsideDirs(s *Server, ws, root Workspace, install string) (dirs []outsideDir, inputs []string) {
	var langs []string
	for _, l := range s.Config.ExtensionToLanguage {
		langs = append(langs, l)
	}
	for _, l := range s.Config.FileNameToLanguage {
		langs = append(langs, l)
	}
	searched := []string{ws.Path}
	if root.Path != ws.Path {
		searched = append(searched, root.Path)
	}
	found, inputs := projectOutside(langs, searched)
	for _, d := range found {
		inputs = append(inputs, d.path) // where it resolves to
	}
	return usableOutside(ws.Path, install, found), inputs
}

// registeredOutsideDir is the directory a watcher's pattern covers: its
// base, or an absolute pattern's literal leading directories.
func registeredOutsideDir(fw lspseam.FileWatcher) (outsideDir, bool) {
	base, pattern := "", fw.Pattern
	if fw.BaseURI != "" {
		p, ok := hostPaths.URIPath(fw.BaseURI)
		if !ok {
			return outsideDir{}, false
		}
		base = p
	} else {
		if !strings.HasPrefix(pattern, "/") {
			return outsideDir{}, false // relative to the root: inside
		}
		i := strings.IndexAny(pattern, "*?[{")
		if i < 0 {
			i = len(pattern)
		}
		cut := strings.LastIndex(pattern[:i], "/")
		base, pattern = pattern[:cut], pattern[cut+1:]
		if base == "" {
			base = "/"
		}
	}
	return outsideDir{path: filepath.Clean(base), recursive: strings.Contains(pattern, "/")}, true
}

// usableOutside keeps the directories that lie outside the workspace ws
// and may be watched (not /, the home directory, or the server's
// installation install), canonical, without duplicates (the recursive one
// of a pair wins).
func usableOutside(ws, install string, dirs []outsideDir) []outsideDir {
	home, _ := os.UserHomeDir()
	byPath := map[string]bool{}
	var order []string
	for _, d := range dirs {
		p, err := filepath.EvalSymlinks(d.path)
		if err != nil {
			continue // not there: nothing read from it can be stale
		}
		switch {
		case workspacefs.Inside(ws, p), p == "/", p == home,
			install != "" && (workspacefs.Inside(install, p) || workspacefs.Inside(p, install)):
			continue
		}
		if rec, ok := byPath[p]; !ok {
			order = append(order, p)
			byPath[p] = d.recursive
		} else if d.recursive && !rec {
			byPath[p] = true
		}
	}
	out := make([]outsideDir, 0, len(order))
	for _, p := range order {
		out = append(out, outsideDir{path: p, recursive: byPath[p]})
	}
	return out
}

// serverInstallation is the directory that holds the server program
// itself: the node_modules its resolved executable lies in, else the
// executable's directory. "" when it cannot be resolved.
func serverInstallation(exe string) string {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(real); dir != "/" && dir != "."; dir = filepath.Dir(dir) {
		if filepath.Base(dir) == "node_modules" {
			return dir
		}
	}
	return filepath.Dir(real)
}

// outsideRegistration announces the project's outside trees to a server
// that registered watchers (the core then matches their changes), with
// patterns for the files it serves and reads.
func outsideRegistration(project []outsideDir, exts, names []string) (lspseam.WatchRegistration, bool) {
	reg := lspseam.WatchRegistration{ID: "lspseam:outside"}
	for _, d := range project {
		base := hostPaths.FileURI(d.path)
		for _, e := range exts {
			reg.Watchers = append(reg.Watchers, lspseam.FileWatcher{Pattern: "**/*" + e, BaseURI: base, Kind: lspseam.WatchAll})
		}
		for _, n := range names {
			reg.Watchers = append(reg.Watchers, lspseam.FileWatcher{Pattern: "**/" + n, BaseURI: base, Kind: lspseam.WatchAll})
		}
	}
	return reg, len(reg.Watchers) > 0
}

// outsideNotice says which directories a server reads are not watched,
// and what to do ("" when all are).
func outsideNotice(serverID string, skipped []outsideSkip) string {
	if len(skipped) == 0 {
		return ""
	}
	dirs := make([]string, 0, len(skipped))
	for _, s := range skipped {
		dirs = append(dirs, s.dir)
	}
	return fmt.Sprintf("language server %q reads files outside the workspace that lspseam does not watch (%s: %s); if they changed since the server started, the answer may not reflect them — restart lspseam (`lspseam daemon stop` for the shared daemon) so the server reads them again", serverID, strings.Join(dirs, ", "), skipped[0].why)
}

// projectOutsideFinders name, by the languages a server serves, the
// directories outside the workspace its project's files say it reads and
// that the server does not register watchers for (gopls registers only
// its workspace; tsserver registers a linked package's files only once it
// has read them, so the package is watched from the server's start).
var projectOutsideFinders = []struct {
	languages []string
	// find returns the directories and every path it read them from.
	find func(dirs []string) (found []outsideDir, read []string)
}{
	{[]string{"go"}, goReplaceDirs},
	{[]string{"typescript", "typescriptreact", "javascript", "javascriptreact"}, linkedPackageDirs},
}

// projectOutside is the project's outside directories for a server
// serving langs (language ids), found in the files of dirs (the workspace
// and the server's root), and the paths read to find them.
func projectOutside(langs []string, dirs []string) (out []outsideDir, read []string) {
	for _, f := range projectOutsideFinders {
		if slices.ContainsFunc(f.languages, func(l string) bool { return slices.Contains(langs, l) }) {
			found, r := f.find(dirs)
			out, read = append(out, found...), append(read, r...)
		}
	}
	return out, read
}

// goReplaceDirs is the local directories of the replace directives (and
// go.work's use directives) of go.mod and go.work in dirs: modules the
// build reads from there, which gopls loads but does not watch.
func goReplaceDirs(dirs []string) (out []outsideDir, read []string) {
	for _, dir := range dirs {
		for _, name := range []string{"go.mod", "go.work"} {
			file := filepath.Join(dir, name)
			read = append(read, file)
			for _, target := range goLocalTargets(file) {
				if !filepath.IsAbs(target) {
					target = filepath.Join(dir, target)
				}
				out = append(out, outsideDir{path: filepath.Clean(target), recursive: true})
			}
		}
	}
	return out, read
}

// maxProjectFileBytes bounds a go.mod or go.work read for its directives.
const maxProjectFileBytes = 1 << 20

// goLocalTargets reads the file's replace targets and use paths that are
// file paths (./x, ../x, /x), per the go.mod grammar: a directive on one
// line, or a block of them in parentheses.
func goLocalTargets(file string) []string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	block := ""
	sc := bufio.NewScanner(io.LimitReader(f, maxProjectFileBytes))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		verb := block
		switch {
		case block != "" && fields[0] == ")":
			block = ""
			continue
		case block == "" && (fields[0] == "replace" || fields[0] == "use"):
			verb = fields[0]
			fields = fields[1:]
			if len(fields) > 0 && fields[0] == "(" {
				block = verb
				continue
			}
		case block == "":
			continue
		}
		var target string
		switch verb {
		case "replace":
			if i := slices.Index(fields, "=>"); i >= 0 && i+1 < len(fields) {
				target = fields[i+1]
			}
		case "use":
			target = fields[0]
		}
		target = strings.Trim(target, "\"`")
		if strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../") || strings.HasPrefix(target, "/") || target == "." || target == ".." {
			out = append(out, target)
		}
	}
	return out
}

// linkedPackageDirs is the real directories of the packages linked into
// the node_modules of dirs (node_modules/x and node_modules/@scope/x
// that are symbolic links): npm link and workspaces of npm, yarn and pnpm
// make them, and tsserver reads their files by their real paths.
func linkedPackageDirs(dirs []string) (out []outsideDir, read []string) {
	add := func(p string) {
		read = append(read, p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, outsideDir{path: real, recursive: true})
		}
	}
	for _, dir := range dirs {
		nm := filepath.Join(dir, "node_modules")
		read = append(read, nm)
		entries, _ := os.ReadDir(nm)
		for _, e := range entries {
			p := filepath.Join(nm, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				add(p)
			case e.IsDir() && strings.HasPrefix(e.Name(), "@"):
				read = append(read, p)
				scoped, _ := os.ReadDir(p)
				for _, s := range scoped {
					if s.Type()&fs.ModeSymlink != 0 {
						add(filepath.Join(p, s.Name()))
					}
				}
			}
		}
	}
	return out, read
}
