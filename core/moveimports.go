package core

import (
	"path"
	"strings"

	"github.com/tidwall/gjson"
)

// A preview of a file move is checked by showing the server the new texts
// of the files that import it, with their imports rewritten to the moved
// file's new path; the moved file itself cannot be shown without writing
// it. So every rewritten import fails to resolve in that check (ky's
// `source/core/Ky.ts:27:19 error TS2307: Cannot find module
// '../utils/wait.js'`), and the preview predicted errors the move does
// not make. MovedImportProblems picks those out of a file's report, so
// the preview can leave them out and say why; the apply checks the files
// for real.
//
// A problem is taken for one when it is on a line the change wrote (a
// line of the new text that the old text does not have) and its message
// names the moved file: its name without extension, as a module path
// spells it ('../utils/wait.js', "shapes.geometry.shape"). Any other
// problem, on those lines or elsewhere, stays.

// MovedImportProblem is a problem MovedImportProblems left out.
type MovedImportProblem struct {
	Line, Character uint32 // zero-based
	Message         string
}

// MovedImportProblems splits diagnostics (an LSP Diagnostic[] of afterText)
// into those kept and those on lines the change from beforeText wrote
// that name one of the files at newPaths.
func MovedImportProblems(diagnostics []byte, beforeText, afterText string, newPaths []string) (kept []byte, left []MovedImportProblem) {
	var stems []string
	for _, p := range newPaths {
		stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
		if stem != "" && stem != "." && stem != "/" {
			stems = append(stems, stem)
		}
	}
	old := map[string]bool{}
	for _, l := range SplitLines(beforeText) {
		old[strings.TrimSpace(l)] = true
	}
	lines := SplitLines(afterText)
	parsed := gjson.ParseBytes(diagnostics)
	if !parsed.IsArray() || len(stems) == 0 {
		return diagnostics, nil
	}
	out := []byte{'['}
	parsed.ForEach(func(_, d gjson.Result) bool {
		line := d.Get("range.start.line")
		msg := d.Get("message").Str
		if l := line.Int(); line.Exists() && l >= 0 && l < int64(len(lines)) && !old[strings.TrimSpace(lines[l])] && namesAny(msg, stems) {
			left = append(left, MovedImportProblem{Line: uint32(l), Character: uint32(d.Get("range.start.character").Int()), Message: msg})
			return true
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, d.Raw...)
		return true
	})
	if left == nil {
		return diagnostics, nil
	}
	return append(out, ']'), left
}

// namesAny reports whether msg has one of stems as a whole path element
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
