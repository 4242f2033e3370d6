package doccheck

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goDoc is the document whose Go section is the checked artifact.
const goDoc = "docs/go.md"

// TestDocsGoPrograms makes docs/go.md the checked artifact: every ```go
// block is a complete program; a fresh module depends on this repository
// with exactly the commands the document gives (its ```sh block with `go
// mod edit … -replace=github.com/lspseam/lspseam=…`, the clone's path
// replaced by this checkout); `go vet` checks every program, and a program
// that ends with an `// Output:` comment is run and its output compared,
// as in a Go example. No other document has a Go program, so none goes
// unchecked.
func TestDocsGoPrograms(t *testing.T) {
	for _, rel := range append([]string{"README.md"}, docFiles(t)...) {
		if rel != goDoc && len(fencedBlocks(readRepoFile(t, rel), "go")) > 0 {
			t.Errorf("%s has a ```go block; Go programs belong in %s, where they are built and run", rel, goDoc)
		}
	}
	if testing.Short() {
		t.Skip("builds and runs the programs of " + goDoc)
	}
	checkDocGo(t, readRepoFile(t, goDoc))
}

func checkDocGo(t *testing.T, doc string) {
	programs := fencedBlocks(doc, "go")
	if len(programs) == 0 {
		t.Fatal(goDoc + " has no ```go block")
	}
	var setup []string
	for _, b := range fencedBlocks(doc, "sh") {
		if strings.Contains(b.text, "-replace=github.com/lspseam/lspseam=") {
			setup = append(setup, commandLines(b.text)...)
		}
	}
	if len(setup) == 0 || !strings.HasPrefix(setup[0], "go mod edit ") {
		t.Fatalf(goDoc + " does not say how to depend on the module: no ```sh block with `go mod edit -require=github.com/lspseam/lspseam@… -replace=github.com/lspseam/lspseam=PATH`")
	}

	dir := t.TempDir()
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// The module's own go.sum lets a fresh module resolve the same
		// dependencies without asking a checksum database; -mod=mod lets
		// `go mod tidy` and the build write go.mod as a user's would.
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
		}
		return string(out)
	}
	goCmd("mod", "init", "example.com/docgo")
	sum, err := os.ReadFile(filepath.Join(repoRoot(t), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))

	fset := token.NewFileSet()
	var run []string
	outputs := map[string]string{}
	for i, b := range programs {
		f, err := parser.ParseFile(fset, goDoc, b.text, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s line %d: the ```go block is not a complete Go file: %v", goDoc, b.line, err)
		}
		if f.Name.Name != "main" {
			t.Fatalf("%s line %d: the ```go block is package %s; make it a program (package main)", goDoc, b.line, f.Name.Name)
		}
		pkg := filepath.Join(dir, "prog"+string(rune('a'+i)))
		writeFile(t, filepath.Join(pkg, "main.go"), b.text)
		if want, ok := expectedOutput(b.text); ok {
			run = append(run, "./"+filepath.Base(pkg))
			outputs["./"+filepath.Base(pkg)] = want
		}
	}

	for _, line := range setup {
		args := strings.Fields(line)
		if args[0] != "go" {
			t.Fatalf("%s: the setup block runs %q; only go commands are expected there", goDoc, line)
		}
		for j, a := range args {
			if k := strings.Index(a, "-replace=github.com/lspseam/lspseam="); k >= 0 {
				args[j] = a[:k] + "-replace=github.com/lspseam/lspseam=" + repoRoot(t)
			}
		}
		goCmd(args[1:]...)
	}
	goCmd("vet", "./...")
	for _, pkg := range run {
		if got := goCmd("run", pkg); strings.TrimSpace(got) != outputs[pkg] {
			t.Errorf("%s's program %s printed\n%s\nits // Output: comment says\n%s", goDoc, pkg, got, outputs[pkg])
		}
	}
}

// expectedOutput returns the lines of a trailing `// Output:` comment, as
// in a Go example.
func expectedOutput(src string) (string, bool) {
	i := strings.LastIndex(src, "// Output:")
	if i < 0 {
		return "", false
	}
	var lines []string
	for _, l := range strings.Split(src[i+len("// Output:"):], "\n")[1:] {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "//") {
			break
		}
		lines = append(lines, strings.TrimSpace(strings.TrimPrefix(l, "//")))
	}
	return strings.Join(lines, "\n"), true
}

// commandLines are a shell block's commands: comments and blank lines dropped.
func commandLines(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
