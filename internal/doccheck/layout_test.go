package doccheck

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layoutDoc is the document whose table says where everything is.
const layoutDoc = "docs/layout.md"

// goPackageRoots are the trees whose every Go package the layout must name.
var goPackageRoots = []string{"core", "cmd", "bindings/go", "internal"}

// layoutRow is one row of the layout table.
type layoutRow struct {
	path string // the first cell's path, slash-separated, "/" at the end of a directory
	text string // the other cells
}

// layoutRows reads the table of docs/layout.md: every row whose first
// cell is a `path`.
func layoutRows(t *testing.T, doc string) []layoutRow {
	t.Helper()
	row := regexp.MustCompile("^\\| `([^`]+)` \\|(.*)\\|$")
	var rows []layoutRow
	for _, line := range strings.Split(doc, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			rows = append(rows, layoutRow{path: m[1], text: m[2]})
		}
	}
	if len(rows) < 10 {
		t.Fatalf("%s has %d table rows of the form | `path` | what it owns |; the pattern no longer matches", layoutDoc, len(rows))
	}
	return rows
}

// fileLike matches what a row names as a file or directory in backticks:
// a name with an extension the repository's files have, or a path ending
// in "/".
var fileLike = regexp.MustCompile(`^[A-Za-z0-9_.-][A-Za-z0-9_./-]*(\.(go|json|mjs|js|ts|wasm|py|md|sh|mk|txt|ya?ml|in)|/)$`)

// TestLayoutNamesWhatExists: every path the layout table lists exists, and
// so does every file or directory a row names in backticks (relative to
// the repository or to the row's directory; a bare file name somewhere
// under the row's directory).
func TestLayoutNamesWhatExists(t *testing.T) {
	checkLayoutPaths(t, repoRoot(t), readRepoFile(t, layoutDoc))
}

func checkLayoutPaths(t *testing.T, root, doc string) {
	t.Helper()
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	code := regexp.MustCompile("`([^`]+)`")
	for _, r := range layoutRows(t, doc) {
		if !exists(r.path) {
			t.Errorf("%s lists `%s`, which the repository does not have", layoutDoc, r.path)
			continue
		}
		dir := strings.TrimSuffix(r.path, "/")
		for _, m := range code.FindAllStringSubmatch(r.text, -1) {
			name := m[1]
			if !fileLike.MatchString(name) || strings.Contains(name, "*") {
				continue
			}
			switch {
			case exists(name), exists(path.Join(dir, name)):
			case !strings.Contains(strings.TrimSuffix(name, "/"), "/") && foundUnder(root, dir, strings.TrimSuffix(name, "/")):
			default:
				t.Errorf("%s: the row of `%s` names `%s`, which is not in the repository (nor under %s)", layoutDoc, r.path, name, r.path)
			}
		}
	}
}

// foundUnder reports whether a file or directory named base is anywhere
// under root/dir.
func foundUnder(root, dir, base string) bool {
	found := false
	filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipAll
		}
		if d.IsDir() && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if d.Name() == base {
			found = true
		}
		return nil
	})
	return found
}

// TestLayoutNamesEveryDirectoryAndPackage: every top-level directory of
// the repository has a row (its own, or its subdirectories'), and every Go
// package under core/, cmd/, bindings/go/ and internal/ is named: by a row
// of its own, or in the row of a directory above it, as `name` or
// `sub/name` relative to that row. A new package fails here until the
// layout says what it owns.
func TestLayoutNamesEveryDirectoryAndPackage(t *testing.T) {
	root := repoRoot(t)
	rows := layoutRows(t, readRepoFile(t, layoutDoc))
	for _, dir := range topLevelDirs(t, root) {
		if !slices.ContainsFunc(rows, func(r layoutRow) bool { return strings.HasPrefix(r.path, dir+"/") }) {
			t.Errorf("%s has no row for the top-level directory %s/ (nor for any directory in it)", layoutDoc, dir)
		}
	}
	pkgs := goPackageDirs(t, root, goPackageRoots...)
	if len(pkgs) < 15 {
		t.Fatalf("found %d Go packages under %v; the walk no longer finds them", len(pkgs), goPackageRoots)
	}
	for _, pkg := range pkgs {
		if msg := layoutNames(rows, pkg); msg != "" {
			t.Errorf("%s does not name the Go package %s: %s", layoutDoc, pkg, msg)
		}
	}
}

// layoutNames says why the rows do not name the package directory pkg
// ("" when they do).
func layoutNames(rows []layoutRow, pkg string) string {
	var above []string
	for _, r := range rows {
		dir := strings.TrimSuffix(r.path, "/")
		if dir == pkg {
			return ""
		}
		if !strings.HasPrefix(pkg, dir+"/") {
			continue
		}
		above = append(above, r.path)
		rel := strings.TrimPrefix(pkg, dir+"/")
		for _, name := range []string{rel, rel + "/", path.Base(pkg), path.Base(pkg) + "/"} {
			if strings.Contains(r.text, "`"+name+"`") {
				return ""
			}
		}
	}
	if len(above) == 0 {
		return "no row of its own and none of a directory above it; add a row `" + pkg + "/`"
	}
	return "no row of its own, and the rows of " + strings.Join(above, ", ") + " do not name it as `" + path.Base(pkg) + "`; add a row `" + pkg + "/` or name it in one of them"
}

// topLevelDirs lists the repository's top-level directories: not the
// ones that are never its own (skipDirs), and a hidden one only if git
// tracks a file in it (an editor's .vscode is not the repository's).
func topLevelDirs(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || skipDirs[e.Name()] {
			continue
		}
		if strings.HasPrefix(e.Name(), ".") {
			cmd := exec.Command("git", "ls-files", "--", e.Name())
			cmd.Dir = root
			if b, err := cmd.Output(); err != nil || len(b) == 0 {
				continue
			}
		}
		out = append(out, e.Name())
	}
	if !slices.Contains(out, "core") {
		t.Fatalf("top-level directories %v lack core", out)
	}
	return out
}

// goPackageDirs lists, slash-separated and relative, every directory under
// the given trees that holds a .go file (testdata and node_modules left
// out: their Go files are fixtures, not the module's packages).
func goPackageDirs(t *testing.T, root string, trees ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, tree := range trees {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(tree)), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if skipDirs[d.Name()] || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(d.Name(), ".go") {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				seen[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for d := range seen {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// The coverage rule can fail: a package under a row that does not name it
// is reported, one named by its own row, by its path below a row or by
// its name in its parent's row is not.
func TestLayoutNamesRule(t *testing.T) {
	rows := []layoutRow{
		{path: "bindings/go/", text: " the Go API (`package lspseam`) "},
		{path: "bindings/go/localstdio/", text: " the provider; its `internal/supervisor` "},
		{path: "internal/", text: " `expiring`, `writeset` "},
		{path: "cmd/shim/", text: " the CLI "},
	}
	for pkg, named := range map[string]bool{
		"bindings/go": true,
		"cmd/shim":    true,
		"bindings/go/localstdio/internal/supervisor": true,
		"internal/writeset":                          true,
		"bindings/go/toolbox":                        false,
		"bindings/go/internal/wspath":                false,
		"internal/newthing":                          false,
		"cmd/other":                                  false,
	} {
		if msg := layoutNames(rows, pkg); (msg == "") != named {
			t.Errorf("layoutNames(%s) = %q, want named: %v", pkg, msg, named)
		}
	}
}
