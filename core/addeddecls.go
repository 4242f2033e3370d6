package core

import "strings"

// The names a change declares anew at a file's top level, for the
// Toolbox's cross-file impact: a new declaration touches no declaration
// that was there, so no reference leads to the files it breaks, and
// testers' edits that added one answered "Other files: none use what
// changed" while the build failed elsewhere — a Go function that another
// file of the package already declares ("redeclared in this block"), a
// TypeScript export that a barrel's `export *` of another module already
// exports (TS2308).
//
// Lines are scanned, not parsed: a declaration's keyword and name at the
// start of a line, as gofmt and every TypeScript formatter leave them.
// What is not seen this way (a declaration a formatter would not leave,
// a Python module's names, which clash silently) is not listed: the answer
// is then what it was without this.

// AddedDeclarations returns the names declared at the top level of after
// (lines as SplitLines splits them) that before does not declare, in
// after's order, by path's language: Go's functions, methods, types,
// variables and constants; a TypeScript or JavaScript module's named
// exports (a default export is not re-exported by `export *`, so it
// clashes with nothing). Other languages give none.
func AddedDeclarations(path string, before, after []string) []string {
	names := topLevelNames(path)
	if names == nil {
		return nil
	}
	had := map[string]bool{}
	for _, n := range names(before) {
		had[n] = true
	}
	var out []string
	for _, n := range names(after) {
		if !had[n] {
			had[n] = true
			out = append(out, n)
		}
	}
	return out
}

// topLevelNames chooses the scanner of path's language, nil for none.
func topLevelNames(path string) func([]string) []string {
	ext := path
	if i := strings.LastIndexAny(path, "/."); i >= 0 {
		ext = path[i:]
	}
	switch strings.ToLower(ext) {
	case ".go":
		return goTopLevelNames
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
		return moduleExportNames
	}
	return nil
}

// goTopLevelNames lists the names a Go file declares at its top level. A
// method is listed by its name: another file's method of that name on the
// same type clashes (which type is left to the check of that file). The
// blank identifier and init, which may be declared many times, are not.
func goTopLevelNames(lines []string) []string {
	var out []string
	add := func(list string) {
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n != "_" && n != "init" {
				out = append(out, n)
			}
		}
	}
	inGroup := false
	for _, l := range lines {
		switch {
		case inGroup:
			if strings.HasPrefix(l, ")") {
				inGroup = false
			} else if m := scanPatterns().goGroupSpec.FindStringSubmatch(l); m != nil {
				add(m[1])
			}
		case scanPatterns().goGroupStart.MatchString(l):
			inGroup = true
		default:
			if m := scanPatterns().goFuncDecl.FindStringSubmatch(l); m != nil {
				add(m[1])
			} else if m := scanPatterns().goSpecDecl.FindStringSubmatch(l); m != nil {
				add(m[1])
			}
		}
	}
	return out
}

// moduleExportNames lists the names a TypeScript or JavaScript module
// exports by name: `export function|class|const|… name`, `export * as
// name`, and each name of `export { a, b as c }` (c), on one line or
// several.
func moduleExportNames(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "export") {
			continue
		}
		if m := scanPatterns().exportDecl.FindStringSubmatch(l); m != nil {
			if m[1] != "default" {
				out = append(out, m[1])
			}
			continue
		}
		if m := scanPatterns().exportStar.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
			continue
		}
		loc := scanPatterns().exportList.FindStringIndex(l)
		if loc == nil {
			continue
		}
		list := l[loc[1]:]
		for !strings.Contains(list, "}") && i+1 < len(lines) {
			i++
			list += "\n" + lines[i]
		}
		list, _, _ = strings.Cut(list, "}")
		for _, item := range strings.Split(list, ",") {
			f := strings.Fields(stripLineComments(item))
			if len(f) > 0 && f[0] == "type" {
				f = f[1:]
			}
			switch {
			case len(f) == 3 && f[1] == "as" && f[2] != "default":
				out = append(out, f[2])
			case len(f) == 1 && f[0] != "default":
				out = append(out, f[0])
			}
		}
	}
	return out
}

// stripLineComments drops the // comments of an export list's lines.
func stripLineComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		l, _, _ = strings.Cut(l, "//")
		b.WriteString(l)
		b.WriteByte(' ')
	}
	return b.String()
}
