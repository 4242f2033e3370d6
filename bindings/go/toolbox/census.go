package toolbox

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// A workspace census: one bounded walk of a workspace that says which
// languages it has — the source files each configured provider owns (by
// the core's provider selection, as a query on the file would route), and
// how many files of each extension no provider owns. Workspace-wide reads
// start from it: code_diagnostics without path (which files to check) and
// code_symbols without path (which servers and project roots to ask); a
// doctor's language census can reuse it.

// maxWalkEntries bounds a census: the walk stops after this many
// directory entries, and the census says it stopped.
const maxWalkEntries = 50_000

// maxUnownedExtensions bounds the extensions a census counts for files no
// provider owns (a workspace of generated files could have many).
const maxUnownedExtensions = 256

// workspaceCensus is what one walk of a workspace found.
type workspaceCensus struct {
	dir       string                  // the directory walked
	owned     map[string][]sourceFile // by provider id; most recently changed first when timed
	languages map[string][]string     // by provider id: its files' language ids, sorted
	providers []string                // the ids with files, sorted
	unowned   map[string]int          // files no provider owns, by lowercased extension ("" none)
	stopped   bool                    // the walk stopped at maxWalkEntries (or the context ended)
	timed     bool                    // the files' modification times were read
}

// sourceFile is a workspace file a provider owns.
type sourceFile struct {
	rel      string    // slash-separated, relative to the census directory
	modified time.Time // zero unless the census was timed
}

// takeCensus walks dir (not following symbolic links) for the files each
// provider of t's Service owns in workspace ws. timed reads each owned
// file's modification time (one more system call a file: a third of the
// walk's time on the Go source tree) and orders each provider's files
// most recently changed first.
func (t *Toolbox) takeCensus(ctx context.Context, dir, ws string, timed bool) *workspaceCensus {
	c := &workspaceCensus{dir: dir, owned: map[string][]sourceFile{}, languages: map[string][]string{}, unowned: map[string]int{}, timed: timed}
	type owner struct{ id, language string }
	owners := map[string]owner{} // by the Service's SelectionKey: an extension's owner is the same for every file
	seen := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		seen++
		if seen > maxWalkEntries || ctx.Err() != nil {
			c.stopped = true
			return filepath.SkipAll
		}
		if err != nil {
			if p == dir {
				return filepath.SkipAll
			}
			return nil // an unreadable entry: the rest of the walk goes on
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && workspacefs.SkippedDir(name) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		key := t.service.SelectionKey(rel)
		o, known := owners[key]
		if !known {
			if sel, ok := t.service.Selection(ctx, rel, ws); ok {
				o = owner{sel.ID, sel.LanguageID}
			}
			owners[key] = o
		}
		if o.id == "" {
			ext := strings.ToLower(path.Ext(name))
			if _, counted := c.unowned[ext]; counted || len(c.unowned) < maxUnownedExtensions {
				c.unowned[ext]++
			}
			return nil
		}
		f := sourceFile{rel: rel}
		if timed {
			info, err := d.Info()
			if err != nil {
				return nil
			}
			f.modified = info.ModTime()
		}
		if _, ok := c.owned[o.id]; !ok {
			c.providers = append(c.providers, o.id)
		}
		c.owned[o.id] = append(c.owned[o.id], f)
		if !containsString(c.languages[o.id], o.language) {
			c.languages[o.id] = append(c.languages[o.id], o.language)
		}
		return nil
	})
	for id, files := range c.owned {
		if timed {
			sort.SliceStable(files, func(i, j int) bool { return files[i].modified.After(files[j].modified) })
		}
		sort.Strings(c.languages[id])
	}
	sort.Strings(c.providers)
	return c
}

// eligible counts the files the providers own.
func (c *workspaceCensus) eligible() int {
	n := 0
	for _, files := range c.owned {
		n += len(files)
	}
	return n
}

// projectGroup is the files of one provider that one server serves: those
// under one project root.
type projectGroup struct {
	root  string       // the root relative to the census directory ("." itself), absolute outside it
	files []sourceFile // shallowest first, then by path
}

// projects groups provider id's files by the project root its server
// would run in (SessionProvider.ProjectRoot), the workspace's own root
// first, then by path. A root is looked up once per directory.
func (c *workspaceCensus) projects(ctx context.Context, svc *lspseam.Service, id, ws string) []projectGroup {
	rootOf := map[string]string{} // by directory
	byRoot := map[string]*projectGroup{}
	var order []string
	for _, f := range c.owned[id] {
		dir := path.Dir(f.rel)
		root, ok := rootOf[dir]
		if !ok {
			root = svc.ProjectRoot(ctx, f.rel, ws)
			if rel, err := filepath.Rel(c.dir, root); err == nil && root != "" && !strings.HasPrefix(rel, "..") {
				root = filepath.ToSlash(rel)
			} else if root == "" {
				root = "."
			}
			rootOf[dir] = root
		}
		g := byRoot[root]
		if g == nil {
			g = &projectGroup{root: root}
			byRoot[root] = g
			order = append(order, root)
		}
		g.files = append(g.files, f)
	}
	sort.Slice(order, func(i, j int) bool {
		if (order[i] == ".") != (order[j] == ".") {
			return order[i] == "."
		}
		return order[i] < order[j]
	})
	groups := make([]projectGroup, len(order))
	for i, root := range order {
		g := byRoot[root]
		sort.SliceStable(g.files, func(a, b int) bool { return shallowerPath(g.files[a].rel, g.files[b].rel) })
		groups[i] = *g
	}
	return groups
}

// shallowerPath orders paths by depth, then by name: a project's
// shallowest file is the likeliest to be part of its main project.
func shallowerPath(a, b string) bool {
	da, db := strings.Count(a, "/"), strings.Count(b, "/")
	if da != db {
		return da < db
	}
	return a < b
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
