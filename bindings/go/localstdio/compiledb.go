package localstdio

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A compilation database that exists but does not list the workspace's
// files is no better than none: clangd indexes the files it lists, and a
// source file it does not list is searched only while it is open. Measured
// on a copy of the c fixture whose compile_commands.json still named the
// original checkout's paths (as after a move, a copy, or a database made
// in a container): references of total_area answered the header's
// declaration alone (4 locations exist), and code_delete removed report(),
// which main.c still calls; a new zoom.c not yet in a correct database
// was missing from references and callers the same way. So a search is
// marked incomplete when C/C++ source files under the database's project
// (within the root) have no entry, naming them. Headers have no entries
// of their own (clangd infers their commands), so only sources count.

// compileDBSources are the extensions of the files a compilation
// database lists (clangd's C, C++ and Objective-C sources; not headers).
var compileDBSources = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".c++": true, ".m": true, ".mm": true}

// maxCompileDBBytes bounds the database read: a larger one is not
// checked (the search is then taken as its index's, as before).
const maxCompileDBBytes = 256 << 20

// compileDBFiles is the file set of the last compilation database read,
// kept while its stamp (size and modification time) is unchanged: each
// search from a C file asks, and a large project's database is read once.
type compileDBFiles struct {
	mu      sync.Mutex
	path    string
	size    int64
	modTime time.Time
	files   map[string]bool // the entries' files, resolved and cleaned
	entries int
	sample  string // one entry's file, as resolved, for the notice
	err     error
}

// compileDBEntry is what lspseam reads of an entry.
type compileDBEntry struct {
	Directory string `json:"directory"`
	File      string `json:"file"`
}

// read is the database at path's file set, from the cache when its stamp
// is unchanged; ok is false when it cannot be read or is too large.
func (c *compileDBFiles) read(path string) (files map[string]bool, entries int, sample, stamp string, ok bool) {
	info, err := os.Stat(path)
	if err != nil || info.Size() > maxCompileDBBytes {
		return nil, 0, "", "", false
	}
	stamp = path + "\x00" + strconv.FormatInt(info.Size(), 10) + "\x00" + info.ModTime().String()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path != path || c.size != info.Size() || !c.modTime.Equal(info.ModTime()) {
		c.path, c.size, c.modTime = path, info.Size(), info.ModTime()
		c.files, c.entries, c.sample, c.err = readCompileDB(path)
	}
	if c.err != nil {
		return nil, 0, "", "", false
	}
	return c.files, c.entries, c.sample, stamp, true
}

// readCompileDB reads a compilation database's files: each entry's file,
// joined to its directory when relative (a relative directory to the
// database's), cleaned, and also with its directory's symbolic links
// resolved, so that a database naming the project through a link still
// covers the canonical paths the workspace walk gives.
func readCompileDB(path string) (map[string]bool, int, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, "", err
	}
	var entries []compileDBEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, 0, "", err
	}
	files := make(map[string]bool, len(entries))
	resolved := map[string]string{} // directory → with its links resolved ("" when it does not exist)
	sample := ""
	for _, e := range entries {
		if e.File == "" {
			continue
		}
		dir := e.Directory
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(path), dir)
		}
		f := e.File
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		f = filepath.Clean(f)
		if sample == "" {
			sample = f
		}
		files[f] = true
		d := filepath.Dir(f)
		r, seen := resolved[d]
		if !seen {
			r, _ = filepath.EvalSymlinks(d)
			resolved[d] = r
		}
		if r != "" {
			files[filepath.Join(r, filepath.Base(f))] = true
		}
	}
	return files, len(entries), sample, nil
}

// compileDBScope is the scope of a search by a server whose compilation
// database db was found in dir, when source files under dir (within the
// root; the whole root when dir is above it) have no entry in it: the
// incomplete notice naming them, and those files when the walk saw every
// file (none when every one has an entry, or db cannot be read).
func (in *instance) compileDBScope(ctx context.Context, db, dir string) searchScope {
	if filepath.Base(db) != "compile_commands.json" {
		return searchScope{}
	}
	files, entries, sample, stamp, ok := in.compileDB.read(db)
	if !ok {
		in.log.Debug("compilation database not read; its coverage is not checked", "path", db)
		return searchScope{}
	}
	walk := in.root.Path
	if rel, err := filepath.Rel(in.root.Path, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		walk = dir // a subproject's database describes that subproject
	}
	missing, complete := in.scopeWalks.walk(ctx, walk, "compiledb\x00"+stamp, func(p string) bool {
		return compileDBSources[strings.ToLower(filepath.Ext(p))] && !files[p]
	})
	if len(missing) == 0 {
		return searchScope{}
	}
	which := fmt.Sprintf("%s has no entry for %s C/C++ source %s of the workspace (such as %s)", in.wsRel(db), strconv.Itoa(len(missing)), plural(len(missing), "file", "files"), in.wsRel(missing[0]))
	if under := in.wsRel(walk); under != "." {
		which = fmt.Sprintf("%s has no entry for %s C/C++ source %s under %s (such as %s)", in.wsRel(db), strconv.Itoa(len(missing)), plural(len(missing), "file", "files"), under, in.wsRel(missing[0]))
	}
	covered := 0
	for f := range files {
		if strings.HasPrefix(f, walk+string(filepath.Separator)) {
			covered++
		}
	}
	if covered == 0 && sample != "" {
		which += fmt.Sprintf(", and none of its %d entries is a file here (they name files such as %s: a database made for another checkout, or before a move)", entries, sample)
	}
	notice := fmt.Sprintf("%s: language server %q indexes the files it lists, so uses in those are found only while they are open", which, in.server.ID)
	switch h := in.neg.Readiness.SearchNeedsHint; {
	case strings.HasPrefix(h, "generate "):
		notice += "; re" + h
	case h != "":
		notice += "; " + h
	}
	scope := searchScope{notice: notice}
	if complete {
		scope.unsearched = slices.Clone(missing)
	}
	return scope
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
