package core

import (
	"path"
	"strings"
)

// A preview's check shows the server the new texts of the files a change
// edits; a file the change creates or moves cannot be shown without
// writing it. So in that check an import a change rewrites to a moved or
// created file's new path does not resolve, and everything the importer
// types through it is untyped: its problems involving that module vanish
// (zod: checks.ts's `const _probe: number = regexes.cuid` TS2322, listed
// as resolved by a preview of regexes.ts's move, was still there once the
// move was written), and those the move would cause are not seen. Leaving
// the unresolved imports' own errors out of the delta (`TS2307: Cannot
// find module`) did not help: the rest of the file's report was still
// that of a file whose imports are missing. WritesNameOf picks out such
// importers, so the preview does not show them to the server and names
// them as not checked before writing; the applied change checks them.
//
// A file is taken for one when a line the change wrote (a line of the new
// text that the old text does not have) names one of the files: its name
// without extension, as a module path spells it ('../utils/wait.js',
// "shapes.geometry.shape", `mod wait;`), as a whole path element. A
// line naming it by chance makes the file one too: not checked, which is
// never a wrong answer.

// WritesNameOf reports whether a line the change from beforeText to
// afterText wrote names one of the files at paths.
func WritesNameOf(beforeText, afterText string, paths []string) bool {
	var stems []string
	for _, p := range paths {
		stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
		if stem != "" && stem != "." && stem != "/" {
			stems = append(stems, stem)
		}
	}
	if len(stems) == 0 {
		return false
	}
	old := map[string]bool{}
	for _, l := range SplitLines(beforeText) {
		old[strings.TrimSpace(l)] = true
	}
	for _, l := range SplitLines(afterText) {
		if !old[strings.TrimSpace(l)] && namesAny(l, stems) {
			return true
		}
	}
	return false
}

// namesAny reports whether text has one of stems as a whole path element
// (bounded by a character that is not part of a file name).
func namesAny(msg string, stems []string) bool {
	for _, stem := range stems {
		for i := strings.Index(msg, stem); i >= 0; {
			end := i + len(stem)
			if (i == 0 || !nameChar(msg[i-1])) && (end == len(msg) || !nameChar(msg[end])) {
				return true
			}
			next := strings.Index(msg[i+1:], stem)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return false
}

func nameChar(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
