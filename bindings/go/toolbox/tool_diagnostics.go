package toolbox

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	lspseam "github.com/lspseam/lspseam/bindings/go"
	"github.com/lspseam/lspseam/bindings/go/internal/workspacefs"
	"github.com/lspseam/lspseam/core"
)

// code_diagnostics: the problems the language servers report, for one
// file's current content or for the workspace, with what the report
// covers — an empty list is never a claim about files no server checked.

// workspaceWait bounds the wait for the files' reports in a workspace
// read, all awaited together (a file's own read waits up to the session's
// default, 3 s).
const workspaceWait = 1500 * time.Millisecond

// activationWait bounds the same wait when the call opened files the
// server did not hold (activateWorkspace): a server reports on a file it
// has just been given only once it has analysed it, which on a project
// just loaded takes seconds (pyright on click: 1.5 s answered its files
// stale, call after call, since each one-shot call starts again), and the
// caller asked for those reports.
const activationWait = 8 * time.Second

func (t *Toolbox) diagnostics(ctx context.Context, call lspseam.CodeCall, ws string) (answer, error) {
	return t.paged(ctx, call, ws, t.diagnosticsPage)
}

// diagnosticsPage answers code_diagnostics from the offset-th problem.
func (t *Toolbox) diagnosticsPage(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	if call.Path == "" {
		return t.workspaceDiagnostics(ctx, call, ws, offset, from)
	}
	var a answer
	err := t.service.Session(ctx, call.Path, ws, func(ctx context.Context, s lspseam.Session) error {
		f, err := s.Open(ctx, call.Path)
		if err != nil {
			return err
		}
		rep, err := s.Diagnostics(ctx, f, lspseam.DiagnosticsOptions{Wait: t.reportWait})
		if err != nil {
			return err
		}
		out, err := t.coreJSON(ctx, "diagnostics", diagnosticsInput(call, s.WorkspaceURI(), "file", []any{reportInput(f.URI, rep)}, "", offset))
		if err != nil {
			return serverPayloadError(err, s.Server(), "textDocument/publishDiagnostics")
		}
		if a, err = t.pagedCoreAnswer(out, call, from); err != nil {
			return err
		}
		a.incomplete = s.Notice()
		return nil
	})
	return a, err
}

func reportInput(uri string, rep lspseam.DiagnosticReport) map[string]any {
	return map[string]any{"uri": uri, "diagnostics": rep.Diagnostics, "version": rep.Version, "how": rep.How, "fresh": rep.Fresh}
}

func diagnosticsInput(call lspseam.CodeCall, wsURI, scope string, files []any, partial string, offset int) map[string]any {
	in := map[string]any{"workspaceUri": wsURI, "files": files, "scope": scope, "limit": call.Limit, "offset": offset}
	if call.Severity != "" {
		in["severity"] = call.Severity
	}
	if partial != "" {
		in["partial"] = partial
	}
	return in
}

// workspaceDiagnostics reports, for each provider with files in the
// workspace, on the documents its server holds open, and with
// activateWorkspace on up to activationLimit more of its files (most
// recently changed first, shared between providers). A provider whose
// server is not running is not started unless activation asks for it.
func (t *Toolbox) workspaceDiagnostics(ctx context.Context, call lspseam.CodeCall, ws string, offset int, from *pageState) (answer, error) {
	r, err := t.openFSRoot(ws)
	if err != nil {
		return answer{}, err
	}
	r.Close()
	census := t.takeCensus(ctx, r.Dir, ws, true)
	groups, order, eligible := census.owned, census.providers, census.eligible()
	budget := 0
	if call.ActivateWorkspace {
		budget = call.ActivationLimit
	}
	// The servers get the call's time less a reserve for answering, so a
	// server still loading (a cold gopls cache) costs its files, not the
	// answer: what was checked is answered, marked partial.
	checkCtx, cancel := withReserve(ctx)
	defer cancel()
	var files []any
	covered := map[string]bool{}
	var notices []string
	outOfTime := ""
	for _, id := range order {
		if checkCtx.Err() != nil {
			outOfTime = id
			break
		}
		group := groups[id]
		if budget == 0 && !t.service.Running(ctx, group[0].rel, ws) {
			continue
		}
		err := t.service.Session(checkCtx, group[0].rel, ws, func(ctx context.Context, s lspseam.Session) error {
			var paths []string
			for _, p := range s.OpenDocuments() {
				if rel, err := filepath.Rel(r.Dir, p); err == nil && !strings.HasPrefix(rel, "..") {
					paths = append(paths, filepath.ToSlash(rel))
				}
			}
			sort.Strings(paths)
			open := map[string]bool{}
			for _, p := range paths {
				open[p] = true
			}
			wait := workspaceWait
			for _, f := range group {
				if budget == 0 {
					break
				}
				if !open[f.rel] {
					paths = append(paths, f.rel)
					budget--
					wait = activationWait
				}
			}
			// All at once (Session.Check): the files' reports are awaited
			// together, within one wait, not one workspaceWait each.
			var todo []string
			for _, p := range paths {
				if !covered[p] {
					todo = append(todo, p)
				}
			}
			if len(todo) == 0 {
				return nil
			}
			if t.reportWait > 0 {
				wait = t.reportWait
			}
			checks, err := s.Check(ctx, todo, lspseam.DiagnosticsOptions{Wait: wait})
			for j, c := range checks {
				if c.Err != nil || c.File.URI == "" {
					continue // not opened or not reported: not covered
				}
				covered[todo[j]] = true
				files = append(files, reportInput(c.File.URI, c.Report))
			}
			if err != nil && ctx.Err() != nil {
				return err
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return answer{}, err // the call itself was cancelled or is out of time
			}
			if checkCtx.Err() != nil {
				outOfTime = id
				break
			}
			notices = append(notices, id+": "+err.Error())
		}
	}
	partial := ""
	if len(covered) < eligible {
		partial = "covers " + strconv.Itoa(len(covered)) + " of the " + strconv.Itoa(eligible) + " source files the language servers own"
		switch {
		case outOfTime != "":
			// said below
		case call.ActivateWorkspace && budget == 0 && call.ActivationLimit < core.MaxActivationLimit:
			partial += " (activationLimit " + strconv.Itoa(call.ActivationLimit) + " reached: raise it, up to " + strconv.Itoa(core.MaxActivationLimit) + ", or ask about a file by path)"
		case call.ActivateWorkspace && budget == 0:
			partial += " (activationLimit " + strconv.Itoa(call.ActivationLimit) + " reached, the most one call opens: ask about the others by path)"
		case call.ActivateWorkspace && len(notices) > 0:
			// The limit was not reached: the servers of the rest were
			// not available, as the notices below say.
		case call.ActivateWorkspace:
			partial += " (the others got no report from their servers: ask again, or ask about a file by path)"
		default:
			partial += " (those their servers hold open); pass activateWorkspace: true to open and check up to activationLimit (default 20) more, most recently changed first"
		}
	}
	parts := []string{partial}
	if outOfTime != "" {
		parts = append(parts, "the call's time ran out while "+outOfTime+" was checking (its server may still be loading the project): ask again, or ask about a file by path")
	}
	if len(notices) > 0 {
		parts = append(parts, "not checked: "+strings.Join(notices, "; "))
	}
	partial = strings.TrimPrefix(strings.Join(parts, "; "), "; ")
	out, err := t.coreJSON(ctx, "diagnostics", diagnosticsInput(call, workspacefs.FileURI(r.Dir), "workspace", nonNil(files), partial, offset))
	if err != nil {
		return answer{}, err
	}
	return t.pagedCoreAnswer(out, call, from)
}
