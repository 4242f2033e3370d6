package toolbox

import (
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// gopls answers references from the files of the build it loads (this
// machine's GOOS and GOARCH, no extra tags): a file behind a build
// constraint that excludes it (`//go:build windows`, `x_windows.go`) is in
// none of its packages, so a change that breaks such a file was reported
// as breaking nothing ("none refer to what changed"). gopls still checks such a
// file when it is opened (in a build that includes it), so the dependents
// take, in the directory of each changed Go file, the excluded files that
// name a changed declaration: their problems are then checked like any
// other dependent's. So do excluded files elsewhere in the workspace that
// import the changed file's package and name the declaration: exported
// API is often used from another package's x_windows.go or tagged file
// (a tester deleted cobra.HelperWin, used only by doc/path_windows.go, and
// the Windows build broke with no word of it). Those are found in a list
// of the workspace's excluded Go files, kept from one bounded walk for
// excludedListTTL (a walk lstats every file; go/build reads only the
// headers of files it has not seen at that size and time). The same files
// make a references answer say it may be incomplete, and code_delete
// refuse to delete what they name.

// maxExcludedScan bounds the files of one directory looked at.
const maxExcludedScan = 500

// maxExcludedBytes bounds a file read for a changed name.
const maxExcludedBytes = 1 << 20

// goBuildMatches remembers which Go files the default build excludes and
// which identifiers the excluded ones name, by path, size and
// modification time (not for a file modified within
// workspacefs.RacyWindow): go/build
// reads a file's header to tell, and a references answer asks about every
// file of its directory (cobra's 25: 0.6 ms a call, 95 µs with the
// exclusions remembered, 70 µs with the names too, most of it one lstat a
// file). Safe for concurrent use; forgotten all at once when full.
type goBuildMatches struct {
	mu     sync.Mutex
	byFile map[goFileStamp]bool // excluded
	// names is whether an excluded file names an identifier: asked on
	// every references answer, it would read the file each time.
	names map[goFileName]bool
	// listed is the workspace's excluded Go files as of listedAt
	// (excludedElsewhere).
	listed     []goFileStamp
	listedRoot string
	listedAt   time.Time
}

// goFileName is an identifier in one version of a Go file.
type goFileName struct {
	file goFileStamp
	name string
}

type goFileStamp struct {
	path     string
	size     int64
	modified time.Time
}

// maxGoBuildMatches bounds the files remembered.
const maxGoBuildMatches = 8192

// excluded reports whether the default build leaves out the Go file name
// of directory dir (absolute), whose lstat is info.
func (m *goBuildMatches) excluded(dir, name string, info fs.FileInfo) bool {
	return m.excludedAt(goFileStamp{filepath.Join(dir, name), info.Size(), info.ModTime()})
}

func (m *goBuildMatches) excludedAt(key goFileStamp) bool {
	dir, name := filepath.Split(key.path)
	m.mu.Lock()
	out, ok := m.byFile[key]
	m.mu.Unlock()
	if ok {
		return out
	}
	match, err := build.Default.MatchFile(filepath.Clean(dir), name)
	out = err == nil && !match
	if racy(key) {
		return out
	}
	m.mu.Lock()
	if m.byFile == nil || len(m.byFile) >= maxGoBuildMatches {
		m.byFile = map[goFileStamp]bool{}
	}
	m.byFile[key] = out
	m.mu.Unlock()
	return out
}

// namesAny reports whether the file at stamp names one of names, reading
// it (with read) only for a name not remembered for this version.
func (m *goBuildMatches) namesAny(stamp goFileStamp, names []string, read func() (string, bool)) bool {
	var unknown []string
	m.mu.Lock()
	for _, n := range names {
		uses, ok := m.names[goFileName{stamp, n}]
		if ok && uses {
			m.mu.Unlock()
			return true
		}
		if !ok {
			unknown = append(unknown, n)
		}
	}
	m.mu.Unlock()
	if len(unknown) == 0 {
		return false
	}
	text, ok := read()
	if !ok {
		return false
	}
	uses := make([]bool, len(unknown))
	for i, n := range unknown {
		uses[i] = core.HasIdentifier(text, n)
	}
	found := slices.Contains(uses, true)
	if racy(stamp) {
		return found
	}
	m.mu.Lock()
	if m.names == nil || len(m.names) >= maxGoBuildMatches {
		m.names = map[goFileName]bool{}
	}
	for i, n := range unknown {
		m.names[goFileName{stamp, n}] = uses[i]
	}
	m.mu.Unlock()
	return found
}

// racy reports whether stamp's file was modified too recently for its
// stamp to stand for its version: it is read again each time, never
// remembered.
func racy(stamp goFileStamp) bool {
	return time.Since(stamp.modified) < workspacefs.RacyWindow
}

// excludedUsers is the workspace-relative Go files in the directory of
// rel that the default build excludes and that name one of names.
func (m *goBuildMatches) excludedUsers(r *workspacefs.Root, rel string, names []string) []string {
	if !strings.HasSuffix(rel, ".go") || len(names) == 0 {
		return nil
	}
	dir := path.Dir(rel)
	entries, err := os.ReadDir(r.Abs(dir))
	if err != nil {
		return nil
	}
	var out []string
	for i, e := range entries {
		if i >= maxExcludedScan {
			break
		}
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") {
			continue
		}
		info, err := e.Info()
		if err != nil || info.Size() > maxExcludedBytes {
			continue
		}
		stamp := goFileStamp{filepath.Join(r.Abs(dir), name), info.Size(), info.ModTime()}
		if !m.excludedAt(stamp) {
			continue
		}
		sib := path.Join(dir, name)
		read := func() (string, bool) {
			f, err := r.Read(r.Abs(sib))
			return f.Text, err == nil && f.Exists
		}
		if m.namesAny(stamp, names, read) {
			out = append(out, sib)
		}
	}
	return append(out, m.excludedElsewhere(r, rel, names)...)
}

// excludedListTTL is how long a list of the workspace's excluded Go files
// is used before the workspace is walked again: an agent's burst of
// searches and changes walks it once.
const excludedListTTL = 2 * time.Second

// maxExcludedWalk bounds the directory entries one walk looks at.
const maxExcludedWalk = 50_000

// excludedElsewhere is the workspace-relative Go files outside rel's
// directory that the default build excludes, import rel's package (its
// import path, from the go.mod above it, quoted in the file) and name one
// of names.
func (m *goBuildMatches) excludedElsewhere(r *workspacefs.Root, rel string, names []string) []string {
	importPath := goImportPath(r, path.Dir(rel))
	if importPath == "" {
		return nil
	}
	dir := filepath.Clean(r.Abs(path.Dir(rel)))
	quoted := `"` + importPath + `"`
	var out []string
	for _, stamp := range m.excludedFiles(r) {
		if filepath.Dir(stamp.path) == dir {
			continue // the directory's own files are looked at above
		}
		var text string
		read := func() (string, bool) {
			f, err := r.Read(stamp.path)
			text = f.Text
			return f.Text, err == nil && f.Exists
		}
		if !m.namesAny(stamp, names, read) {
			continue
		}
		if text == "" {
			if _, ok := read(); !ok {
				continue
			}
		}
		if strings.Contains(text, quoted) {
			if rel, err := r.Rel(stamp.path); err == nil {
				out = append(out, rel)
			}
		}
	}
	return out
}

// excludedFiles is the workspace's Go files that the default build
// excludes, from a walk at most excludedListTTL old (hidden, vendor,
// node_modules and testdata directories skipped, as the go command does).
func (m *goBuildMatches) excludedFiles(r *workspacefs.Root) []goFileStamp {
	root := r.Dir
	m.mu.Lock()
	if m.listedRoot == root && time.Since(m.listedAt) < excludedListTTL {
		listed := m.listed
		m.mu.Unlock()
		return m.restamped(listed)
	}
	m.mu.Unlock()
	var out []goFileStamp
	seen := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxExcludedWalk {
			if seen > maxExcludedWalk {
				return filepath.SkipAll
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "vendor" || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxExcludedBytes {
			return nil
		}
		stamp := goFileStamp{p, info.Size(), info.ModTime()}
		if m.excludedAt(stamp) {
			out = append(out, stamp)
		}
		return nil
	})
	m.mu.Lock()
	m.listed, m.listedRoot, m.listedAt = out, root, time.Now()
	m.mu.Unlock()
	return out
}

// restamped is a listed walk's files as they are now: the list spares a
// walk of the tree, not a look at its few files. A file changed since the
// walk has its new stamp (with the walk's, a file rewritten without the
// name was still taken to name it, from what was remembered of its old
// version, and code_delete refused), and one no longer excluded or gone
// is left out.
func (m *goBuildMatches) restamped(listed []goFileStamp) []goFileStamp {
	out := make([]goFileStamp, 0, len(listed))
	for _, stamp := range listed {
		info, err := os.Lstat(stamp.path)
		if err != nil || !info.Mode().IsRegular() || info.Size() > maxExcludedBytes {
			continue
		}
		now := goFileStamp{stamp.path, info.Size(), info.ModTime()}
		if now.size == stamp.size && now.modified.Equal(stamp.modified) || m.excludedAt(now) {
			out = append(out, now)
		}
	}
	return out
}

// goImportPath is the import path of the package in the workspace
// directory dir: the module path of the nearest go.mod at or above it
// (inside the workspace), joined with dir's path below it; "" when there
// is none.
func goImportPath(r *workspacefs.Root, dir string) string {
	for d := dir; ; d = path.Dir(d) {
		f, err := r.Read(r.Abs(path.Join(d, "go.mod")))
		if err == nil && f.Exists {
			mod := modulePath(f.Text)
			if mod == "" {
				return ""
			}
			below := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if d == "." {
				below = strings.TrimPrefix(dir, ".")
			}
			return strings.TrimSuffix(path.Join(mod, below), "/")
		}
		if d == "." || d == "/" || d == "" {
			return ""
		}
	}
}

// modulePath is the module directive's path in a go.mod's text.
func modulePath(gomod string) string {
	for line := range strings.SplitSeq(gomod, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// declaredName is the identifier an outline entry declares: gopls names
// a method "(*T).M" or "T.M"; the uses name M.
func declaredName(outlineName string) string {
	if i := strings.LastIndexByte(outlineName, '.'); i >= 0 {
		outlineName = outlineName[i+1:]
	}
	return strings.Trim(outlineName, "()*")
}
