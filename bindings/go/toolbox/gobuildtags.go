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
// as breaking nothing ("none use what changed"). gopls still checks such a
// file when it is opened (in a build that includes it), so the dependents
// take, in the directory of each changed Go file, the excluded files that
// name a changed declaration: their problems are then checked like any
// other dependent's. Excluded files elsewhere that import the package are
// not looked for (that would read the workspace on every change). The
// same files make a references answer say it may be incomplete, and
// code_delete refuse to delete what they name.

// maxExcludedScan bounds the files of one directory looked at.
const maxExcludedScan = 500

// maxExcludedBytes bounds a file read for a changed name.
const maxExcludedBytes = 1 << 20

// goBuildMatches remembers which Go files the default build excludes, by
// path, size and modification time: go/build reads a file's header to
// tell, and a references answer asks about every file of its directory
// (cobra's 40: 0.7 ms a call, 0.1 ms remembered). Safe for concurrent
// use; forgotten all at once when full.
type goBuildMatches struct {
	mu     sync.Mutex
	byFile map[goFileStamp]bool // excluded
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
	key := goFileStamp{filepath.Join(dir, name), info.Size(), info.ModTime()}
	m.mu.Lock()
	out, ok := m.byFile[key]
	m.mu.Unlock()
	if ok {
		return out
	}
	match, err := build.Default.MatchFile(dir, name)
	out = err == nil && !match
	m.mu.Lock()
	if m.byFile == nil || len(m.byFile) >= maxGoBuildMatches {
		m.byFile = map[goFileStamp]bool{}
	}
	m.byFile[key] = out
	m.mu.Unlock()
	return out
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
		if err != nil || info.Size() > maxExcludedBytes || !m.excluded(r.Abs(dir), name, info) {
			continue
		}
		sib := path.Join(dir, name)
		f, err := r.Read(r.Abs(sib))
		if err != nil || !f.Exists {
			continue
		}
		if slices.ContainsFunc(names, func(n string) bool { return core.HasIdentifier(f.Text, n) }) {
			out = append(out, sib)
		}
	}
	return out
}

// declaredName is the identifier an outline entry declares: gopls names
// a method "(*T).M" or "T.M"; the uses name M.
func declaredName(outlineName string) string {
	if i := strings.LastIndexByte(outlineName, '.'); i >= 0 {
		outlineName = outlineName[i+1:]
	}
	return strings.Trim(outlineName, "()*")
}
