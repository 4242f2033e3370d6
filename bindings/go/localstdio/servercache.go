package localstdio

import (
	"os"
	"path/filepath"
	"time"
)

// A server that keeps its index inside the project (clangd's background
// index in .cache/clangd/index beside compile_commands.json) leaves a
// directory that version control sees as new: an agent's `git add -A`
// committed megabytes of index. lspseam marks such a directory ignored
// the way pytest, mypy and ruff mark their caches: a .gitignore holding
// `*` inside it (it ignores itself too), written once the server has made
// the directory, never over a file that is there, and only through the
// workspace's own directories (os.Root: a link out of it is not
// followed). Nothing else of the workspace is touched.

// serverCacheDirs are, by server id, the directories below the server's
// project root (and below build/, where a compilation database is often
// written) that the server fills with its own cache.
var serverCacheDirs = map[string]string{
	"clangd": filepath.Join(".cache", "clangd"),
}

// cacheIgnoreText is the .gitignore written into a server's cache.
const cacheIgnoreText = "# Created by lspseam: this is a language server's cache (clangd's index), not source.\n*\n"

// cacheWatchPeriod is how often a running server's cache directory is
// looked for until it exists; cacheWatchFor bounds the looking.
const (
	cacheWatchPeriod = 2 * time.Second
	cacheWatchFor    = 10 * time.Minute
)

// ignoreServerCache watches, while in runs, for its server's cache
// directory under its root and marks it ignored once it exists (at once
// when it does already). Servers without a cache directory cost nothing.
func (in *instance) ignoreServerCache() {
	rel, ok := serverCacheDirs[in.server.ID]
	if !ok {
		return
	}
	dirs := []string{rel, filepath.Join("build", rel)}
	go func() {
		deadline := time.Now().Add(cacheWatchFor)
		t := time.NewTicker(cacheWatchPeriod)
		defer t.Stop()
		for {
			if markCachesIgnored(in.root.Path, dirs) || time.Now().After(deadline) {
				return
			}
			select {
			case <-in.dead:
				markCachesIgnored(in.root.Path, dirs) // the last index written
				return
			case <-t.C:
			}
		}
	}()
}

// markCachesIgnored writes the ignore file into each of dirs (relative
// to root) that exists and has none; done reports that one of them
// exists (it is then marked, or was already).
func markCachesIgnored(root string, dirs []string) (done bool) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	for _, dir := range dirs {
		info, err := r.Lstat(dir)
		if err != nil || !info.IsDir() {
			continue
		}
		done = true
		f, err := r.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			continue // there already, or unwritable: left as it is
		}
		_, werr := f.WriteString(cacheIgnoreText)
		if cerr := f.Close(); werr != nil || cerr != nil {
			r.Remove(filepath.Join(dir, ".gitignore")) // never a partial file
		}
	}
	return done
}
