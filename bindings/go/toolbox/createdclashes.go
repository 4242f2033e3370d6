package toolbox

import (
	"context"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// The other files a file that write creates may break: its declarations
// are all new, and another file of a Go package that already declares
// one reports "redeclared in this block" too (a tester's write of
// newfile.go declaring shape.go's TotalArea answered the new file's error
// alone). The dependents are found as an edit's are (findDependents, the
// clash part: nothing else refers to a file that did not exist), checked
// before the write and with the new file after it.

// createdClashes is what a created file's dependents were before the write.
type createdClashes struct {
	t      *Toolbox
	found  *dependents
	before []lspseam.FileCheck
}

// createdFileClashes finds the dependents of the file before (which does
// not exist) given the text change plans for it, and checks them before
// it is written, in a session on the first of them (the created file
// cannot be opened yet); nil when there are none or no server can say.
func (t *Toolbox) createdFileClashes(ctx context.Context, r *workspacefs.Root, ws string, before workspacefs.File, change func(workspacefs.File) (string, []field, string, error)) *createdClashes {
	text, _, _, err := change(before)
	if err != nil {
		return nil
	}
	names := core.AddedDeclarations(before.Rel, nil, core.SplitLines(text))
	if len(names) == 0 {
		return nil
	}
	ictx, cancel := impactBudget(ctx)
	defer cancel()
	files, partial := t.clashDependents(ictx, r, []addedNames{{before.Rel, names}}, map[string]bool{before.Rel: true})
	if len(files) == 0 {
		return nil
	}
	found := &dependents{partial: partial}
	found.bound(r, files)
	var c *createdClashes
	t.service.Session(ctx, found.paths[0], ws, func(ctx context.Context, s lspseam.Session) error {
		checks, err := s.Check(ctx, found.paths, lspseam.DiagnosticsOptions{})
		if err == nil {
			c = &createdClashes{t, found, checks}
		}
		return err
	})
	return c
}

// after checks the dependents again with the created file rel, and
// returns diagnosticsDelta's dependents input; nil for none.
func (c *createdClashes) after(ctx context.Context, r *workspacefs.Root, ws, rel string) map[string]any {
	if c == nil {
		return nil
	}
	var checks []lspseam.FileCheck
	err := c.t.service.Session(ctx, rel, ws, func(ctx context.Context, s lspseam.Session) error {
		var err error
		checks, err = s.Check(ctx, append([]string{rel}, c.found.paths...), lspseam.DiagnosticsOptions{AfterSync: true, Changed: 1})
		return err
	})
	if err != nil || len(checks) == 0 {
		checks = []lspseam.FileCheck{{}}
	}
	return dependentsInput(ctx, r, c.found, c.before, checks[1:])
}
