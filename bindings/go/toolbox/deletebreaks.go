package toolbox

import (
	"encoding/json"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/core"
)

// What a deletion would break that its references do not show. A server's
// references are the uses by name; some uses have none: gopls does not
// count `var _ kinder = myVal{}` as a use of `myVal.Kind`, which the
// assignment needs to compile (nor would a server count a type's method
// that an interface, trait or abstract class requires). So code_delete
// also shows the server the file without the declaration (the preview's
// speculative check, speculation.go) and refuses when that introduces
// errors that are uses of it: every new error in another file (deleting
// a declaration changes no other file's imports or declarations, so an
// error there is code that needed it), and those of its own file whose
// message names it (`missing method Kind`). A new error of its own file
// that does not name it is what the deletion leaves behind (an import
// only the deleted function used): the deletion goes ahead and the answer
// lists it, as before. A check that could not run, or whose reports are
// stale, refuses nothing: the preview says it was not checked, and an
// applied change checks the written files.

// maxListedUses bounds the uses, or the errors, a refusal lists.
const maxListedUses = 20

// breakingProblem is one error a deletion would introduce, at its place
// in the files as they are (nothing was written).
type breakingProblem struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// speculativeProblems is the part of the core's speculative delta
// (diagnosticsDelta's output) that tells what a deletion breaks.
type speculativeProblems struct {
	Files []struct {
		Path       string            `json:"path"`
		Introduced []breakingProblem `json:"introduced"`
	} `json:"files"`
	Others *struct {
		Files []struct {
			Path       string            `json:"path"`
			Introduced []breakingProblem `json:"introduced"`
		} `json:"files"`
		Counts struct {
			IntroducedErrors int `json:"introducedErrors"`
		} `json:"counts"`
	} `json:"others"`
}

// deletionBreaks is LSP_CONFLICT (ReasonStillReferenced) listing the
// errors the deletion of rt would introduce that are uses of it, from
// checked, the preview's speculative answer of the deletion (its
// "diagnostics" field); nil when there are none, or when nothing was
// checked. file is the declaration's file as planned: its introduced
// problems are at their places after the deletion, moved back to the
// file as it is.
func deletionBreaks(rt lspseam.ResolvedTarget, checked answer, file plannedFile) error {
	var delta speculativeProblems
	for _, f := range checked.fields {
		if raw, ok := f.value.(json.RawMessage); ok && f.name == "diagnostics" {
			if json.Unmarshal(raw, &delta) != nil {
				return nil
			}
		}
	}
	var breaks []breakingProblem
	lines := core.LinesChanged(file.before, file.after)
	for _, f := range delta.Files {
		for _, p := range f.Introduced {
			if p.Severity == "error" && namesIdentifier(p.Message, rt.Identifier) {
				if f.Path == file.rel {
					p.Line = lineBefore(p.Line-1, lines.Hunks) + 1
				}
				breaks = append(breaks, p)
			}
		}
	}
	others := 0
	if o := delta.Others; o != nil {
		others = o.Counts.IntroducedErrors
		listed := 0
		for _, f := range o.Files {
			for _, p := range f.Introduced {
				if p.Severity == "error" {
					breaks = append(breaks, p)
					listed++
				}
			}
		}
		others -= listed // the ones the delta counted but did not list
	}
	total := len(breaks) + others
	if total == 0 {
		return nil
	}
	var b strings.Builder
	for i, p := range breaks {
		if i == maxListedUses {
			break
		}
		b.WriteString("\n  " + p.Path + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column) + " " + p.Severity)
		if p.Code != "" {
			b.WriteString(" " + p.Code)
		}
		b.WriteString(": " + p.Message)
	}
	if more := total - min(len(breaks), maxListedUses); more > 0 {
		b.WriteString("\n  … and " + strconv.Itoa(more) + " more")
	}
	e := lspseam.Errorf(lspseam.CodeConflict, "%s is still needed, so nothing was deleted: the server found no use of it by name, but shown the code without it (nothing was written) it reports %d new %s that %s on it:%s\nchange that code first (an interface or type it satisfies, a use the server does not count as a reference), then delete it", targetLabel(rt), total, plural(total, "error", "errors"), plural(total, "depends", "depend"), b.String())
	e.Reason = core.ReasonStillReferenced
	return e
}

// namesIdentifier: message has id as a whole word (not inside a longer
// name), as a compiler names what is missing or undefined.
func namesIdentifier(message, id string) bool {
	if id == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(message[i:], id)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(id)
		if (start == 0 || !isNameByte(message[start-1])) && (end == len(message) || !isNameByte(message[end])) {
			return true
		}
		i = start + 1
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lineBefore is the zero-based line of the text before a change that
// line of the text after it was (hunks: core.LinesChanged); a line the
// change wrote is its hunk's first line.
func lineBefore(line int, hunks []core.LineHunk) int {
	shift := 0 // lines the hunks so far added
	for _, h := range hunks {
		start := h.First + shift
		if line < start {
			break
		}
		if line < start+len(h.After) {
			return h.First
		}
		shift += len(h.After) - len(h.Before)
	}
	return line - shift
}
