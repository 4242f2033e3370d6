package core

import (
	"strings"
	"testing"
)

// TestMovedImportProblems: a preview of a move leaves out the unresolved
// imports of the moved file on the lines the move rewrote, and keeps
// every other problem.
func TestMovedImportProblems(t *testing.T) {
	before := "import delay from '../utils/delay.js';\nconst x: number = 'a';\n"
	after := "import delay from '../utils/wait.js';\nconst x: number = 'a';\n"
	diags := `[{"range":{"start":{"line":0,"character":18},"end":{"line":0,"character":36}},"message":"Cannot find module '../utils/wait.js' or its corresponding type declarations.","code":2307},` +
		`{"range":{"start":{"line":1,"character":6},"end":{"line":1,"character":7}},"message":"Type 'string' is not assignable to type 'number'.","code":2322},` +
		`{"range":{"start":{"line":0,"character":7},"end":{"line":0,"character":12}},"message":"'delay' is declared but never used: awaited.","code":6133}]`
	kept, left := MovedImportProblems([]byte(diags), before, after, []string{"source/utils/wait.ts"})
	if len(left) != 1 || left[0].Line != 0 || left[0].Character != 18 || !strings.Contains(left[0].Message, "wait.js") {
		t.Fatalf("left out %+v, want the TS2307 at 0:18", left)
	}
	if strings.Contains(string(kept), "2307") || !strings.Contains(string(kept), "2322") || !strings.Contains(string(kept), "6133") {
		t.Errorf("kept %s, want all but the TS2307", kept)
	}
	// An unchanged line, or a message naming another file, stays.
	if _, left := MovedImportProblems([]byte(diags), after, after, []string{"source/utils/wait.ts"}); left != nil {
		t.Errorf("unchanged lines: left out %+v", left)
	}
	if _, left := MovedImportProblems([]byte(diags), before, after, []string{"source/utils/waiting.ts"}); left != nil {
		t.Errorf("another file's name: left out %+v", left)
	}
	// pyright's module path spelling.
	py := `[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":20}},"message":"Import \"shapes.geometry.shape\" could not be resolved"}]`
	if _, left := MovedImportProblems([]byte(py), "from shapes import shape\n", "from shapes.geometry import shape\n", []string{"shapes/geometry/shape.py"}); len(left) != 1 {
		t.Errorf("pyright: left out %+v", left)
	}
}
