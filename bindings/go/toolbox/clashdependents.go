package toolbox

import (
	"context"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The files a change's new declarations may clash with (findDependents).
//
// A declaration a change adds touches no declaration that was there, so
// no reference leads to the files it breaks: testers added a function to
// cobra.go that command.go already declares ("stripFlags redeclared in
// this block", reported in command.go) and an export to zod's parse.ts
// that core/index.ts's `export *` of another module already exports
// (TS2308 in index.ts), and both answers said "Other files: none use
// what changed". The names come from core.AddedDeclarations; the files
// where they may clash are
//
//   - Go: the other files of the changed file's directory (its package)
//     that name one of them as a whole identifier;
//   - TypeScript and JavaScript: the files that re-export the changed
//     module with `export * from`, and those that re-export them, up to
//     maxReexportDepth: where two modules' exports meet.
//
// A workspace larger than the search's bounds is searched in part, and
// the answer says so (the dependents' partial notice).

const (
	// maxReexportDepth bounds the chain of `export *` barrels followed.
	maxReexportDepth = 3
	// maxClashScanFiles and maxClashScanBytes bound the files read for
	// their `export *` lines per change.
	maxClashScanFiles = 5000
	maxClashScanBytes = 16 << 20
)

var exportStarFrom = regexp.MustCompile(`(?m)^\s*export\s*\*\s*from\s*["']([^"'\n]+)["']`)

// addedNames are the names a change declares anew in one file
// (core.AddedDeclarations).
type addedNames struct {
	rel   string
	names []string
}

// clashDependents returns the workspace-relative files outside the change
// (isChanged) where the names it declares anew may clash, and a notice
// when the search for them stopped at its bounds ("" otherwise).
func (t *Toolbox) clashDependents(ctx context.Context, r *workspacefs.Root, added []addedNames, isChanged map[string]bool) ([]string, string) {
	var files []string
	seen := map[string]bool{}
	add := func(rel string) {
		if !isChanged[rel] && !seen[rel] {
			seen[rel] = true
			files = append(files, rel)
		}
	}
	var modules []string // changed TypeScript/JavaScript files that export new names
	for _, a := range added {
		if strings.HasSuffix(a.rel, ".go") {
			for _, rel := range samePackageNaming(r, a.rel, a.names) {
				add(rel)
			}
			continue
		}
		modules = append(modules, a.rel)
	}
	if len(modules) == 0 {
		return files, ""
	}
	barrels, cut := t.reexporters(ctx, r, modules)
	for _, rel := range barrels {
		add(rel)
	}
	if cut != "" {
		return files, "the files re-exporting " + modules[0] + " with `export *` were searched in part (" + cut + "): a new export may clash in a file not checked"
	}
	return files, ""
}

// samePackageNaming lists the other Go files of rel's directory that name
// one of names.
func samePackageNaming(r *workspacefs.Root, rel string, names []string) []string {
	dir := path.Dir(rel)
	entries, err := os.ReadDir(r.Abs(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		other := path.Join(dir, e.Name())
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".go") || other == rel {
			continue
		}
		f, err := r.Read(r.Abs(other))
		if err != nil || !f.Exists {
			continue
		}
		for _, n := range names {
			if core.IdentifierOffsets(other, f.Text, n) != nil {
				out = append(out, other)
				break
			}
		}
	}
	return out
}

// reexporters lists the files of the modules' provider that re-export one
// of them with `export * from`, directly or through such files, at most
// maxReexportDepth deep; cut says why when the search stopped short:
// out of time (the dependents' share of the call's budget, spent first
// on the references: a tester's 150-file workspace was said to be
// "larger than the search's bounds"), or over its bounds.
func (t *Toolbox) reexporters(ctx context.Context, r *workspacefs.Root, modules []string) (out []string, cut string) {
	sel, ok := t.service.Selection(ctx, modules[0], r.Dir)
	if !ok {
		return nil, ""
	}
	census := t.takeCensus(ctx, r.Dir, r.Dir, false)
	outOfTime := func() string {
		return "out of time: the time for finding the other files a change affects ran out"
	}
	switch {
	case census.stopped && ctx.Err() != nil:
		cut = outOfTime()
	case census.stopped:
		cut = "the workspace has more than " + strconv.Itoa(maxWalkEntries) + " entries"
	}
	stars := map[string][]string{} // module stem → the files that `export *` it
	read := 0
	for i, f := range census.owned[sel.ID] {
		if ctx.Err() != nil {
			cut = outOfTime()
			break
		}
		if i >= maxClashScanFiles || read >= maxClashScanBytes {
			cut = "the workspace's script files are more than the search reads"
			break
		}
		file, err := r.Read(r.Abs(f.rel))
		if err != nil || !file.Exists {
			continue
		}
		read += len(file.Text)
		if !strings.Contains(file.Text, "export") {
			continue
		}
		for _, m := range exportStarFrom.FindAllStringSubmatch(file.Text, -1) {
			if spec := m[1]; strings.HasPrefix(spec, ".") {
				target := moduleStem(path.Join(path.Dir(f.rel), spec))
				stars[target] = append(stars[target], f.rel)
			}
		}
	}
	seen := map[string]bool{}
	level := modules
	for depth := 0; depth < maxReexportDepth && len(level) > 0; depth++ {
		var next []string
		for _, m := range level {
			stem := moduleStem(m)
			for _, key := range []string{stem, strings.TrimSuffix(stem, "/index")} {
				for _, rel := range stars[key] {
					if !seen[rel] {
						seen[rel] = true
						out = append(out, rel)
						next = append(next, rel)
					}
				}
				if !strings.HasSuffix(stem, "/index") {
					break
				}
			}
		}
		level = next
	}
	return out, cut
}

// moduleStem is a module path without its extension: a specifier names
// parse.ts as "./parse.js", "./parse" or "./parse.ts".
func moduleStem(p string) string {
	switch ext := path.Ext(p); ext {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return strings.TrimSuffix(p, ext)
	}
	return p
}
