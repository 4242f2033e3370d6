package toolbox

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
)

// Server commands of code actions. An action that runs a command
// (workspace/executeCommand) makes its changes by sending
// workspace/applyEdit back while the command runs, so its diff cannot be
// shown before: the preview says so and names the command, and the run
// happens only once approved. While the approved command runs, each edit
// the server sends goes through the same applier as every other change
// (inside the workspace, planned against the files as they are, written
// atomically), its files' reports before it taken first (commandedits.go);
// the answer lists every file the command changed, with the diagnostics
// delta. Outside an approved command a server's applyEdit is
// refused (core/serverrequest.go).

// runCommand applies ch's files (an action's edit, which goes first), then
// runs its command, applying the edits the server sends meanwhile.
func (t *Toolbox) runCommand(ctx context.Context, r *workspacefs.Root, s lspseam.Session, ch change) (answer, error) {
	c := ch.command
	// The diagnostics before: the edit's files and the action's own file
	// (once, when the edit changes it too).
	asked := ch.files
	if !slices.ContainsFunc(ch.files, func(f plannedFile) bool { return f.rel == c.fileRel }) {
		guard := plannedFile{rel: c.fileRel}
		if f, err := r.Read(c.fileRel); err == nil && f.Exists {
			guard.before = f.Text
		}
		asked = append([]plannedFile{guard}, ch.files...)
	}
	before, err := diagnosticsBefore(ctx, s, asked)
	if err != nil {
		return answer{}, err
	}
	if len(ch.files) > 0 {
		if err := writeAll(ctx, r, ch.files); err != nil {
			return answer{}, err
		}
		for _, f := range ch.files { // the command works on the edited files
			if !f.deleted {
				s.Open(ctx, f.rel)
			}
		}
	}
	// The server is sent nothing while its command runs but what the
	// edits' checks open: the versions it edits are these.
	versions := s.DocumentVersions()
	edits := newCommandEdits(before)
	edits.applied = append(edits.applied, ch.files...)
	applyEdit := func(ctx context.Context, edit json.RawMessage) error {
		return edits.apply(ctx, t, r, s, versions, edit)
	}
	_, cmdErr := s.ExecuteCommand(ctx, c.params, applyEdit)
	edits.mu.Lock()
	files, refused := mergeApplied(edits.applied), edits.refused
	before = edits.before
	edits.mu.Unlock()
	if cmdErr != nil && len(files) == 0 {
		return answer{}, wrapCommandError(cmdErr, ch.what, c.name)
	}
	if len(files) == 0 {
		a := answer{text: ch.what + ": the command " + strconv.Quote(c.name) + " ran and changed no file.", fields: []field{{"applied", true}, {"command", c.name}, {"files", []any{}}}}
		if len(refused) > 0 {
			a.notice = "The server's edits were refused: " + refused[0]
		}
		return a, nil
	}
	a, err := t.appliedAnswer(ctx, r, s, "Applied: "+ch.what+" (command "+strconv.Quote(c.name)+")", files, before, nil)
	if err != nil {
		return a, err
	}
	a.fields = append(a.fields, field{"command", c.name})
	switch {
	case cmdErr != nil:
		a.notice = "The command failed after it changed these files: " + cmdErr.Error()
	case len(refused) > 0:
		a.notice = "Some of the server's edits were refused (nothing of those was written): " + refused[0]
	}
	return a, nil
}

// mergeApplied folds the files of successive edits into one entry per
// path: its state before the first and after the last.
func mergeApplied(list []plannedFile) []plannedFile {
	var out []plannedFile
	index := map[string]int{}
	for _, f := range list {
		i, ok := index[f.rel]
		if !ok {
			index[f.rel] = len(out)
			out = append(out, f)
			continue
		}
		m := &out[i]
		m.after, m.deleted, m.edits, m.mode = f.after, f.deleted, m.edits+f.edits, f.mode
		if f.from != "" {
			m.from = f.from
		}
	}
	kept := out[:0]
	for _, f := range out { // created, then deleted: nothing happened
		if !(f.created && f.deleted) {
			kept = append(kept, f)
		}
	}
	return kept
}

func wrapCommandError(err error, what, name string) error {
	if lerr, ok := err.(*lspseam.Error); ok {
		return lspseam.Errorf(lerr.Code, "%s: the language server's command %q failed, and nothing was changed: %s", what, name, lerr.Message)
	}
	return err
}
