package toolbox

import (
	"context"
	"path"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// Which files a change of C-family source files can affect: a C, C++ or
// Objective-C compiler reads one translation unit, the source file and
// what it #includes, so another file's compile errors depend on a changed
// source file only when it #includes it, directly or through a header
// (cJSON's tests include "../cJSON.c" through tests/common.h). Any other
// file's inputs did not change: clangd publishes no report on it after
// the change (so the wait for one always ran out: ~3 s an edit, every
// such dependent "stale"), and there is nothing to compare. The
// includers are found textually, over-approximated: a file naming the
// changed file's base name between quotes or angle brackets (an
// #include, or a #define a computed #include uses), then the files
// naming those, and so on. When the search cannot be complete (the
// census stopped, a bound hit, files of an include-only extension no
// server owns, a changed file that is not a C-family source file) there
// is no answer and every dependent is checked as before.

// includeOnlyExtensions are extensions of files that are only ever
// #included; one no provider owns is not searched, so the includers are
// unknown.
var includeOnlyExtensions = []string{".inc", ".inl", ".def", ".tcc", ".ixx", ".ipp", ".tpp", ".hpp", ".hh", ".hxx", ".h++", ".h"}

// cIncluders is the set of workspace files (relative paths) that may
// #include one of the changed files (relative paths), or nil and false when it is unknown
// (some changed file is not a C-family source file, or the search was
// cut short).
func (t *Toolbox) cIncluders(ctx context.Context, r *workspacefs.Root, changed []string) (map[string]bool, bool) {
	for _, rel := range changed {
		if !core.CSourceFile(rel) {
			return nil, false
		}
	}
	return t.includersOf(ctx, r, changed)
}

// includersOf is the set of workspace files (relative paths) that may
// #include one of the files changed (relative paths: C-family source
// files or headers), or nil and false when it is unknown (some changed
// file is not a C-family file, or the search was cut short).
func (t *Toolbox) includersOf(ctx context.Context, r *workspacefs.Root, changed []string) (map[string]bool, bool) {
	if len(changed) == 0 {
		return nil, false
	}
	var queue []string
	ids := map[string]bool{}
	for _, rel := range changed {
		if !core.CFamilyFile(rel) {
			return nil, false
		}
		sel, ok := t.service.Selection(ctx, rel, r.Dir)
		if !ok {
			return nil, false
		}
		ids[sel.ID] = true
		queue = append(queue, path.Base(rel))
	}
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	if census.stopped {
		return nil, false
	}
	for _, ext := range includeOnlyExtensions {
		if census.unowned[ext] > 0 {
			return nil, false
		}
	}
	var files []string
	for id := range ids {
		for _, f := range census.owned[id] {
			files = append(files, f.rel)
		}
	}
	if len(files) > maxTextualFiles {
		return nil, false
	}
	texts := map[string]string{}
	read := 0
	for _, rel := range files {
		if ctx.Err() != nil || read > maxTextualBytes {
			return nil, false
		}
		f, err := r.Read(r.Abs(rel))
		if err != nil {
			return nil, false
		}
		texts[rel] = f.Text
		read += len(f.Text)
	}
	includers := map[string]bool{}
	named := map[string]bool{}
	for len(queue) > 0 {
		base := queue[0]
		queue = queue[1:]
		if named[base] {
			continue
		}
		named[base] = true
		for _, rel := range files {
			if !includers[rel] && namesIncluded(texts[rel], base) {
				includers[rel] = true
				queue = append(queue, path.Base(rel))
			}
		}
	}
	return includers, true
}
