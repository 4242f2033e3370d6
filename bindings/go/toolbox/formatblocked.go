package toolbox

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A formatter that cannot parse a file makes no edits to it, and some
// servers say nothing else: yaml-language-server answers [] for a file
// with an unclosed flow sequence, tombi null for an unclosed array
// (`tombi format` exits 1 on it), bash-language-server null when shfmt
// exits 1 (its only trace a window/logMessage) — each the same answer as
// for a file already formatted (measured: [] from yaml-language-server
// and null from tombi for both). "Nothing to change" would then tell a
// model the file is formatted when it was never formatted. No edits at
// all is the one ambiguous answer (a server whose formatter ran and found
// nothing to change may send edits that change nothing, as
// bash-language-server does), so then code_format looks at the file's
// errors, the signal every server gives: with none, the file is
// formatted; with some, the answer lists them and says the server may
// have been unable to parse it. (gopls, terraform-ls and buf answer a
// file they cannot parse with an error, which code_format passes on; a
// file of theirs with only type errors is listed too, and the answer
// says "if any is a syntax error".)

// maxListedFileErrors bounds the errors a format answer lists.
const maxListedFileErrors = 10

// noEdits: a formatting result with no edits at all (null or []).
func noEdits(raw json.RawMessage) bool {
	var edits []json.RawMessage
	return len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &edits) == nil && len(edits) == 0
}

// fileErrors is the errors of a file's diagnostics report, each as
// "line:column message" (one-based).
func fileErrors(rep lspseam.DiagnosticReport) []string {
	var diags []struct {
		Range struct {
			Start struct{ Line, Character int }
		}
		Severity int
		Message  string
	}
	if json.Unmarshal(rep.Diagnostics, &diags) != nil {
		return nil
	}
	var out []string
	for _, d := range diags {
		if d.Severity == 1 {
			msg, _, _ := strings.Cut(d.Message, "\n")
			out = append(out, strconv.Itoa(d.Range.Start.Line+1)+":"+strconv.Itoa(d.Range.Start.Character+1)+" "+clipString(msg, 200))
		}
	}
	return out
}

// blockedFormat is the answer of a format whose server made no edits to
// a file with errors: not "nothing to change", but the errors, and what
// to do.
func blockedFormat(a answer, what string, errs []string, fresh bool) answer {
	listed := errs[:min(len(errs), maxListedFileErrors)]
	report := ""
	if !fresh {
		report = " (as the server last reported; it has not reported on the current text)"
	}
	a.text = what + ": the server made no edits, which does not mean the file is formatted: it has " + strconv.Itoa(len(errs)) + " " + plural(len(errs), "error", "errors") + report +
		", and a formatter that cannot parse a file makes no edits to it (some servers answer so without an error):\n  " + strings.Join(listed, "\n  ")
	if more := len(errs) - len(listed); more > 0 {
		a.text += "\n  … and " + strconv.Itoa(more) + " more (code_diagnostics lists them)"
	}
	a.text += "\nIf any is a syntax error, fix it, then format again."
	a.notice, a.noticeSaid = "", false
	a.fields = append(a.fields, field{"fileErrors", errs})
	return a
}

// formatsNothingOf: the server answers no edits for every file of path's
// kind, formatted or not: typescript-language-server for a .vue file
// (tsserver does not format a Vue file, not even its <script>: measured
// with `const   {isLeft,isTop}=useLayoutMode( )` in a <script setup>, []
// as for a formatted file), so its empty answer is no sign the file is
// formatted.
func formatsNothingOf(server, path string) bool {
	return server == "typescript" && strings.EqualFold(filepath.Ext(path), ".vue")
}

// unformattedFormat is the answer of a format the server cannot do for
// the file: not "nothing to change", but that it was not formatted.
func unformattedFormat(a answer, what string) answer {
	a.text = what + ": not formatted: the language server (typescript-language-server) does not format .vue files — it answers no edits for every one, formatted or not, so this says nothing of the file's formatting. Format it with the project's own formatter from the shell (its prettier or eslint --fix, as package.json's scripts say), or edit it by hand."
	a.notice, a.noticeSaid = "", false
	a.fields = append(a.fields, field{"formatted", false})
	return a
}
