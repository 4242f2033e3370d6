package core

import (
	"regexp"
	"sync"
)

// The line patterns of the host-side scanners (AddedDeclarations,
// PythonOverrides), compiled on their first use rather than at package
// initialization: the module never calls these helpers, and a
// package-level regexp kept the regexp package (400 KB) in core.wasm and
// compiled every pattern at each start of the module. Reached only from
// functions the module does not export, all of it is left out of it.
type linePatterns struct {
	goFuncDecl   *regexp.Regexp
	goSpecDecl   *regexp.Regexp
	goGroupStart *regexp.Regexp
	goGroupSpec  *regexp.Regexp
	exportDecl   *regexp.Regexp
	exportStar   *regexp.Regexp
	exportList   *regexp.Regexp
	pyClassLine  *regexp.Regexp
	pyDefLine    *regexp.Regexp
}

var (
	linePatternsOnce sync.Once
	linePatternsSet  linePatterns
)

// scanPatterns returns the compiled patterns. Safe for concurrent use.
func scanPatterns() *linePatterns {
	linePatternsOnce.Do(func() {
		p := &linePatternsSet
		p.goFuncDecl = regexp.MustCompile(`^func\s+(?:\([^)]*\)\s*)?([\pL_][\pL\pN_]*)`)
		p.goSpecDecl = regexp.MustCompile(`^(?:type|var|const)\s+([\pL_][\pL\pN_]*(?:\s*,\s*[\pL_][\pL\pN_]*)*)`)
		p.goGroupStart = regexp.MustCompile(`^(?:type|var|const)\s*\(\s*(?://.*)?$`)
		p.goGroupSpec = regexp.MustCompile(`^\t([\pL_][\pL\pN_]*(?:\s*,\s*[\pL_][\pL\pN_]*)*)`)
		p.exportDecl = regexp.MustCompile(`^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum|namespace|module)\s*([\pL_$][\pL\pN_$]*)`)
		p.exportStar = regexp.MustCompile(`^export\s*\*\s*as\s+([\pL_$][\pL\pN_$]*)`)
		p.exportList = regexp.MustCompile(`^export\s+(?:type\s+)?\{`)
		p.pyClassLine = regexp.MustCompile(`^([ \t]*)class\s+([\pL_][\pL\pN_]*)\s*(?:\(([^)]*)\)?)?`)
		p.pyDefLine = regexp.MustCompile(`^([ \t]*)(?:async\s+)?def\s+([\pL_][\pL\pN_]*)\s*\(`)
	})
	return &linePatternsSet
}
