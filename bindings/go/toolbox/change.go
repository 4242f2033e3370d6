package toolbox

import (
	"context"
	"encoding/json"
	"io/fs"
	"strconv"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"

	lspseam "github.com/lspseam/lspseam/bindings/go"
)

// A change the applier writes: its files as planned (plannedFile), and
// the server command that makes it when it is a code action's.

// plannedFile is one file of a planned change: its content when planned
// and its new content.
type plannedFile struct {
	rel     string
	uri     string
	before  string
	after   string
	edits   int
	diff    string
	version string // workspacefs.ContentVersion(before); "" when created
	// A file the change creates (it does not exist before) or deletes (it
	// does not exist after); from is the path a rename moved its content
	// from, mode the permission bits it gets (0: 0644, or the old file's).
	created, deleted bool
	from             string
	mode             fs.FileMode
	// renamed: the file is a server's rename's (renamedependents.go).
	renamed *renameOf
}

// change is what a refactor tool plans: files to write, and for a code
// action that runs a server command, the command to run after them.
type change struct {
	what    string // the change, for the answer's text
	files   []plannedFile
	command *serverCommand
	// checked is the speculative check of files (withSpeculation on an
	// empty answer) when the tool made it while planning (code_delete
	// refuses on it: deletebreaks.go); a preview shows it rather than
	// check again.
	checked *answer
	// unsearched is what the plan knows the server's search left out
	// (the answer's incomplete notice).
	unsearched string
	// recompute, when the server computes the change from more than its
	// files, asks it again when a preview is applied.
	recompute *recompute
}

// A preview whose change the server computes from more than the files it
// changes (a rename from every use it finds, a file move from every
// importer, a code action's workspace edit) is not made right by its
// files being as they were: another agent's new caller of a renamed
// function touches none of them, and the applied rename left it naming
// what no longer exists (a tester's `go vet`: undefined: MatchAll). Such
// a preview records how to ask the server again (recompute) and a digest
// of the change it showed; applying it asks again, and a change that
// differs is not applied: LSP_CONFLICT, with the fresh preview.

// recompute asks the server again for the change a preview shows: the
// same request at the same place, its answer planned into files as when
// previewed. asks names the request for the conflict's message.
type recompute struct {
	asks  string
	files func(context.Context, lspseam.Session, *workspacefs.Root) ([]plannedFile, error)
}

// receipt is what an answer says of a file: its path, the text edits in
// it, and whether the change creates, deletes or renames it.
func (f plannedFile) receipt() map[string]any {
	item := map[string]any{"path": f.rel, "edits": f.edits}
	switch {
	case f.from != "":
		item["renamedFrom"] = f.from
	case f.created:
		item["created"] = true
	case f.deleted:
		item["deleted"] = true
	}
	return item
}

// matches: the file on disk is as the change was planned from.
func (f plannedFile) matches(cur workspacefs.File) bool {
	if f.created {
		return !cur.Exists
	}
	return cur.Exists && cur.Version == f.version
}

func stateOf(exists bool, version string) string {
	if !exists {
		return "absent"
	}
	return version
}

func joinPaths(files []plannedFile) string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.rel
	}
	return strings.Join(paths, ", ")
}

// serverCommand is an approved-to-be command of a code action, bound to
// the content of the file its action was listed for.
type serverCommand struct {
	name        string          // the command's id, for the answer
	params      json.RawMessage // workspace/executeCommand params {command, arguments}
	fileRel     string
	fileVersion string
}

// textBefore is the text the file at rel had before the change ("" when
// rel is "" or not among files).
func textBefore(files []plannedFile, rel string) string {
	for _, f := range files {
		if rel != "" && f.rel == rel {
			return f.before
		}
	}
	return ""
}

// changeSize says how big a change is: its text edits and the files they
// are in, then the files it moves, creates or deletes, each counted once.
// A moved file was counted as two files, its old path and its new, and a
// move without edits read "0 edits in 2 files".
func changeSize(files []plannedFile) string {
	movedFrom := map[string]bool{}
	for _, f := range files {
		if f.from != "" {
			movedFrom[f.from] = true
		}
	}
	edits, edited, moved, created, deleted := 0, 0, 0, 0, 0
	for _, f := range files {
		edits += f.edits
		if f.edits > 0 {
			edited++
		}
		switch {
		case f.from != "":
			moved++
		case f.created:
			created++
		case f.deleted && !movedFrom[f.rel]:
			deleted++
		}
	}
	var ops []string
	for _, op := range []struct {
		n    int
		verb string
	}{{moved, "moved"}, {created, "created"}, {deleted, "deleted"}} {
		if op.n > 0 {
			ops = append(ops, strconv.Itoa(op.n)+" "+plural(op.n, "file", "files")+" "+op.verb)
		}
	}
	counted := strconv.Itoa(edits) + " " + plural(edits, "edit", "edits") + " in " + strconv.Itoa(edited) + " " + plural(edited, "file", "files")
	switch {
	case len(ops) == 0:
		return counted
	case edits == 0:
		return strings.Join(ops, ", ") + ", no text edits"
	}
	return counted + ", " + strings.Join(ops, ", ")
}
