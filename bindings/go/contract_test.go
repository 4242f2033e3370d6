package lspseam

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lspseam/lspseam/core"
)

// The Go binding speaks exactly the core's contract table
// (core.ABIMethods): every method name it passes to the module
// (Invoke, invokeRaw, call or the Toolbox's coreJSON with a literal name)
// is one of the table's, and every method of the table is called
// somewhere — through a typed wrapper of Core or inside the Toolbox
// (package toolbox). A method renamed or added
// in core/contract.go without the binding following fails here.
func TestBindingCallsTheABI(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	toolboxFiles, err := filepath.Glob("toolbox/*.go")
	files = append(files, toolboxFiles...)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	called := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains([]string{"Invoke", "invokeRaw", "call", "coreJSON"}, sel.Sel.Name) {
				return true
			}
			lit, ok := call.Args[1].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			called[name] = fset.Position(lit.Pos()).String()
			return true
		})
	}
	for name, at := range called {
		if !slices.Contains(core.Methods, name) {
			t.Errorf("%s calls %q, which core.ABIMethods does not have", at, name)
		}
	}
	for _, m := range core.Methods {
		if _, ok := called[m]; !ok {
			t.Errorf("core.ABIMethods has %s; the binding never calls it", m)
		}
	}
}
