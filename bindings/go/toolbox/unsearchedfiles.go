package toolbox

import (
	"context"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The files a server did not search, for code_delete.
//
// clangd searches the files its compilation database lists, and a
// database made by CMake or bear never lists the examples and fuzzers a
// C project vendors: on DaveGamble/cJSON 50 sources had no entry, the
// session's answers said so, and code_delete refused every deletion
// ("cannot tell whether `unused_helper` is still used"), even of a
// function nothing names. Code in a file the server did not search can
// only use a name it spells, in its own text or in a file it includes:
// so those files (lspseam.UnsearchedFilesLister), and the files they
// #include (by name, transitively, as cinclude.go reads them; an
// include found nowhere in the workspace is a system or generated
// header), are searched for the identifier as a word, and only a line
// spelling it refuses the deletion, named. A search that cannot be finished within its bounds refuses as
// before, saying why. A `static` function (or file-level variable) of
// one file is reached only from translation units that include that file
// — cJSON's tests/common.h does `#include "../cJSON.c"`, so `static` alone
// proves nothing — and a unit that does not include it that spells the
// name has another symbol of that name, not a use.

// unsearchedSearchBudget bounds the time of the search.
const unsearchedSearchBudget = 5 * time.Second

// unsearchedSpellings searches the files the server did not search
// (unsearched: absolute paths), and those they include, for the lines
// spelling rt's identifier outside its own file: the first
// maxTextualUses as path:line and how many there are; why is non-empty
// when the search could not be finished.
func (t *Toolbox) unsearchedSpellings(ctx context.Context, r *workspacefs.Root, rt lspseam.ResolvedTarget, deleted lspseam.Range, unsearched []string) (seen []string, total int, why string) {
	if rt.Identifier == "" {
		return nil, 0, "the target has no identifier to search for"
	}
	sel, ok := t.service.Selection(ctx, rt.Path, r.Dir)
	if !ok {
		return nil, 0, "no language server owns " + rt.Path
	}
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	if census.stopped {
		return nil, 0, "the workspace has more than " + strconv.Itoa(maxWalkEntries) + " entries"
	}
	byName := map[string][]string{} // the provider's files by base name
	for _, f := range census.owned[sel.ID] {
		byName[path.Base(f.rel)] = append(byName[path.Base(f.rel)], f.rel)
	}
	s := &includeSearch{r: r, byName: byName, texts: map[string]string{}, until: time.Now().Add(unsearchedSearchBudget)}
	internal := internalLinkage(rt, r, deleted)
	searched := map[string]bool{rt.Path: true} // the server searched the declaration's own file
	for _, abs := range unsearched {
		rel, err := r.Rel(abs)
		if err != nil {
			return nil, 0, abs + " is outside the workspace"
		}
		unit, why := s.closure(ctx, path.Clean(rel))
		if why != "" {
			return nil, 0, why
		}
		if internal && !unit[rt.Path] {
			continue // another unit: a name it spells is its own symbol
		}
		files := make([]string, 0, len(unit))
		for f := range unit {
			files = append(files, f)
		}
		slices.Sort(files)
		for _, f := range files {
			if searched[f] {
				continue
			}
			searched[f] = true
			for n, line := range strings.Split(s.texts[f], "\n") {
				if core.IdentifierOffsets(f, line, rt.Identifier) == nil {
					continue
				}
				total++
				if len(seen) < maxTextualUses {
					seen = append(seen, f+":"+strconv.Itoa(n+1))
				}
			}
		}
	}
	return seen, total, ""
}

// includeSearch reads a translation unit's files, within the search's
// bounds.
type includeSearch struct {
	r      *workspacefs.Root
	byName map[string][]string
	texts  map[string]string // read so far, by workspace-relative path
	bytes  int
	until  time.Time
}

// closure is the files of the unit whose source is rel: rel and what it
// includes, transitively, as found in the workspace; why is non-empty
// when the bounds stopped the reading.
func (s *includeSearch) closure(ctx context.Context, rel string) (map[string]bool, string) {
	unit := map[string]bool{rel: true}
	queue := []string{rel}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		text, ok, why := s.read(ctx, f)
		if why != "" {
			return nil, why
		}
		if !ok {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			name, ok := includeName(line)
			if !ok {
				continue
			}
			for _, g := range includedFiles(s.byName, f, name) {
				if !unit[g] {
					unit[g] = true
					queue = append(queue, g)
				}
			}
		}
	}
	for f := range unit {
		if _, read := s.texts[f]; !read {
			delete(unit, f) // named, but not a file of the workspace
		}
	}
	return unit, ""
}

// read is rel's text (ok false when it is not a readable file), read
// once; why is non-empty when a bound is reached.
func (s *includeSearch) read(ctx context.Context, rel string) (text string, ok bool, why string) {
	if text, ok := s.texts[rel]; ok {
		return text, true, ""
	}
	switch {
	case ctx.Err() != nil:
		return "", false, "the request ended"
	case time.Now().After(s.until):
		return "", false, "it took longer than " + unsearchedSearchBudget.String()
	case len(s.texts) >= maxTextualFiles:
		return "", false, "they and the files they include are more than " + strconv.Itoa(maxTextualFiles) + " files"
	case s.bytes >= maxTextualBytes:
		return "", false, "they and the files they include hold more than " + strconv.Itoa(maxTextualBytes>>20) + " MiB"
	}
	file, err := s.r.Read(s.r.Abs(rel))
	if err != nil || !file.Exists {
		return "", false, ""
	}
	s.texts[rel] = file.Text
	s.bytes += len(file.Text)
	return file.Text, true, ""
}

// internalLinkage says whether rt is a C-family function or file-level
// variable declared `static` (its declaration's text before its name, in
// its file, says so): only units including its file can name it.
func internalLinkage(rt lspseam.ResolvedTarget, r *workspacefs.Root, deleted lspseam.Range) bool {
	if rt.Kind != "function" && !(rt.Kind == "variable" && rt.Container == "") {
		return false
	}
	file, err := r.Read(r.Abs(rt.Path))
	if err != nil || !file.Exists {
		return false
	}
	lines := strings.Split(file.Text, "\n")
	if int(rt.Position.Line) >= len(lines) || rt.Position.Line < deleted.Start.Line {
		return false
	}
	var head strings.Builder
	for l := deleted.Start.Line; l <= rt.Position.Line; l++ {
		line := lines[l]
		if l == rt.Position.Line {
			line = line[:min(len(line), byteOffsetOfUTF16(line, int(rt.Position.Character)))]
		}
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") {
			continue // the doc comment
		}
		head.WriteString(line + "\n")
	}
	return core.IdentifierOffsets(rt.Path, head.String(), "static") != nil
}

// byteOffsetOfUTF16 is the byte offset of UTF-16 column col in line.
func byteOffsetOfUTF16(line string, col int) int {
	n := 0
	for i, c := range line {
		if n >= col {
			return i
		}
		n++
		if c >= 0x10000 {
			n++
		}
	}
	return len(line)
}
