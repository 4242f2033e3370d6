package toolbox

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/internal/writeset"
)

// A call's access to the workspace's files: opened beneath the root with
// the cross-process write state attached, and what a killed process left
// half written finished or undone first.

// openFSRoot opens the workspace for a call's file access, with the
// write state attached.
func (t *Toolbox) openFSRoot(ws string) (*workspacefs.Root, error) {
	r, err := workspacefs.Open(ws)
	if err != nil {
		return nil, err
	}
	r.UseWriteSets(t.writes.open())
	return r, nil
}

// recoverWorkspace finishes or undoes the changes to the workspace that
// a killed lspseam process left half made (writeset's Recover): one
// directory read when there are none. What it did goes in the answer of
// the call that found them.
func (t *Toolbox) recoverWorkspace(ctx context.Context, ws string) []writeset.Report {
	store, err := t.writes.open()
	if err != nil {
		return nil
	}
	dir, err := filepath.Abs(ws)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	reports, err := store.Recover(ctx, dir)
	if log := t.writes.log; log != nil {
		for _, r := range reports {
			log.Warn("recovered a change a killed process left half made", "workspace", r.Workspace, "pid", r.PID, "outcome", r.Outcome, "files", len(r.Files), "conflicts", r.Conflicts, "report", r.String())
		}
		if err != nil {
			log.Error("recovering a killed process's change failed", "workspace", dir, "err", err)
		}
	}
	return reports
}

// withRecovery adds what recovery did to a call's result: a line of text
// before the answer, and "recovered" in its structured value.
func withRecovery(res ToolResult, reports []writeset.Report) ToolResult {
	if len(reports) == 0 {
		return res
	}
	var lines []string
	for _, r := range reports {
		lines = append(lines, "Recovered: "+r.String()+".")
	}
	res.Text = strings.Join(lines, "\n") + "\n" + res.Text
	if list, err := json.Marshal(reports); err == nil && len(res.Structured) > 1 && res.Structured[0] == '{' {
		s := append([]byte(`{"recovered":`), list...)
		if string(res.Structured) != "{}" {
			s = append(s, ',')
		}
		res.Structured = append(s, res.Structured[1:]...)
	}
	return res
}
