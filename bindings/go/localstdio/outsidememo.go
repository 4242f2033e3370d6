package localstdio

import (
	"os"
	"slices"
	"time"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// The directories outside the workspace a project names (outside.go) are
// found before every query's freshness barrier, and finding them reads
// go.mod and go.work, lists node_modules and resolves every link and
// target: tens of microseconds on a plain Go module, more with every
// linked package, on every hover. They change only when one of those
// files or links does, so the answer is kept with a stamp of everything
// it was read from and reused while a stat of each shows nothing changed:
// each input (go.mod, go.work, node_modules and its @scope directories,
// each link and target, followed) by identity, size and modification
// time, and each directory found, by its canonical path still being that
// directory. A stamp with an input modified within
// workspacefs.RacyWindow of its reading is not kept (a rewrite in the
// same clock tick keeps size and time), so a racy input is read again at
// the next query, as git treats racily clean entries.

// projectOutsideMemo is the last projectOutsideDirs answer and what it
// was read from. Its owner serializes its use (instance.outsideMu).
type projectOutsideMemo struct {
	valid  bool
	inputs []pathStamp
	dirs   []outsideDir
}

// pathStamp is one input's state, following links: absent, or the file
// or directory it names.
type pathStamp struct {
	path string
	info os.FileInfo // nil: absent
}

// stampPaths stats paths; settled is false when one of them was modified
// too recently for its stamp to stand for its content.
func stampPaths(paths []string, now time.Time) (stamps []pathStamp, settled bool) {
	settled = true
	stamps = make([]pathStamp, 0, len(paths))
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			info = nil
		} else if now.Sub(info.ModTime()) < workspacefs.RacyWindow {
			settled = false
		}
		stamps = append(stamps, pathStamp{path: p, info: info})
	}
	return stamps, settled
}

// unchanged reports whether s still describes its path.
func (s pathStamp) unchanged() bool {
	info, err := os.Stat(s.path)
	if err != nil || s.info == nil {
		return err != nil && s.info == nil
	}
	return os.SameFile(info, s.info) && info.Size() == s.info.Size() &&
		info.ModTime().Equal(s.info.ModTime()) && info.Mode() == s.info.Mode()
}

// lookup is the kept answer when nothing it was read from has changed.
func (m *projectOutsideMemo) lookup() ([]outsideDir, bool) {
	if !m.valid {
		return nil, false
	}
	for _, s := range m.inputs {
		if !s.unchanged() {
			return nil, false
		}
	}
	for _, d := range m.dirs {
		// The canonical path is still there and still a directory: a
		// target renamed and re-linked keeps its identity but not its
		// path.
		if info, err := os.Lstat(d.path); err != nil || !info.IsDir() {
			return nil, false
		}
	}
	return slices.Clone(m.dirs), true
}

// find is the project's outside directories and the paths they were
// read from, from the memo while those are unchanged. On a miss it finds
// them, stamps the inputs, and finds them again: the answer is kept only
// when both findings agree, so a change made while they were read (which
// the stamp may already show) is never kept under a stamp that hides it.
func (m *projectOutsideMemo) find(read func() (dirs []outsideDir, inputs []string)) []outsideDir {
	if dirs, ok := m.lookup(); ok {
		return dirs
	}
	dirs, inputs := read()
	stamps, settled := stampPaths(inputs, time.Now())
	again, inputsAgain := read()
	*m = projectOutsideMemo{
		valid:  settled && slices.Equal(dirs, again) && slices.Equal(inputs, inputsAgain),
		inputs: stamps,
		dirs:   slices.Clone(again),
	}
	return again
}
