package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// modulePath is the module's import path, as go.mod declares it.
const modulePath = "github.com/lspseam/lspseam"

// TestPackageDocs: every Go package of the module has a doc comment (in
// doc.go or on one file; a package of tests only may have it on a test
// file), and it begins as Go's documentation convention says ("Package
// name …", "Command name …" for a program). What the comment names of the
// tree must exist: a file (`foo.go`, `cmd/shim/discovery.go`) in the
// package, in a directory above it, or by its path from the repository or
// the package; a directory or package path (`internal/handshake`,
// `bindings/go/handshake.json`, `github.com/lspseam/lspseam/core`) from the
// repository's root. Files a doc names that no one commits (a generated
// workspace's) are listed in notInTree with the reason.
func TestPackageDocs(t *testing.T) {
	root := repoRoot(t)
	pkgs := goPackageDirs(t, root, ".")
	if len(pkgs) < 15 {
		t.Fatalf("found %d Go packages; the walk no longer finds them", len(pkgs))
	}
	for _, pkg := range pkgs {
		name, doc, problem := packageDoc(t, filepath.Join(root, filepath.FromSlash(pkg)))
		if problem != "" {
			t.Errorf("%s: %s", pkg, problem)
			continue
		}
		for _, p := range docMentionProblems(root, pkg, name, doc) {
			t.Errorf("%s: %s", pkg, p)
		}
	}
}

// notInTree are file names package docs may give that are not in the
// repository, by package.
var notInTree = map[string]map[string]string{
	"internal/gocorpus": {"command.go": "the file the package generates, like cobra's command.go"},
}

// packageDoc parses the package in dir and returns its name and doc
// comment, or why it has none. The non-test files carry the doc; a
// package of tests only may carry it on a test file.
func packageDoc(t *testing.T, dir string) (name, doc, problem string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name string
		f    *ast.File
	}
	var src, tests []file
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		// PackageClauseOnly: every file parses, whatever its build tags.
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), "_test.go") {
			if !strings.HasSuffix(f.Name.Name, "_test") {
				tests = append(tests, file{e.Name(), f})
			}
			continue
		}
		src = append(src, file{e.Name(), f})
	}
	files := src
	if len(files) == 0 {
		files = tests
	}
	if len(files) == 0 {
		return "", "", "no Go files of the package itself (only an external _test package)"
	}
	name = files[0].f.Name.Name
	var with []string
	for _, f := range files {
		if f.f.Doc != nil {
			with = append(with, f.name)
			doc += f.f.Doc.Text()
		}
	}
	switch {
	case len(with) == 0:
		return name, "", "package " + name + " has no doc comment: write one (in doc.go, or above the package clause of its main file) saying what the package owns"
	case len(with) > 1:
		return name, doc, "package " + name + " has doc comments on " + strings.Join(with, ", ") + "; Go joins them: keep one"
	}
	want := "Package " + name + " "
	if name == "main" {
		want = "Command "
	}
	if !strings.HasPrefix(doc, want) {
		first, _, _ := strings.Cut(doc, "\n")
		return name, doc, "its doc comment begins " + quote(first) + ", want " + quote(want+"…") + " (Go's convention)"
	}
	return name, doc, ""
}

func quote(s string) string { return "\"" + s + "\"" }

var (
	// goFileMention is a Go file a doc names, with or without a path.
	goFileMention = regexp.MustCompile(`(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.go\b`)
	// treeMention is a path into the repository a doc names.
	treeMention = regexp.MustCompile(`\b(?:github\.com/lspseam/lspseam/)?(?:core|cmd|internal|bindings|e2e|testdata|docs|tools)/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]`)
)

// protocolMethods are MCP and LSP method names that look like paths.
var protocolMethods = map[string]bool{"tools/list": true, "tools/call": true}

// placeholder is a file name that stands for many: METHOD.golden.
var placeholder = regexp.MustCompile(`^[A-Z][A-Z_]*(\.[a-z.]+)?$`)

// docMentionProblems checks the files and paths a package doc names.
func docMentionProblems(root, pkg, name, doc string) []string {
	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}
	var problems []string
	for _, m := range goFileMention.FindAllStringIndex(doc, -1) {
		file := doc[m[0]:m[1]]
		if m[0] > 0 && strings.ContainsRune(".:/", rune(doc[m[0]-1])) {
			continue // part of a URL or a longer path, checked below
		}
		if _, ok := notInTree[pkg][file]; ok {
			continue
		}
		found := exists(file) || exists(path.Join(pkg, file))
		if !strings.Contains(file, "/") {
			for dir := pkg; !found && dir != "."; dir = path.Dir(dir) {
				found = exists(path.Join(dir, file))
			}
		}
		if !found {
			problems = append(problems, "its doc comment names "+file+", which is not in the package, above it, or at that path")
		}
	}
	for _, m := range treeMention.FindAllStringIndex(doc, -1) {
		p := strings.TrimPrefix(doc[m[0]:m[1]], modulePath+"/")
		if m[0] > 0 && strings.ContainsRune("./", rune(doc[m[0]-1])) {
			continue // inside a longer path
		}
		if protocolMethods[p] {
			continue
		}
		if i := strings.IndexFunc(p, func(r rune) bool { return r >= 'A' && r <= 'Z' }); i > 0 && p[i-1] == '/' && placeholder.MatchString(p[i:]) {
			p = p[:i] // testdata/core/METHOD.golden: the directory must exist
		}
		if !exists(p) && !exists(strings.TrimRight(p, "/.")) {
			problems = append(problems, "its doc comment names "+p+", which the repository does not have")
		}
	}
	return problems
}
