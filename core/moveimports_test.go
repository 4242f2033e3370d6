package core

import "testing"

// TestWritesNameOf: a file whose change writes a line naming a moved or
// created file (an import rewritten to its new path, in any language's
// spelling) is one the preview cannot check; a line the change left, a
// name that only contains the file's, or another file's name is not.
func TestWritesNameOf(t *testing.T) {
	for _, c := range []struct {
		name, before, after string
		paths               []string
		want                bool
	}{
		{"ts import rewritten", "import delay from '../utils/delay.js';\nconst x: number = 'a';\n", "import delay from '../utils/wait.js';\nconst x: number = 'a';\n", []string{"source/utils/wait.ts"}, true},
		{"moved, same name", "import * as regexes from \"./regexes.js\";\n", "import * as regexes from \"./patterns/regexes.js\";\n", []string{"src/v4/core/patterns/regexes.ts"}, true},
		{"re-indented only", "  import wait from './wait.js';\n", "import wait from './wait.js';\n", []string{"source/utils/wait.ts"}, false},
		{"unchanged text", "import delay from '../utils/wait.js';\n", "import delay from '../utils/wait.js';\n", []string{"source/utils/wait.ts"}, false},
		{"another file's name", "import delay from '../utils/delay.js';\n", "import delay from '../utils/wait.js';\n", []string{"source/utils/waiting.ts"}, false},
		{"a longer name", "x\n", "import { waitAll } from './waitAll.js';\n", []string{"source/utils/wait.ts"}, false},
		{"python module path", "from shapes import shape\n", "from shapes.geometry import shape\n", []string{"shapes/geometry/shape.py"}, true},
		{"rust mod", "mod old;\n", "mod wait;\n", []string{"src/wait.rs"}, true},
		{"no paths", "a\n", "b\n", nil, false},
		{"CRLF", "import a from './a';\r\n", "import a from './b/a';\r\n", []string{"b/a.ts"}, true},
	} {
		if got := WritesNameOf(c.before, c.after, c.paths); got != c.want {
			t.Errorf("%s: WritesNameOf = %v, want %v", c.name, got, c.want)
		}
	}
}
