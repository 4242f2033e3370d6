package doccheck

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// layeredPackages are the packages whose files must form layers: no file
// uses a name declared in a file that, directly or not, uses a name of its
// own. Each file then reads from the files below it only — the Toolbox's
// shared pieces (answers, stores, targets, the applier) below the tools,
// the dispatch on top — and a newcomer can read the package bottom up.
var layeredPackages = []string{"bindings/go/toolbox"}

// TestFilesAreLayered type-checks each layered package (its non-test
// files, dependencies from source) and fails on every cycle among its
// files, naming the uses that close it.
func TestFilesAreLayered(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks packages from source")
	}
	for _, pkg := range layeredPackages {
		graph := fileGraph(t, filepath.Join(repoRoot(t), filepath.FromSlash(pkg)))
		for _, cycle := range fileCycles(graph) {
			var uses []string
			for _, a := range cycle {
				for b, names := range graph[a] {
					if slices.Contains(cycle, b) {
						uses = append(uses, a+" → "+b+" ("+strings.Join(names, ", ")+")")
					}
				}
			}
			sort.Strings(uses)
			t.Errorf("%s: these files use each other; move what they share into a file below both:\n\t%s", pkg, strings.Join(uses, "\n\t"))
		}
	}
}

// fileGraph is the package's files' uses of each other: file → file it
// uses a package-level name (or method, or field) of → the names.
func fileGraph(t *testing.T, dir string) map[string]map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(filepath.Base(dir), fset, files, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", dir, err)
	}
	graph := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg {
			continue
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to {
			continue
		}
		if graph[from] == nil {
			graph[from] = map[string][]string{}
		}
		if !slices.Contains(graph[from][to], obj.Name()) {
			graph[from][to] = append(graph[from][to], obj.Name())
		}
	}
	for _, tos := range graph {
		for _, names := range tos {
			sort.Strings(names)
		}
	}
	return graph
}

// fileCycles is the graph's strongly connected components of more than
// one file (Tarjan's algorithm), each sorted.
func fileCycles(graph map[string]map[string][]string) [][]string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var cycles [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range graph[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var scc []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			scc = append(scc, w)
			if w == v {
				break
			}
		}
		if len(scc) > 1 {
			sort.Strings(scc)
			cycles = append(cycles, scc)
		}
	}
	var names []string
	for f := range graph {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return cycles
}
