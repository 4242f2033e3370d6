package toolbox

import (
	"path"
	"regexp"
	"strings"
)

// How the toolbox follows C-family #include directives, textually and
// without a compilation database: the includers of a changed source file
// (cincluders.go, backwards: which files may include this one) and the
// translation unit of a file the server did not search
// (unsearchedfiles.go, forwards: which files this one includes). Both
// over-approximate, which is the safe side for each: an includer too many
// is a file checked needlessly, an included file too many is a file
// searched needlessly; one too few would be an answer silently wrong.
//
// A file is identified by its base name. The compiler resolves a name
// against the including file's directory and the include path, which
// comes from compile_commands.json or the build — the toolbox reads
// neither, so every workspace file of that base name counts (the file
// beside its includer too, which no server may own: an x.inc).
//
// The backward reading is the looser one: any quoted or bracketed
// mention of the base name counts (namesIncluded), not only an #include
// line's, since a computed `#include SRC` names its file in the #define
// of SRC. Whatever file includeName reads from a line (a name not ending
// in "/", which would be a directory's), namesIncluded finds in the line
// by its base name.

// includeLine matches a C-family #include (#import, #include_next) and
// captures the file it names.
var includeLine = regexp.MustCompile(`^\s*#\s*(?:include|include_next|import)\s*[<"]([^>"]+)[>"]`)

// includeName is the file line names when it is an #include, #import or
// #include_next directive with a quoted or bracketed name ("" and false
// for any other line, a computed #include among them).
func includeName(line string) (string, bool) {
	if !strings.Contains(line, "#") {
		return "", false
	}
	m := includeLine.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// includedFiles are the workspace files (relative paths) the #include of
// name in the file includer (a relative path) may reach: every file of
// its base name in byName (the files by base name), and the file beside
// the includer when that path stays in the workspace, whether or not it
// exists (the caller reads it, or finds it missing).
func includedFiles(byName map[string][]string, includer, name string) []string {
	// By base name, every file of that name: more files than the
	// compiler's include path reaches, never fewer.
	found := append([]string{}, byName[path.Base(name)]...)
	if beside := path.Clean(path.Join(path.Dir(includer), name)); !strings.HasPrefix(beside, "../") {
		found = append(found, beside) // a file no server owns (x.inc) beside its includer
	}
	return found
}

// namesIncluded reports whether text names the file base as an #include
// does: between a quote or "<" (or after a "/" or "\" of a path in one)
// and a closing quote or ">".
func namesIncluded(text, base string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], base)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(base)
		if at > 0 && strings.IndexByte("\"</\\", text[at-1]) >= 0 && end < len(text) && (text[end] == '"' || text[end] == '>') {
			return true
		}
		i = at + 1
	}
}
